import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { type Config, flag } from "../config";
import { TenantKey } from "../modules/auth/model";
import { inviteFirstOwner } from "../modules/invitations/service";
import { resolveMember } from "../modules/members/actor";
import { memberCount } from "../modules/members/directory";
import { provisionTenantForInvitedOwner } from "../modules/tenant/provision";
import { deleteTenant, registerTenantFile } from "../modules/tenant/transfer";
import { listTenantRows, tenantById, tenantByKey } from "../platform/db/registry";
import { openFileStore } from "../platform/files/open-store";
import { Email } from "../platform/http/schemas";
import { tightenModes } from "../platform/modes";
import { createRuntime, type Runtime } from "../platform/runtime";
import { copyTenant } from "./backup";
import { moveCommand } from "./cluster";
import { readManifest, verifyBackup } from "./restore";
import { CommandError, type Manifest, VERSION } from "./snapshot";

export const TENANT_USAGE = `Tenants:
  learnspace tenant list                               key, name, members, bytes of every tenant
  learnspace tenant create KEY --name NAME --owner-email EMAIL
                                                       a new tenant; its owner gets a link to set a password
  learnspace tenant export KEY --out FILE              one .tar.gz: the tenant file, its stored files, a manifest
  learnspace tenant import FILE [--key NEWKEY]         bring an exported tenant in (an existing key is refused)
  learnspace tenant delete KEY --yes                   remove the tenant, its stored files, directory entries and sessions
  learnspace tenant move KEY --to NODE                 cluster mode: move the school live to another node`;

function withRuntime<T>(config: Config, fn: (rt: Runtime) => T): T {
  const rt = createRuntime({ ...config, quiet: true }, resolveMember);
  let result: T | undefined;
  try {
    result = fn(rt);
    return result;
  } finally {
    // An async step closes the runtime when it has settled, not at its first await.
    if (result instanceof Promise) result.finally(() => rt.close()).catch(() => {});
    else rt.close();
  }
}

function requireTenant(rt: Runtime, key: string | undefined) {
  if (!key) throw new CommandError(`a tenant key is required\n${TENANT_USAGE}`);
  const row = tenantByKey(rt.platform.db, key);
  if (!row) throw new CommandError(`no tenant with key "${key}"`);
  return row;
}

const fileBytes = (path: string) => ["", "-wal"].reduce((n, s) => n + (existsSync(path + s) ? statSync(path + s).size : 0), 0);

function list(config: Config) {
  withRuntime(config, (rt) => {
    const rows = listTenantRows(rt.platform.db);
    console.log(["KEY", "NAME", "MEMBERS", "BYTES"].join("\t"));
    for (const row of rows) {
      const members = rt.tenants.use(row.id, (h) => memberCount(h.db));
      console.log([row.key, row.name, members, fileBytes(rt.tenants.fileOf(row.id))].join("\t"));
    }
    console.log(`${rows.length} tenant(s)`);
  });
}

async function exportTenant(config: Config, key: string | undefined, out: string | undefined) {
  if (!out) throw new CommandError("--out FILE is required");
  const row = withRuntime(config, (rt) => requireTenant(rt, key));
  const target = resolve(out);
  mkdirSync(dirname(target), { recursive: true });
  // Staged beside the archive, not in /tmp: a school's files can outgrow a tmpfs.
  const work = mkdtempSync(join(dirname(target), ".learnspace-export-"));
  try {
    const entry = await copyTenant(config.dataDir, openFileStore(config.dataDir, config.storageUrl), row, work);
    const manifest: Manifest = { format: 1, version: VERSION, createdAt: new Date().toISOString(), platform: null, tenants: [entry] };
    writeFileSync(join(work, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    // manifest.json first: an import reads it before anything else (docs/rules/trust.md#bombs).
    const names = ["manifest.json", ...readdirSync(work).filter((n) => n !== "manifest.json")];
    const tar = await import("tar"); // loaded by the commands that use it, not at every start (docs/rules/performance.md#start)
    await tar.c({ gzip: true, file: target, cwd: work, portable: true }, names);
    console.log(`exported tenant ${row.key} (${entry.files.length} stored file(s)) to ${target} (${statSync(target).size} bytes)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The manifest may list many files, but never needs more than this. */
const MANIFEST_LIMIT = 16 * 1024 * 1024;
/** Room for tar headers and padding beyond the declared bytes. */
const TAR_SLACK = (entries: number) => 1024 * 1024 + 1536 * entries;

/**
 * Streams `file` through gunzip into `sink`, counting the bytes: past `limit` it stops with a refusal;
 * `done()` true stops it with `stop` (the caller has what it needed).
 */
async function untar(file: string, limit: number, sink: NodeJS.WritableStream, done = () => false, stop?: Error) {
  // Loaded here, not at every start: the bundle would load them before anything runs (docs/rules/performance.md#start).
  const [{ Transform }, { pipeline }, { createGunzip }] = await Promise.all([
    import("node:stream"),
    import("node:stream/promises"),
    import("node:zlib"),
  ]);
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, next) {
      seen += chunk.byteLength;
      if (done() && stop) return next(stop);
      next(seen > limit ? new CommandError(`${file} expands beyond what its manifest declares; refused`) : null, chunk);
    },
  });
  await pipeline(createReadStream(file), createGunzip(), counter, sink);
}

/**
 * An import bomb stops early (docs/rules/trust.md#bombs): manifest.json first, then only the files it
 * lists, each at most its declared size ×1.1, the whole stream at most the declared total ×1.1.
 */
async function extractArchive(file: string, work: string): Promise<Manifest> {
  const readable = (e: unknown) => new CommandError(`${file} is not a readable .tar.gz: ${(e as Error).message}`);
  const tar = await import("tar");
  const stop = new Error("manifest read");
  let text: string | null = null;
  let tooBig = false;
  try {
    // Read into memory, never written: stops at manifest.json (an export puts it first).
    const chunks: Buffer[] = [];
    let size = 0;
    const parser = new tar.Parser({
      filter: (path) => path === "manifest.json",
      onReadEntry: (entry) => {
        entry.on("data", (c: Buffer) => {
          size += c.byteLength;
          if (size > MANIFEST_LIMIT) tooBig = true;
          else chunks.push(c);
        });
        entry.on("end", () => {
          text = Buffer.concat(chunks).toString("utf8");
        });
      },
    });
    await untar(file, Number.MAX_SAFE_INTEGER, parser, () => text !== null || tooBig, stop);
  } catch (e) {
    if (e !== stop) throw e instanceof CommandError ? e : readable(e);
  }
  if (tooBig) throw new CommandError(`${file}: manifest.json is larger than ${MANIFEST_LIMIT} bytes; refused`);
  if (text === null) throw new CommandError(`${file} is not a learnspace tenant archive (manifest.json missing)`);
  writeFileSync(join(work, "manifest.json"), text);
  const manifest = readManifest(work);
  const source = manifest.tenants[0];
  if (manifest.tenants.length !== 1 || !source) throw new CommandError(`${file} holds ${manifest.tenants.length} tenants, not one`);
  const id = /^[0-9a-f-]{36}$/;
  if (!id.test(source.id) || source.files.some((f) => !id.test(f.id))) throw new CommandError(`${file}: the manifest names an invalid id`);
  const declared = new Map<string, number>([[`tenants/${source.id}.sqlite`, source.bytes]]);
  for (const f of source.files) declared.set(`files/${source.id}/${f.id}`, f.bytes);
  const total = [...declared.values()].reduce((n, b) => n + b, 0);
  let oversized: string | null = null;
  try {
    await untar(
      file,
      Math.ceil(total * 1.1) + TAR_SLACK(declared.size) + MANIFEST_LIMIT,
      new tar.Unpack({
        cwd: work,
        strict: true,
        // Plain files the manifest lists, no bigger than it says: no links, devices or extra paths.
        filter: (path, entry) => {
          const bytes = declared.get(path);
          if (bytes === undefined || !("type" in entry) || entry.type !== "File") return false;
          if ((entry.size ?? 0) > Math.ceil(bytes * 1.1)) oversized ??= path;
          return oversized === null;
        },
      }),
    );
  } catch (e) {
    throw e instanceof CommandError ? e : readable(e);
  }
  if (oversized) throw new CommandError(`${file}: ${oversized} is larger than its manifest declares; refused`);
  return manifest;
}

async function importTenant(config: Config, file: string | undefined, newKey: string | undefined) {
  if (!file || !existsSync(file)) throw new CommandError(`no archive at ${file ?? "(none given)"}`);
  // Staged inside the data dir's own disk, so the final copies stay on one filesystem.
  mkdirSync(config.dataDir, { recursive: true });
  const work = mkdtempSync(join(config.dataDir, ".import-"));
  try {
    const manifest = await extractArchive(file, work);
    const source = manifest.tenants[0] as Manifest["tenants"][number];
    const problems = await verifyBackup(work, manifest);
    if (problems.length) throw new CommandError(`archive refused, nothing written: ${problems[0]}`);
    const key = newKey ?? source.key;
    if (!Value.Check(TenantKey, key)) throw new CommandError(`--key must be lowercase letters, digits and "-", got "${key}"`);
    await withRuntime(config, async (rt) => {
      if (tenantByKey(rt.platform.db, key)) throw new CommandError(`a tenant with key "${key}" exists here; pass --key NEWKEY`);
      // The same tenant imported twice (under another key) gets a fresh id: ids name files.
      const id = tenantById(rt.platform.db, source.id) || existsSync(rt.tenants.fileOf(source.id)) ? crypto.randomUUID() : source.id;
      const target = rt.tenants.fileOf(id);
      try {
        copyFileSync(join(work, "tenants", `${source.id}.sqlite`), target);
        for (const f of source.files) await rt.files.put(id, f.id, Bun.file(join(work, "files", source.id, f.id)));
        tightenModes(target);
        const info = registerTenantFile(rt, id, key);
        console.log(`imported tenant ${key} ("${info.name}", ${info.members} member e-mail(s), ${source.files.length} stored file(s))`);
      } catch (e) {
        rt.tenants.drop(id);
        for (const s of ["", "-wal", "-shm"]) rmSync(target + s, { force: true });
        await rt.files.removeTenant(id);
        throw e;
      }
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `tenant create`: the operator's way to add a school when sign-up is closed (docs/rules/trust.md#who-may-create-a-tenant). */
async function create(config: Config, key: string | undefined, name: string | undefined, ownerEmail: string | undefined) {
  if (!key || !Value.Check(TenantKey, key)) throw new CommandError(`KEY must be lowercase letters, digits and "-", got "${key ?? ""}"`);
  if (!name?.trim()) throw new CommandError("--name NAME is required");
  if (!ownerEmail || !Value.Check(Email, ownerEmail)) throw new CommandError("--owner-email must be an e-mail address");
  const rt = createRuntime({ ...config, quiet: true }, resolveMember);
  try {
    if (tenantByKey(rt.platform.db, key)) throw new CommandError(`a tenant with key "${key}" exists here`);
    const tenant = provisionTenantForInvitedOwner(rt, { key, name: name.trim(), ownerEmail });
    const { link } = await inviteFirstOwner(rt, tenant, ownerEmail);
    console.log(`created tenant ${key} ("${tenant.name}"); ${ownerEmail} was mailed a link to set the owner's password`);
    if (config.devCodes) console.log(link);
  } finally {
    rt.close();
  }
}

async function remove(config: Config, key: string | undefined, yes: boolean) {
  await withRuntime(config, async (rt) => {
    const row = requireTenant(rt, key);
    if (!yes) {
      throw new CommandError(
        `would delete tenant ${row.key} ("${row.name}") with its file, stored files, directory entries and sessions; pass --yes to do it`,
      );
    }
    await deleteTenant(rt, row);
    console.log(`deleted tenant ${row.key} ("${row.name}")`);
  });
}

/** `learnspace tenant list|export|import|delete …` */
export async function tenantCommand(config: Config, args: string[]): Promise<number> {
  const [sub, target] = args;
  const positional = target?.startsWith("--") ? undefined : target;
  switch (sub) {
    case "list":
      list(config);
      return 0;
    case "create":
      await create(config, positional, flag(args, "name"), flag(args, "owner-email"));
      return 0;
    case "export":
      await exportTenant(config, positional, flag(args, "out"));
      return 0;
    case "import":
      await importTenant(config, positional, flag(args, "key"));
      return 0;
    case "delete":
      await remove(config, positional, args.includes("--yes"));
      return 0;
    case "move":
      return moveCommand(config, positional, flag(args, "to"));
    default:
      console.error(TENANT_USAGE);
      return 2;
  }
}
