import { type AnyElysia, Elysia } from "elysia";
import pkg from "../package.json" with { type: "json" };
import type { Config } from "./config";
import { assignmentsModule } from "./modules/assignments";
import { submissionFileIds } from "./modules/assignments/file-references";
import { assignmentDueSource } from "./modules/assignments/notify";
import { authModule } from "./modules/auth";
import { challengesModule } from "./modules/challenges";
import { challengeFileIds } from "./modules/challenges/file-references";
import { CHALLENGE_JOB, runChallengeReminders } from "./modules/challenges/notify";
import { consoleModule } from "./modules/console";
import { copiesModule } from "./modules/copies";
import { fieldsModule } from "./modules/fields";
import { filesModule } from "./modules/files";
import { registerFileReferences } from "./modules/files/references";
import { gradebookModule } from "./modules/gradebook";
import { grantsModule } from "./modules/grants";
import { groupAssignmentsModule } from "./modules/group-assignments";
import { groupSubmissionFileIds } from "./modules/group-assignments/file-references";
import { groupAssignmentDueSource } from "./modules/group-assignments/notify";
import { groupsModule } from "./modules/groups";
import { guardiansModule } from "./modules/guardians";
import { healthModule } from "./modules/health";
import { hostedPagesModule } from "./modules/hosted-pages";
import { invitationsModule } from "./modules/invitations";
import { joinCodesModule } from "./modules/join-codes";
import { libraryModule } from "./modules/library";
import { contentFileIds } from "./modules/library/file-references";
import { loginPageModule } from "./modules/login-page";
import { loginPageFileIds } from "./modules/login-page/file-references";
import { membersModule } from "./modules/members";
import { resolveMember } from "./modules/members/actor";
import { activeGuardiansOf } from "./modules/members/guardians";
import { messagesModule } from "./modules/messages";
import { messageFileIds } from "./modules/messages/file-references";
import { notificationJob, notificationsModule } from "./modules/notifications";
import { registerDueSource } from "./modules/notifications/due";
import { registerGuardianLookup } from "./modules/notifications/hooks";
import { orgModule } from "./modules/org";
import { peerAssessmentsModule } from "./modules/peer-assessments";
import { postsModule } from "./modules/posts";
import { postFileIds } from "./modules/posts/file-references";
import { POST_JOB, runScheduledPost } from "./modules/posts/notify";
import { quizzesModule } from "./modules/quizzes";
import { quizFileIds } from "./modules/quizzes/file-references";
import { quizDueSource } from "./modules/quizzes/notify";
import { rolesModule } from "./modules/roles";
import { pendingCheckFileIds } from "./modules/similarity/file-references";
import { spacesModule } from "./modules/spaces";
import { spaceThumbnailFileIds } from "./modules/spaces/file-references";
import { ssoModule } from "./modules/sso";
import { surveysModule } from "./modules/surveys";
import { surveyFileIds } from "./modules/surveys/file-references";
import { surveyDueSource } from "./modules/surveys/notify";
import { tenantModule } from "./modules/tenant";
import { termsModule } from "./modules/terms";
import { authPlugin } from "./platform/auth/context";
import { docsPlugin } from "./platform/http/docs";
import { createMetrics } from "./platform/http/metrics";
import { buildOpenApi } from "./platform/http/openapi";
import { httpPlugin } from "./platform/http/plugin";
import { securityPlugin } from "./platform/http/security";
import { createRuntime, type Runtime } from "./platform/runtime";

/**
 * Features that attach files tell the files base which, so its collector keeps them
 * (docs/rules/storage.md#file-collector). Also run by `doctor`, which counts what the collector would take.
 */
export function registerFileReferenceSources() {
  registerFileReferences("assignment submissions", submissionFileIds);
  registerFileReferences("group submissions", groupSubmissionFileIds);
  registerFileReferences("challenges", challengeFileIds);
  registerFileReferences("library contents", contentFileIds);
  registerFileReferences("login page", loginPageFileIds);
  registerFileReferences("messages", messageFileIds);
  registerFileReferences("posts and comments", postFileIds);
  registerFileReferences("quizzes", quizFileIds);
  registerFileReferences("surveys", surveyFileIds);
  registerFileReferences("space thumbnails", spaceThumbnailFileIds);
  registerFileReferences("pending similarity checks", pendingCheckFileIds);
}

/** The root Elysia instance: platform plugins first, then every module, listed explicitly. */
export function createApp(config: Config) {
  const rt = createRuntime(config, resolveMember, { groupCommit: true });
  // Features hand their time-driven notification jobs to the notifications base (docs/rules/notifications.md#hooks).
  notificationJob(POST_JOB, runScheduledPost);
  notificationJob(CHALLENGE_JOB, runChallengeReminders);
  registerDueSource("ASSIGNMENT", assignmentDueSource);
  registerDueSource("GROUP_ASSIGNMENT", groupAssignmentDueSource);
  registerDueSource("QUIZ", quizDueSource);
  registerDueSource("SURVEY", surveyDueSource);
  // Guardian copies read the links at each notification, so a removed link stops them at once (docs/rules/members.md#guardian-links).
  registerGuardianLookup(activeGuardiansOf);
  registerFileReferenceSources();
  const metrics = config.metrics ? createMetrics(rt) : null;
  let root: AnyElysia | null = null;
  // normalize "typebox": unknown fields are stripped, but a wrong-typed nested object is a 400, not {}.
  const api = new Elysia({ prefix: "/api/v1", normalize: "typebox", encodeSchema: false })
    .use(authModule(rt))
    .use(membersModule(rt))
    .use(rolesModule(rt))
    .use(tenantModule(rt))
    .use(termsModule(rt))
    .use(loginPageModule(rt))
    .use(ssoModule(rt))
    .use(invitationsModule(rt))
    .use(joinCodesModule(rt))
    .use(fieldsModule(rt))
    .use(groupsModule(rt))
    .use(grantsModule(rt))
    .use(orgModule(rt))
    .use(filesModule(rt))
    .use(spacesModule(rt))
    .use(libraryModule(rt))
    .use(surveysModule(rt))
    .use(assignmentsModule(rt))
    .use(challengesModule(rt))
    .use(postsModule(rt))
    .use(messagesModule(rt))
    .use(quizzesModule(rt))
    .use(groupAssignmentsModule(rt))
    .use(peerAssessmentsModule(rt))
    .use(gradebookModule(rt))
    .use(copiesModule(rt))
    .use(guardiansModule(rt))
    .use(notificationsModule(rt));
  const app = new Elysia({ name: "learnspace", normalize: "typebox", encodeSchema: false })
    .use(httpPlugin(rt, () => root?.routes ?? [], metrics?.observe))
    .use(securityPlugin(rt))
    .use(metrics?.plugin ?? new Elysia({ name: "learnspace.metrics" }))
    .use(authPlugin(rt))
    .use(healthModule(rt))
    .use(hostedPagesModule(rt))
    .use(api)
    // The server URL is known only once listening (--port 0), so it is set per answer.
    .use(docsPlugin(() => ({ ...document, servers: [{ url: rt.config.publicUrl, description: "This appliance" }] })))
    .use(consoleModule());
  root = app;
  // Built once, before any request: compiling a route on its first request adds keys to its schemas.
  const document = buildOpenApi(app, { title: "learnspace", version: pkg.version });
  return { app, rt };
}

export type App = ReturnType<typeof createApp>["app"];
export type { Runtime };
