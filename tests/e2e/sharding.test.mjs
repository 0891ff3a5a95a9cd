// End-to-end tests of the Sharding panel on the three DTensor examples (a 2-D
// dp x tp mesh, tensor parallelism on a 1x4 slice, FSDP2 on a 2x2): the shard
// grid's blocks and holders, both notations, each chip's bytes, and the
// collectives with their lines and causes, linked to the Torus and Timeline
// panels. What the panel should show is computed here from the program: the
// global shapes and placements real PyTorch printed (the examples' `.expected`
// files), the mesh the program made, torch.chunk's split, and the line numbers
// of the program's own text; the chips' coordinates come from the Timeline
// panel's rank headers. Screenshots land in tests/artifacts/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { artifacts, openPage, root, waitForRun } from "./helpers.mjs";

const RANKS = 4;

async function example(id) {
  const dir = join(root, "www", "src", "examples");
  const source = await readFile(join(dir, `${id}.py`), "utf8");
  const expected = await readFile(join(dir, `${id}.expected`), "utf8");
  /** The 1-based line of the first program line that starts with `text`. */
  const line = (text) => {
    const i = source.split("\n").findIndex((l) => l.trim().startsWith(text));
    assert.ok(i >= 0, `${id}.py has a line starting ${text}`);
    return i + 1;
  };
  /** Rank 0's line of real PyTorch's output that starts with `text`. */
  const printed = (text) => {
    const l = expected.split("\n").find((l) => l.startsWith(`[rank0]:${text}`));
    assert.ok(l, `${id}.expected prints ${text}`);
    return l.slice("[rank0]:".length);
  };
  const meshLine = source.split("\n").find((l) => l.includes("init_device_mesh("));
  const mesh = {
    shape: /\(([\d, ]+),?\)/.exec(meshLine.split("init_device_mesh(")[1])[1].split(",").filter((s) => s.trim()).map(Number),
    names: [...(/mesh_dim_names=\(([^)]*)\)/.exec(meshLine)?.[1] ?? "").matchAll(/"(\w+)"/g)].map((m) => m[1]),
  };
  return { source, line, printed, mesh };
}

/** The placements tuple in a printed line, as PyTorch prints it. */
function placementsIn(text) {
  const m = /\(((?:Shard\(dim=\d+\)|Replicate\(\)|Partial\(\w+\))(?:, ?(?:Shard\(dim=\d+\)|Replicate\(\)|Partial\(\w+\)))*),?\)/.exec(text);
  return m[1].split(/, ?(?=[SRP])/);
}

/** torch.chunk's pieces of `n` over `parts`: [start, end) of piece `i`. */
function chunk(n, parts, i) {
  const size = Math.ceil(n / parts);
  return [Math.min(i * size, n), Math.min((i + 1) * size, n)];
}

/** Each rank's block of a DTensor, by PyTorch's rules: a rank's mesh coordinate
 * (row-major) picks, for each dim, successive torch.chunk pieces over the mesh
 * dims that shard it, in mesh order. Returns the block ranges with their ranks. */
function expectedBlocks(shape, placements, mesh) {
  const blocks = new Map();
  for (let rank = 0; rank < RANKS; rank++) {
    const coord = [];
    let r = rank;
    for (let d = mesh.shape.length - 1; d >= 0; d--) {
      coord.unshift(r % mesh.shape[d]);
      r = Math.floor(r / mesh.shape[d]);
    }
    const range = shape.map((n) => [0, n]);
    placements.forEach((p, meshDim) => {
      const m = /^Shard\(dim=(\d+)\)$/.exec(p);
      if (!m) return;
      const d = Number(m[1]);
      const [s, e] = range[d];
      const [a, b] = chunk(e - s, mesh.shape[meshDim], coord[meshDim]);
      range[d] = [s + a, s + b];
    });
    const key = shape.length ? `[${range.map(([s, e]) => `${s}:${e}`).join(", ")}]` : "the scalar";
    blocks.set(key, [...(blocks.get(key) ?? []), rank]);
  }
  return blocks;
}

/** The scaling book's notation, written independently of the page's code. */
function bookNotation(name, ndim, placements, mesh) {
  const names = mesh.shape.map((_, i) => mesh.names[i] ?? `mesh${i}`);
  const sub = (ns) => (ns.length === 1 ? `_${ns[0]}` : `_{${ns.join(",")}}`);
  const dims = [...Array(ndim).keys()].map((d) => {
    const over = names.filter((_, i) => placements[i] === `Shard(dim=${d})`);
    return "IJKLMN"[d] + (over.length ? sub(over) : "");
  });
  const unreduced = names.filter((_, i) => placements[i].startsWith("Partial"));
  return `${name}[${dims.join(", ")}]${unreduced.length ? ` {U${sub(unreduced)}}` : ""}`;
}

/** Runs example `id` from the menu with the settings it carries; returns the
 * chips' coordinates per rank, read from the Timeline's rank headers. */
async function runExample(page, id, slice) {
  await page.selectOption("#examples", id);
  await page.waitForFunction(
    ([want, ranks]) =>
      document.querySelector("#chip-badge")?.textContent === want &&
      document.querySelector("#ranks-select")?.value === String(ranks),
    [`v5e · ${slice}`, RANKS],
  );
  await page.click("#run");
  await waitForRun(page);
  const status = await page.textContent("#status");
  assert.match(status, /^ok · 4 ranks · /, `${id}: ${status}\n${await page.textContent("#output")}`);
  await page.click(".tabs [data-panel=timeline]");
  const headers = await page.$$eval("#panel-timeline .lanes .lane-group", (ds) => ds.map((d) => d.textContent));
  const chips = headers.map((h) => /^rank \d+ · chip (\(.*\))$/.exec(h)[1]);
  assert.equal(chips.length, RANKS);
  await page.click(".tabs [data-panel=sharding]");
  await page.waitForSelector("#sharding-view select[aria-label=tensor]");
  return chips;
}

/** Picks the tensor `name` made at `line` and reads what the panel shows of it. */
async function showTensor(page, name, line) {
  const options = await page.$$eval("#sharding-view select[aria-label=tensor] option", (os) =>
    os.map((o) => [o.value, o.textContent]),
  );
  const option = options.find(([, text]) => text.startsWith(`${name} (line ${line}) `));
  assert.ok(option, `${name} at line ${line} among ${JSON.stringify(options.map((o) => o[1]))}`);
  await page.selectOption("#sharding-view select[aria-label=tensor]", option[0]);
  return page.$eval("#sharding-view", (view) => ({
    pytorch: view.querySelector(".notation-pytorch").textContent,
    book: view.querySelector(".notation-book").textContent.replace(/\s+/g, " "),
    bookTitle: view.querySelector(".notation-book").parentElement.title,
    blocks: [...view.querySelectorAll(".shard-block")].map((b) => ({
      range: b.querySelector(".shard-range").textContent,
      holders: [...b.querySelectorAll(".shard-holder")].map((h) => h.textContent),
      partial: b.querySelector(".shard-partial")?.textContent ?? null,
    })),
    bytes: [...view.querySelectorAll("table.shard-bytes tbody tr")].map((tr) => [...tr.children].map((td) => td.textContent)),
  }));
}

/** Checks the shown tensor against PyTorch's rules for its shape and placements. */
function checkTensor(shown, { name, shape, placements, mesh, chips, itemBytes }) {
  const pytorch = placements.length === 1 ? `(${placements[0]},)` : `(${placements.join(", ")})`;
  assert.equal(shown.pytorch, pytorch);
  assert.equal(shown.bookTitle, bookNotation(name, shape.length, placements, mesh));
  const want = expectedBlocks(shape, placements, mesh);
  const got = new Map(shown.blocks.map((b) => [b.range, b.holders]));
  assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), `${name}: blocks`);
  for (const [range, ranks] of want) {
    assert.deepEqual(got.get(range), ranks.map((r) => `rank ${r} · chip ${chips[r]}`), `${name}${range}: holders`);
  }
  const partial = mesh.shape.flatMap((_, i) => (placements[i].startsWith("Partial") ? [mesh.names[i] ?? `mesh${i}`] : []));
  for (const b of shown.blocks) assert.equal(b.partial, partial.length ? `partial sums over ${partial.join(", ")}` : null);
  // Each chip's bytes: its block's elements times the dtype's size.
  assert.equal(shown.bytes.length, RANKS);
  for (const [range, ranks] of want) {
    const elements = shape.length ? [...range.matchAll(/(\d+):(\d+)/g)].reduce((n, m) => n * (m[2] - m[1]), 1) : 1;
    for (const r of ranks) assert.equal(shown.bytes[r].at(-1), `${elements * itemBytes} B`, `${name}: rank ${r}'s bytes`);
  }
}

/** Saves the page with the results pane scrolled to the Sharding panel's tabs. */
async function screenshotPanel(page, name) {
  await page.$eval(".tabs", (tabs) => tabs.scrollIntoView());
  await page.screenshot({ path: join(artifacts, name) });
}

/** The collectives list's rows: [#, line, cause, collective, ranks, ...]. */
async function collectiveRows(page) {
  return page.$$eval("#sharding-view table.sharding-collectives tbody tr", (trs) =>
    trs.map((tr) => [...tr.children].map((td) => td.textContent)),
  );
}

test("the 2-D mesh example: blocks over dp x tp, both notations, collectives linked to Torus and Timeline", async () => {
  const { page, errors } = await openPage();
  const ex = await example("mesh2d");
  const chips = await runExample(page, "mesh2d", "2x2");
  const mesh = ex.mesh;
  assert.deepEqual(mesh, { shape: [2, 2], names: ["dp", "tp"] });

  // The mesh: each named dim with a torus axis (2x2: dp along x, tp along y,
  // as the chips' coordinates vary: rank r is at row-major (r // 2, r % 2)).
  const meshText = await page.textContent("#sharding-view .mesh");
  assert.match(meshText, /dp \(2\) along torus axis x; tp \(2\) along torus axis y/);

  const batch = /batch = torch\.randn\((\d+), (\d+)/.exec(ex.source).slice(1).map(Number);
  const x = await showTensor(page, "x", ex.line("x = distribute_tensor("));
  checkTensor(x, { name: "x", shape: batch, placements: ["Shard(dim=0)", "Replicate()"], mesh, chips, itemBytes: 4 });
  assert.equal(x.book, "x[Idp, J]");

  const printedY = ex.printed("y ");
  const yShape = /\) \((\d+), (\d+)\) local/.exec(printedY).slice(1).map(Number);
  const y = await showTensor(page, "y", ex.line("y = x @ w"));
  checkTensor(y, { name: "y", shape: yShape, placements: placementsIn(printedY), mesh, chips, itemBytes: 4 });
  assert.equal(y.blocks.length, 4, "every chip a different quarter");

  const total = await showTensor(page, "total", ex.line("total = y.sum()"));
  checkTensor(total, { name: "total", shape: [], placements: placementsIn(ex.printed("total ")), mesh, chips, itemBytes: 4 });
  assert.equal(total.bookTitle, "total[] {U_{dp,tp}}");
  await screenshotPanel(page, "sharding-mesh2d.png");

  // The collectives: the all-gather over tp that redistributing y to
  // (Shard(0), Replicate()) makes, at that line, once per tp group.
  const gatherLine = ex.line("rows = y.redistribute(");
  const rows = await collectiveRows(page);
  const gathers = rows.filter((r) => r[1] === String(gatherLine));
  assert.equal(gathers.length, mesh.shape[0], JSON.stringify(rows));
  for (const g of gathers) assert.equal(g[2], "DTensor redistribute S(1)->R on mesh dim 'tp'");
  // Filtering by line keeps only that line's collectives.
  await page.selectOption("#sharding-view select[aria-label='collectives of which line']", String(gatherLine));
  assert.deepEqual(await collectiveRows(page), gathers);

  // Its torus button opens the Torus panel on it, its traffic played.
  const index = Number(gathers[0][0]) - 1;
  await page.click(`#sharding-view table.sharding-collectives tbody tr:nth-child(1) button:text("torus")`);
  assert.equal(await page.isVisible("#panel-torus"), true);
  assert.equal(await page.inputValue("#panel-torus select"), String(index));
  assert.match(await page.textContent("#panel-torus p.summary"), /made by DTensor redistribute S\(1\)->R on mesh dim 'tp'|step 1 of/);
  await page.waitForFunction(() => document.querySelectorAll("#panel-torus svg line.busy").length > 0);

  // Its timeline button opens the Timeline on its simulated time, its events
  // outlined on its two members' ICI lanes.
  await page.click(".tabs [data-panel=sharding]");
  await page.click(`#sharding-view table.sharding-collectives tbody tr:nth-child(1) button:text("timeline")`);
  assert.equal(await page.isVisible("#panel-timeline"), true);
  assert.equal((await page.$$("#panel-timeline svg rect.focused")).length, gathers[0][4].split(",").length);
  assert.equal(await page.getAttribute("#panel-timeline svg rect.focus-band", "visibility"), "visible");
  await page.screenshot({ path: join(artifacts, "sharding-timeline-focus.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the tensor-parallel example on a 1x4 slice: column and row shards, then partial sums", async () => {
  const { page, errors } = await openPage();
  const ex = await example("tp");
  const chips = await runExample(page, "tp", "1x4");
  assert.deepEqual(chips, ["(0,0)", "(0,1)", "(0,2)", "(0,3)"]);
  // The one mesh dim lies along the axis the chips' coordinates vary in.
  assert.match(await page.textContent("#sharding-view .mesh"), /tp \(4\) along torus axis y/);

  const w1Shape = /w1_full = torch\.randn\((\d+), (\d+)/.exec(ex.source).slice(1).map(Number);
  const w1 = await showTensor(page, "w1", ex.line("w1 = distribute_tensor("));
  checkTensor(w1, { name: "w1", shape: w1Shape, placements: placementsIn(ex.printed("w1 ")), mesh: ex.mesh, chips, itemBytes: 4 });
  assert.equal(w1.bookTitle, "w1[I, J_tp]");

  const xShape = /x_full = torch\.randn\((\d+), (\d+)/.exec(ex.source).slice(1).map(Number);
  const partialPrinted = ex.printed("partial ");
  const partial = await showTensor(page, "partial", ex.line("partial = h @ w2"));
  // x @ w1 @ w2 has x's rows and w2's columns.
  const w2Shape = /w2_full = torch\.randn\((\d+), (\d+)/.exec(ex.source).slice(1).map(Number);
  checkTensor(partial, { name: "partial", shape: [xShape[0], w2Shape[1]], placements: placementsIn(partialPrinted), mesh: ex.mesh, chips, itemBytes: 4 });
  assert.equal(partial.bookTitle, "partial[I, J] {U_tp}");
  assert.equal(partial.blocks.length, 1, "one block, held as partial sums by every rank");

  const rows = await collectiveRows(page);
  const allReduce = rows.filter((r) => r[1] === String(ex.line("y = partial.redistribute(")));
  assert.equal(allReduce.length, 1, JSON.stringify(rows));
  assert.match(allReduce[0][2], /^DTensor redistribute P\(sum\)->R on mesh dim 'tp'$/);
  assert.match(allReduce[0][3], /^all_reduce/);
  await screenshotPanel(page, "sharding-tp.png");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the FSDP2 example: parameters sharded along dim 0, FSDP's collectives by line and cause", async () => {
  const { page, errors } = await openPage();
  const ex = await example("fsdp2");
  const chips = await runExample(page, "fsdp2", "2x2");
  // The parameter DTensors are made where fully_shard shards each layer.
  const printedW = ex.printed("FSDPSequential ");
  const wShape = /\) \((\d+), (\d+)\) local/.exec(printedW).slice(1).map(Number);
  const w = await showTensor(page, "w", ex.line("fully_shard(layer"));
  checkTensor(w, { name: "w", shape: wShape, placements: placementsIn(printedW), mesh: ex.mesh, chips, itemBytes: 4 });
  assert.equal(w.bookTitle, "w[I_fsdp, J]");

  // Per step and layer: an all-gather at the forward's line, another before
  // backward and a reduce-scatter of the gradients at the backward's line.
  const rows = await collectiveRows(page);
  const forward = String(ex.line("loss = model(x)"));
  const backward = String(ex.line("loss.backward()"));
  const steps = Number(/range\((\d+)\)/.exec(ex.source)[1]);
  const layers = (ex.source.match(/nn\.Linear\(/g) ?? []).length;
  const count = (line, cause) => rows.filter((r) => r[1] === line && cause.test(r[2])).length;
  assert.equal(count(forward, /^FSDP all-gather \(forward\) of \d+ \(Linear\)$/), steps * layers, JSON.stringify(rows));
  assert.equal(count(backward, /^FSDP all-gather \(pre-backward\) of \d+ \(Linear\)$/), steps * layers);
  assert.equal(count(backward, /^FSDP reduce-scatter of gradients .* of \d+ \(Linear\)$/), steps * layers);

  // Memory per chip: every phase holds the rank's parameter shards, as
  // torch.chunk cuts each Linear's weight and bias along dim 0 over the
  // mesh; after each AdamW step, two moments of the same size.
  const ranks = ex.mesh.shape.reduce((a, b) => a * b, 1);
  const linears = [...ex.source.matchAll(/nn\.Linear\((\d+), (\d+)\)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  const shardRows = (rows, rank) => {
    const chunk = Math.ceil(rows / ranks);
    return Math.max(0, Math.min(chunk, rows - rank * chunk));
  };
  const shardBytes = (rank) =>
    linears.reduce((sum, [inputs, outputs]) => sum + 4 * (shardRows(outputs, rank) * inputs + shardRows(outputs, rank)), 0);
  const text = (n) => (n >= 1024 ? `${(n / 1024).toFixed(2)} KiB` : `${n} B`);
  assert.equal(await page.locator("#sharding-view table.memory-peaks tbody tr").count(), ranks);
  const memoryRows = await page.$$eval("#sharding-view table.memory-points tbody tr", (trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
  );
  assert.ok(memoryRows.length > 0);
  for (const row of memoryRows) assert.equal(row[4], text(shardBytes(0)), JSON.stringify(row));
  const stepped = memoryRows.filter((row) => row[1] === "after optimizer step");
  assert.equal(stepped.length, steps);
  for (const row of stepped) assert.equal(row[6], text(2 * shardBytes(0)), JSON.stringify(row));
  assert.equal(await page.locator("#sharding-view svg.memory-chart g.memory-bar").count(), memoryRows.length);
  // Each step the points belong to is labelled once, in order, none drawn
  // over another (the first as "step N", the others by number).
  const stepLabels = await page.$$eval("#sharding-view svg.memory-chart text.axis", (ts) => ts.slice(1).map((t) => t.textContent));
  const stepsShown = [...new Set(memoryRows.map((row) => row[0]))];
  assert.ok(stepsShown.length >= steps, JSON.stringify(stepsShown));
  assert.deepEqual(stepLabels, stepsShown.map((n, i) => (i === 0 ? `step ${n}` : n)));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.$eval("#sharding-view section.memory", (m) => m.scrollIntoView());
  await page.screenshot({ path: join(artifacts, "sharding-memory.png") });

  await page.click(`#sharding-view table.sharding-collectives tbody tr:nth-child(1) button:text("torus")`);
  assert.match(await page.textContent("#panel-torus select option:checked"), /all_gather_into_tensor/);
  await page.click(".tabs [data-panel=sharding]");
  await page.setViewportSize({ width: 1280, height: 1100 });
  await screenshotPanel(page, "panel-sharding.png");

  // At a phone's width the panel fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `the Sharding panel is ${overflow}px wider than the screen`);
  assert.deepEqual(errors, []);
  await page.close();
});
