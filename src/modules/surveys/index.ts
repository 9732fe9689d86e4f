import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { checkSurveyConfigChange, getSurveyConfig, getSurveyForParticipant, setSurveyConfig } from "./config";
import {
  dropNullLists,
  EmailCountBody,
  EmailCountResult,
  MySurveyResponse,
  RespondentPage,
  RespondentsQuery,
  SurveyAnswersBody,
  SurveyChangeCheck,
  SurveyConfig,
  SurveyConfigBody,
  SurveyParams,
  SurveyQuestionParams,
  SurveyResponseResult,
  SurveyStatistics,
  TextAnswerPage,
  TextAnswersQuery,
} from "./model";
import { getMySurveyResponse, saveSurveyResponseDraft, submitSurveyResponse } from "./responses";
import { checkSurveyEmailCount, getSurveyStatistics, listSurveyRespondents, listSurveyTextAnswers } from "./results";

const TAG = "surveys";

/** Surveys: the manager's config, statistics and answer lists, and the respondent's own response. */
export function surveysModule(rt: Runtime) {
  return apiModule("module.surveys")
    .use(authPlugin(rt))
    .post("/surveys/:contentId/email-count", ({ actor, params, body }) => checkSurveyEmailCount(actor, params.contentId, body.email), {
      ...route("checkSurveyEmailCount", TAG, "contentManager", {
        summary: "Count a member's survey responses by e-mail",
        description: "How many submitted responses the member with this e-mail has (0 when there is none).",
      }),
      params: SurveyParams,
      body: EmailCountBody,
      response: { 200: EmailCountResult },
    })
    .put("/surveys/:contentId/config", ({ actor, params, body }) => setSurveyConfig(rt, actor, params.contentId, body), {
      transform: ({ body }) => dropNullLists(body),
      ...route("setSurveyConfig", TAG, "contentManager", {
        summary: "Set a survey",
        description:
          "Full replace of the survey (description, anonymity, resubmission, window) and up to 50 questions; the version goes up. Removing a question or changing its type while responses exist needs `resetResponses: true`, which deletes them.",
        errors: [
          "400 `VALIDATION_FAILED` when a question does not fit its type's rules",
          "409 `IN_USE` when the change would drop answers without `resetResponses`",
        ],
      }),
      params: SurveyParams,
      body: SurveyConfigBody,
      response: { 200: SurveyConfig },
    })
    .get("/surveys/:contentId/config", ({ actor, params }) => getSurveyConfig(rt, actor, params.contentId), {
      ...route("getSurveyConfig", TAG, "contentManager", {
        summary: "Get a survey",
        description: "The survey's settings, version and questions, for managers.",
      }),
      params: SurveyParams,
      response: { 200: SurveyConfig },
    })
    .post("/surveys/:contentId/config/change-check", ({ actor, params, body }) => checkSurveyConfigChange(actor, params.contentId, body), {
      transform: ({ body }) => dropNullLists(body),
      ...route("checkSurveyConfigChange", TAG, "contentManager", {
        summary: "Check a survey change",
        description:
          "Says, without changing anything, whether a `setSurveyConfig` with this body modifies the survey and would need its responses reset.",
      }),
      params: SurveyParams,
      body: SurveyConfigBody,
      response: { 200: SurveyChangeCheck },
    })
    .get("/surveys/:contentId/statistics", ({ actor, params }) => getSurveyStatistics(actor, params.contentId), {
      ...route("getSurveyStatistics", TAG, "contentManager", {
        summary: "Get a survey's statistics",
        description: "Submitted and draft counts, who has not submitted, and per question the option counts or scale distribution.",
      }),
      params: SurveyParams,
      response: { 200: SurveyStatistics },
    })
    .get(
      "/surveys/:contentId/questions/:questionId/text-answers",
      ({ actor, params, query }) => listSurveyTextAnswers(rt, actor, params.contentId, params.questionId, query),
      {
        ...route("listSurveyTextAnswers", TAG, "contentManager", {
          summary: "List a question's text answers",
          description: "Text answers (or the etc. texts of a choice question), a cursor page at a time; no names when anonymous.",
          errors: ["404 `NOT_FOUND` for an unknown question or a SCALE question"],
        }),
        params: SurveyQuestionParams,
        query: TextAnswersQuery,
        response: { 200: TextAnswerPage },
      },
    )
    .get("/surveys/:contentId/respondents", ({ actor, params, query }) => listSurveyRespondents(rt, actor, params.contentId, query), {
      ...route("listSurveyRespondents", TAG, "contentManager", {
        summary: "List a survey's respondents",
        description: "The participants of `spaceId` with whether they submitted, filtered by `status`.",
        errors: ["404 `NOT_FOUND` for a space the caller cannot see"],
      }),
      params: SurveyParams,
      query: RespondentsQuery,
      response: { 200: RespondentPage },
    })
    .get("/surveys/:contentId/participant-view", ({ actor, params }) => getSurveyForParticipant(rt, actor, params.contentId), {
      ...route("getSurveyForParticipant", TAG, "contentViewer", {
        summary: "Get a survey to answer",
        description: "The description, flags, version and questions.",
      }),
      params: SurveyParams,
      response: { 200: SurveyConfig },
    })
    .put(
      "/surveys/:contentId/my-response/draft",
      ({ actor, params, body }) => saveSurveyResponseDraft(actor, params.contentId, body.answers),
      {
        transform: ({ body }) => dropNullLists(body),
        ...route("saveSurveyResponseDraft", TAG, "contentViewer", {
          summary: "Save a survey draft",
          description: "Replaces the caller's draft (required questions are not checked).",
          errors: [
            "400 `VALIDATION_FAILED` for an answer that does not fit its question",
            "409 `INVALID_STATE` once submitted, outside the window, or when the space is inactive",
          ],
        }),
        params: SurveyParams,
        body: SurveyAnswersBody,
        response: { 200: SurveyResponseResult },
      },
    )
    .post(
      "/surveys/:contentId/my-response/submit",
      ({ actor, params, body }) => submitSurveyResponse(actor, params.contentId, body.answers),
      {
        transform: ({ body }) => dropNullLists(body),
        ...route("submitSurveyResponse", TAG, "contentViewer", {
          summary: "Submit a survey response",
          description: "Submits the caller's answers: every required question answered, options of the question, scale values in range.",
          errors: [
            "400 `VALIDATION_FAILED` naming the question that is missing or does not fit",
            "409 `RESUBMIT_NOT_ALLOWED` when already submitted without `allowResubmit`",
            "409 `INVALID_STATE` outside the window or when the space is inactive",
          ],
        }),
        params: SurveyParams,
        body: SurveyAnswersBody,
        response: { 200: SurveyResponseResult },
      },
    )
    .get("/surveys/:contentId/my-response", ({ actor, params }) => getMySurveyResponse(actor, params.contentId), {
      ...route("getMySurveyResponse", TAG, "contentViewer", {
        summary: "Get your survey response",
        description: "The caller's draft or submitted response, null before the first save.",
      }),
      params: SurveyParams,
      response: { 200: MySurveyResponse },
    });
}
