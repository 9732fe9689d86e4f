import type { S3Options } from "bun";

/** An S3 location: bucket, key prefix and the options Bun's S3Client takes. */
export type S3Location = { bucket: string; prefix: string; options: S3Options; label: string };

type Env = Record<string, string | undefined>;

/**
 * `s3://bucket[/prefix]?endpoint=https://…&region=…` with credentials from the environment
 * (docs/rules/storage.md#s3-urls): `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`/`AWS_SESSION_TOKEN`
 * or `S3_ACCESS_KEY_ID`/`S3_SECRET_ACCESS_KEY`/`S3_SESSION_TOKEN`; the endpoint and region may also
 * come from `AWS_ENDPOINT_URL`/`S3_ENDPOINT` and `AWS_REGION`/`S3_REGION`. Credentials in the URL
 * are refused: a URL is printed in logs.
 */
export function parseS3Url(raw: string, env: Env = process.env): S3Location {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error("must be an s3://bucket?endpoint=…&region=… URL");
  }
  if (u.protocol !== "s3:" || !u.hostname) throw new Error("must be an s3://bucket?endpoint=…&region=… URL");
  if (u.username || u.password) throw new Error("must not hold credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)");
  const endpoint = u.searchParams.get("endpoint") ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? env.S3_ENDPOINT ?? undefined;
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) throw new Error("endpoint must be an http:// or https:// URL");
  const region = u.searchParams.get("region") ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? env.S3_REGION ?? "us-east-1";
  const prefix = decodeURIComponent(u.pathname.replace(/^\/+/, "")).replace(/\/*$/, "");
  const options: S3Options = {
    bucket: u.hostname,
    region,
    endpoint,
    accessKeyId: env.AWS_ACCESS_KEY_ID ?? env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? env.S3_SECRET_ACCESS_KEY,
    sessionToken: env.AWS_SESSION_TOKEN ?? env.S3_SESSION_TOKEN,
    virtualHostedStyle: u.searchParams.get("style") === "virtual",
  };
  const label = `s3://${u.hostname}${prefix ? `/${prefix}` : ""}${endpoint ? ` at ${endpoint}` : ""}`;
  return { bucket: u.hostname, prefix: prefix ? `${prefix}/` : "", options, label };
}
