import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { getPeerAssessmentConfig, setPeerAssessmentConfig } from "./config";
import {
  MyPeerTargets,
  PeerAnswersBody,
  PeerAssessmentResult,
  PeerConfigBody,
  PeerConfigResult,
  PeerParams,
  PeerResults,
  PeerTargetParams,
} from "./model";
import { listMyPeerTargets, submitPeerAssessment } from "./participant";
import { getPeerAssessmentResults } from "./results";

const TAG = "peer-assessments";

/** Peer assessments: the manager's config and results, and a group member's assessments of their targets. */
export function peerAssessmentsModule(rt: Runtime) {
  return apiModule("module.peer-assessments")
    .use(authPlugin(rt))
    .put("/peer-assessments/:contentId/config", ({ actor, params, body }) => setPeerAssessmentConfig(actor, params.contentId, body), {
      ...route("setPeerAssessmentConfig", TAG, "contentManager", {
        summary: "Set a peer assessment's rules",
        description:
          "Full replace: linked group set, descriptive and self assessment, `submitType` (GROUP_MEMBER or INTER_GROUP) and 1..20 questions (scored 0..5).",
        errors: [
          "400 `VALIDATION_FAILED` when `spaceGroupSetId` names no set of a space the caller administers",
          "409 `INVALID_STATE` when changing the group set or submit type after members have assessed",
        ],
      }),
      params: PeerParams,
      body: PeerConfigBody,
      response: { 200: PeerConfigResult },
    })
    .get("/peer-assessments/:contentId/config", ({ actor, params }) => getPeerAssessmentConfig(actor, params.contentId), {
      ...route("getPeerAssessmentConfig", TAG, "contentManager", {
        summary: "Get a peer assessment's rules",
        description: "The rules, questions, link validity and how many have submitted.",
      }),
      params: PeerParams,
      response: { 200: PeerConfigResult },
    })
    .get("/peer-assessments/:contentId/results", ({ actor, params }) => getPeerAssessmentResults(actor, params.contentId), {
      ...route("getPeerAssessmentResults", TAG, "contentManager", {
        summary: "Get peer assessment results",
        description:
          "Per target: how many assessed it, the average per question and overall (0..5), and comments; with the expected and actual submitter counts.",
      }),
      params: PeerParams,
      response: { 200: PeerResults },
    })
    .get("/peer-assessments/:contentId/my-targets", ({ actor, params }) => listMyPeerTargets(actor, params.contentId), {
      ...route("listMyPeerTargets", TAG, "contentViewer", {
        summary: "List whom you assess",
        description:
          "The caller's targets (group members, or other groups for INTER_GROUP; the caller too with self assessment), the questions, and which are done.",
        errors: ["403 `FORBIDDEN` when the caller is in no group of the set", "409 `INVALID_STATE` when the group-set link is invalid"],
      }),
      params: PeerParams,
      response: { 200: MyPeerTargets },
    })
    .put(
      "/peer-assessments/:contentId/my-targets/:targetId",
      ({ actor, params, body }) => submitPeerAssessment(actor, params.contentId, params.targetId, body.answers),
      {
        ...route("submitPeerAssessment", TAG, "contentViewer", {
          summary: "Assess a target",
          description:
            "Stores (or replaces) the caller's answers for one target: a score 0..5 per question, and comments when descriptive assessment is on.",
          errors: [
            "400 `VALIDATION_FAILED` for a missing or unknown question, or a comment while descriptive assessment is off",
            "403 `FORBIDDEN` when the caller is in no group of the set",
            "404 `NOT_FOUND` when `targetId` is not one of the caller's targets",
            "409 `INVALID_STATE` when the group-set link is invalid or the space is inactive",
          ],
        }),
        params: PeerTargetParams,
        body: PeerAnswersBody,
        response: { 200: PeerAssessmentResult },
      },
    );
}
