// What every end-to-end test file shares: a static server for www/dist (or
// PAGE_URL), headless Chromium (playwright-core driving /usr/bin/chromium with
// WebGPU on SwiftShader), and helpers that drive the page as a user would.
// Screenshots land in tests/artifacts/.
import { before, after } from "node:test";
import { createServer } from "node:http";
import { readFile, mkdir } from "node:fs/promises";
import { extname, join, normalize, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, "..", "..");
const dist = join(root, "www", "dist");
export const artifacts = join(root, "tests", "artifacts");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

let server;
export let browser;
export let baseUrl;

/** Serves `dir` over HTTP at `prefix` (as GitHub Pages serves a project at
 * `/<project>/`; anything outside it is not found); resolves to its base URL
 * and a closer. */
export function serveDir(dir, prefix = "/") {
  return new Promise((resolve) => {
    const s = createServer(async (req, res) => {
      const full = decodeURIComponent(new URL(req.url, "http://x").pathname);
      if (!full.startsWith(prefix)) {
        res.writeHead(404).end("not found");
        return;
      }
      const path = normalize(`/${full.slice(prefix.length)}`).replace(/^\/+/, "");
      const file = join(dir, path === "" || path.endsWith("/") ? join(path, "index.html") : path);
      if (!file.startsWith(dir)) {
        res.writeHead(403).end();
        return;
      }
      try {
        const body = await readFile(file);
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
        res.end(body);
      } catch {
        res.writeHead(404).end("not found");
      }
    });
    s.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${s.address().port}${prefix}`, close: () => s.close() }));
  });
}

before(async () => {
  if (process.env.PAGE_URL) {
    baseUrl = process.env.PAGE_URL;
  } else {
    server = await serveDir(dist);
    baseUrl = server.url;
  }
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--enable-unsafe-webgpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-dev-shm-usage",
    ],
  });
  await mkdir(artifacts, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Opens the page and waits for the runtime; collects console errors. */
export async function openPage({ url, context } = {}) {
  const page = context ? await context.newPage() : await browser.newPage();
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(url ?? baseUrl);
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready", null, {
    timeout: 60_000,
  });
  return { page, errors };
}

export async function waitForRun(page) {
  await page.waitForFunction(
    () => {
      const s = document.querySelector("#status")?.textContent ?? "";
      return s !== "running…" && s !== "ready";
    },
    null,
    { timeout: 60_000 },
  );
}

/** Replaces the editor's text as a user would: select all, then type. */
export async function setProgram(page, source) {
  await page.click(".cm-content");
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(source);
}

