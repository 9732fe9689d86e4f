/**
 * node:crypto, loaded on its first use: loading it loads node:stream (its hashes and ciphers are
 * streams), ~2.5 ms of every start, and nothing a start does needs it (docs/rules/performance.md#start).
 * The start's own hashing and random bytes use Bun's hasher and Web Crypto.
 */
let loaded: typeof import("node:crypto") | undefined;
export const nodeCrypto = (): typeof import("node:crypto") => (loaded ??= require("node:crypto") as typeof import("node:crypto"));

/** Keyed hash (HMAC-SHA256, base64url) used for codes, refresh tokens, cursors and signed URLs. */
export function mac(secret: string, purpose: string, value: string): string {
  return nodeCrypto().createHmac("sha256", secret).update(purpose).update("\0").update(value).digest("base64url");
}

export function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && nodeCrypto().timingSafeEqual(x, y);
}

/** AES-256-GCM key for one purpose, derived from the server secret. */
const sealKey = (secret: string, purpose: string) => nodeCrypto().createHmac("sha256", secret).update("seal\0").update(purpose).digest();

/** Encrypts a small value at rest (AES-256-GCM, random IV): base64url of iv | tag | ciphertext. */
export function seal(secret: string, purpose: string, plain: string): string {
  const iv = nodeCrypto().randomBytes(12);
  const cipher = nodeCrypto().createCipheriv("aes-256-gcm", sealKey(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** The plain value of `seal`; throws when the value was not sealed with this secret and purpose. */
export function unseal(secret: string, purpose: string, sealed: string): string {
  const raw = Buffer.from(sealed, "base64url");
  const decipher = nodeCrypto().createDecipheriv("aes-256-gcm", sealKey(secret, purpose), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
