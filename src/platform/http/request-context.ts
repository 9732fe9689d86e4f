import { AsyncLocalStorage } from "node:async_hooks";

/** What work started by a request (a queued mail) may log about it, without passing the request down. */
const context = new AsyncLocalStorage<{ requestId: string }>();

/** Called once per request by the http plugin, before any handler runs. */
export const enterRequest = (requestId: string) => context.enterWith({ requestId });

/** The id of the request being served, if any. */
export const currentRequestId = () => context.getStore()?.requestId;
