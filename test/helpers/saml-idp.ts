import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A self-signed RSA key and certificate made with the openssl CLI, for a test IdP. */
export function makeIdpKeyPair(cn = "test-idp") {
  const dir = mkdtempSync(join(tmpdir(), "learnspace-idp-"));
  try {
    const res = Bun.spawnSync([
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-sha256",
      "-days",
      "2",
      "-subj",
      `/CN=${cn}`,
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ]);
    if (res.exitCode !== 0) throw new Error(`openssl failed: ${res.stderr.toString()}`);
    const certPem = readFileSync(join(dir, "cert.pem"), "utf8");
    const keyPem = readFileSync(join(dir, "key.pem"), "utf8");
    const certBody = certPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
    return { certPem, keyPem, certBody };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
