import { writeSync } from "node:fs";

/** Lines are written once this many characters are pending, without waiting for the turn to end. */
const FLUSH_AT = 64 * 1024;

/** Writes all of `text` to stdout; a non-blocking pipe that is full gets the rest through the stream (it queues). */
function writeOut(text: string) {
  const bytes = Buffer.from(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(1, bytes, offset);
  } catch {
    process.stdout.write(bytes.subarray(offset));
  }
}

let pending = "";
let scheduled = false;
let hooked = false;

function flush() {
  scheduled = false;
  if (pending === "") return;
  const text = pending;
  pending = "";
  writeOut(text);
}

/** The log of a quiet server (LEARNSPACE_QUIET): the access log skips what only its line needs (docs/rules/performance.md#logging). */
export const silentLog = (_line: object): void => {};

/**
 * The server's log: one JSON line per event on stdout, in batches: the lines of one event-loop turn
 * leave in one write instead of one synchronous write each (docs/rules/performance.md#logging). What
 * is pending is written at exit too, so the lines before a crash are not lost.
 */
export function createLog(): (line: object) => void {
  if (!hooked) {
    hooked = true;
    process.on("exit", flush);
  }
  return (line) => {
    pending += `${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`;
    if (pending.length >= FLUSH_AT) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}
