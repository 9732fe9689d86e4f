import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useI18n } from "../../i18n";
import { formatDate, Loading } from "../../ui/ui";
import { RevisionHistory } from "../submissions/RevisionHistory";
import { SubmissionView } from "../submissions/SubmissionView";
import { SubmitForm } from "../submissions/SubmitForm";
import { groupAssignmentKeys, myGroupSubmissionQuery, submitGroupAssignment } from "./queries";

/** A student's group assignment: my group and who has handed in, our latest submission with its grade, and the form. */
export default function GroupAssignmentSubmit({ contentId }: { contentId: string }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const mine = useQuery(myGroupSubmissionQuery(contentId));
  if (!mine.data) return <Loading />;
  const { config: c, group, latest, history } = mine.data;
  return (
    <div className="stack">
      <dl className="facts">
        <dt>{t("assignment.dueAt")}</dt>
        <dd>{formatDate(c.dueAt, lang)}</dd>
        <dt>{t("assignment.maxScore")}</dt>
        <dd>{c.maxScore ?? "—"}</dd>
        <dt>{t("groupWork.method")}</dt>
        <dd>{t(`groupWork.methods.${c.submissionMethod}`)}</dd>
      </dl>
      {!group ? (
        <p>{t("groupWork.noGroup")}</p>
      ) : (
        <section className="panel">
          <h2>{t("groupWork.myGroup", { name: group.name })}</h2>
          <ul className="list" data-testid="group-members">
            {group.members.map((m) => (
              <li key={m.profileId}>
                {m.displayName} · {m.submitted ? t("groupWork.handedIn") : t("groupWork.notHandedIn")}
              </li>
            ))}
          </ul>
        </section>
      )}
      {latest && (
        <section className="panel">
          <h2>{t("groupWork.ours")}</h2>
          <SubmissionView submission={latest}>
            <dt>{t("groupWork.submittedBy")}</dt>
            <dd>{latest.submitterName}</dd>
          </SubmissionView>
          <RevisionHistory history={[latest, ...history]} />
        </section>
      )}
      {group && (!latest || latest.status === "SUBMITTED") && (
        <SubmitForm
          again={!!latest}
          send={(body, fileIds) => submitGroupAssignment({ params: { path: { contentId } }, body: { body, fileIds } })}
          onDone={() => void qc.invalidateQueries({ queryKey: groupAssignmentKeys.mine(contentId) })}
        />
      )}
    </div>
  );
}
