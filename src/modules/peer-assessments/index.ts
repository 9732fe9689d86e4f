import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
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
  return new Elysia({ name: "module.peer-assessments" })
    .use(authPlugin(rt))
    .put("/peer-assessments/:contentId/config", ({ actor, params, body }) => setPeerAssessmentConfig(actor, params.contentId, body), {
      ...route("setPeerAssessmentConfig", TAG, "contentManager"),
      params: PeerParams,
      body: PeerConfigBody,
      response: { 200: PeerConfigResult },
    })
    .get("/peer-assessments/:contentId/config", ({ actor, params }) => getPeerAssessmentConfig(actor, params.contentId), {
      ...route("getPeerAssessmentConfig", TAG, "contentManager"),
      params: PeerParams,
      response: { 200: PeerConfigResult },
    })
    .get("/peer-assessments/:contentId/results", ({ actor, params }) => getPeerAssessmentResults(actor, params.contentId), {
      ...route("getPeerAssessmentResults", TAG, "contentManager"),
      params: PeerParams,
      response: { 200: PeerResults },
    })
    .get("/peer-assessments/:contentId/my-targets", ({ actor, params }) => listMyPeerTargets(actor, params.contentId), {
      ...route("listMyPeerTargets", TAG, "contentViewer"),
      params: PeerParams,
      response: { 200: MyPeerTargets },
    })
    .put(
      "/peer-assessments/:contentId/my-targets/:targetId",
      ({ actor, params, body }) => submitPeerAssessment(actor, params.contentId, params.targetId, body.answers),
      {
        ...route("submitPeerAssessment", TAG, "contentViewer"),
        params: PeerTargetParams,
        body: PeerAnswersBody,
        response: { 200: PeerAssessmentResult },
      },
    );
}
