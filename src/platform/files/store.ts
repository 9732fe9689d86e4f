/** One stored object as a listing gives it. */
export type StoredObject = { fileId: string; size: number; modifiedAt: number };

/** Bytes received for a file and not yet published under its name. */
export type Received = {
  size: number;
  /** Makes the bytes the file's (synchronous, so it can run inside the transaction that marks it ready). */
  publish(): void;
  /** Removes the bytes unless they were published. */
  discard(): Promise<void>;
};

/**
 * Where stored files live (docs/rules/storage.md#one-interface): every reader and writer of a
 * file's bytes goes through this, whatever the driver. Names are `(tenantId, fileId)`, both UUIDs.
 */
export interface FileStore {
  readonly kind: "local" | "s3";
  /** The store's URL without credentials, for logs and reports. */
  readonly label: string;
  /**
   * Streams a request body in, counting bytes and holding at most a bounded buffer: stops as soon as
   * the count passes `max`; with `exact` the count must equal it; a body silent for `stallMs` is
   * given up. A failure leaves nothing behind.
   */
  receive(
    tenantId: string,
    fileId: string,
    body: ReadableStream<Uint8Array> | null,
    bound: { max: number; exact?: number },
    stallMs?: number,
  ): Promise<Received>;
  /** Stores bytes under the name at once (restore, import, migrate), streamed; returns the count. */
  put(tenantId: string, fileId: string, source: Blob | ReadableStream<Uint8Array>): Promise<number>;
  /** The stored size, or null when there are no bytes under the name. */
  size(tenantId: string, fileId: string): Promise<number | null>;
  /** A lazy handle on the bytes: `.stream()`, `.slice()`, `.arrayBuffer()` read them when asked. */
  open(tenantId: string, fileId: string): Blob;
  /** A Response body for bytes `start`..`end` (exclusive), streamed. */
  body(tenantId: string, fileId: string, start: number, end: number): Blob | ReadableStream<Uint8Array>;
  remove(tenantId: string, fileId: string): Promise<void>;
  removeTenant(tenantId: string): Promise<void>;
  /** Every object of a tenant, leftovers of failed uploads included (names that are not UUIDs). */
  list(tenantId: string): AsyncGenerator<StoredObject>;
  /** The tenant ids that have any object. */
  tenants(): Promise<string[]>;
}

/** The chunks of a Blob or a stream. */
export const chunksOf = (source: Blob | ReadableStream<Uint8Array>) =>
  (source instanceof ReadableStream ? source : source.stream()) as unknown as AsyncIterable<Uint8Array>;
