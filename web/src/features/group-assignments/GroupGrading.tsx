import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { Field, FormError, fieldError, Loading } from "../../ui/ui";
import { gradebookKeys, gradebookQuery } from "../gradebook/queries";
import { useGroupSets } from "../group-work/queries";
import { GradeForm, SubmissionTable } from "../submissions/GradingParts";
import { RevisionHistory } from "../submissions/RevisionHistory";
import { SubmissionView } from "../submissions/SubmissionView";
import {
  gradeGroupSubmission,
  groupAssignmentKeys,
  groupHistoryQuery,
  groupSubmissionsQuery,
  overrideGroupMemberScores,
  returnGroupSubmission,
  saveGroupSubmissionFeedback,
  useGroupAssignmentConfig,
} from "./queries";

type Raw =
  paths["/api/v1/group-assignments/{contentId}/submissions"]["get"]["responses"]["200"]["content"]["application/json"]["submissions"][number];
/** As the client hands it over (it drops the null-only `gptCopyRatio`, as for assignments' submissions). */
type GroupSubmission = Omit<Raw, "similarity"> & { similarity: Omit<NonNullable<Raw["similarity"]>, "gptCopyRatio"> | null };

/** Each group's latest submission, and one opened (?sub=) with its history, grade, feedback, member scores and return. */
export function GroupGrading({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const list = useQuery(groupSubmissionsQuery(contentId));
  if (!list.data) return <Loading />;
  const open = list.data.submissions.find((s) => s.id === get("sub"));
  return (
    <div className="split">
      <div>
        <p>{t("groupWork.pending", { n: list.data.pendingCount, missing: list.data.notSubmittedGroupCount })}</p>
        <SubmissionTable
          nameHeader={t("groupWork.group")}
          rows={list.data.submissions.map((s) => ({ ...s, name: s.groupName }))}
          onOpen={(id) => set({ sub: id })}
        />
      </div>
      {open && <GroupPanel key={`${open.id}-${open.status}`} contentId={contentId} spaceId={spaceId} submission={open} />}
    </div>
  );
}

function GroupPanel({ contentId, spaceId, submission }: { contentId: string; spaceId: string; submission: GroupSubmission }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const config = useGroupAssignmentConfig(contentId);
  const history = useQuery(groupHistoryQuery(contentId, submission.groupId));
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: groupAssignmentKeys.submissions(contentId) });
    void qc.invalidateQueries({ queryKey: groupAssignmentKeys.history(contentId, submission.groupId) });
    void qc.invalidateQueries({ queryKey: gradebookKeys.space(spaceId) });
  };
  const path = { contentId, submissionId: submission.id };
  return (
    <section className="panel" aria-labelledby="grade-title">
      <h2 id="grade-title">{submission.groupName}</h2>
      <SubmissionView submission={submission}>
        <dt>{t("groupWork.submittedBy")}</dt>
        <dd>{submission.submitterName}</dd>
      </SubmissionView>
      <RevisionHistory history={history.data ? [history.data.latest, ...history.data.history] : []} />
      <GradeForm
        status={submission.status}
        score={submission.score}
        feedback={submission.feedback}
        maxScore={config.data?.config.maxScore ?? null}
        grade={(body) => gradeGroupSubmission({ params: { path }, body })}
        giveBack={() => returnGroupSubmission({ params: { path } })}
        saveFeedback={(feedback) => saveGroupSubmissionFeedback({ params: { path }, body: { feedback } })}
        onDone={refresh}
        returnLabel={t("groupWork.return")}
      />
      {submission.status !== "SUBMITTED" && (
        <MemberScores contentId={contentId} spaceId={spaceId} submission={submission} setId={config.data?.config.spaceGroupSetId ?? null} />
      )}
    </section>
  );
}

/**
 * A different score for some members of the group (overrideGroupMemberScores). The group's members come from
 * the group set, their profiles and current scores from the gradebook (matched by user ID, else by name).
 */
function MemberScores({
  contentId,
  spaceId,
  submission,
  setId,
}: {
  contentId: string;
  spaceId: string;
  submission: GroupSubmission;
  setId: string | null;
}) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const sets = useGroupSets(spaceId);
  const book = useQuery(gradebookQuery(spaceId, false));
  const [scores, setScores] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (list: { profileId: string; score: number }[]) =>
      overrideGroupMemberScores({
        params: { path: { contentId, submissionId: submission.id } },
        body: { scores: list },
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: gradebookKeys.space(spaceId) }),
  });
  const group = sets.data?.groupSets.find((s) => s.id === setId)?.groups.find((g) => g.id === submission.groupId);
  if (!group || !book.data) return null;
  const column = book.data.columns.findIndex((c) => c.contentId === contentId);
  const people = group.members.flatMap((m) => {
    const row = book.data.rows.find((r) => (m.userId ? r.userId === m.userId : r.displayName === m.displayName));
    return row ? [{ profileId: row.profileId, name: m.displayName, current: row.cells[column]?.score ?? null }] : [];
  });
  // Members left without a number keep the group's score: only the filled-in ones are sent.
  const list = people
    .filter((p) => (scores[p.profileId] ?? "") !== "")
    .map((p) => ({ profileId: p.profileId, score: Number(scores[p.profileId]) }));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(list);
      }}
    >
      <fieldset>
        <legend>{t("groupWork.memberScores")}</legend>
        <p className="muted">{t("groupWork.memberScoresHint", { n: submission.score ?? "—" })}</p>
        {people.map((p) => (
          <Field
            key={p.profileId}
            label={t("groupWork.scoreOf", { name: p.name })}
            type="number"
            min={0}
            placeholder={String(save.data?.members.find((m) => m.profileId === p.profileId)?.effectiveScore ?? p.current ?? "")}
            value={scores[p.profileId] ?? ""}
            onChange={(e) => setScores({ ...scores, [p.profileId]: e.target.value })}
            error={fieldError(save.error, `scores[${list.findIndex((x) => x.profileId === p.profileId)}]`, t)}
          />
        ))}
      </fieldset>
      {save.data && (
        <ul className="list" data-testid="member-scores">
          {save.data.members.map((m) => (
            <li key={m.profileId}>
              {m.displayName}: {m.effectiveScore ?? "—"}
              {m.overrideScore !== null && ` (${t("groupWork.overridden")})`}
            </li>
          ))}
        </ul>
      )}
      <FormError error={save.error} fields={["scores"]} />
      <button type="submit">{t("groupWork.saveMemberScores")}</button>
    </form>
  );
}
