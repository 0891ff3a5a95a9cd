// The wasm reference backend's speed in Chromium at 1 and 2 threads (the
// runtime's worker alone, then with one helper worker for the large matrix
// products): `tpu bench`'s three workloads at its full sizes, per step, in
// Strict and Fused mode, measured as `tpu bench` measures (a run of 1 step
// and one of 1 + STEPS, the difference per extra step, after one untimed
// run), through the npm package's API (web/dist, from `cargo xtask build`),
// served from the repository on localhost. Compare with the native
// reference: `TPU_THREADS=N tpu bench --backend cpu`.
//   node tools/measure_threads.mjs [STEPS] [THREADS,...]
// docs/performance.md ("In Chromium") holds the figures.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const steps = Number(process.argv[2] ?? 2);
const threadCounts = (process.argv[3] ?? "1,2").split(",").map(Number);
const bench = join(root, "crates", "tpu-cli", "src", "bench");
// tpu bench's full sizes (crates/tpu-cli/src/bench.rs).
const WORKLOADS = [
  ["mlp_train_step", "mlp.py", "BATCH = 256\nD_IN = 512\nD_HIDDEN = 2048\n"],
  ["transformer_block_fwd_bwd", "transformer.py", "BATCH = 8\nTOKENS = 128\nWIDTH = 256\nHEADS = 4\n"],
  ["cnn_train_step", "cnn.py", "BATCH = 32\nCH = 32\nSIZE = 32\n"],
];

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
<script type="module">
import { createPlayground } from "/web/dist/index.js";
window.open_ = async (threads) => { window.p = await createPlayground({ backend: "reference", threads }); return window.p.threads; };
window.timed = async (source, mode) => {
  const started = performance.now();
  const report = await window.p.run(source, { mode });
  if (report.error) throw new Error(JSON.stringify(report.error));
  return performance.now() - started;
};
window.ready = true;
</script></body></html>`;
const TYPES = { ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
  if (path === "/") {
    res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
    return;
  }
  try {
    const file = join(root, path);
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-dev-shm-usage"],
});
try {
  for (const threads of threadCounts) {
    const page = await browser.newPage();
    page.on("pageerror", (e) => console.error(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.ready === true);
    const got = await page.evaluate((t) => window.open_(t), threads);
    for (const [name, file, sizes] of WORKLOADS) {
      const body = await readFile(join(bench, file), "utf8");
      const program = (n) => `STEPS = ${n}\nCOMPILED = False\n${sizes}${body}`;
      const figures = [];
      for (const mode of ["strict", "fused"]) {
        const run = (n) => page.evaluate(([s, m]) => window.timed(s, m), [program(n), mode]);
        await run(1);
        const short = await run(1);
        const long = await run(1 + steps);
        figures.push(`${mode} ${((long - short) / steps).toFixed(1).padStart(8)} ms/step`);
      }
      console.log(`${name.padEnd(28)} wasm reference, ${got} thread${got > 1 ? "s" : " "}  ${figures.join("  ")}`);
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
