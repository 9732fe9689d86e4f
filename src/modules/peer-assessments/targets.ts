// Who assesses whom (docs/rules/group-work.md#peer-targets): GROUP_MEMBER targets are the members of the
// assessor's group (targetId = profileId), INTER_GROUP targets the groups of the set (targetId =
// group id); allowSelfAssessment adds the assessor (own group).
import type { Db } from "../../platform/db/types";
import { type GroupPerson, groupPeople, type SetGroup, setGroups } from "../group-assignments/link";
import type { StoredPeerConfig } from "./config";

export type Target = { targetId: string; targetName: string; groupId: string; groupName: string };
export type Roster = { groups: SetGroup[]; people: GroupPerson[] };

/** The groups and members of the linked set, in two queries. */
export function rosterOf(db: Db, setId: string): Roster {
  return { groups: setGroups(db, setId), people: groupPeople(db, { setId }) };
}

/** Every target of the set, in set order. */
export function allTargets(cfg: StoredPeerConfig, roster: Roster): Target[] {
  if (cfg.submitType === "INTER_GROUP")
    return roster.groups.map((g) => ({ targetId: g.id, targetName: g.name, groupId: g.id, groupName: g.name }));
  return roster.groups.flatMap((g) =>
    roster.people
      .filter((p) => p.groupId === g.id)
      .map((p) => ({ targetId: p.profileId, targetName: p.displayName, groupId: g.id, groupName: g.name })),
  );
}

/** The targets of one assessor (a current member of the set). */
export function targetsOf(cfg: StoredPeerConfig, all: Target[], assessor: GroupPerson): Target[] {
  if (cfg.submitType === "INTER_GROUP") return all.filter((t) => cfg.allowSelfAssessment || t.groupId !== assessor.groupId);
  return all.filter((t) => t.groupId === assessor.groupId && (cfg.allowSelfAssessment || t.targetId !== assessor.profileId));
}
