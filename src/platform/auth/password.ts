/** OWASP's argon2id minimum (19 MiB, t=2, p=1): ~4x cheaper than Bun's default and still compliant. */
const PARAMS = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;
const CURRENT = "$argon2id$v=19$m=19456,t=2,p=1$";

export const hashPassword = (password: string) => Bun.password.hash(password, PARAMS);

/**
 * A generated password has ~93 random bits, so a costly hash buys nothing against guessing it:
 * a light argon2id (~1 ms) keeps bulk creation fast; the first sign-in rehashes it (needsRehash).
 */
const GENERATED = { algorithm: "argon2id", memoryCost: 1024, timeCost: 1 } as const;
export const hashGeneratedPassword = (password: string) => Bun.password.hash(password, GENERATED);

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash) return false;
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}

/** A stored hash with other parameters is upgraded on the next successful sign-in. */
export const needsRehash = (hash: string) => !hash.startsWith(CURRENT);
