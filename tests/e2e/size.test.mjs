// The page's first download: its wasm module, gzipped as a server would send
// it, stays within the 5 MB budget (docs/performance.md, "Size").
// Reads the page build in www/dist, so it fails if the budget is outgrown,
// whatever grew it. Measured with `gzip -9`, as docs/performance.md states
// it (Node's own zlib compresses this module about 3% worse).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";

const assets = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "www", "dist", "assets");
const BUDGET = 5_000_000;

test("the page's wasm module gzips to at most 5 MB", async () => {
  const modules = (await readdir(assets)).filter((f) => f.endsWith(".wasm"));
  assert.equal(modules.length, 1, `one wasm module in www/dist/assets: ${modules}`);
  const bytes = await readFile(join(assets, modules[0]));
  const gzipped = execFileSync("gzip", ["-9", "-c", join(assets, modules[0])], {
    maxBuffer: 64 * 1024 * 1024,
  }).length;
  console.log(`wasm module: ${bytes.length} bytes, ${gzipped} gzipped (budget ${BUDGET}; measured)`);
  assert.ok(gzipped <= BUDGET, `${gzipped} bytes gzipped, over the ${BUDGET}-byte budget`);
});
