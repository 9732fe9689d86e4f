import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { can, useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { FormError, Select } from "../../ui/ui";
import { groupCalls, pickableGroupsQuery } from "../groups/queries";
import { addSpaceMembers, spaceCandidatesQuery } from "./queries";

const BATCH = 500; // addSpaceMembers takes at most 500 ids a call

/** Enrols ids as PARTICIPANTs, 500 a call (those already enrolled stay as they are). */
async function enrol(spaceId: string, ids: string[]) {
  for (let i = 0; i < ids.length; i += BATCH)
    await addSpaceMembers({ params: { path: { spaceId } }, body: { userIds: ids.slice(i, i + BATCH) } });
  return ids.length;
}

/** The tokens of a pasted list: one per line, comma, semicolon or tab (a column copied from a spreadsheet). */
const tokens = (text: string) => [
  ...new Set(
    text
      .split(/[\n,;\t]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/**
 * Enrolling a whole class at once: every member of a group in one step, or a pasted list of user IDs
 * or names matched against the space's candidates (listSpaceMemberCandidates), the unmatched named.
 */
export function EnrolMany({ spaceId, onAdded }: { spaceId: string; onAdded: () => void }) {
  const { t } = useI18n();
  const user = useUser();
  const listId = useId();
  const [groupId, setGroupId] = useState("");
  const [text, setText] = useState("");
  const qc = useQueryClient();
  const groups = useQuery({ ...pickableGroupsQuery(), enabled: can(user, "member:read") });
  const byGroup = useMutation({
    mutationFn: async () => {
      const group = await groupCalls.get("grant", groupId);
      return {
        name: group.name,
        count: await enrol(
          spaceId,
          group.members.map((m) => m.id),
        ),
      };
    },
    onSuccess: onAdded,
  });
  const byList = useMutation({
    mutationFn: async () => {
      const wanted = tokens(text);
      const found = await Promise.all(
        wanted.map(async (token) => {
          const r = await qc.fetchQuery(spaceCandidatesQuery(spaceId, token));
          const key = token.toLowerCase();
          const byId = r.candidates.find((c) => c.userId?.toLowerCase() === key);
          const byName = r.candidates.filter((c) => c.displayName.toLowerCase() === key);
          return byId ?? (byName.length === 1 ? byName[0] : undefined);
        }),
      );
      const ids = found.flatMap((c) => (c ? [c.id] : []));
      if (ids.length) await enrol(spaceId, [...new Set(ids)]);
      return { added: ids.length, missing: wanted.filter((_, i) => !found[i]) };
    },
    onSuccess: (r) => {
      setText(r.missing.join("\n"));
      onAdded();
    },
  });
  return (
    <div className="panel stack">
      <h2>{t("enrol.title")}</h2>
      {groups.data && groups.data.groups.length > 0 && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            byGroup.mutate();
          }}
        >
          <Select
            label={t("enrol.group")}
            value={groupId}
            onChange={setGroupId}
            options={[
              { value: "", label: t("enrol.pickGroup") },
              ...groups.data.groups.map((g) => ({ value: g.id, label: t("enrol.groupOption", { name: g.name, count: g.memberCount }) })),
            ]}
          />
          <button type="submit" disabled={!groupId || byGroup.isPending}>
            {t("enrol.enrolGroup")}
          </button>
          {byGroup.data && <span role="status">{t("enrol.groupDone", { name: byGroup.data.name, count: byGroup.data.count })}</span>}
          <FormError error={byGroup.error} fields={[]} />
        </form>
      )}
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          byList.mutate();
        }}
      >
        <div className="field">
          <label htmlFor={listId}>{t("enrol.list")}</label>
          <textarea id={listId} rows={4} value={text} onChange={(e) => setText(e.target.value)} aria-describedby={`${listId}-h`} />
          <small id={`${listId}-h`}>{t("enrol.listHint")}</small>
        </div>
        {byList.data && (
          <p role="status">
            {t("enrol.listDone", { added: byList.data.added })}
            {byList.data.missing.length > 0 && ` ${t("enrol.listMissing", { names: byList.data.missing.join(", ") })}`}
          </p>
        )}
        <FormError error={byList.error} fields={[]} />
        <div>
          <button type="submit" disabled={tokens(text).length === 0 || byList.isPending}>
            {t("enrol.enrolList")}
          </button>
        </div>
      </form>
    </div>
  );
}
