// A bare Elysia route: the ceiling the full stack is compared with.
import { Elysia } from "elysia";

new Elysia().get("/bare", () => ({ status: "ok" })).listen({ port: Number(process.env.PORT), reusePort: false });
