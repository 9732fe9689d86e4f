// Precompresses web/dist at build time (docs/rules/console.md#compression): next to each text asset a
// `.br` (brotli, quality 11) and a `.gz` (gzip, level 9), kept only when smaller. The console module serves
// them with Content-Encoding by the request's Accept-Encoding, so no request pays for compression.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = join(import.meta.dir, "..", "web", "dist");
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map|webmanifest)$/;

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));

let written = 0;
let before = 0;
let after = 0;
for (const file of files(dist).filter((f) => COMPRESSIBLE.test(f))) {
  const raw = readFileSync(file);
  const br = brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
  const gz = gzipSync(raw, { level: 9 });
  before += raw.length;
  after += Math.min(raw.length, br.length);
  if (br.length < raw.length) {
    writeFileSync(`${file}.br`, br);
    written++;
  }
  if (gz.length < raw.length) {
    writeFileSync(`${file}.gz`, gz);
    written++;
  }
}
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
console.log(`precompressed ${written} files in ${statSync(dist).isDirectory() ? "web/dist" : dist}: ${kb(before)} → ${kb(after)} brotli`);
