import { createHmac, timingSafeEqual } from "node:crypto";

/** Keyed hash (HMAC-SHA256, base64url) used for codes, refresh tokens, cursors and signed URLs. */
export function mac(secret: string, purpose: string, value: string): string {
  return createHmac("sha256", secret).update(purpose).update("\0").update(value).digest("base64url");
}

export function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
