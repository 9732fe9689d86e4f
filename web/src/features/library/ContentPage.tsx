import { useQuery } from "@tanstack/react-query";
import { lazy } from "react";
import { useI18n } from "../../i18n";
import { Link } from "../../ui/Link";
import { Loading } from "../../ui/ui";
import { spacePath } from "../spaces/queries";
import ContentAdmin from "./ContentAdmin";
import { contentQuery } from "./queries";

const QuizManage = lazy(() => import("../quizzes/QuizManage"));
const QuizTake = lazy(() => import("../quizzes/QuizTake"));
const AssignmentManage = lazy(() => import("../assignments/AssignmentManage"));
const AssignmentSubmit = lazy(() => import("../assignments/AssignmentSubmit"));
const SurveyTake = lazy(() => import("../surveys/SurveyTake"));
const MediaContent = lazy(() => import("./MediaContent"));
const SurveyManage = lazy(() => import("../surveys/SurveyManage"));
const PeerManage = lazy(() => import("../peer-assessments/PeerManage"));
const PeerTake = lazy(() => import("../peer-assessments/PeerTake"));
const GroupAssignmentManage = lazy(() => import("../group-assignments/GroupAssignmentManage"));
const GroupAssignmentSubmit = lazy(() => import("../group-assignments/GroupAssignmentSubmit"));

/** One content of a space: its managers get its editor and results, everyone else takes or submits it. */
export default function ContentPage({ spaceId, contentId }: { spaceId: string; contentId: string }) {
  const { t } = useI18n();
  const content = useQuery(contentQuery(contentId));
  if (!content.data) return <Loading />;
  const c = content.data;
  const back = `${spacePath(spaceId)}&tab=classwork`;
  return (
    <section>
      <p>
        <Link to={back}>← {t("spaces.classwork")}</Link>
      </p>
      <h1>{c.title}</h1>
      <p className="muted">{t(`library.types.${c.type}`)}</p>
      {c.canManage && <ContentAdmin content={c} back={back} />}
      {c.description && <p className="pre">{c.description}</p>}
      {c.type === "VIDEO" || c.type === "URL_VIDEO" || c.type === "LIVE" || c.type === "DOCUMENT" ? (
        <MediaContent contentId={contentId} type={c.type} canManage={c.canManage} />
      ) : c.type === "QUIZ" ? (
        c.canManage ? (
          <QuizManage contentId={contentId} spaceId={spaceId} />
        ) : (
          <QuizTake contentId={contentId} />
        )
      ) : c.type === "ASSIGNMENT" ? (
        c.canManage ? (
          <AssignmentManage contentId={contentId} spaceId={spaceId} />
        ) : (
          <AssignmentSubmit contentId={contentId} />
        )
      ) : c.type === "SURVEY" ? (
        c.canManage ? (
          <SurveyManage contentId={contentId} spaceId={spaceId} />
        ) : (
          <SurveyTake contentId={contentId} />
        )
      ) : c.type === "GROUP_PEER_ASSESSMENT" ? (
        c.canManage ? (
          <PeerManage contentId={contentId} spaceId={spaceId} />
        ) : (
          <PeerTake contentId={contentId} />
        )
      ) : c.type === "GROUP_ASSIGNMENT" ? (
        c.canManage ? (
          <GroupAssignmentManage contentId={contentId} spaceId={spaceId} />
        ) : (
          <GroupAssignmentSubmit contentId={contentId} />
        )
      ) : (
        <p>{t("library.noEditorYet")}</p>
      )}
    </section>
  );
}
