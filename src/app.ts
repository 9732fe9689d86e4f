import { type AnyElysia, Elysia } from "elysia";
import pkg from "../package.json" with { type: "json" };
import { directoryPublisher, remoteAuthOf } from "./cluster/directory";
import { createClusterNode } from "./cluster/node";
import { clusterPlugin } from "./cluster/plugin";
import { restoreFromReplica } from "./cluster/replica";
import { setReplicaRestorer } from "./cluster/restore";
import type { Config } from "./config";
import { assignmentsModule } from "./modules/assignments";
import { submissionFileIds } from "./modules/assignments/file-references";
import { assignmentGrades } from "./modules/assignments/grades";
import { assignmentDueSource } from "./modules/assignments/notify";
import { assignmentRevisions } from "./modules/assignments/similarity-source";
import { canSeeSubmissionFile, submissionFileDownload } from "./modules/assignments/submissions";
import { authModule } from "./modules/auth";
import { setRemoteAuth } from "./modules/auth/remote";
import { challengesModule } from "./modules/challenges";
import { challengeFileIds } from "./modules/challenges/file-references";
import { canSeeChallengeFile, challengeFileDownload, leaveSpaceChallenges } from "./modules/challenges/hooks";
import { CHALLENGE_JOB, runChallengeReminders } from "./modules/challenges/notify";
import { consoleModule } from "./modules/console";
import { copiesModule } from "./modules/copies";
import { fieldsModule } from "./modules/fields";
import { filesModule } from "./modules/files";
import { registerFileKind } from "./modules/files/kinds";
import { gradebookModule } from "./modules/gradebook";
import { registerGradeSource } from "./modules/gradebook/cells";
import { grantsModule } from "./modules/grants";
import { groupAssignmentsModule } from "./modules/group-assignments";
import { groupSubmissionFileIds } from "./modules/group-assignments/file-references";
import { groupAssignmentGrades } from "./modules/group-assignments/grades";
import { markGroupAssignmentLinksDeleted } from "./modules/group-assignments/link";
import { groupAssignmentDueSource } from "./modules/group-assignments/notify";
import { groupAssignmentRevisions } from "./modules/group-assignments/similarity-source";
import { canSeeGroupSubmissionFile, groupSubmissionFileDownload } from "./modules/group-assignments/submissions";
import { groupsModule } from "./modules/groups";
import { guardiansModule } from "./modules/guardians";
import { healthModule } from "./modules/health";
import { hostedPagesModule } from "./modules/hosted-pages";
import { invitationsModule } from "./modules/invitations";
import { joinCodesModule } from "./modules/join-codes";
import { libraryModule } from "./modules/library";
import { canSeeContentFile, contentCounts, contentFileDownload } from "./modules/library/access";
import { contentFileIds } from "./modules/library/file-references";
import { loginPageModule } from "./modules/login-page";
import { loginPageFileIds } from "./modules/login-page/file-references";
import { loginPageImageDownload } from "./modules/login-page/service";
import { membersModule } from "./modules/members";
import { resolveMember } from "./modules/members/actor";
import { activeGuardiansOf } from "./modules/members/guardians";
import { messagesModule } from "./modules/messages";
import { canSeeMessageFile, messageFileDownload } from "./modules/messages/access";
import { messageFileIds } from "./modules/messages/file-references";
import { notificationJob, notificationsModule } from "./modules/notifications";
import { registerDueSource } from "./modules/notifications/due";
import { registerGuardianLookup } from "./modules/notifications/hooks";
import { orgModule } from "./modules/org";
import { peerAssessmentsModule } from "./modules/peer-assessments";
import { markPeerAssessmentLinksDeleted } from "./modules/peer-assessments/config";
import { postsModule } from "./modules/posts";
import { canSeeCommentFile, canSeePostFile, commentFileDownload, postCounts, postFileDownload } from "./modules/posts/access";
import { postFileIds } from "./modules/posts/file-references";
import { POST_JOB, runScheduledPost } from "./modules/posts/notify";
import { quizzesModule } from "./modules/quizzes";
import { canSeeQuizFile, quizFileDownload } from "./modules/quizzes/config";
import { quizFileIds } from "./modules/quizzes/file-references";
import { quizGrades } from "./modules/quizzes/grades";
import { quizDueSource } from "./modules/quizzes/notify";
import { rolesModule } from "./modules/roles";
import { pendingCheckFileIds } from "./modules/similarity/file-references";
import { registerRevisionSource } from "./modules/similarity/revision";
import { spacesModule } from "./modules/spaces";
import { canSeeSpaceThumbnail, spaceThumbnailDownload } from "./modules/spaces/access";
import { spaceThumbnailFileIds } from "./modules/spaces/file-references";
import { onEnrolmentEnded, onGroupSetDeleted, registerSpaceCounter } from "./modules/spaces/hooks";
import { ssoModule } from "./modules/sso";
import { surveysModule } from "./modules/surveys";
import { canSeeSurveyFile, surveyFileDownload } from "./modules/surveys/config";
import { surveyFileIds } from "./modules/surveys/file-references";
import { surveyDueSource } from "./modules/surveys/notify";
import { tenantModule } from "./modules/tenant";
import { termsModule } from "./modules/terms";
import { authPlugin } from "./platform/auth/context";
import { answerAdapter } from "./platform/http/answer";
import { docsPlugin } from "./platform/http/docs";
import { createMetrics } from "./platform/http/metrics";
import { buildOpenApi } from "./platform/http/openapi";
import { httpPlugin, requestIdOf } from "./platform/http/plugin";
import { securityHeaders, securityPlugin } from "./platform/http/security";
import { createRuntime, type Runtime } from "./platform/runtime";

/**
 * What each feature hands the base modules and cores it builds on, so that none of them imports a
 * feature (docs/architecture.md#registrations). Idempotent: tests start many servers.
 */
export function registerFeatures() {
  // files: each kind of record that attaches files, by the prefix its download URLs are signed for,
  // with the file ids its records hold (the collector keeps those).
  registerFileKind("post", {
    canSee: (db, actor, fileId) => canSeePostFile(db, actor.memberId, fileId),
    download: (db, postId, fileId, reader) => postFileDownload(db, postId, fileId, reader.memberId),
    references: postFileIds, // a post's and its comments' files
  });
  registerFileKind("comment", {
    canSee: (db, actor, fileId) => canSeeCommentFile(db, actor.memberId, fileId),
    download: (db, commentId, fileId, reader) => commentFileDownload(db, commentId, fileId, reader.memberId),
  });
  registerFileKind("message", {
    canSee: (db, actor, fileId) => canSeeMessageFile(db, actor.memberId, fileId),
    download: (db, messageId, fileId, reader) => messageFileDownload(db, messageId, fileId, reader.memberId),
    references: messageFileIds,
  });
  registerFileKind("challenge", { canSee: canSeeChallengeFile, download: challengeFileDownload, references: challengeFileIds });
  registerFileKind("content", { canSee: canSeeContentFile, download: contentFileDownload, references: contentFileIds });
  registerFileKind("assignment-submission", {
    canSee: canSeeSubmissionFile,
    download: submissionFileDownload,
    references: submissionFileIds,
  });
  registerFileKind("group-submission", {
    canSee: canSeeGroupSubmissionFile,
    download: groupSubmissionFileDownload,
    references: groupSubmissionFileIds,
  });
  registerFileKind("quiz", { canSee: canSeeQuizFile, download: quizFileDownload, references: quizFileIds });
  registerFileKind("survey", { canSee: canSeeSurveyFile, download: surveyFileDownload, references: surveyFileIds });
  registerFileKind("space", { canSee: canSeeSpaceThumbnail, download: spaceThumbnailDownload, references: spaceThumbnailFileIds });
  registerFileKind("login-page", { publicDownload: loginPageImageDownload, references: loginPageFileIds });
  // A submission waiting for its similarity check holds its files though no download URL names it.
  registerFileKind("similarity-check", { references: pendingCheckFileIds });
  // spaces: what ends with an enrolment or a group set, and the counts a space summary shows.
  onEnrolmentEnded("challenges", leaveSpaceChallenges);
  onGroupSetDeleted("group-assignments", markGroupAssignmentLinksDeleted);
  onGroupSetDeleted("peer-assessments", markPeerAssessmentLinksDeleted);
  registerSpaceCounter("postCount", postCounts);
  registerSpaceCounter("contentCount", contentCounts);
  // similarity: where each submitting feature's revisions are (the back-fill walks them).
  registerRevisionSource("ASSIGNMENT", assignmentRevisions);
  registerRevisionSource("GROUP_ASSIGNMENT", groupAssignmentRevisions);
  // gradebook: each gradable feature's cells.
  registerGradeSource("ASSIGNMENT", assignmentGrades);
  registerGradeSource("GROUP_ASSIGNMENT", groupAssignmentGrades);
  registerGradeSource("QUIZ", quizGrades);
}

/** The root Elysia instance: platform plugins first, then every module, listed explicitly. */
export function createApp(config: Config) {
  const rt = createRuntime(config, resolveMember, { groupCommit: true });
  registerFeatures();
  // Cluster mode only (docs/rules/cluster.md): one machine has no gate, no guard, no etcd client.
  const cluster = config.clusterEtcd ? createClusterNode(rt) : null;
  if (cluster) {
    rt.tenants.guard = cluster.guardWrite;
    rt.schoolUrl = cluster.schoolUrl;
    // Failover restores a school from the dead node's replica (docs/rules/cluster.md#failover).
    setReplicaRestorer(restoreFromReplica);
    // Sign-in without a tenant key sees every node's schools (docs/rules/cluster.md#sign-in-without-a-tenant-key).
    cluster.onTick(directoryPublisher(rt, cluster));
    setRemoteAuth(rt, remoteAuthOf(rt, cluster));
  }
  // Features hand their time-driven notification jobs to the notifications base (docs/rules/notifications.md#hooks).
  notificationJob(POST_JOB, runScheduledPost);
  notificationJob(CHALLENGE_JOB, runChallengeReminders);
  registerDueSource("ASSIGNMENT", assignmentDueSource);
  registerDueSource("GROUP_ASSIGNMENT", groupAssignmentDueSource);
  registerDueSource("QUIZ", quizDueSource);
  registerDueSource("SURVEY", surveyDueSource);
  // Guardian copies read the links at each notification, so a removed link stops them at once (docs/rules/members.md#guardian-links).
  registerGuardianLookup(activeGuardiansOf);
  const metrics = config.metrics ? createMetrics(rt) : null;
  let root: AnyElysia | null = null;
  // normalize "typebox": unknown fields are stripped, but a wrong-typed nested object is a 400, not {}.
  // The adapter answers a JSON value with the security headers built once (docs/rules/performance.md#per-request-work).
  const fixedHeaders = securityHeaders(rt);
  const app = new Elysia({
    name: "learnspace",
    normalize: "typebox",
    encodeSchema: false,
    adapter: answerAdapter(fixedHeaders, requestIdOf),
  })
    .use(httpPlugin(rt, () => root?.routes ?? [], metrics?.observe, fixedHeaders))
    .use(cluster ? clusterPlugin(rt, cluster) : new Elysia({ name: "learnspace.cluster" }))
    .use(securityPlugin(rt))
    .use(metrics?.plugin ?? new Elysia({ name: "learnspace.metrics" }))
    .use(authPlugin(rt))
    .use(healthModule(rt))
    .use(hostedPagesModule(rt))
    // The API modules carry their `/api/v1` prefix themselves (API_PREFIX): each route is added once here.
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
    .use(notificationsModule(rt))
    // The server URL is known only once listening (--port 0), so it is set per answer.
    .use(docsPlugin(() => ({ ...openApi(), servers: [{ url: rt.config.publicUrl, description: "This appliance" }] })))
    .use(consoleModule());
  root = app;
  rt.server = () => app.server;
  // Built on its first request, not before ready (docs/rules/performance.md#start); `clean` drops
  // what compiling a route writes into its schemas, so the document does not depend on when.
  let document: ReturnType<typeof buildOpenApi> | null = null;
  const openApi = (): ReturnType<typeof buildOpenApi> => (document ??= buildOpenApi(app, { title: "learnspace", version: pkg.version }));
  return { app, rt, cluster };
}

export type App = ReturnType<typeof createApp>["app"];
export type { Runtime };
