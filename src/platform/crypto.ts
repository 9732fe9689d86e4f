import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Keyed hash (HMAC-SHA256, base64url) used for codes, refresh tokens, cursors and signed URLs. */
export function mac(secret: string, purpose: string, value: string): string {
  return createHmac("sha256", secret).update(purpose).update("\0").update(value).digest("base64url");
}

export function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** AES-256-GCM key for one purpose, derived from the server secret. */
const sealKey = (secret: string, purpose: string) => createHmac("sha256", secret).update("seal\0").update(purpose).digest();

/** Encrypts a small value at rest (AES-256-GCM, random IV): base64url of iv | tag | ciphertext. */
export function seal(secret: string, purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** The plain value of `seal`; throws when the value was not sealed with this secret and purpose. */
export function unseal(secret: string, purpose: string, sealed: string): string {
  const raw = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", sealKey(secret, purpose), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
