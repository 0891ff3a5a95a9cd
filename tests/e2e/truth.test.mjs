// The page tells the truth at a glance: no panel shows another run's results,
// the Torus lists what each rank called (and nothing moves for a collective
// that never ran), the timeline's colours are its legend's, the dark theme's
// editor is readable (WCAG AA, measured from the rendered colours), ranks and
// the chip are in the toolbar, a distributed program at one rank is told how
// to get ranks, prelude frames are folded in tracebacks, nothing is clipped
// at 390, 1024 and 1440 px, and the static site works from a subpath.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { artifacts, openPage, root, serveDir, setProgram, waitForRun } from "./helpers.mjs";

/** Runs the example `id` from the menu. */
async function runExample(page, id) {
  await page.selectOption("#examples", id);
  await page.click("#run");
  await waitForRun(page);
}

test("the first screen says what the page is and what to try", async () => {
  const { page, errors } = await openPage();
  const intro = await page.textContent("#intro");
  assert.match(intro, /simulated TPU/);
  assert.match(intro, /computed for real/);
  assert.match(intro, /set ranks to 4/);
  // Two sentences, visible without scrolling at a laptop's size.
  assert.equal(intro.split(/[.:] (?=[A-Z])/).length >= 2, true);
  const box = await page.locator("#intro").boundingBox();
  assert.ok(box && box.y + box.height < 720, JSON.stringify(box));
  assert.deepEqual(errors, []);
  await page.close();
});

test("no panel shows another program's run: the Modes table, and a distributed example's chip", async () => {
  const { page, errors } = await openPage();
  await setProgram(page, 'import torch\nprint((torch.ones(3, device="tpu") * 2).sum().item())\n');
  await page.click(".tabs [data-panel=modes]");
  await page.click("#compare");
  await page.waitForFunction(() => document.querySelectorAll("#modes-table tbody tr").length === 3, null, { timeout: 120_000 });
  // The comparison says which program and settings it ran.
  assert.match(await page.textContent("#modes-table"), /The program as it was at .* on a simulated v5e/);
  // The same program run again keeps it; another program clears it.
  await page.click("#run");
  await waitForRun(page);
  assert.equal((await page.$$("#modes-table tbody tr")).length, 3);
  await setProgram(page, 'import torch\nprint(torch.arange(4, device="tpu").sum().item())\n');
  await page.click("#run");
  await waitForRun(page);
  assert.equal((await page.$$("#modes-table tbody tr")).length, 0);
  assert.match(await page.textContent("#modes-table"), /another program/);

  // A distributed example sets its ranks and slice; the next plain example
  // runs as one process on one chip, and the toolbar says so.
  await page.selectOption("#examples", "ddp");
  await page.waitForFunction(() => document.querySelector("#chip-badge")?.textContent === "v5e · 2x2");
  assert.equal(await page.inputValue("#ranks-select"), "4");
  await page.selectOption("#examples", "hello");
  await page.waitForFunction(() => document.querySelector("#chip-badge")?.textContent === "v5e · 1 chip");
  assert.equal(await page.inputValue("#ranks-select"), "1");
  await page.click("#run");
  await waitForRun(page);
  assert.match(await page.textContent("#chip-run"), /slice 1x1|slice 1\b/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the deadlock's Torus lists what each rank called, and nothing moved", async () => {
  const { page, errors } = await openPage();
  await runExample(page, "deadlock");
  await page.click(".tabs [data-panel=torus]");
  const options = await page.$$eval("#torus-view select option", (os) => os.map((o) => o.textContent));
  assert.equal(options.length, 2, JSON.stringify(options));
  assert.match(options[0], /^#1 all_reduce SUM of 16 B, ranks 0,1,2,3, line 9$/);
  assert.equal(options[1], "#2 never ran: all_reduce (rank 0, line 12) against broadcast (ranks 1,2,3, line 14)");
  await page.selectOption("#torus-view select", "1");
  const note = await page.textContent("#torus-view p.summary");
  assert.match(note, /It never ran: the ranks disagree/);
  assert.match(note, /rank 0 called all_reduce .* at line 12/);
  assert.doesNotMatch(note, /all-gather|simulated \(/);
  assert.equal((await page.$$("#torus-view svg line.busy")).length, 0);
  assert.ok(await page.$eval("#torus-view button.play", (b) => b.disabled));
  // Each chip is labelled with its coordinates and its rank.
  const labels = await page.$$eval("#torus-view svg text.chip-rank", (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(labels.sort(), ["r0", "r1", "r2", "r3"]);
  // The collective that ran plays its traffic, in units a person reads.
  await page.selectOption("#torus-view select", "0");
  assert.match(await page.textContent("#torus-view p.summary"), /busiest link \d+(\.\d+)? (B|KiB)/);
  await page.screenshot({ path: join(artifacts, "panel-torus-deadlock.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

/** Each drawn lane's event fill against its legend swatch, in the current theme. */
function laneColours(page) {
  return page.evaluate(() => {
    const out = {};
    for (const swatch of document.querySelectorAll("#timeline-view .legend .swatch")) {
      const lane = [...swatch.classList].find((c) => c.startsWith("lane-")) ?? "lane-tensorcore";
      const rect = document.querySelector(`#timeline-view svg.timeline rect.${lane}`);
      if (!rect) continue;
      const style = getComputedStyle(rect);
      out[lane] = { fill: style.fill, stroke: style.stroke, swatch: getComputedStyle(swatch).backgroundColor };
    }
    return out;
  });
}

test("timeline events are drawn in their legend's colours, in both themes", async () => {
  const { page, errors } = await openPage();
  await runExample(page, "ddp");
  await page.click(".tabs [data-panel=timeline]");
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    const lanes = await laneColours(page);
    // The host, TensorCore, transfer and ICI lanes all ran something.
    for (const lane of ["lane-host", "lane-tensorcore", "lane-hbm", "lane-ici"]) {
      assert.ok(lanes[lane], `${theme}: no ${lane} events: ${JSON.stringify(lanes)}`);
    }
    const fills = new Set(Object.values(lanes).map((l) => l.fill));
    assert.equal(fills.size, Object.keys(lanes).length, `${theme}: lanes share a colour: ${JSON.stringify(lanes)}`);
    for (const [lane, { fill, stroke, swatch }] of Object.entries(lanes)) {
      assert.equal(fill, swatch, `${theme}: ${lane}'s events are not its legend's colour`);
      assert.equal(stroke, "none", `${theme}: ${lane}'s events are outlined`);
    }
    await page.screenshot({ path: join(artifacts, `panel-timeline-ddp-${theme}.png`), fullPage: true });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("in the dark theme the editor's gutter and tokens reach WCAG AA contrast", async () => {
  const { page, errors } = await openPage();
  await page.selectOption("#examples", "mlp");
  for (const theme of ["dark", "light"]) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    const pairs = await page.evaluate(() => {
      const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
      const lum = (c) => {
        const [r, g, b] = rgb(c).map((v) => {
          v /= 255;
          return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const ratio = (a, b) => {
        const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
      };
      const editor = getComputedStyle(document.querySelector(".cm-editor")).backgroundColor;
      const gutters = getComputedStyle(document.querySelector(".cm-gutters"));
      const out = [["gutter numbers", gutters.color, gutters.backgroundColor, ratio(gutters.color, gutters.backgroundColor)]];
      const seen = new Set();
      for (const span of document.querySelectorAll(".cm-line span")) {
        const color = getComputedStyle(span).color;
        if (seen.has(color)) continue;
        seen.add(color);
        out.push([`token "${span.textContent}"`, color, editor, ratio(color, editor)]);
      }
      return { out, editor, gutter: gutters.backgroundColor };
    });
    assert.ok(pairs.out.length >= 5, JSON.stringify(pairs));
    for (const [what, fg, bg, r] of pairs.out) {
      assert.ok(r >= 4.5, `${theme}: ${what} is ${fg} on ${bg}: ${r.toFixed(2)}:1`);
    }
    if (theme === "dark") {
      // Not the light theme's grey gutter.
      assert.notEqual(pairs.gutter, "rgb(245, 245, 245)");
    }
    await page.screenshot({ path: join(artifacts, `editor-${theme}.png`) });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("ranks live in the toolbar; a distributed program at one rank is told how to get them", async () => {
  const { page, errors } = await openPage();
  await page.selectOption("#examples", "deadlock");
  await page.selectOption("#ranks-select", "1");
  await page.click("#run");
  await waitForRun(page);
  assert.match(await page.textContent("#status"), /^ValueError/);
  // The traceback keeps the program's frame and the error; the prelude's
  // frames are folded.
  const output = await page.evaluate(() => document.querySelector("#output").innerText);
  assert.match(output, /line 6, in <module>/);
  assert.match(output, /environment variable RANK expected, but not set/);
  assert.match(output, /1 frame inside the playground's torch/);
  assert.doesNotMatch(output, /<tpu-playground>/);
  assert.equal(await page.$eval("#output details.internal-frames", (d) => d.open), false);
  // The notice explains, and runs it as four ranks.
  assert.match(await page.textContent("#notice"), /choose ranks in the toolbar/);
  await page.click("#notice-action");
  await waitForRun(page);
  assert.match(await page.textContent("#status"), /^DistDeadlockError · 4 ranks/);
  assert.equal(await page.inputValue("#ranks-select"), "4");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the Kernels panel counts kernels per mode, and the cache's counts add up to them", async () => {
  const { page, errors } = await openPage();
  await page.selectOption("#mode", "fused");
  await runExample(page, "fusion");
  await page.click(".tabs [data-panel=kernels]");
  const summary = await page.textContent("#kernels-view p.summary");
  const m = summary.match(/^(\d+) kernels \((\d+) in fused, then (\d+) in strict, then (\d+) in fused: the program changed mode\)/);
  assert.ok(m, summary);
  assert.equal(+m[1], +m[2] + +m[3] + +m[4]);
  // On WebGPU the kernels between two reads reach the GPU together: one
  // queue submission per sync, however many kernels ran.
  assert.match(await page.textContent("#backend"), /^WebGPU/);
  const submissions = summary.match(/ (\d+) queue submissions? \(the kernels between two reads go to the GPU together\)/);
  assert.ok(submissions, summary);
  const syncs = await page.$$eval("#kernels-view ul.syncs li", (items) => items.length);
  assert.ok(syncs > 0 && +submissions[1] === syncs, `${submissions[1]} submissions, ${syncs} syncs`);
  assert.ok(+m[1] > +submissions[1], summary);
  // A fused kernel's source opens at its entry point, past its helpers.
  const fused = page.locator("#kernels-view tr", { hasText: "fused_" }).first();
  await fused.locator("summary").click();
  const opened = await fused.locator("pre.source").evaluate((pre) => {
    const lines = pre.textContent.split("\n");
    const entry = lines.findIndex((l) => l.startsWith("@compute"));
    return { entry, scrollTop: pre.scrollTop, scrollable: pre.scrollHeight > pre.clientHeight };
  });
  assert.ok(opened.entry > 0, JSON.stringify(opened));
  if (opened.scrollable) assert.ok(opened.scrollTop > 0, JSON.stringify(opened));
  // Every WGSL kernel offers its source, Strict's one-op kernels too: its
  // own, or its first launch's in this run.
  const rows = await page.$$eval("#kernels-view table.kernels tbody tr", (trs) =>
    trs.map((tr) => ({
      name: tr.children[1].firstChild.textContent,
      source: tr.querySelector("details pre.source") !== null,
      same: tr.querySelector(".same-source")?.textContent ?? null,
      cache: tr.children[3].textContent,
    })),
  );
  const strict = rows.filter((r) => !r.name.startsWith("fused_") && r.cache !== "host fallback");
  assert.ok(strict.length > 0, JSON.stringify(rows));
  for (const r of strict) assert.ok(r.source || /^source: as kernel #\d+$/.test(r.same ?? ""), JSON.stringify(r));
  assert.ok(strict.some((r) => r.source), JSON.stringify(strict));
  await runExample(page, "ddp");
  const status = await page.textContent("#status");
  const c = status.match(/(\d+) kernels · cache (\d+) hits \(\d+ persisted\), (\d+) misses(?:, (\d+) host fallbacks)?/);
  assert.ok(c, status);
  assert.equal(+c[1], +c[2] + +c[3] + +(c[4] ?? 0), status);
  // The Chip panel never says both that no matmul ran and that every one fills the MXU.
  await setProgram(page, 'import torch\nprint((torch.ones(4, device="tpu") + 1).sum().item())\n');
  await page.selectOption("#ranks-select", "1");
  await page.click("#run");
  await waitForRun(page);
  const chip = await page.textContent("#chip-run");
  assert.match(chip, /No matmuls ran on the MXUs/);
  assert.doesNotMatch(chip, /Every matmul dimension fills the MXU/);
  assert.deepEqual(errors, []);
  await page.close();
});

/** What is cut off in the page: elements wider than the page, and table cells
 * whose text does not fit and cannot be scrolled to. */
function clipped(page) {
  return page.evaluate(() => {
    const found = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) found.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    const visible = (e) => e.getClientRects().length > 0;
    for (const e of document.querySelectorAll(".panel:not([hidden]) td, .panel:not([hidden]) th, .toolbar, header")) {
      if (!visible(e)) continue;
      const style = getComputedStyle(e);
      if (e.scrollWidth > e.clientWidth + 1 && style.overflowX !== "auto" && style.overflowX !== "scroll" && !e.querySelector("pre, details")) {
        found.push(`${e.tagName.toLowerCase()} "${e.textContent.slice(0, 40)}" (${e.scrollWidth} > ${e.clientWidth})`);
      }
    }
    // A table, a grid of shards or a chart wider than its panel must sit in
    // something that scrolls sideways.
    for (const e of document.querySelectorAll(".panel:not([hidden]) table, .panel:not([hidden]) .shard-grid, .panel:not([hidden]) svg")) {
      if (!visible(e)) continue;
      let box = e.parentElement;
      while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowX)) box = box.parentElement;
      const right = e.getBoundingClientRect().right;
      const limit = box ? box.getBoundingClientRect().right : width;
      if (right > limit + 1 && (!box || box.scrollWidth <= box.clientWidth)) {
        found.push(`${e.tagName.toLowerCase()}.${e.getAttribute("class")} is cut at ${Math.round(limit)} px (it ends at ${Math.round(right)})`);
      }
    }
    return found;
  });
}

for (const width of [390, 1024, 1440]) {
  test(`at ${width} px nothing is cut off: the FSDP2 example's panels and the toolbar`, async () => {
    const { page, errors } = await openPage();
    await page.setViewportSize({ width, height: 900 });
    await runExample(page, "fsdp2");
    const problems = [];
    for (const panel of ["summary", "kernels", "timeline", "chip", "torus", "sharding"]) {
      await page.click(`.tabs [data-panel=${panel}]`);
      if (panel === "sharding") await page.waitForSelector("#sharding-view table", { timeout: 30_000 });
      for (const p of await clipped(page)) problems.push(`${panel}: ${p}`);
    }
    await page.screenshot({ path: join(artifacts, `fsdp2-sharding-${width}.png`), fullPage: true });
    assert.deepEqual(problems, []);
    if (width >= 1440) {
      // The ten tabs fit on one row of the results pane.
      const rows = await page.$$eval(".tabs button", (bs) => new Set(bs.map((b) => Math.round(b.getBoundingClientRect().top))).size);
      assert.equal(rows, 1);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("the static site works served from a subpath, as GitHub Pages serves a project", { skip: !existsSync(join(root, "target", "site", "index.html")) && "target/site is absent: `cargo xtask site` (or `cargo xtask test`) writes it" }, async () => {
  const site = await serveDir(join(root, "target", "site"), "/tpu-playground/");
  try {
    const { page, errors } = await openPage({ url: `${site.url}#example=mlp` });
    await page.click("#run");
    await waitForRun(page);
    assert.match(await page.textContent("#status"), /^ok /);
    assert.match(await page.textContent("#output"), /step\s+0\s+loss/);
    // CPython's standard library comes from the site's own folder too.
    await setProgram(page, 'import json, textwrap\nprint(json.dumps({"a": textwrap.dedent("  x")}))\n');
    await page.click("#run");
    await waitForRun(page);
    assert.match(await page.textContent("#output"), /\{"a": "x"\}/);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    site.close();
  }
});

test("the panels in the dark theme, for the docs' screenshots", async () => {
  const { page, errors } = await openPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
  await runExample(page, "ddp");
  for (const panel of ["summary", "kernels", "timeline", "torus"]) {
    await page.click(`.tabs [data-panel=${panel}]`);
    await page.screenshot({ path: join(artifacts, `dark-ddp-${panel}.png`) });
  }
  await runExample(page, "deadlock");
  await page.click(".tabs [data-panel=torus]");
  await page.selectOption("#torus-view select", "1");
  await page.screenshot({ path: join(artifacts, "dark-deadlock-torus.png") });
  // The page itself is in its dark colour scheme, whatever the system says.
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).colorScheme), "dark");
  assert.deepEqual(errors, []);
  await page.close();
});
