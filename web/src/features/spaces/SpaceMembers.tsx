import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Field, FormError, Loading } from "../../shell/ui";
import { useSpaceMembers } from "./queries";
import { SpaceJoinCodes } from "./SpaceJoinCodes";

/** A space's members; its admins add members from the candidates and can hand the space over. */
export default function SpaceMembers({ spaceId, admin }: { spaceId: string; admin: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const members = useSpaceMembers(spaceId);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["space-members", spaceId] });
    void qc.invalidateQueries({ queryKey: ["space-candidates", spaceId] });
  };
  const transfer = useMutation({
    mutationFn: (memberId: string) => ok(api.POST("/api/v1/spaces/{spaceId}/owner", { params: { path: { spaceId } }, body: { memberId } })),
    onSuccess: refresh,
  });
  return (
    <div className="stack">
      {admin && <AddMembers spaceId={spaceId} onAdded={refresh} />}
      {admin && <SpaceJoinCodes spaceId={spaceId} />}
      <FormError error={transfer.error} fields={[]} />
      {!members.data ? (
        <Loading />
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t("members.name")}</th>
              <th>{t("members.userId")}</th>
              <th>{t("spaces.role")}</th>
              {admin && <th>{t("common.actions")}</th>}
            </tr>
          </thead>
          <tbody>
            {members.data.members.map((m) => (
              <tr key={m.id}>
                <td>{m.displayName}</td>
                <td>{m.userId ?? "—"}</td>
                <td>{m.isOwner ? t("spaces.owner") : t(`spaces.roles.${m.role}`)}</td>
                {admin && (
                  <td>
                    {!m.isOwner && (
                      <button
                        type="button"
                        className="small"
                        onClick={() => {
                          if (window.confirm(t("spaces.transferConfirm", { name: m.displayName }))) transfer.mutate(m.id);
                        }}
                      >
                        {t("spaces.transfer")}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function AddMembers({ spaceId, onAdded }: { spaceId: string; onAdded: () => void }) {
  const { t } = useI18n();
  const [keyword, setKeyword] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const candidates = useQuery({
    queryKey: ["space-candidates", spaceId, keyword],
    queryFn: () =>
      ok(
        api.GET("/api/v1/spaces/{spaceId}/member-candidates", {
          params: { path: { spaceId }, query: { keyword: keyword || undefined, limit: 20 } },
        }),
      ),
  });
  const add = useMutation({
    mutationFn: () =>
      ok(api.POST("/api/v1/spaces/{spaceId}/members", { params: { path: { spaceId } }, body: { userIds: picked, role: "PARTICIPANT" } })),
    onSuccess: () => {
      setPicked([]);
      onAdded();
    },
  });
  return (
    <div className="panel">
      <h2>{t("spaces.addMembers")}</h2>
      <Field label={t("members.search")} value={keyword} onChange={(e) => setKeyword(e.target.value)} />
      <ul className="list candidates">
        {candidates.data?.candidates.map((c) => (
          <li key={c.id}>
            <label className="check">
              <input
                type="checkbox"
                checked={picked.includes(c.id)}
                onChange={(e) => setPicked(e.target.checked ? [...picked, c.id] : picked.filter((x) => x !== c.id))}
              />
              {c.displayName} {c.userId && <span className="muted">({c.userId})</span>}
            </label>
          </li>
        ))}
      </ul>
      {candidates.data?.candidates.length === 0 && <p>{t("common.empty")}</p>}
      <FormError error={add.error} fields={[]} />
      <button type="button" className="primary" disabled={picked.length === 0} onClick={() => add.mutate()}>
        {t("spaces.addPicked", { count: picked.length })}
      </button>
    </div>
  );
}
