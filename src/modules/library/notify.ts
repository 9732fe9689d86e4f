// What the library tells the notifications module: a content in a space's folder became visible to
// its participants (docs/rules/notifications.md#kinds), and its due moments may have moved.
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { type ContentType, libraryContents } from "../../schema/library";
import { dueMomentsChanged } from "../notifications/due";
import { membersOfProfiles, notify } from "../notifications/emit";
import type { Scope } from "../notifications/hooks";
import { cancelJobs } from "../notifications/schedule";
import { consoleUrl } from "../notifications/urls";
import { contentPopulation } from "./access";

type Row = { id: string; type: ContentType; title: string; description: string; visibility: string; spaceId: string | null };

/** The types with a due moment (dueAt or closesAt) that DUE_SOON reminds of. */
const DUE_TYPES: readonly ContentType[] = ["ASSIGNMENT", "GROUP_ASSIGNMENT", "QUIZ", "SURVEY"];

/**
 * After a content was created or updated: CONTENT to the space's active PARTICIPANTs when it turned
 * from invisible (absent or PRIVATE) to SHARED/PUBLIC, and its DUE_SOON job re-run.
 */
export function contentWritten(tx: Db, scope: Scope & { memberId: string }, before: string | null, c: Row, now: number) {
  if (c.spaceId === null) return;
  const visible = c.visibility !== "PRIVATE";
  if (visible && (before === null || before === "PRIVATE")) {
    notify(
      tx,
      scope,
      {
        kind: "CONTENT",
        spaceId: c.spaceId,
        recordType: "CONTENT",
        recordId: c.id,
        titleKo: `새 학습 자료: ${c.title}`,
        titleEn: `New: ${c.title}`,
        bodyPreview: c.description,
        url: consoleUrl.content(c.spaceId, c.id),
        actorMemberId: scope.memberId,
        roles: ["PARTICIPANT"],
      },
      now,
    );
  }
  if (DUE_TYPES.includes(c.type) && before !== c.visibility) dueMomentsChanged(tx, scope, c.id, c.type);
}

/** A deleted content takes its pending reminders with it. */
export function contentDeleted(tx: Db, contentId: string) {
  cancelJobs(tx, contentId);
}

/**
 * A content as due reminders need it: null unless it sits in a space's folder and its participants
 * can see it (SHARED or PUBLIC); with the active PARTICIPANTs (member and main profile).
 */
export function contentForReminders(db: Db, contentId: string) {
  const c = db
    .select({
      id: libraryContents.id,
      type: libraryContents.type,
      title: libraryContents.title,
      spaceId: libraryContents.spaceId,
      visibility: libraryContents.visibility,
    })
    .from(libraryContents)
    .where(eq(libraryContents.id, contentId))
    .get();
  if (!c || c.spaceId === null || c.visibility === "PRIVATE") return null;
  return { id: c.id, type: c.type, title: c.title, spaceId: c.spaceId, participants: contentPopulation(db, c) };
}

/** GRADE_RETURNED to the submitters (profiles) of a returned submission of this content. */
export function gradeReturned(tx: Db, scope: Scope & { memberId: string }, contentId: string, profileIds: string[], now: number) {
  const c = contentForReminders(tx, contentId);
  if (!c) return;
  notify(
    tx,
    scope,
    {
      kind: "GRADE_RETURNED",
      spaceId: c.spaceId,
      recordType: "CONTENT",
      recordId: contentId,
      titleKo: `채점 결과가 돌아왔습니다: ${c.title}`,
      titleEn: `Grade returned: ${c.title}`,
      url: consoleUrl.content(c.spaceId, contentId),
      actorMemberId: scope.memberId,
      recipients: membersOfProfiles(tx, profileIds),
      moment: now,
    },
    now,
  );
}
