import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { getQuizForParticipant, listMyQuizAttempts, saveQuizAnswers, startQuizAttempt, submitQuizAttempt } from "./attempts";
import { getQuizConfig, setQuizConfig } from "./config";
import {
  AnswerParams,
  AttemptDetail,
  AttemptPage,
  AttemptParams,
  AttemptsQuery,
  dropNullLists,
  EmailCountBody,
  EmailCountResult,
  MyQuizAttempt,
  MyQuizAttempts,
  ParticipantView,
  QuizConfig,
  QuizConfigBody,
  QuizOverride,
  QuizOverrideBody,
  QuizOverrideList,
  QuizOverrideParams,
  QuizParams,
  QuizStatistics,
  SaveAnswersBody,
  SaveAnswersResult,
  ScoreAnswerBody,
  SubmitAttemptBody,
} from "./model";
import { deleteQuizOverride, listQuizOverrides, setQuizOverride } from "./overrides";
import { checkQuizEmailCount, getQuizAttempt, getQuizStatistics, listQuizAttempts, scoreQuizAnswer, voidQuizAttempt } from "./results";

const TAG = "quizzes";

/** Quizzes: the manager's config, results and hand scoring, and the participant's attempts. */
export function quizzesModule(rt: Runtime) {
  return new Elysia({ name: "module.quizzes" })
    .use(authPlugin(rt))
    .post("/quizzes/:contentId/email-count", ({ actor, params, body }) => checkQuizEmailCount(actor, params.contentId, body.email), {
      ...route("checkQuizEmailCount", TAG, "contentManager"),
      params: QuizParams,
      body: EmailCountBody,
      response: { 200: EmailCountResult },
    })
    .get("/quizzes/:contentId/overrides", ({ actor, params }) => listQuizOverrides(actor, params.contentId), {
      ...route("listQuizOverrides", TAG, "contentManager", "Lists the quiz's per-student overrides"),
      params: QuizParams,
      response: { 200: QuizOverrideList },
    })
    .put(
      "/quizzes/:contentId/overrides/:profileId",
      ({ actor, params, body }) => setQuizOverride(actor, params.contentId, params.profileId, body),
      {
        ...route("setQuizOverride", TAG, "contentManager", {
          summary: "Sets one participant's own window, time limit or attempts",
          description:
            "Replaces the participant's override; each null (or absent) field keeps the quiz's own value. The participant's view and every check (window, time limit, attempts, automatic submit at closesAt) follow it. The profile must be a participant of the quiz (else 400); closesAt must come after opensAt once the quiz's own values fill the nulls.",
        }),
        params: QuizOverrideParams,
        body: QuizOverrideBody,
        response: { 200: QuizOverride },
      },
    )
    .delete(
      "/quizzes/:contentId/overrides/:profileId",
      ({ actor, params, set }) => {
        deleteQuizOverride(actor, params.contentId, params.profileId);
        set.status = 204;
      },
      {
        ...route("deleteQuizOverride", TAG, "contentManager", "Removes one participant's override (404 when there is none)"),
        params: QuizOverrideParams,
        response: { 204: t.Void() },
      },
    )
    .put("/quizzes/:contentId/config", ({ actor, params, body }) => setQuizConfig(rt, actor, params.contentId, body), {
      transform: ({ body }) => dropNullLists(body),
      ...route("setQuizConfig", TAG, "contentManager"),
      params: QuizParams,
      body: QuizConfigBody,
      response: { 200: QuizConfig },
    })
    .get("/quizzes/:contentId/config", ({ actor, params }) => getQuizConfig(rt, actor, params.contentId), {
      ...route("getQuizConfig", TAG, "contentManager"),
      params: QuizParams,
      response: { 200: QuizConfig },
    })
    .get("/quizzes/:contentId/statistics", ({ actor, params }) => getQuizStatistics(actor, params.contentId), {
      ...route("getQuizStatistics", TAG, "contentManager"),
      params: QuizParams,
      response: { 200: QuizStatistics },
    })
    .get("/quizzes/:contentId/attempts", ({ actor, params, query }) => listQuizAttempts(rt, actor, params.contentId, query), {
      ...route("listQuizAttempts", TAG, "contentManager"),
      params: QuizParams,
      query: AttemptsQuery,
      response: { 200: AttemptPage },
    })
    .get("/quizzes/:contentId/attempts/:attemptId", ({ actor, params }) => getQuizAttempt(actor, params.contentId, params.attemptId), {
      ...route("getQuizAttempt", TAG, "contentManager"),
      params: AttemptParams,
      response: { 200: AttemptDetail },
    })
    .post(
      "/quizzes/:contentId/attempts/:attemptId/void",
      ({ actor, params, set }) => {
        voidQuizAttempt(actor, params.contentId, params.attemptId);
        set.status = 204;
      },
      {
        ...route("voidQuizAttempt", TAG, "contentManager", "Voids a submitted attempt: it stays listed but no longer counts"),
        params: AttemptParams,
        response: { 204: t.Void() },
      },
    )
    .put(
      "/quizzes/:contentId/attempts/:attemptId/answers/:answerId/score",
      ({ actor, params, body }) => scoreQuizAnswer(actor, params.contentId, params.attemptId, params.answerId, body),
      {
        ...route("scoreQuizAnswer", TAG, "contentManager"),
        params: AnswerParams,
        body: ScoreAnswerBody,
        response: { 200: AttemptDetail },
      },
    )
    .get("/quizzes/:contentId/participant-view", ({ actor, params }) => getQuizForParticipant(rt, actor, params.contentId), {
      ...route("getQuizForParticipant", TAG, "contentViewer"),
      params: QuizParams,
      response: { 200: ParticipantView },
    })
    .post(
      "/quizzes/:contentId/my-attempts",
      ({ actor, params, set }) => {
        const { created, view } = startQuizAttempt(rt, actor, params.contentId);
        set.status = created ? 201 : 200;
        return view;
      },
      {
        ...route("startQuizAttempt", TAG, "contentViewer"),
        params: QuizParams,
        response: { 201: ParticipantView, 200: ParticipantView },
      },
    )
    .get("/quizzes/:contentId/my-attempts", ({ actor, params }) => listMyQuizAttempts(actor, params.contentId), {
      ...route("listMyQuizAttempts", TAG, "contentViewer"),
      params: QuizParams,
      response: { 200: MyQuizAttempts },
    })
    .put(
      "/quizzes/:contentId/my-attempts/:attemptId/answers",
      ({ actor, params, body }) => saveQuizAnswers(actor, params.contentId, params.attemptId, body.answers),
      {
        transform: ({ body }) => dropNullLists(body),
        ...route("saveQuizAnswers", TAG, "contentViewer"),
        params: AttemptParams,
        body: SaveAnswersBody,
        response: { 200: SaveAnswersResult },
      },
    )
    .post(
      "/quizzes/:contentId/my-attempts/:attemptId/submit",
      ({ actor, params, body }) => submitQuizAttempt(actor, params.contentId, params.attemptId, body?.answers ?? []),
      {
        transform: ({ body }) => dropNullLists(body),
        ...route("submitQuizAttempt", TAG, "contentViewer"),
        params: AttemptParams,
        body: SubmitAttemptBody,
        response: { 200: MyQuizAttempt },
      },
    );
}
