// Builds dist/learnspace: one executable with every migration, the /docs assets and the web console inside.
import { isBuiltin } from "node:module";
import { dirname, join } from "node:path";
import { $, type BunPlugin } from "bun";
import protobuf from "protobufjs";
import { START_JIT_POLICY } from "../src/platform/jit";

/**
 * etcd3 (cluster mode, docs/rules/cluster.md) reads its gRPC protocol from `node_modules/etcd3/proto/*.proto`
 * when it loads, by a path fixed at build time, which a binary on another machine does not have. The
 * binary gets the protocol inside instead: parsed here as etcd3 parses it (keepCase), its JSON handed
 * to proto-loader's `fromJSON` in place of `loadSync` (same package definition, no file read).
 */
const etcdProtocol: BunPlugin = {
  name: "etcd3-protocol-inside",
  setup(build) {
    build.onLoad({ filter: /[\\/]etcd3[\\/]lib[\\/]connection-pool\.js$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      const call = /\(0, proto_loader_1\.loadSync\)\(`\$\{__dirname\}\/\.\.\/proto\/rpc\.proto`,/;
      if (!call.test(source)) throw new Error(`${path}: etcd3 no longer loads proto/rpc.proto this way; update scripts/build.ts`);
      const root = new protobuf.Root().loadSync(join(dirname(path), "../proto/rpc.proto"), { keepCase: true });
      const json = JSON.stringify(root.toJSON());
      return { contents: source.replace(call, () => `(0, proto_loader_1.fromJSON)(${json},`), loader: "js" };
    });
  },
};

/**
 * Bun's bundler hoists every static import of a Node built-in to the top of the bundle, so a built-in
 * that only a lazily loaded package imports is loaded at every start all the same: tty for
 * supports-color (which debug requires when it is first used), zlib, stream, string_decoder and
 * assert for tar (`await import("tar")` in the CLI commands that pack), ~4 % of a cold start's main
 * thread (docs/rules/performance.md#start). In those packages' files the built-in imports become
 * `require` calls where they stand: they run when the package is first evaluated.
 */
const LAZY_PACKAGES = /[\\/]node_modules[\\/](supports-color[\\/]index\.js|tar[\\/]dist[\\/]esm[\\/]index\.min\.js)$/;
const IMPORT = /import\s*(?:([\w$]+)|\*\s*as\s+([\w$]+)|\{([^}]*)\})\s*from\s*(["'])([\w:/]+)\4;?/g;
const lazyBuiltins: BunPlugin = {
  name: "lazy-builtins",
  setup(build) {
    build.onLoad({ filter: LAZY_PACKAGES }, async ({ path }) => {
      let count = 0;
      const source = (await Bun.file(path).text()).replace(IMPORT, (all, name, namespace, named, _q, module) => {
        if (!isBuiltin(module)) return all;
        count++;
        const binding = name ?? namespace ?? `{${(named as string).replace(/\s+as\s+/g, ":")}}`;
        return `const ${binding}=require(${JSON.stringify(module)});`;
      });
      const left = source
        .match(/(?:^|[;\s])import\s*[\w${*][^;]*?from\s*["'](?:node:)?[a-z_/]+["']/g)
        ?.filter((i) => isBuiltin(i.replace(/^.*from\s*["']|["']$/g, "")));
      if (!count || left?.length) throw new Error(`${path}: its built-in imports changed shape; update scripts/build.ts lazyBuiltins`);
      return { contents: source, loader: "js" };
    });
  },
};

await $`bun scripts/embed-migrations.ts`;
await $`node_modules/.bin/vite build web --logLevel warn`;
await $`bun scripts/compress-web.ts`;
await $`bun scripts/embed-web.ts`;
try {
  // The Workers' modules (the similarity check, password hashing) are more entrypoints: new Worker
  // needs them in the binary's file system (src/platform/threads.ts workerModule).
  // ESM: the PDF reader (pdfjs, through unpdf) uses import.meta and top-level await, which CJS bytecode cannot hold.
  const result = await Bun.build({
    entrypoints: ["src/main.ts", "src/modules/similarity/worker.ts", "src/platform/auth/hash-worker.ts"],
    compile: {
      outfile: "dist/learnspace",
      jitPolicy: Number(process.env.LS_JIT_POLICY ?? START_JIT_POLICY),
    },
    bytecode: true,
    format: "esm",
    minify: { syntax: true, whitespace: true },
    sourcemap: "linked",
    plugins: [etcdProtocol, lazyBuiltins],
  });
  if (!result.success) {
    for (const line of result.logs) console.error(line);
    throw new Error("bun build failed");
  }
} finally {
  // The checkout keeps the empty stub: a test run serves web/dist from disk instead.
  await $`bun scripts/embed-web.ts --reset`;
}
console.log("built dist/learnspace");
