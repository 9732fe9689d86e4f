import type { Database } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { trackRequestFiles } from "../db/group-commit";

/**
 * What work started by a request (a queued mail) may log about it, without passing the request down,
 * and the SQLite files the request touched: its answer waits for their pending commits only
 * (docs/rules/performance.md#durability).
 */
const context = new AsyncLocalStorage<{ requestId: string; files: Set<Database> }>();

trackRequestFiles(() => context.getStore()?.files);

/** Called once per request by the http plugin, before any handler runs. */
export const enterRequest = (requestId: string) => context.enterWith({ requestId, files: new Set() });

/** The id of the request being served, if any. */
export const currentRequestId = () => context.getStore()?.requestId;
