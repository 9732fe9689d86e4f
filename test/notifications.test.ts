import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { FAN_OUT, forgetNotifications, notify } from "../src/modules/notifications/emit";
import { runDue } from "../src/modules/notifications/schedule";
import { notificationJobs } from "../src/modules/notifications/tables";
import { write } from "../src/platform/db/types";
import { useContentSpace } from "./helpers/fixture";
import { createMemberFixture, eventually, expectProblem, fieldOf, unauth, useServer } from "./helpers/server";

const api = useServer();
const fx = useContentSpace(api, { spaceName: "Notices", participants: ["Ann", "Ben", "Cho", "Dee"] });
const as = api.as;

const inbox = async (who: { token: string }, query = "") => {
  const res = await as(who).get(`/me/notifications${query}`);
  expect(res.status).toBe(200);
  return res.body as { notifications: any[]; unreadCount: number; nextCursor: string | null };
};
const kindsFor = async (who: { token: string }, recordId: string) =>
  (await inbox(who)).notifications.filter((n) => n.recordId === recordId).map((n) => n.kind as string);

/** Every mail in the outbox to an address, oldest first. */
function mailsTo(address: string): { to: string; subject: string; text: string; html: string; headers?: Record<string, string> }[] {
  const dir = join(api.server.dataDir, "outbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json") && statSync(join(dir, f)).isFile())
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")))
    .filter((m) => m.to === address.toLowerCase());
}

describe("POST kinds — who gets a post", () => {
  test("every active enrolled member but the author; not the inactive, the blocked, the un-enrolled or an outsider", async () => {
    const [ann, ben, cho, dee] = fx.participants;
    expect((await as(fx.owner).patch(`/members/${cho.memberId}`, { isActive: false })).status).toBe(200);
    expect((await as(fx.owner).post(`/spaces/${fx.spaceId}/blocks`, { userId: dee.memberId })).status).toBe(201);
    const post = await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Field trip", content: "Bring lunch" });
    expect(post.status).toBe(201);
    expect(await kindsFor(ann, post.body.id)).toEqual(["POST"]);
    expect(await kindsFor(ben, post.body.id)).toEqual(["POST"]);
    expect(await kindsFor(fx.admin2, post.body.id)).toEqual(["POST"]);
    expect(await kindsFor(fx.owner, post.body.id)).toEqual([]);
    expect(await kindsFor(fx.outsider, post.body.id)).toEqual([]);
    expect(await kindsFor(dee, post.body.id)).toEqual([]);
    const [item] = (await inbox(ann)).notifications;
    expect(item).toMatchObject({
      kind: "POST",
      spaceId: fx.spaceId,
      spaceName: "Notices",
      recordType: "POST",
      titleKo: "Field trip",
      bodyPreview: "Bring lunch",
      readAt: null,
    });
    expect(item.url).toBe(`/spaces?space=${fx.spaceId}&tab=stream&post=${post.body.id}`);
    // Editing the post does not notify again.
    expect((await as(fx.owner).patch(`/posts/${post.body.id}`, { title: "Field trip (rain)" })).status).toBe(200);
    expect(await kindsFor(ann, post.body.id)).toEqual(["POST"]);
  });

  test("an emergency post is EMERGENCY and mailed at once, whatever the settings", async () => {
    const ann = fx.participants[0];
    expect((await as(ann).patch("/me/notification-settings", { email: "OFF" })).status).toBe(200);
    const post = await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "School closed", content: "Snow", isEmergency: true });
    expect(await kindsFor(ann, post.body.id)).toEqual(["EMERGENCY"]);
    await eventually(() => mailsTo(ann.email).some((m) => m.subject.includes("School closed")));
    const mail = mailsTo(ann.email).find((m) => m.subject.includes("School closed"));
    expect(mail?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail?.headers?.["List-Unsubscribe"]).toMatch(/^<http.*\/api\/v1\/public\/notification-unsubscribe\?token=/);
    expect(mail?.text).toContain(`/spaces?space=${fx.spaceId}`);
    expect((await as(ann).patch("/me/notification-settings", { email: "DIGEST" })).status).toBe(200);
  });

  test("a scheduled post notifies when its publishAt comes, once, and not before", async () => {
    const ben = fx.participants[1];
    const at = Date.now() + 3_600_000;
    const post = await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Later", publishAt: new Date(at).toISOString() });
    expect(post.body.status).toBe("SCHEDULED");
    await runDue(api.server.rt);
    expect(await kindsFor(ben, post.body.id)).toEqual([]);
    api.server.rt.now = () => at + 1;
    try {
      await runDue(api.server.rt);
      await runDue(api.server.rt);
    } finally {
      api.server.rt.now = () => Date.now();
    }
    expect(await kindsFor(ben, post.body.id)).toEqual(["POST"]);
  });

  test("a deleted scheduled post takes its pending notification with it", async () => {
    const ben = fx.participants[1];
    const at = Date.now() + 3_600_000;
    const post = await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Never", publishAt: new Date(at).toISOString() });
    expect((await as(fx.owner).del(`/posts/${post.body.id}`)).status).toBe(204);
    api.server.rt.now = () => at + 1;
    try {
      await runDue(api.server.rt);
    } finally {
      api.server.rt.now = () => Date.now();
    }
    expect(await kindsFor(ben, post.body.id)).toEqual([]);
  });
});

describe("fan-out over FAN_OUT.inlineMax — a job after the commit", () => {
  const lowered = async (fn: () => Promise<void>) => {
    const inlineMax = FAN_OUT.inlineMax;
    FAN_OUT.inlineMax = 1;
    try {
      await fn();
    } finally {
      FAN_OUT.inlineMax = inlineMax;
    }
  };

  test("over the bound, notify writes one FANOUT job instead of the items; the job gives the same people the post, once", async () => {
    const [ann, ben] = fx.participants;
    await lowered(async () => {
      const scope = { tenantId: fx.owner.tenantId };
      // In one transaction, as the post's would: nothing is written for the members, one FANOUT job is.
      const recordId = Bun.randomUUIDv7();
      const input = { kind: "POST" as const, spaceId: fx.spaceId, recordType: "POST", recordId, titleKo: "M", titleEn: "M", url: "/x" };
      const jobs = api.server.rt.tenants.use(scope.tenantId, (h) =>
        write(h.db, (tx) => {
          expect(notify(tx, scope, { ...input, actorMemberId: fx.owner.memberId })).toBe(0);
          return tx.select().from(notificationJobs).where(eq(notificationJobs.recordId, recordId)).all();
        }),
      );
      expect(jobs.map((j) => j.kind.split(":")[0])).toEqual(["FANOUT"]);

      const post = await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Many", content: "Deferred" });
      expect(post.status).toBe(201);
      await eventually(async () => (await kindsFor(ben, post.body.id)).length > 0);
      await runDue(api.server.rt);
      await runDue(api.server.rt);
      for (const who of [ann, ben, fx.admin2]) expect(await kindsFor(who, post.body.id)).toEqual(["POST"]);
      expect(await kindsFor(fx.owner, post.body.id)).toEqual([]);
      expect(await kindsFor(fx.outsider, post.body.id)).toEqual([]);
      await eventually(async () => (await kindsFor(ann, recordId)).length > 0);
      expect(await kindsFor(ann, recordId)).toEqual(["POST"]);
    });
  });

  test("a record deleted before its fan-out ran takes the waiting job with it", async () => {
    const [ann, ben] = fx.participants;
    await lowered(async () => {
      const scope = { tenantId: fx.owner.tenantId };
      const recordId = Bun.randomUUIDv7();
      api.server.rt.tenants.use(scope.tenantId, (h) =>
        write(h.db, (tx) => {
          const input = {
            kind: "COMMENT" as const,
            spaceId: fx.spaceId,
            recordType: "COMMENT",
            recordId,
            titleKo: "C",
            titleEn: "C",
            url: "/x",
          };
          notify(tx, scope, { ...input, recipients: [ann.memberId, ben.memberId] });
          forgetNotifications(tx, scope, fx.spaceId, "COMMENT", [recordId]);
          expect(tx.select().from(notificationJobs).where(eq(notificationJobs.recordId, recordId)).all()).toEqual([]);
        }),
      );
      await runDue(api.server.rt);
      expect(await kindsFor(ann, recordId)).toEqual([]);
    });
  });
});

describe("GET /api/v1/me/notifications — listMyNotifications", () => {
  test("newest first with keyset pages, unreadOnly and the unread count", async () => {
    const ben = fx.participants[1];
    for (const title of ["P1", "P2", "P3"]) await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title });
    // (The scheduled post's item, made at a moved clock, is newer still.)
    const first = await inbox(ben, "?limit=3");
    expect(first.notifications.map((n) => n.titleEn)).toEqual(["Later", "P3", "P2"]);
    expect(first.nextCursor).not.toBeNull();
    const second = await inbox(ben, `?limit=2&cursor=${encodeURIComponent(first.nextCursor as string)}`);
    expect(second.notifications[0].titleEn).toBe("P1");
    expect(first.unreadCount).toBeGreaterThanOrEqual(4);
  });

  test("a cursor of another filter is 400; limit bounds are 400; no token is 401", async () => {
    const ben = fx.participants[1];
    const page = await inbox(ben, "?limit=1");
    expect(fieldOf(await as(ben).get(`/me/notifications?unreadOnly=true&cursor=${encodeURIComponent(page.nextCursor as string)}`))).toBe(
      "cursor",
    );
    expect(fieldOf(await as(ben).get("/me/notifications?limit=0"))).toBe("limit");
    expect(fieldOf(await as(ben).get("/me/notifications?limit=101"))).toBe("limit");
    expect(fieldOf(await as(ben).get("/me/notifications?unreadOnly=yes"))).toBe("unreadOnly");
    unauth(await api.anon("GET", "/me/notifications"));
  });

  test("another tenant's member sees none of these", async () => {
    const stranger = await createMemberFixture(api.server, fx.other);
    expect((await inbox(stranger)).notifications).toEqual([]);
    expect((await inbox(fx.other)).notifications).toEqual([]);
  });
});

describe("POST /api/v1/me/notifications/mark-read — markNotificationsRead", () => {
  test("ids mark those (another member's are ignored); all marks the rest", async () => {
    const [ann, ben] = fx.participants;
    const bens = await inbox(ben);
    const anns = await inbox(ann);
    const mine = bens.notifications[0].id;
    const res = await as(ben).post("/me/notifications/mark-read", { ids: [mine, anns.notifications[0].id] });
    expect(res.status).toBe(204);
    const after = await inbox(ben);
    expect(after.unreadCount).toBe(bens.unreadCount - 1);
    expect(after.notifications.find((n) => n.id === mine)?.readAt).toMatch(/Z$/);
    expect((await inbox(ann)).unreadCount).toBe(anns.unreadCount);
    expect((await inbox(ben, "?unreadOnly=true")).notifications.some((n) => n.id === mine)).toBe(false);
    expect((await as(ben).post("/me/notifications/mark-read", { all: true })).status).toBe(204);
    expect((await inbox(ben)).unreadCount).toBe(0);
  });

  test("exactly one of ids and all; ids 1..100", async () => {
    const ben = fx.participants[1];
    expect(fieldOf(await as(ben).post("/me/notifications/mark-read", {}))).toBe("ids");
    expect(fieldOf(await as(ben).post("/me/notifications/mark-read", { ids: ["x"], all: true }))).toBe("all");
    expect(fieldOf(await as(ben).post("/me/notifications/mark-read", { ids: [] }))).toBe("ids");
    expect(fieldOf(await as(ben).post("/me/notifications/mark-read", { ids: Array.from({ length: 101 }, (_, i) => `${i}`) }))).toBe("ids");
    expect(fieldOf(await as(ben).post("/me/notifications/mark-read", { all: false }))).toBe("all");
    unauth(await api.anon("POST", "/me/notifications/mark-read", { all: true }));
  });
});

describe("GET/PATCH /api/v1/me/notification-settings", () => {
  test("defaults, a change seen by a later read, and each bound", async () => {
    const ben = fx.participants[1];
    const got = await as(ben).get("/me/notification-settings");
    expect(got.body).toEqual({
      email: "DIGEST",
      digestHour: 17,
      language: "ko",
      kinds: {
        POST: true,
        CONTENT: true,
        DUE_SOON: true,
        CHALLENGE_REMINDER: true,
        GRADE_RETURNED: true,
        QUESTION: true,
        COMMENT: true,
        MESSAGE: true,
        GUARDIAN: true,
      },
    });
    const patched = await as(ben).patch("/me/notification-settings", {
      email: "IMMEDIATE",
      digestHour: 7,
      kinds: { POST: false },
      language: "en",
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ email: "IMMEDIATE", digestHour: 7, language: "en", kinds: { POST: false, CONTENT: true } });
    expect((await as(ben).get("/me/notification-settings")).body).toEqual(patched.body);
    expect(fieldOf(await as(ben).patch("/me/notification-settings", { digestHour: 24 }))).toBe("digestHour");
    expect(fieldOf(await as(ben).patch("/me/notification-settings", { digestHour: -1 }))).toBe("digestHour");
    expect(fieldOf(await as(ben).patch("/me/notification-settings", { email: "WEEKLY" }))).toBe("email");
    expect(fieldOf(await as(ben).patch("/me/notification-settings", { kinds: { POST: "no" } }))).toBe("kinds.POST");
    unauth(await api.anon("GET", "/me/notification-settings"));
    unauth(await api.anon("PATCH", "/me/notification-settings", { email: "OFF" }));
    await as(ben).patch("/me/notification-settings", { email: "DIGEST", digestHour: 17, kinds: { POST: true }, language: "ko" });
  });
});

describe("POST /api/v1/public/notification-unsubscribe — unsubscribeNotificationEmail", () => {
  test("the mail's link turns e-mail OFF without signing in; GET only shows a page; a forged token is 400", async () => {
    const ann = fx.participants[0];
    const mail = mailsTo(ann.email).find((m) => m.headers?.["List-Unsubscribe"]);
    const url = new URL(String(mail?.headers?.["List-Unsubscribe"]).slice(1, -1));
    const token = url.searchParams.get("token") as string;
    const page = await api.call("GET", `${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect((await as(ann).get("/me/notification-settings")).body.email).toBe("DIGEST");
    const res = await api.call("POST", `${url.pathname}${url.search}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: "OFF" });
    expect((await as(ann).get("/me/notification-settings")).body.email).toBe("OFF");
    const forged = `${token.slice(0, -4)}AAAA`;
    expectProblem(await api.anon("POST", `/public/notification-unsubscribe?token=${encodeURIComponent(forged)}`), 400, "VALIDATION_FAILED");
    expectProblem(await api.anon("POST", "/public/notification-unsubscribe?token=nonsense"), 400, "VALIDATION_FAILED");
    expect(fieldOf(await api.anon("POST", "/public/notification-unsubscribe"))).toBe("token");
  });
});

describe("PATCH /api/v1/tenant — timeZone", () => {
  test("defaults to Asia/Seoul, takes an IANA name, refuses an unknown one", async () => {
    expect((await as(fx.owner).get("/tenant")).body.timeZone).toBe("Asia/Seoul");
    const res = await as(fx.owner).patch("/tenant", { timeZone: "Europe/Berlin" });
    expect(res.body.timeZone).toBe("Europe/Berlin");
    expect(fieldOf(await as(fx.owner).patch("/tenant", { timeZone: "Mars/Olympus" }))).toBe("timeZone");
    await as(fx.owner).patch("/tenant", { timeZone: "Asia/Seoul" });
  });
});
