// Time to the first run in Chromium: serves the built page (www/dist, from
// `cargo xtask build`) on localhost, opens it in a fresh headless Chromium
// profile and then the same profile again, on WebGPU (auto) and on the CPU
// reference, and prints, per visit, the time from navigation to "ready" and
// the first Run of the preloaded program until its Report.
//   node tools/measure_first_run.mjs
// docs/performance.md ("Time to the first run in Chromium") holds the figures.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "www", "dist");
const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".json": "application/json",
};
const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^\/+/, "");
  const file = join(dist, path || "index.html");
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--enable-unsafe-webgpu"],
});
const settled = () => {
  const s = document.querySelector("#status")?.textContent ?? "";
  return s !== "running…" && s !== "ready";
};
for (const backend of ["auto", "reference"]) {
  const context = await browser.newContext();
  if (backend === "reference") {
    await context.addInitScript(() => localStorage.setItem("tpu-playground:backend", "reference"));
  }
  const page = await context.newPage();
  for (const visit of ["first", "second"]) {
    const loading = Date.now();
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready", null, {
      timeout: 120_000,
    });
    const readyMs = Date.now() - loading;
    const running = Date.now();
    await page.click("#run");
    await page.waitForFunction(settled, null, { timeout: 120_000 });
    const firstRunMs = Date.now() - running;
    const status = await page.textContent("#status");
    console.log(
      JSON.stringify({ backend: await page.textContent("#backend"), visit, readyMs, firstRunMs, status }),
    );
  }
  await context.close();
}
await browser.close();
server.close();
