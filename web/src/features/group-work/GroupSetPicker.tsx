import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Select } from "../../ui/ui";
import { useSpaceMembers } from "../spaces/queries";
import { createSpaceGroupSet, groupSetKeys, useGroupSets } from "./queries";

/**
 * The space's group set that a group assignment or a peer assessment works on: one of the existing sets,
 * or a new set made here by putting each participant in a group.
 */
export function GroupSetPicker({
  spaceId,
  value,
  onChange,
}: {
  spaceId: string;
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const { t } = useI18n();
  const sets = useGroupSets(spaceId);
  const [making, setMaking] = useState(false);
  return (
    <div className="stack">
      <div className="inline">
        <Select
          label={t("groupWork.groupSet")}
          value={value ?? ""}
          onChange={(v) => onChange(v || null)}
          options={[
            { value: "", label: t("groupWork.noGroupSet") },
            ...(sets.data?.groupSets ?? []).map((s) => ({
              value: s.id,
              label: `${s.name} (${t("groupWork.groupsN", { n: s.groups.length })})`,
            })),
          ]}
        />
        {!making && (
          <button type="button" onClick={() => setMaking(true)}>
            {t("groupWork.newGroupSet")}
          </button>
        )}
      </div>
      {making && (
        <NewGroupSet
          spaceId={spaceId}
          onDone={(id) => {
            setMaking(false);
            if (id) onChange(id);
          }}
        />
      )}
    </div>
  );
}

function NewGroupSet({ spaceId, onDone }: { spaceId: string; onDone: (id: string | null) => void }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const members = useSpaceMembers(spaceId);
  // every participant is placed into a group: read the member list to its end
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = members;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const participants = members.data?.pages.flatMap((p) => p.members).filter((m) => m.role === "PARTICIPANT") ?? [];
  const [name, setName] = useState("");
  const [groups, setGroups] = useState([t("groupWork.groupN", { n: 1 }), t("groupWork.groupN", { n: 2 })]);
  const [placed, setPlaced] = useState<Record<string, number>>({});
  const create = useMutation({
    mutationFn: () =>
      createSpaceGroupSet({
        params: { path: { spaceId } },
        body: {
          name,
          groups: groups.map((g, i) => ({ name: g, memberIds: participants.filter((p) => placed[p.id] === i).map((p) => p.id) })),
        },
      }),
    onSuccess: (set) => {
      void qc.invalidateQueries({ queryKey: groupSetKeys.space(spaceId) });
      onDone(set.id);
    },
  });
  return (
    <fieldset className="panel">
      <legend>{t("groupWork.newGroupSet")}</legend>
      <Field
        label={t("groupWork.setName")}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fieldError(create.error, "name", t)}
      />
      <div className="inline">
        {groups.map((g, i) => (
          <Field
            // biome-ignore lint/suspicious/noArrayIndexKey: a group is its position here until the set is saved
            key={i}
            label={t("groupWork.groupNameN", { n: i + 1 })}
            value={g}
            onChange={(e) => setGroups(groups.map((x, j) => (j === i ? e.target.value : x)))}
            error={fieldError(create.error, `groups[${i}].name`, t)}
          />
        ))}
        <button type="button" className="small" onClick={() => setGroups([...groups, t("groupWork.groupN", { n: groups.length + 1 })])}>
          {t("groupWork.addGroup")}
        </button>
      </div>
      <table>
        <thead>
          <tr>
            <th>{t("members.name")}</th>
            <th>{t("groupWork.group")}</th>
          </tr>
        </thead>
        <tbody>
          {participants.map((p) => (
            <tr key={p.id}>
              <td>
                {p.displayName} <span className="muted">{p.userId}</span>
              </td>
              <td>
                <select
                  aria-label={t("groupWork.groupOf", { name: `${p.displayName} ${p.userId ?? ""}`.trim() })}
                  value={placed[p.id] ?? ""}
                  onChange={(e) => setPlaced({ ...placed, [p.id]: e.target.value === "" ? -1 : Number(e.target.value) })}
                >
                  <option value="">—</option>
                  {groups.map((g, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: as above
                    <option key={i} value={i}>
                      {g}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FormError error={create.error} fields={["name", "groups"]} />
      {create.error && fieldError(create.error, "groups", t) && <p className="error">{t("groupWork.groupsInvalid")}</p>}
      <div className="inline">
        <button type="button" className="primary" onClick={() => create.mutate()} disabled={create.isPending}>
          {t("groupWork.createGroupSet")}
        </button>
        <button type="button" onClick={() => onDone(null)}>
          {t("groupWork.cancel")}
        </button>
      </div>
    </fieldset>
  );
}
