import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { CheckList, Field, FormError, formatDate, Loading, MoreButton } from "../../ui/ui";
import { addChallengeMembersFromCandidates, challengeCandidatesQuery, challengeMembersQuery, memberProgressQuery } from "./queries";

/** The challenge's members with their progress, one member's tasks (getChallengeMemberProgress), and adding members from the candidates. */
export function ChallengeMembers({ spaceId, challengeId, onChange }: { spaceId: string; challengeId: string; onChange: () => void }) {
  const { t } = useI18n();
  const [picked, setPicked] = useState<string | null>(null);
  const members = useInfiniteQuery(challengeMembersQuery(spaceId, challengeId));
  const rows = members.data?.pages.flatMap((p) => p.members) ?? [];
  return (
    <>
      <AddFromCandidates spaceId={spaceId} challengeId={challengeId} onAdded={onChange} />
      <section className="panel">
        <h2>{t("challenges.members")}</h2>
        {!members.data ? (
          <Loading />
        ) : rows.length === 0 ? (
          <p>{t("common.empty")}</p>
        ) : (
          <DataTable
            label={t("challenges.members")}
            rows={rows}
            rowKey={(m) => m.userId}
            columns={[
              {
                key: "name",
                header: t("members.name"),
                cell: (m) => (
                  <button type="button" className="link" aria-pressed={picked === m.userId} onClick={() => setPicked(m.userId)}>
                    {m.displayName}
                  </button>
                ),
              },
              {
                key: "progress",
                header: t("challenges.progress"),
                cell: (m) => (
                  <div className="progress-cell">
                    <progress max={100} value={m.progress} aria-label={t("challenges.progressOf", { name: m.displayName })} />{" "}
                    <span data-testid="member-progress">{Math.round(m.progress)}%</span>
                  </div>
                ),
              },
            ]}
          />
        )}
        <MoreButton list={members} label={t("challenges.moreMembers")} />
      </section>
      {picked && <MemberProgress spaceId={spaceId} challengeId={challengeId} memberId={picked} />}
    </>
  );
}

function MemberProgress({ spaceId, challengeId, memberId }: { spaceId: string; challengeId: string; memberId: string }) {
  const { t, lang } = useI18n();
  const progress = useQuery(memberProgressQuery(spaceId, challengeId, memberId));
  if (!progress.data) return <Loading />;
  const p = progress.data;
  return (
    <section className="panel" aria-labelledby="member-progress-title">
      <h2 id="member-progress-title">{t("challenges.progressTitle", { name: p.displayName })}</h2>
      <p data-testid="member-progress-summary">
        {t("challenges.doneOf", { done: p.doneTaskCount, total: p.totalTaskCount, n: Math.round(p.progress) })}
      </p>
      <ul className="list">
        {p.tasks.map((task) => (
          <li key={task.id}>
            <span className={task.done ? "badge" : "badge late"}>{task.done ? t("challenges.done") : t("challenges.notDone")}</span>{" "}
            {task.title} <small className="muted">{task.done && formatDate(task.completedAt, lang)}</small>
          </li>
        ))}
      </ul>
    </section>
  );
}

function AddFromCandidates({ spaceId, challengeId, onAdded }: { spaceId: string; challengeId: string; onAdded: () => void }) {
  const { t } = useI18n();
  const [keyword, setKeyword] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const path = { spaceId, challengeId };
  const candidates = useQuery(challengeCandidatesQuery(spaceId, challengeId, keyword));
  const add = useMutation({
    mutationFn: () =>
      addChallengeMembersFromCandidates({
        params: { path },
        body: { userIds: picked },
      }),
    onSuccess: () => {
      setPicked([]);
      onAdded();
    },
  });
  return (
    <section className="panel">
      <h2>{t("challenges.addMembers")}</h2>
      <Field label={t("challenges.searchCandidates")} type="search" value={keyword} onChange={(e) => setKeyword(e.target.value)} />
      <CheckList
        className="list candidates"
        items={(candidates.data?.candidates ?? []).map((c) => ({ id: c.userId, label: c.displayName }))}
        picked={picked}
        onChange={setPicked}
      />
      {candidates.data?.candidates.length === 0 && <p>{t("common.empty")}</p>}
      <FormError error={add.error} fields={[]} />
      <button type="button" className="primary" disabled={picked.length === 0 || add.isPending} onClick={() => add.mutate()}>
        {t("challenges.addPicked", { count: picked.length })}
      </button>
    </section>
  );
}
