// Seeds the exam-start benchmark into a data dir: one school with N students (one shared password
// hash) enrolled in a space with a published quiz of 10 questions, an access token per student, and
// 20 other schools with an owner token each. Writes exam.json (tokens, quiz, question options).
// Usage: bun bench/seed-exam.ts <dataDir> <students>
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { insertMember } from "../src/modules/members/create";
import { roleByKey } from "../src/modules/roles/builtin";
import { provisionTenant } from "../src/modules/tenant/provision";
import { openMemberSession } from "../src/platform/auth/sessions";
import { write } from "../src/platform/db/types";
import { startServer } from "../src/server";

const [dataDir, count] = [process.argv[2] as string, Math.min(Number(process.argv[3] ?? 2000), 10_000)];
const server = startServer(loadConfig([], { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1" }, { port: 0, dataDir }));
const rt = server.rt;
const base = `http://127.0.0.1:${server.port}/api/v1`;
const hash = await Bun.password.hash("Passw0rd!", { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

const school = provisionTenant(rt, {
  key: "exam",
  name: "Exam school",
  owner: { email: "owner@exam.test", displayName: "Owner", passwordHash: hash },
});
const owner = (
  await openMemberSession(rt, { email: "owner@exam.test", tenantId: school.tenantId, tenantKey: "exam", memberId: school.memberId })
).accessToken;
const students = rt.tenants.use(school.tenantId, (h) =>
  write(h.db, (tx) => {
    const role = roleByKey(tx, "member");
    if (!role) throw new Error("no member role");
    return Array.from({ length: count }, (_, i) => {
      const email = `s${i}@exam.test`;
      return { email, id: insertMember(tx, { displayName: `Student ${i}`, email, userId: null, roleId: role.id, passwordHash: hash }).id };
    });
  }),
);
const tokens: string[] = [];
for (const s of students) {
  tokens.push((await openMemberSession(rt, { email: s.email, tenantId: school.tenantId, tenantKey: "exam", memberId: s.id })).accessToken);
}

const space = await call(owner, "POST", "/spaces", { name: "Exam" });
for (let i = 0; i < students.length; i += 500) {
  await call(owner, "POST", `/spaces/${space.id}/members`, { userIds: students.slice(i, i + 500).map((s) => s.id), role: "PARTICIPANT" });
}
const node = await call(owner, "POST", "/library/nodes", { title: "Exams", spaceId: space.id });
const quiz = await call(owner, "POST", "/library/contents", { type: "QUIZ", title: "Exam", nodeId: node.id, visibility: "SHARED" });
const questions = Array.from({ length: 10 }, (_, i) => ({
  type: "SINGLE",
  body: `Question ${i + 1}`,
  point: 1,
  options: [{ body: "A", isCorrect: true }, { body: "B" }, { body: "C" }, { body: "D" }],
}));
const config = await call(owner, "PUT", `/quizzes/${quiz.id}/config`, { questions });

const others: string[] = [];
for (let i = 0; i < 20; i++) {
  const t = provisionTenant(rt, {
    key: `other-${i}`,
    name: `Other ${i}`,
    owner: { email: `o${i}@other.test`, displayName: "Owner", passwordHash: null },
  });
  others.push(
    (await openMemberSession(rt, { email: `o${i}@other.test`, tenantId: t.tenantId, tenantKey: `other-${i}`, memberId: t.memberId }))
      .accessToken,
  );
}
writeFileSync(
  join(dataDir, "exam.json"),
  JSON.stringify({
    quizId: quiz.id,
    students: students.map((s, i) => ({ email: s.email, token: tokens[i] })),
    questions: config.questions.map((q: { id: string; options: { id: string }[] }) => ({ id: q.id, options: q.options.map((o) => o.id) })),
    others,
  }),
);
await server.stop();
