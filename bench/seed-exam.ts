// Seeds the exam-start benchmark into a data dir: one school with N students (one shared password
// hash) enrolled in a space with a published quiz of 10 questions, an access token per student, and
// 20 other schools with an owner token each. Writes exam.json (tokens, quiz, question options).
// Usage: bun bench/seed-exam.ts <dataDir> <students>
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { startServer } from "../src/server";
import { benchApi, memberTokens, seedSchool, seedSpace } from "./seed-members";

const [dataDir, count] = [process.argv[2] as string, Math.min(Number(process.argv[3] ?? 2000), 10_000)];
const server = startServer(loadConfig([], { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1" }, { port: 0, dataDir }));
const rt = server.rt;
const call = benchApi(`http://127.0.0.1:${server.port}/api/v1`);
const hash = await Bun.password.hash("Passw0rd!", { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });

const school = await seedSchool(rt, "exam", { members: count, name: "Exam school", passwordHash: hash });
const owner = school.ownerToken;
const students = school.members;
const tokens = await memberTokens(rt, school);
const studentIds = students.map((s) => s.id);
const space = { id: await seedSpace(call, owner, "Exam", studentIds) };
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
for (let i = 0; i < 20; i++) others.push((await seedSchool(rt, `other-${i}`, { members: 0, name: `Other ${i}` })).ownerToken);
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
