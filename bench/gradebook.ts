// The gradebook benchmark (issue 12): getSpaceGradebook over a space of 600 active participants and
// 40 gradable contents (14 assignments, 13 group assignments in groups of 4, 13 quizzes of 10
// questions with 1–2 attempts each), seeded through the tables in one transaction; JSON and CSV
// over HTTP, server in its own process, one request at a time. Target: p50 < 300 ms.
// Usage: bun bench/gradebook.ts [--participants 600] [--contents 40] [--seconds 5]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnySQLiteTable } from "drizzle-orm/sqlite-core";
import { loadConfig } from "../src/config";
import { assignmentConfigs, assignmentSubmissions } from "../src/modules/assignments/tables";
import { groupAssignmentConfigs, groupSubmissions } from "../src/modules/group-assignments/tables";
import { resolveMember } from "../src/modules/members/actor";
import { quizAttempts, quizConfigs, quizQuestionSets, type StoredQuestion } from "../src/modules/quizzes/tables";
import { roleByKey } from "../src/modules/roles/builtin";
import { type Db, write } from "../src/platform/db/types";
import { createRuntime } from "../src/platform/runtime";
import { libraryContents } from "../src/schema/library";
import { members, profiles } from "../src/schema/members";
import { spaceGroupMembers, spaceGroupSets, spaceGroups, spaceMembers, spaces } from "../src/schema/spaces";
import { benchTenant, load, round, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const participants = arg("participants", 600);
const contents = arg("contents", 40);
const seconds = arg("seconds", 5);
const port = 31400;
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-gradebook-"));

let state = 7;
const rand = () => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};
const id = () => Bun.randomUUIDv7();

function insertAll(tx: Db, table: AnySQLiteTable, rows: Record<string, unknown>[]) {
  for (let i = 0; i < rows.length; i += 500)
    tx.insert(table)
      .values(rows.slice(i, i + 500))
      .run();
}

// 1. Seed.
const seedStart = performance.now();
const rt = createRuntime(loadConfig([], {}, { dataDir, quiet: true }), resolveMember);
const { tenant, session } = await benchTenant(rt);
const spaceId = id();
rt.tenants.use(tenant.tenantId, (h) =>
  write(h.db, (tx) => {
    const now = Date.now();
    const roleId = (roleByKey(tx, "member") as { id: string }).id;
    tx.insert(spaces)
      .values({ id: spaceId, name: "Bench space", startMenu: "HOME", enabledMenus: [], createdAt: now, updatedAt: now })
      .run();
    const people = Array.from({ length: participants }, (_, i) => ({ memberId: id(), profileId: id(), name: `Student ${i}` }));
    insertAll(
      tx,
      members,
      people.map((p, i) => ({
        id: p.memberId,
        userId: `s${i}`,
        userIdKey: `s${i}`,
        displayName: p.name,
        roleId,
        createdAt: now,
        updatedAt: now,
      })),
    );
    insertAll(
      tx,
      profiles,
      people.map((p) => ({ id: p.profileId, memberId: p.memberId, isMain: true, createdAt: now })),
    );
    insertAll(tx, spaceMembers, [
      { spaceId, memberId: tenant.memberId, role: "ADMIN", isOwner: true, createdAt: now },
      ...people.map((p) => ({ spaceId, memberId: p.memberId, role: "PARTICIPANT", createdAt: now })),
    ]);
    // one group set of groups of 4
    const setId = id();
    tx.insert(spaceGroupSets).values({ id: setId, spaceId, name: "Teams", createdAt: now, updatedAt: now }).run();
    const groupIds = Array.from({ length: Math.ceil(participants / 4) }, () => id());
    insertAll(
      tx,
      spaceGroups,
      groupIds.map((g, i) => ({ id: g, setId, name: `Team ${i}`, position: i, createdAt: now })),
    );
    insertAll(
      tx,
      spaceGroupMembers,
      people.map((p, i) => ({ groupId: groupIds[Math.floor(i / 4)], setId, memberId: p.memberId, position: i % 4 })),
    );
    const questions: StoredQuestion[] = Array.from({ length: 10 }, () => ({
      id: id(),
      type: "SINGLE",
      body: "?",
      point: 2,
      explanation: null,
      fileIds: [],
      options: [],
      answerCandidates: [],
    }));
    const subs: Record<string, unknown>[] = [];
    const groupSubs: Record<string, unknown>[] = [];
    const attempts: Record<string, unknown>[] = [];
    for (let c = 0; c < contents; c++) {
      const type = c % 3 === 0 ? "ASSIGNMENT" : c % 3 === 1 ? "GROUP_ASSIGNMENT" : "QUIZ";
      const contentId = id();
      tx.insert(libraryContents)
        .values({
          id: contentId,
          type,
          title: `${type} ${c}`,
          visibility: "SHARED",
          spaceId,
          authorProfileId: tenant.profileId,
          createdAt: now + c,
          updatedAt: now,
        })
        .run();
      if (type === "ASSIGNMENT") {
        tx.insert(assignmentConfigs).values({ contentId, maxScore: 10, updatedAt: now }).run();
        for (const p of people) {
          if (rand() < 0.1) continue;
          const graded = rand() < 0.8;
          subs.push({
            id: id(),
            contentId,
            profileId: p.profileId,
            revision: 1,
            isLatest: true,
            body: "work",
            status: graded ? (rand() < 0.5 ? "RETURNED" : "GRADED") : "SUBMITTED",
            submittedAt: now,
            isLate: false,
            score: graded ? Math.floor(rand() * 11) : null,
          });
        }
      } else if (type === "GROUP_ASSIGNMENT") {
        tx.insert(groupAssignmentConfigs)
          .values({ contentId, spaceGroupSetId: setId, spaceGroupSetName: "Teams", maxScore: 20, updatedAt: now })
          .run();
        for (const [i, g] of groupIds.entries()) {
          groupSubs.push({
            id: id(),
            contentId,
            groupId: g,
            groupName: `Team ${i}`,
            submitterMemberId: people[i * 4]?.memberId,
            submitterName: "x",
            revision: 1,
            isLatest: true,
            body: "team work",
            fileIds: [],
            status: "GRADED",
            submittedAt: now,
            isLate: false,
            score: Math.floor(rand() * 21),
          });
        }
      } else {
        const setIdQ = id();
        tx.insert(quizQuestionSets).values({ id: setIdQ, contentId, questions, createdAt: now }).run();
        tx.insert(quizConfigs).values({ contentId, questionSetId: setIdQ, scoreAggregation: "AVERAGE", updatedAt: now }).run();
        for (const p of people) {
          const n = rand() < 0.5 ? 2 : 1;
          for (let k = 0; k < n; k++) {
            attempts.push({
              id: id(),
              contentId,
              questionSetId: setIdQ,
              profileId: p.profileId,
              startedAt: now + k,
              submittedAt: now + k + 1,
              score: Math.floor(rand() * 21),
              scoringCompletedAt: now + k + 1,
            });
          }
        }
      }
    }
    insertAll(tx, assignmentSubmissions, subs);
    insertAll(tx, groupSubmissions, groupSubs);
    insertAll(tx, quizAttempts, attempts);
  }),
);
rt.close();
const seedMs = round(performance.now() - seedStart);

// 2. The server in its own process; one request at a time.
const server = Bun.spawn(
  [process.execPath, join(import.meta.dir, "..", "src", "main.ts"), "serve", "--port", String(port), "--data-dir", dataDir],
  { env: { ...process.env, LEARNSPACE_QUIET: "1" }, stdout: "ignore", stderr: "inherit" },
);
try {
  await waitReady(`http://127.0.0.1:${port}/readyz`);
  const url = `http://127.0.0.1:${port}/api/v1/spaces/${spaceId}/gradebook`;
  const auth = { authorization: `Bearer ${session.accessToken}` };
  const check = await fetch(url, { headers: auth });
  const book = (await check.json()) as { columns: unknown[]; rows: unknown[] };
  if (!check.ok || book.rows.length !== participants || book.columns.length !== contents) {
    throw new Error(`unexpected gradebook: ${check.status} ${book.rows?.length}×${book.columns?.length}`);
  }
  const json = await load(url, { seconds, concurrency: 1, headers: auth });
  const csv = await load(url, { seconds, concurrency: 1, headers: { ...auth, accept: "text/csv" } });
  console.log(JSON.stringify({ participants, contents, seedMs, json, csv, target: "p50 < 300 ms" }, null, 2));
} finally {
  server.kill();
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
