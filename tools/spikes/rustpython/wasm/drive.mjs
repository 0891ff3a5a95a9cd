// Usage: node drive.mjs <test> [args...]   (serves ./www, runs headless Chromium, no JSPI flags)
import { createRequire } from "node:module";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
const require = createRequire("/work/main/node_modules/");
const { chromium } = require("playwright-core");

const dir = new URL("./www/", import.meta.url).pathname;
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = await new Promise((res) => {
  const s = createServer(async (req, rsp) => {
    const p = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^\/+/, "");
    try {
      const f = p || "index.html"; const body = await readFile(join(dir, f));
      rsp.writeHead(200, { "content-type": TYPES[extname(f)] ?? "application/octet-stream" });
      rsp.end(body);
    } catch { rsp.writeHead(404).end(); }
  });
  s.listen(0, "127.0.0.1", () => res(s));
});
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
});
const page = await browser.newPage();
page.on("console", (m) => console.log("[console]", m.text()));
page.on("pageerror", (e) => console.log("[pageerror]", e.message));
const test = process.argv[2] ?? "basic";
try {
  console.log("browser", browser.version());
  await page.goto(url + (process.env.QS ?? ""));
  await page.waitForFunction(() => globalThis.__ready === true, null, { timeout: 120000 });
  const T = await page.evaluate(() => spike.T);
  console.log("startup", JSON.stringify(T));
  const mod = await import(`./tests/${test}.mjs`);
  await mod.default(page, process.argv.slice(3));
} catch (e) {
  console.log("ERROR", e.message);
} finally {
  await browser.close();
  server.close();
}
