// End-to-end test of the Compiled panel on the torch.compile example: the
// compiled functions with the lines torch.compile was called from, their
// compiles and recompile reason, the graph break at `.item()` (whose line link
// puts the editor on that line), each graph's StableHLO module, and the
// backward graph of the compiled model. What the panel should show is worked
// out here from the program's text: the names and lines of the compile sites,
// the batch sizes the compiled function is called with, the model's input
// shape and training steps, and the line of `.item()` inside the compiled
// function. Screenshots land in tests/artifacts/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { artifacts, openPage, root, waitForRun } from "./helpers.mjs";

/** What the example's text says the panel should show. */
async function exampleFacts() {
  const source = await readFile(join(root, "www", "src", "examples", "compile.py"), "utf8");
  const lines = source.split("\n");
  /** The 1-based line of the first line at or after `from` that starts with `text`. */
  const line = (text, from = 1) => {
    const i = lines.findIndex((l, i) => i + 1 >= from && l.trim().startsWith(text));
    assert.ok(i >= 0, `compile.py has a line starting ${text}`);
    return i + 1;
  };
  // torch.compile(model) names the module by its class; @torch.compile names
  // the function defined under it.
  const moduleClass = /^model = nn\.(\w+)\(/m.exec(source)[1];
  const functions = lines.flatMap((l, i) => {
    if (/torch\.compile\(model\)/.test(l)) return [{ name: moduleClass, line: i + 1 }];
    if (l.trim() === "@torch.compile") return [{ name: /^def (\w+)\(/.exec(lines[i + 1])[1], line: i + 1 }];
    return [];
  });
  const scoresDef = line("def scores(");
  const normalizeDef = line("def normalize(");
  // The line of `.item()` inside normalize's body (the program's last line
  // calls .item() too, outside any compiled function).
  const breakLine = lines.findIndex((l, i) => i + 1 > normalizeDef && l.startsWith("    ") && l.includes(".item()")) + 1;
  assert.ok(breakLine > normalizeDef);
  const batches = JSON.parse(/for batch in (\[[\d, ]+\])/.exec(source)[1]);
  return {
    source,
    lines,
    functions,
    steps: Number(/for step in range\((\d+)\)/.exec(source)[1]),
    input: /^x = torch\.randn\((\d+), (\d+)/m.exec(source).slice(1).map(Number),
    scoresArg: /def scores\((\w+)\)/.exec(source)[1],
    scoresDef,
    features: Number(/torch\.randn\(batch, (\d+)/.exec(source)[1]),
    batches,
    breakLine,
  };
}

/** What the panel shows of each compiled function. */
async function readPanel(page) {
  return page.$$eval("#compiled-view section.compiled-function", (sections) =>
    sections.map((s) => ({
      name: s.querySelector("h3 .function-name").textContent,
      line: s.querySelector("h3 a.line-link")?.dataset.line ?? null,
      facts: s.querySelector(".function-facts").textContent,
      compiles: [...s.querySelectorAll("section.compile")].map((c) => ({
        head: c.querySelector("h4").textContent,
        reason: c.querySelector(".recompile-reason")?.textContent ?? null,
        facts: c.querySelector(".compile-facts").textContent,
        padding: c.querySelector(".padding-facts")?.textContent ?? null,
        guards: [...c.querySelectorAll("details.guards li")].map((li) => li.textContent),
        breaks: [...c.querySelectorAll("ul.breaks li")].map((li) => ({
          reason: li.querySelector(".break-reason").textContent,
          line: li.querySelector("a.line-link")?.dataset.line ?? null,
        })),
        graphs: [...c.querySelectorAll(".graph")].map((g) => ({
          head: g.querySelector(".graph-head").textContent,
          types: g.querySelector(".graph-types").textContent,
          kernels: [...g.querySelectorAll(".graph-kernels code")].map((k) => k.textContent),
          stablehlo: g.querySelector("pre.stablehlo")?.textContent ?? null,
          loweringError: g.querySelector(".lowering-error")?.textContent ?? null,
        })),
      })),
    })),
  );
}

test("the Compiled panel on the torch.compile example: compile sites, a recompile, a graph break, StableHLO and a backward graph", async () => {
  const { page, errors } = await openPage();
  const ex = await exampleFacts();

  // A run that compiled nothing says so.
  await page.click("#run");
  await waitForRun(page);
  await page.click(".tabs [data-panel=compiled]");
  await page.waitForSelector("#compiled-view :text('This run compiled nothing')");

  await page.selectOption("#examples", "compile");
  await page.click("#run");
  await waitForRun(page);
  const status = await page.textContent("#status");
  assert.match(status, /^ok /, `${status}\n${await page.textContent("#output")}`);
  const expected = await readFile(join(root, "www", "src", "examples", "compile.expected"), "utf8");
  assert.equal((await page.textContent("#output")).split("\n").length, expected.split("\n").length);
  await page.waitForSelector("#compiled-view section.compiled-function");
  const shown = await readPanel(page);

  // Every compile site, in the order the program made them, at its line.
  assert.deepEqual(
    shown.map((f) => ({ name: f.name, line: Number(f.line) })),
    ex.functions,
  );
  const [model, scores, normalize] = shown;

  // The model: one compile serving every training step, forward and backward.
  assert.match(model.facts, new RegExp(`^${ex.steps} calls, 0 run eagerly · 1 compile · fullgraph=False, dynamic=None$`));
  assert.equal(model.compiles.length, 1);
  const training = model.compiles[0];
  assert.match(training.head, /^compile #0: first compile/);
  assert.equal(training.reason, null);
  assert.match(training.facts, new RegExp(`served ${ex.steps} calls · static shapes · ${ex.steps} backward passes through it`));
  assert.ok(training.guards.some((g) => g.includes(`size=[${ex.input.join(", ")}]`)), JSON.stringify(training.guards));
  assert.deepEqual(training.breaks, []);
  assert.deepEqual(
    training.graphs.map((g) => g.head.split(" · ")[0]),
    ["graph", "backward graph"],
  );
  assert.match(training.graphs[0].types, new RegExp(`^\\(f32\\[${ex.input.join(", ")}\\], `));

  // scores: a first compile for the first batch size, then a recompile whose
  // reason is the size mismatch, with the batch dimension dynamic.
  const sizes = [...new Set(ex.batches)];
  assert.equal(scores.compiles.length, Math.min(sizes.length, 2));
  assert.match(scores.facts, new RegExp(`^${ex.batches.length} calls, 0 run eagerly · ${scores.compiles.length} compiles`));
  assert.match(scores.compiles[0].head, /^compile #0: first compile/);
  assert.match(scores.compiles[1].head, /^compile #1: recompile/);
  assert.equal(scores.compiles[1].reason, `because tensor '${ex.scoresArg}' size mismatch at index 0. expected ${sizes[0]}, actual ${sizes[1]}`);
  assert.match(scores.compiles[0].facts, /static shapes/);
  assert.match(scores.compiles[1].facts, new RegExp(`dynamic: ${ex.scoresArg}\\.size\\(0\\)`));
  // The dynamic compile runs padded: every call it served (the first fits
  // its sizes against the static compile's), the batch bounded by the next
  // power of two at or above twice the size it became dynamic at.
  assert.equal(scores.compiles[0].padding, null);
  const served = ex.batches.length - ex.batches.filter((b) => b === sizes[0]).length;
  let bound = 1;
  while (bound < 2 * sizes[1]) bound *= 2;
  assert.match(
    scores.compiles[1].padding,
    new RegExp(`^bounded dynamic shapes: ${served} calls? padded to ${ex.scoresArg}\\.size\\(0\\) ≤ ${bound} \\(1 padded plan, \\d+% of the padded elements are padding\\)$`),
  );
  scores.compiles.forEach((c, i) => {
    // h @ h.T is batch x batch, and softmax(...) @ h is h's shape again.
    const h = `f32[${sizes[i]}, ${ex.features}]`;
    assert.deepEqual(c.graphs.map((g) => g.types), [`(${h}) -> (${h})`]);
  });

  // normalize: one break, at the line of .item() in its body, so two graphs.
  assert.equal(normalize.compiles.length, 1);
  const [split] = normalize.compiles;
  assert.deepEqual(split.breaks, [
    { reason: "Unsupported Tensor.item() call with capture_scalar_outputs=False", line: String(ex.breakLine) },
  ]);
  assert.equal(split.graphs.length, split.breaks.length + 1);

  // Every graph, forward and backward, has its StableHLO module and the
  // names of the kernels it launched.
  const graphs = shown.flatMap((f) => f.compiles.flatMap((c) => c.graphs));
  for (const g of graphs) {
    assert.equal(g.loweringError, null, g.head);
    assert.match(g.stablehlo ?? "", /^module @compiled \{\n\s+func\.func public @main\(/, g.head);
    const launched = Number(/ (\d+) kernels? /.exec(g.head)[1]);
    assert.equal(g.kernels.length, Math.min(launched, 24), `${g.head}: ${g.kernels.join(" ")}`);
  }

  // The break's line link puts the editor on the line of .item().
  await page.click(`#compiled-view ul.breaks a.line-link[data-line="${ex.breakLine}"]`);
  assert.equal(await page.textContent(".cm-activeLine"), ex.lines[ex.breakLine - 1]);

  // A StableHLO module opens in a box that scrolls inside itself.
  const module = page.locator(`#compiled-view section.compiled-function[data-name=scores] section.compile[data-compile="1"] details.stablehlo`);
  await module.locator("summary").click();
  const box = await module.locator("pre.stablehlo").evaluate((pre) => ({
    overflow: getComputedStyle(pre).overflow,
    height: pre.clientHeight,
  }));
  assert.equal(box.overflow, "auto");
  assert.ok(box.height <= 24 * 16 + 1, `the StableHLO box is ${box.height}px high`);

  await page.setViewportSize({ width: 1280, height: 1100 });
  await page.$eval("#compiled-view section.compiled-function[data-name=scores]", (s) => s.scrollIntoView());
  await page.screenshot({ path: join(artifacts, "panel-compiled.png") });

  // At a phone's width the panel, StableHLO open, fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `the Compiled panel is ${overflow}px wider than the screen`);
  assert.deepEqual(errors, []);
  await page.close();
});
