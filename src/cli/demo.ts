import type { Config } from "../config";
import { insertMember } from "../modules/members/create";
import { roleByKey } from "../modules/roles/builtin";
import { provisionTenant } from "../modules/tenant/provision";
import { hashPassword } from "../platform/auth/password";
import { openMemberSession } from "../platform/auth/sessions";
import { indexMember, tenantByKey } from "../platform/db/registry";
import { write } from "../platform/db/types";
import type { Runtime } from "../platform/runtime";
import { serveCommand } from "./serve";

export const DEMO_KEY = "demo";
export const DEMO_PASSWORD = "learnspace-demo";
export const DEMO_OWNER = "owner@demo.school";

const CLASSES = ["1-1", "1-2", "1-3"];
const STUDENTS_PER_CLASS = 20;
const FAMILY = ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임"];
const GIVEN = ["민준", "서연", "도윤", "하은", "시우", "지우", "주원", "서윤", "하준", "지민", "예준", "수아"];
const TEACHERS = [
  { userId: "t-kim", name: "김선생", subject: "국어" },
  { userId: "t-lee", name: "이선생", subject: "수학" },
  { userId: "t-park", name: "박선생", subject: "과학" },
];

type Who = { token: string };
const day = 24 * 60 * 60 * 1000;
const at = (days: number) => new Date(Date.now() + days * day).toISOString();

/** Calls the running server's API (so every rule of the services applies) and fails loudly. */
function client(baseUrl: string) {
  return async <T = any>(who: Who, method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${who.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`demo seed: ${method} ${path} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}

export type DemoSchool = { tenantKey: string; owner: string; teachers: string[]; students: string[]; password: string };

/**
 * Seeds one demo school into a running server: an owner, three teachers (role "teacher"), 60 students in
 * three classes (groups), a space per class with posts, a challenge, a quiz with attempts, a survey with
 * responses and an assignment with graded submissions. Members are inserted with the members service
 * (one password hash shared by all, so seeding stays fast); everything else goes through the HTTP API.
 */
export async function seedDemo(rt: Runtime, baseUrl: string): Promise<DemoSchool> {
  const call = client(baseUrl);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const t = provisionTenant(rt, {
    key: DEMO_KEY,
    name: "한빛중학교 (Demo)",
    owner: { email: DEMO_OWNER, displayName: "한빛 교감 (Owner)", passwordHash },
  });
  const session = async (memberId: string, email: string): Promise<Who> => ({
    token: (await openMemberSession(rt, { email, tenantId: t.tenantId, tenantKey: DEMO_KEY, memberId })).accessToken,
  });
  const owner: Who = await session(t.memberId, DEMO_OWNER);
  await call(owner, "POST", "/roles", {
    key: "teacher",
    name: "교사 Teacher",
    // What a teacher needs and no more (docs/rules/trust.md#the-demos-roles): find students, open classes, upload.
    permissions: ["member:read", "role:read", "space:create", "library:upload"],
  });

  const people = rt.tenants.use(t.tenantId, (h) =>
    write(h.db, (tx) => {
      const teacherRole = roleByKey(tx, "teacher");
      const memberRole = roleByKey(tx, "member");
      if (!teacherRole || !memberRole) throw new Error("demo seed: roles missing");
      const teachers = TEACHERS.map((x) => {
        const email = `${x.userId}@demo.school`;
        const { id } = insertMember(tx, { displayName: x.name, userId: x.userId, email, roleId: teacherRole.id, passwordHash });
        return { ...x, email, id };
      });
      const students = CLASSES.flatMap((cls, c) =>
        Array.from({ length: STUDENTS_PER_CLASS }, (_, i) => {
          const n = c * STUDENTS_PER_CLASS + i;
          const userId = `s${2601 + n}`;
          const name = `${FAMILY[n % FAMILY.length]}${GIVEN[(n * 7) % GIVEN.length]}`;
          const email = `${userId}@demo.school`;
          const { id } = insertMember(tx, { displayName: name, userId, email, roleId: memberRole.id, passwordHash, isIssuedAccount: true });
          return { cls, userId, email, id };
        }),
      );
      return { teachers, students };
    }),
  );
  write(rt.platform.db, (tx) => {
    for (const m of [...people.teachers, ...people.students]) indexMember(tx, m.email, t.tenantId, m.id);
  });

  await call(owner, "POST", "/member-fields", { key: "grade", label: "학년 Grade", type: "SELECT", options: ["1", "2", "3"] });
  for (const [c, cls] of CLASSES.entries()) {
    const teacher = people.teachers[c] as (typeof people.teachers)[number];
    const kids = people.students.filter((s) => s.cls === cls);
    const group = await call(owner, "POST", "/groups", { name: `${cls}반` });
    await call(owner, "POST", `/groups/${group.id}/members`, { userIds: kids.map((k) => k.id) });
    await call(owner, "PATCH", `/members/${teacher.id}`, { affiliation: `${cls}반 담임 · ${teacher.subject}` });

    const t1: Who = await session(teacher.id, teacher.email);
    const space = await call(t1, "POST", "/spaces", { name: `${cls}반 ${teacher.subject}` });
    await call(t1, "POST", `/spaces/${space.id}/members`, { userIds: kids.map((k) => k.id), role: "PARTICIPANT" });
    await call(t1, "POST", "/posts", {
      spaceId: space.id,
      title: "환영합니다! Welcome",
      content: `${cls}반 ${teacher.subject} 공간입니다.`,
    });
    await call(t1, "POST", "/posts", { spaceId: space.id, title: "이번 주 공지 This week", content: "과제와 퀴즈를 확인하세요." });
    if (c > 0) continue;

    // The first class gets one of every kind of activity, with work from its students.
    const kidSessions = await Promise.all(kids.slice(0, 12).map((k) => session(k.id, k.email)));
    const folder = await call(t1, "POST", "/library/nodes", { title: "1학기 Term 1", spaceId: space.id });
    const content = (type: string, title: string) =>
      call(t1, "POST", "/library/contents", { type, title, nodeId: folder.id, visibility: "SHARED" });

    const challenge = await call(t1, "POST", `/spaces/${space.id}/challenges`, {
      title: "매일 독서 Read daily",
      emoji: "📚",
      tasks: [
        { title: "1일차 Day 1", startedAt: at(-1), deadline: at(6) },
        { title: "2일차 Day 2", startedAt: at(-1), deadline: at(7) },
      ],
    });
    await call(t1, "POST", `/spaces/${space.id}/challenges/${challenge.id}/members`, { userIds: kids.map((k) => k.id) });
    for (const s of kidSessions.slice(0, 8)) {
      await call(s, "PUT", `/spaces/${space.id}/challenges/${challenge.id}/tasks/${challenge.tasks[0].id}/completion`);
    }

    const quiz = await content("QUIZ", "단원 평가 Unit quiz");
    const cfg = await call(t1, "PUT", `/quizzes/${quiz.id}/config`, {
      questions: [
        { type: "SINGLE", body: "2 + 3 = ?", point: 5, options: [{ body: "5", isCorrect: true }, { body: "6" }, { body: "23" }] },
        {
          type: "MULTIPLE",
          body: "짝수를 고르세요 Pick the even numbers",
          point: 5,
          options: [{ body: "2", isCorrect: true }, { body: "3" }, { body: "4", isCorrect: true }],
        },
      ],
    });
    const [q1, q2] = cfg.questions;
    for (const [i, s] of kidSessions.entries()) {
      const { attempt } = await call(s, "POST", `/quizzes/${quiz.id}/my-attempts`);
      await call(s, "POST", `/quizzes/${quiz.id}/my-attempts/${attempt.attemptId}/submit`, {
        answers: [
          { questionId: q1.id, selectedOptionIds: [q1.options[i % 3 === 0 ? 1 : 0].id] },
          { questionId: q2.id, selectedOptionIds: i % 2 ? [q2.options[0].id] : [q2.options[0].id, q2.options[2].id] },
        ],
      });
    }

    const survey = await content("SURVEY", "수업 만족도 Class survey");
    const scfg = await call(t1, "PUT", `/surveys/${survey.id}/config`, {
      questions: [
        {
          type: "SINGLE_CHOICE",
          title: "수업이 재미있나요? Do you enjoy the class?",
          isRequired: true,
          options: [{ label: "예 Yes" }, { label: "보통 So-so" }, { label: "아니요 No" }],
        },
        { type: "SHORT_TEXT", title: "바라는 점 Wishes" },
      ],
    });
    const [s1, s2] = scfg.questions;
    for (const [i, s] of kidSessions.slice(0, 10).entries()) {
      await call(s, "POST", `/surveys/${survey.id}/my-response/submit`, {
        answers: [
          { questionId: s1.id, optionIds: [s1.options[i % 3].id] },
          { questionId: s2.id, text: i % 2 ? "실험을 더 하고 싶어요" : "More projects" },
        ],
      });
    }

    const assignment = await content("ASSIGNMENT", "독서 감상문 Book report");
    await call(t1, "PUT", `/assignments/${assignment.id}/config`, { maxScore: 10, dueAt: at(7) });
    for (const [i, s] of kidSessions.slice(0, 8).entries()) {
      const sub = await call(s, "POST", `/assignments/${assignment.id}/submissions`, { body: `감상문 ${i + 1}: 이 책은…` });
      if (i < 5) await call(t1, "PUT", `/assignments/${assignment.id}/submissions/${sub.id}/grade`, { score: 6 + (i % 5) });
    }
  }
  return {
    tenantKey: DEMO_KEY,
    owner: DEMO_OWNER,
    teachers: people.teachers.map((x) => x.userId),
    students: people.students.slice(0, 3).map((x) => x.userId),
    password: DEMO_PASSWORD,
  };
}

/** True when this data dir already holds the demo school (then `learnspace demo` only serves it). */
export const hasDemo = (rt: Runtime) => tenantByKey(rt.platform.db, DEMO_KEY) !== null;

/** `learnspace demo`: `serve` with dev codes on, seeding the demo school on the first start of this data dir. */
export async function runDemo(config: Config) {
  const server = serveCommand({ ...config, devCodes: true });
  const started = performance.now();
  const fresh = !hasDemo(server.rt);
  if (fresh) await seedDemo(server.rt, server.url);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const url = server.rt.config.publicUrl;
  console.log(`learnspace demo on ${url}/ (data dir ${config.dataDir}${fresh ? `, seeded in ${seconds} s` : ", already seeded"})
Sign in at ${url}/t/${DEMO_KEY}/login with the password ${DEMO_PASSWORD} as
  owner:    ${DEMO_OWNER}
  teachers: ${TEACHERS.map((t) => t.userId).join(", ")}
  students: s2601 … s${2600 + CLASSES.length * STUDENTS_PER_CLASS}`);
}
