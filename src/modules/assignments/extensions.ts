// Per-participant deadlines (setSubmissionExtension, docs/rules/next-year.md#extensions).
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { write } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import { iso } from "../../platform/http/schemas";
import { contentForManager, contentPopulation } from "../library/access";
import { dueMomentsChanged } from "../notifications/due";
import { putExtension } from "../submissions/extensions";
import { ASSIGNMENT } from "./config";
import { ASSIGNMENT_EXTENSIONS } from "./deadlines";
import type { Extension, ExtensionBody } from "./model";

/**
 * setSubmissionExtension: sets (or with null removes) one participant's deadline for the submits to
 * come. The profile must be a participant of the content's space (else 400 naming profileId).
 */
export function setSubmissionExtension(
  actor: Actor,
  contentId: string,
  profileId: string,
  body: Static<typeof ExtensionBody>,
  now = Date.now(),
): Static<typeof Extension> {
  return write(actor.db, (tx) => {
    const content = contentForManager(actor, contentId, ASSIGNMENT, tx);
    if (!contentPopulation(tx, content).some((p) => p.profileId === profileId)) {
      throw invalid("profileId", "must be a participant of this content's space", "path");
    }
    const dueAt = putExtension(tx, ASSIGNMENT_EXTENSIONS, contentId, profileId, body.dueAt, now);
    dueMomentsChanged(tx, actor, contentId, ASSIGNMENT); // docs/rules/notifications.md#due-soon
    return { profileId, dueAt: iso(dueAt) };
  });
}
