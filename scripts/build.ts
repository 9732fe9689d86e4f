// Builds dist/learnspace: one executable with every migration, the /docs assets and the web console inside.
import { dirname, join } from "node:path";
import { $, type BunPlugin } from "bun";
import protobuf from "protobufjs";

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
    compile: { outfile: "dist/learnspace" },
    bytecode: true,
    format: "esm",
    minify: { syntax: true, whitespace: true },
    sourcemap: "linked",
    plugins: [etcdProtocol],
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
