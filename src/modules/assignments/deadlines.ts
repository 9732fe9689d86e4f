// A participant's own deadline (docs/rules/next-year.md#extensions): what config, submit and extensions read.
import type { Db } from "../../platform/db/types";
import { deadlineFor, type ExtensionStore } from "../submissions/extensions";
import { assignmentExtensions as x } from "./tables";

export const ASSIGNMENT_EXTENSIONS: ExtensionStore = {
  table: x,
  contentId: x.contentId,
  owner: x.profileId,
  ownerKey: "profileId",
  dueAt: x.dueAt,
};

/** The deadline of one participant: their extension, else the config's dueAt. */
export function dueAtFor(db: Db, contentId: string, profileId: string, configDueAt: number | null): number | null {
  return deadlineFor(db, ASSIGNMENT_EXTENSIONS, contentId, profileId, configDueAt);
}
