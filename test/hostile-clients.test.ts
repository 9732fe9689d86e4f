import { afterAll, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { useServer } from "./helpers/server";

// A request may take 2 s here (LEARNSPACE_REQUEST_TIMEOUT), so that the test sees it enforced.
const s = useServer({}, { LEARNSPACE_REQUEST_TIMEOUT: "2" });

const sockets: Socket[] = [];
const timers: ReturnType<typeof setInterval>[] = [];
afterAll(() => {
  for (const t of timers) clearInterval(t);
  for (const so of sockets) so.destroy();
});

/** A raw connection that sends `head` at once, then `drip` every `everyMs`; resolves `closed` when the server hangs up. */
function hostile(head: string, drip = "", everyMs = 200) {
  const port = Number(new URL(s.url).port);
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.on("connect", () => {
    if (head) socket.write(head);
    if (drip) timers.push(setInterval(() => socket.writable && socket.write(drip), everyMs));
  });
  return { socket, closed };
}

describe("slow and hostile clients", () => {
  test("idle connections, slow headers, slow and endless bodies do not stop the server answering others; endless bodies are cut", async () => {
    const idle = Array.from({ length: 200 }, () => hostile(""));
    const slowHeaders = Array.from({ length: 20 }, () => hostile("GET /api/v1/me HTTP/1.1\r\nHost: x\r\n", "X-a: b\r\n"));
    const endless = Array.from({ length: 5 }, () =>
      hostile(
        "POST /api/v1/auth/sign-up HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n",
        "1\r\n \r\n",
      ),
    );
    const slowBody = Array.from({ length: 5 }, () =>
      hostile(
        "POST /api/v1/auth/sign-up HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{",
        " ",
        500,
      ),
    );
    expect(idle.length + slowHeaders.length).toBe(220);
    // Everyone else is still answered, while all of the above hold their connections.
    for (let i = 0; i < 20; i++) {
      const res = await s.anon("POST", "/auth/sign-in/password", { identifier: `x${i}@example.com`, password: "wrong-password" });
      expect(res.status).toBe(401);
      expect((await s.call("GET", "/healthz")).status).toBe(200);
    }
    // A body that never ends (or trickles forever) is cut by the request timeout.
    await Promise.all([...endless, ...slowBody].map((c) => c.closed));
  }, 30_000);
});
