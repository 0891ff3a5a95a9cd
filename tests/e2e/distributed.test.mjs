// End-to-end tests of runs of several ranks in the page: the DDP example on a
// v5e 2x2 (four ranks' prefixed output, one rank at a time through the rank
// filter, the program's collectives in the Torus panel with their lines, a
// group of timeline lanes per chip, a rank column in Kernels and Ops), and a
// deadlock (its diagnostic in the output and the status, each rank's line
// marked in the editor). Screenshots land in tests/artifacts/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { artifacts, openPage, root, waitForRun } from "./helpers.mjs";

const RANKS = 4;

/** The lines of an example's program, as the page's examples menu loads it. */
async function exampleLines(id) {
  return (await readFile(join(root, "www", "src", "examples", `${id}.py`), "utf8")).split("\n");
}

/** Runs the example `id` from the menu, with the settings it carries. */
async function runExample(page, id) {
  await page.selectOption("#examples", id);
  await page.waitForFunction(
    (ranks) =>
      document.querySelector("#chip-badge")?.textContent === "v5e · 2x2" &&
      document.querySelector("#ranks-select")?.value === String(ranks),
    RANKS,
  );
  await page.click("#run");
  await waitForRun(page);
}

test("the DDP example runs four ranks on a v5e 2x2, readable rank by rank", async () => {
  const { page, errors } = await openPage();
  await runExample(page, "ddp");
  const status = await page.textContent("#status");
  assert.match(status, /^ok · 4 ranks · /, status);
  assert.equal(await page.inputValue("#ranks-select"), "4");

  // Every rank's lines, prefixed, and every rank trained the same replica.
  const all = await page.textContent("#output");
  for (let rank = 0; rank < RANKS; rank++) {
    assert.match(all, new RegExp(`^\\[rank${rank}\\]:step 0: loss \\d+\\.\\d{4}$`, "m"), all);
    assert.match(all, new RegExp(`^\\[rank${rank}\\]:replicas equal: True$`, "m"), all);
  }
  // The rank filter shows one rank's output as it printed it: the lines the
  // whole output prefixes with that rank.
  assert.equal(await page.isVisible("#rank-filter"), true);
  const filters = await page.$$eval("#rank-filter option", (os) => os.map((o) => o.textContent));
  assert.deepEqual(filters, ["all ranks", "rank 0", "rank 1", "rank 2", "rank 3"]);
  await page.selectOption("#rank-filter", "2");
  const own = all
    .split("\n")
    .filter((l) => l.startsWith("[rank2]:"))
    .map((l) => l.slice("[rank2]:".length));
  assert.equal(await page.textContent("#output"), own.join("\n") + "\n");
  await page.selectOption("#rank-filter", "");
  assert.equal(await page.textContent("#output"), all);

  // The Torus panel: the 2x2 slice, and each collective the ranks called,
  // with the lines they called it from (DDP's own at the backward line).
  await page.click(".tabs [data-panel=torus]");
  assert.equal((await page.$$("#panel-torus svg rect.chip")).length, RANKS);
  const collectives = await page.$$eval("#panel-torus select option", (os) => os.map((o) => o.textContent));
  assert.ok(collectives.length > 2, JSON.stringify(collectives));
  for (const c of collectives) assert.match(c, /^#\d+ (broadcast|all_reduce)\b.* of [\d.]+ (B|KiB), ranks 0,1,2,3, line \d+$/, c);
  assert.match(collectives[0], /^#1 broadcast/);
  const backward = (await exampleLines("ddp")).findIndex((l) => l.includes("loss.backward()"));
  const bucket = collectives.findIndex((c) => c.includes("all_reduce SUM") && c.endsWith(`, line ${backward + 1}`));
  assert.ok(bucket >= 0, `a gradient all_reduce at line ${backward + 1}: ${JSON.stringify(collectives)}`);
  await page.selectOption("#panel-torus select", String(bucket));
  assert.match(await page.textContent("#panel-torus p.summary"), /made by DDP bucket 0/);
  assert.ok((await page.$$("#panel-torus svg line.busy")).length > 0);
  await page.screenshot({ path: join(artifacts, "ddp-torus.png"), fullPage: true });

  // The Timeline: a group of lanes per rank, headed by its chip.
  await page.click(".tabs [data-panel=timeline]");
  const groups = await page.$$eval("#panel-timeline .lanes .lane-group", (ds) => ds.map((d) => d.textContent));
  assert.equal(groups.length, RANKS, JSON.stringify(groups));
  groups.forEach((g, rank) => assert.match(g, new RegExp(`^rank ${rank} · chip \\(\\d,\\d\\)$`)));
  assert.equal(new Set(groups.map((g) => g.replace(/^rank \d+ · /, ""))).size, RANKS, "one chip per rank");

  // Kernels and Ops say which rank made each row.
  await page.click(".tabs [data-panel=kernels]");
  const headers = await page.$$eval("#kernels-view table.kernels th", (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(headers.slice(0, 2), ["#", "rank"]);
  await page.click(".tabs [data-panel=ops]");
  const opRanks = await page.$$eval("#ops-view tbody tr", (trs) => trs.map((tr) => tr.children[1].textContent));
  assert.equal(opRanks[0], "0");
  await page.click(".tabs [data-panel=timeline]");
  await page.screenshot({ path: join(artifacts, "ddp-2x2.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a deadlock is named rank by rank and each rank's line is marked", async () => {
  const { page, errors } = await openPage();
  await runExample(page, "deadlock");
  const status = await page.textContent("#status");
  assert.match(status, /^DistDeadlockError · 4 ranks/, status);
  assert.match(await page.getAttribute("#status", "title"), /no rank can proceed/);
  const output = await page.textContent("#output");
  assert.match(output, /DistDeadlockError: no rank can proceed/);
  assert.doesNotMatch(output, /never printed/);

  // The lines each rank waits on, found in the program's own text: rank 0 in
  // the all_reduce only it reaches, the others in the broadcast.
  const lines = await exampleLines("deadlock");
  const allReduce = lines.findLastIndex((l) => l.trim().startsWith("dist.all_reduce(t)")) + 1;
  const broadcast = lines.findIndex((l) => l.trim().startsWith("dist.broadcast(")) + 1;
  assert.match(output, new RegExp(`rank 0: waits in all_reduce .* at line ${allReduce}`));
  for (let rank = 1; rank < RANKS; rank++) {
    assert.match(output, new RegExp(`rank ${rank}: waits in broadcast .* at line ${broadcast}`));
  }
  await page.waitForSelector(".cm-lintRange-error");
  const marked = await page.$$eval(".cm-lintRange-error", (ms) => [...new Set(ms.map((m) => m.closest(".cm-line").textContent))]);
  assert.deepEqual(marked.sort(), [lines[allReduce - 1], lines[broadcast - 1]].sort());

  // One rank's view says where that rank waits.
  await page.selectOption("#rank-filter", "1");
  assert.match(await page.textContent("#output"), new RegExp(`^sum of the ranks: .*\\nrank 1 waits in broadcast .* at line ${broadcast}\\n`));
  await page.screenshot({ path: join(artifacts, "deadlock.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
