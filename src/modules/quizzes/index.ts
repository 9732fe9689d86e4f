import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { saveQuizAnswers, submitQuizAttempt } from "./answers";
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
import { listMyQuizAttempts } from "./my-attempts";
import { deleteQuizOverride, listQuizOverrides, setQuizOverride } from "./overrides";
import { getQuizForParticipant, startQuizAttempt } from "./participant-view";
import { checkQuizEmailCount, getQuizAttempt, getQuizStatistics, listQuizAttempts, scoreQuizAnswer, voidQuizAttempt } from "./results";

const TAG = "quizzes";

/** Quizzes: the manager's config, results and hand scoring, and the participant's attempts. */
export function quizzesModule(rt: Runtime) {
  return apiModule("module.quizzes")
    .use(authPlugin(rt))
    .post("/quizzes/:contentId/email-count", ({ actor, params, body }) => checkQuizEmailCount(actor, params.contentId, body.email), {
      ...route("checkQuizEmailCount", TAG, "contentManager", {
        summary: "Count a member's quiz attempts by e-mail",
        description: "How many submitted attempts the member with this e-mail has (0 when there is none).",
      }),
      params: QuizParams,
      body: EmailCountBody,
      response: { 200: EmailCountResult },
    })
    .get("/quizzes/:contentId/overrides", ({ actor, params }) => listQuizOverrides(actor, params.contentId), {
      ...route("listQuizOverrides", TAG, "contentManager", {
        summary: "List a quiz's per-student overrides",
        description: "Every participant's own window, time limit and attempt count set with setQuizOverride.",
      }),
      params: QuizParams,
      response: { 200: QuizOverrideList },
    })
    .put(
      "/quizzes/:contentId/overrides/:profileId",
      ({ actor, params, body }) => setQuizOverride(actor, params.contentId, params.profileId, body),
      {
        ...route("setQuizOverride", TAG, "contentManager", {
          summary: "Set a participant's quiz override",
          description:
            "Replaces one participant's own `opensAt`, `closesAt`, `timeLimitMinutes` and `maxAttempts`; each null (or absent) field keeps the quiz's own value. The participant's view and every check (window, time limit, attempts, the automatic submit at `closesAt`) follow it; nobody else is affected.",
          errors: [
            "400 `VALIDATION_FAILED` when the profile is not a participant of the quiz, or `closesAt` is not after `opensAt` (the quiz's own values filling the nulls)",
          ],
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
        ...route("deleteQuizOverride", TAG, "contentManager", {
          summary: "Delete a participant's quiz override",
          description: "The participant goes back to the quiz's own window, time limit and attempts.",
          errors: ["404 `NOT_FOUND` when the participant has no override"],
        }),
        params: QuizOverrideParams,
        response: { 204: t.Void() },
      },
    )
    .put("/quizzes/:contentId/config", ({ actor, params, body }) => setQuizConfig(rt, actor, params.contentId, body), {
      transform: ({ body }) => dropNullLists(body),
      ...route("setQuizConfig", TAG, "contentManager", {
        summary: "Set a quiz",
        description:
          "Full replace of the quiz settings (pass score, attempts, time limit, shuffling, result exposure, score aggregation, window) and up to 60 questions (SINGLE, MULTIPLE, SHORT_ANSWER, ESSAY); items without an id are new.",
        errors: ["400 `VALIDATION_FAILED` when a question does not fit its type's rules or `closesAt` is not after `opensAt`"],
      }),
      params: QuizParams,
      body: QuizConfigBody,
      response: { 200: QuizConfig },
    })
    .get("/quizzes/:contentId/config", ({ actor, params }) => getQuizConfig(rt, actor, params.contentId), {
      ...route("getQuizConfig", TAG, "contentManager", {
        summary: "Get a quiz",
        description: "The settings and questions with their answers, for managers.",
      }),
      params: QuizParams,
      response: { 200: QuizConfig },
    })
    .get("/quizzes/:contentId/statistics", ({ actor, params }) => getQuizStatistics(actor, params.contentId), {
      ...route("getQuizStatistics", TAG, "contentManager", {
        summary: "Get a quiz's statistics",
        description:
          "Submitted and graded counts, average, pass rate, who has not submitted, and per question the correct rate and option counts.",
      }),
      params: QuizParams,
      response: { 200: QuizStatistics },
    })
    .get("/quizzes/:contentId/attempts", ({ actor, params, query }) => listQuizAttempts(rt, actor, params.contentId, query), {
      ...route("listQuizAttempts", TAG, "contentManager", {
        summary: "List a quiz's attempts",
        description: "Every submitted attempt (voided ones marked), a cursor page at a time.",
      }),
      params: QuizParams,
      query: AttemptsQuery,
      response: { 200: AttemptPage },
    })
    .get("/quizzes/:contentId/attempts/:attemptId", ({ actor, params }) => getQuizAttempt(actor, params.contentId, params.attemptId), {
      ...route("getQuizAttempt", TAG, "contentManager", {
        summary: "Get a quiz attempt",
        description: "One attempt with each answer, its scoring and feedback.",
        errors: ["404 `NOT_FOUND` for an unknown attempt"],
      }),
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
        ...route("voidQuizAttempt", TAG, "contentManager", {
          summary: "Void a quiz attempt",
          description: "The attempt stays listed (`voidedAt`) but no longer counts toward `maxAttempts`, the final score or statistics.",
          errors: ["404 `NOT_FOUND` for an unknown attempt", "409 `INVALID_STATE` when it is not submitted or already void"],
        }),
        params: AttemptParams,
        response: { 204: t.Void() },
      },
    )
    .put(
      "/quizzes/:contentId/attempts/:attemptId/answers/:answerId/score",
      ({ actor, params, body }) => scoreQuizAnswer(actor, params.contentId, params.attemptId, params.answerId, body),
      {
        ...route("scoreQuizAnswer", TAG, "contentManager", {
          summary: "Score an essay answer",
          description: "Sets the points (and feedback) of one answer; the attempt's score and pending state follow.",
          errors: [
            "400 `VALIDATION_FAILED` when `pointsAwarded` is above the question's point",
            "404 `NOT_FOUND` for an unknown attempt or answer",
            "409 `INVALID_STATE` when the attempt is not submitted or the answer is not an answered ESSAY",
          ],
        }),
        params: AnswerParams,
        body: ScoreAnswerBody,
        response: { 200: AttemptDetail },
      },
    )
    .get("/quizzes/:contentId/participant-view", ({ actor, params }) => getQuizForParticipant(rt, actor, params.contentId), {
      ...route("getQuizForParticipant", TAG, "contentViewer", {
        summary: "Get a quiz to take",
        description:
          "Settings, attempts used and the attempt in progress with its questions (without answers), shuffled per attempt when set.",
      }),
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
        ...route("startQuizAttempt", TAG, "contentViewer", {
          summary: "Start a quiz attempt",
          description: "Starts an attempt (201), or answers the one in progress (200). `expiresAt` follows the time limit.",
          errors: [
            "409 `ATTEMPT_LIMIT` when `maxAttempts` is reached",
            "409 `INVALID_STATE` when the quiz has no questions, is outside its window, or the space is inactive",
          ],
        }),
        params: QuizParams,
        response: { 201: ParticipantView, 200: ParticipantView },
      },
    )
    .get("/quizzes/:contentId/my-attempts", ({ actor, params }) => listMyQuizAttempts(actor, params.contentId), {
      ...route("listMyQuizAttempts", TAG, "contentViewer", {
        summary: "List your quiz attempts",
        description: "The caller's attempts, newest first, and the final score, shown as far as `resultExposeLevel` allows.",
      }),
      params: QuizParams,
      response: { 200: MyQuizAttempts },
    })
    .put(
      "/quizzes/:contentId/my-attempts/:attemptId/answers",
      ({ actor, params, body }) => saveQuizAnswers(actor, params.contentId, params.attemptId, body.answers),
      {
        transform: ({ body }) => dropNullLists(body),
        ...route("saveQuizAnswers", TAG, "contentViewer", {
          summary: "Save quiz answers",
          description: "Upserts the caller's answers in an attempt in progress, so a reload keeps them.",
          errors: [
            "400 `VALIDATION_FAILED` for an unknown question or option",
            "404 `NOT_FOUND` for an unknown attempt of the caller",
            "409 `INVALID_STATE` after `expiresAt`, once submitted, or outside the window",
          ],
        }),
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
        ...route("submitQuizAttempt", TAG, "contentViewer", {
          summary: "Submit a quiz attempt",
          description:
            "Saves the final answers (optional) and scores the attempt; an essay leaves `hasPendingManual` until scored by hand. Accepted up to 30 s after `expiresAt`.",
          errors: [
            "400 `VALIDATION_FAILED` for an unknown question or option",
            "404 `NOT_FOUND` for an unknown attempt of the caller",
            "409 `INVALID_STATE` when already submitted, more than 30 s after `expiresAt`, or when the space is inactive",
          ],
        }),
        params: AttemptParams,
        body: SubmitAttemptBody,
        response: { 200: MyQuizAttempt },
      },
    );
}
