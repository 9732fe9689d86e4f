import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { navigate } from "../../ui/router";
import { CheckList, ConfirmButton, Field, FormError, Loading, Modal, MoreButton, Select } from "../../ui/ui";
import { EnrolMany } from "./EnrolMany";
import { EnrolmentHistory } from "./EnrolmentHistory";
import {
  addSpaceMembers,
  blockSpaceUser,
  leaveSpace,
  removeSpaceMember,
  roleOptions,
  type SpaceRole,
  spaceCandidatesQuery,
  spaceKeys,
  transferSpaceOwnership,
  updateSpaceMemberRole,
  useSpace,
  useSpaceMembers,
} from "./queries";
import { SpaceBlocks } from "./SpaceBlocks";
import { SpaceJoinCodes } from "./SpaceJoinCodes";

/** A space's members; its admins add members from the candidates, change roles, remove or block, and can hand the space over. */
export default function SpaceMembers({ spaceId, admin }: { spaceId: string; admin: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const user = useUser();
  const space = useSpace(spaceId);
  const members = useSpaceMembers(spaceId);
  const [blocking, setBlocking] = useState<{ id: string; name: string } | null>(null);
  const refresh = () => {
    for (const queryKey of spaceKeys.membership(spaceId)) void qc.invalidateQueries({ queryKey });
  };
  const path = (userPkId: string) => ({ params: { path: { spaceId, userPkId } } });
  const transfer = useMutation({
    mutationFn: (memberId: string) => transferSpaceOwnership({ params: { path: { spaceId } }, body: { memberId } }),
    onSuccess: refresh,
  });
  const setRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: SpaceRole }) => updateSpaceMemberRole({ ...path(id), body: { role } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => removeSpaceMember(path(id)),
    onSuccess: refresh,
  });
  const leave = useMutation({
    mutationFn: () => leaveSpace({ params: { path: { spaceId } } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: spaceKeys.all });
      void qc.invalidateQueries({ queryKey: spaceKeys.role(spaceId) });
      navigate("/spaces");
    },
  });
  const rows = members.data?.pages.flatMap((p) => p.members) ?? [];
  const me = rows.find((m) => m.id === user.id);
  return (
    <div className="stack">
      {admin && <AddMembers spaceId={spaceId} onAdded={refresh} />}
      {admin && <EnrolMany spaceId={spaceId} onAdded={refresh} />}
      {admin && <SpaceJoinCodes spaceId={spaceId} />}
      <FormError error={transfer.error ?? setRole.error ?? remove.error} fields={[]} />
      {!members.data ? (
        <Loading />
      ) : (
        <DataTable
          label={t("spaces.members")}
          empty={null}
          rows={rows}
          rowKey={(m) => m.id}
          columns={[
            { key: "name", header: t("members.name"), cell: (m) => m.displayName },
            { key: "userId", header: t("members.userId"), cell: (m) => m.userId ?? "—" },
            {
              key: "role",
              header: t("spaces.role"),
              cell: (m) =>
                m.isOwner ? (
                  t("spaces.owner")
                ) : admin ? (
                  <select
                    aria-label={t("spaces.roleOf", { name: m.displayName })}
                    value={m.role}
                    onChange={(e) => setRole.mutate({ id: m.id, role: e.target.value as SpaceRole })}
                  >
                    {roleOptions(t).map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                ) : (
                  t(`spaces.roles.${m.role}`)
                ),
            },
            ...(admin
              ? [
                  {
                    key: "actions",
                    header: t("common.actions"),
                    cell: (m: (typeof rows)[number]) =>
                      !m.isOwner &&
                      m.id !== user.id && (
                        <div className="actions">
                          <ConfirmButton
                            className="small"
                            question={t("spaces.transferConfirm", { name: m.displayName })}
                            onConfirm={() => transfer.mutate(m.id)}
                          >
                            {t("spaces.transfer")}
                          </ConfirmButton>
                          <ConfirmButton
                            className="small"
                            aria-label={t("spaces.removeOf", { name: m.displayName })}
                            question={t("spaces.removeConfirm", { name: m.displayName })}
                            onConfirm={() => remove.mutate(m.id)}
                          >
                            {t("spaces.remove")}
                          </ConfirmButton>
                          <button
                            type="button"
                            className="small danger"
                            aria-label={t("spaces.blockOf", { name: m.displayName })}
                            onClick={() => setBlocking({ id: m.id, name: m.displayName })}
                          >
                            {t("spaces.block")}
                          </button>
                        </div>
                      ),
                  },
                ]
              : []),
          ]}
        />
      )}
      <MoreButton list={members} label={t("spaces.moreMembers")} />
      {admin && <SpaceBlocks spaceId={spaceId} onChange={refresh} />}
      {admin && space.data && <EnrolmentHistory spaceId={spaceId} retained={space.data.retainEnrollmentHistory} />}
      {me && !me.isOwner && (
        <div className="panel">
          <FormError error={leave.error} fields={[]} />
          <ConfirmButton question={t("spaces.leaveConfirm")} onConfirm={() => leave.mutate()}>
            {t("spaces.leave")}
          </ConfirmButton>
        </div>
      )}
      {blocking && (
        <BlockDialog
          spaceId={spaceId}
          member={blocking}
          onClose={() => setBlocking(null)}
          onBlocked={() => {
            setBlocking(null);
            refresh();
          }}
        />
      )}
    </div>
  );
}

/** Blocking removes the member from the space and keeps them out (blockSpaceUser), with an optional reason. */
function BlockDialog(props: { spaceId: string; member: { id: string; name: string }; onClose: () => void; onBlocked: () => void }) {
  const { t } = useI18n();
  const [reason, setReason] = useState("");
  const block = useMutation({
    mutationFn: () =>
      blockSpaceUser({
        params: { path: { spaceId: props.spaceId } },
        body: { userId: props.member.id, reason: reason.trim() || null },
      }),
    onSuccess: props.onBlocked,
  });
  return (
    <Modal open onOpenChange={(o) => !o && props.onClose()} title={t("spaces.blockTitle", { name: props.member.name })}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          block.mutate();
        }}
      >
        <p>{t("spaces.blockHelp")}</p>
        <Field label={t("spaces.blockReason")} value={reason} onChange={(e) => setReason(e.target.value)} />
        <FormError error={block.error} fields={[]} />
        <div>
          <button type="submit" className="danger" disabled={block.isPending}>
            {t("spaces.block")}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function AddMembers({ spaceId, onAdded }: { spaceId: string; onAdded: () => void }) {
  const { t } = useI18n();
  const [keyword, setKeyword] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [role, setRole] = useState<SpaceRole>("PARTICIPANT");
  const candidates = useQuery(spaceCandidatesQuery(spaceId, keyword));
  const add = useMutation({
    mutationFn: () => addSpaceMembers({ params: { path: { spaceId } }, body: { userIds: picked, role } }),
    onSuccess: () => {
      setPicked([]);
      onAdded();
    },
  });
  return (
    <div className="panel">
      <h2>{t("spaces.addMembers")}</h2>
      <Field label={t("members.search")} value={keyword} onChange={(e) => setKeyword(e.target.value)} />
      <CheckList
        className="list candidates"
        items={(candidates.data?.candidates ?? []).map((c) => ({
          id: c.id,
          label: (
            <>
              {c.displayName} {c.userId && <span className="muted">({c.userId})</span>}
            </>
          ),
        }))}
        picked={picked}
        onChange={setPicked}
      />
      {candidates.data?.candidates.length === 0 && <p>{t("common.empty")}</p>}
      <Select label={t("spaces.addAs")} value={role} onChange={(v) => setRole(v as SpaceRole)} options={roleOptions(t)} />
      <FormError error={add.error} fields={[]} />
      <button type="button" className="primary" disabled={picked.length === 0} onClick={() => add.mutate()}>
        {t("spaces.addPicked", { count: picked.length })}
      </button>
    </div>
  );
}
