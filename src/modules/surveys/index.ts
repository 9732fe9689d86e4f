import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
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
  return new Elysia({ name: "module.surveys" })
    .use(authPlugin(rt))
    .post("/surveys/:contentId/email-count", ({ actor, params, body }) => checkSurveyEmailCount(actor, params.contentId, body.email), {
      ...route("checkSurveyEmailCount", TAG, "contentManager"),
      params: SurveyParams,
      body: EmailCountBody,
      response: { 200: EmailCountResult },
    })
    .put("/surveys/:contentId/config", ({ actor, params, body }) => setSurveyConfig(rt, actor, params.contentId, body), {
      transform: ({ body }) => dropNullLists(body),
      ...route("setSurveyConfig", TAG, "contentManager"),
      params: SurveyParams,
      body: SurveyConfigBody,
      response: { 200: SurveyConfig },
    })
    .get("/surveys/:contentId/config", ({ actor, params }) => getSurveyConfig(rt, actor, params.contentId), {
      ...route("getSurveyConfig", TAG, "contentManager"),
      params: SurveyParams,
      response: { 200: SurveyConfig },
    })
    .post("/surveys/:contentId/config/change-check", ({ actor, params, body }) => checkSurveyConfigChange(actor, params.contentId, body), {
      transform: ({ body }) => dropNullLists(body),
      ...route("checkSurveyConfigChange", TAG, "contentManager"),
      params: SurveyParams,
      body: SurveyConfigBody,
      response: { 200: SurveyChangeCheck },
    })
    .get("/surveys/:contentId/statistics", ({ actor, params }) => getSurveyStatistics(actor, params.contentId), {
      ...route("getSurveyStatistics", TAG, "contentManager"),
      params: SurveyParams,
      response: { 200: SurveyStatistics },
    })
    .get(
      "/surveys/:contentId/questions/:questionId/text-answers",
      ({ actor, params, query }) => listSurveyTextAnswers(rt, actor, params.contentId, params.questionId, query),
      {
        ...route("listSurveyTextAnswers", TAG, "contentManager"),
        params: SurveyQuestionParams,
        query: TextAnswersQuery,
        response: { 200: TextAnswerPage },
      },
    )
    .get("/surveys/:contentId/respondents", ({ actor, params, query }) => listSurveyRespondents(rt, actor, params.contentId, query), {
      ...route("listSurveyRespondents", TAG, "contentManager"),
      params: SurveyParams,
      query: RespondentsQuery,
      response: { 200: RespondentPage },
    })
    .get("/surveys/:contentId/participant-view", ({ actor, params }) => getSurveyForParticipant(rt, actor, params.contentId), {
      ...route("getSurveyForParticipant", TAG, "contentViewer"),
      params: SurveyParams,
      response: { 200: SurveyConfig },
    })
    .put(
      "/surveys/:contentId/my-response/draft",
      ({ actor, params, body }) => saveSurveyResponseDraft(actor, params.contentId, body.answers),
      {
        transform: ({ body }) => dropNullLists(body),
        ...route("saveSurveyResponseDraft", TAG, "contentViewer"),
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
        ...route("submitSurveyResponse", TAG, "contentViewer"),
        params: SurveyParams,
        body: SurveyAnswersBody,
        response: { 200: SurveyResponseResult },
      },
    )
    .get("/surveys/:contentId/my-response", ({ actor, params }) => getMySurveyResponse(actor, params.contentId), {
      ...route("getMySurveyResponse", TAG, "contentViewer"),
      params: SurveyParams,
      response: { 200: MySurveyResponse },
    });
}
