// End-to-end tests of the page as a playground: live output, runaways
// stopped, nothing lost (drafts, share and example links), panels that teach
// (the run summary, Debug's non-finite mark, errors in the editor), bounded
// panes and tables, the backend picker and the editor's keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, baseUrl, browser, openPage, root, serveDir, setProgram, waitForRun } from "./helpers.mjs";

/** Waits until the editor holds `text` (CodeMirror renders lines lazily, so compare trimmed). */
async function waitForEditor(page, text) {
  await page.waitForFunction(
    (expected) => document.querySelector(".cm-content")?.innerText.trim() === expected.trim(),
    text,
    { timeout: 30_000 },
  );
}

test("output streams while the program runs, and Run clears the previous output", async () => {
  const { page, errors } = await openPage();
  await setProgram(page, 'print("from the run before")\n');
  await page.click("#run");
  await waitForRun(page);
  assert.equal(await page.textContent("#output"), "from the run before\n");
  await setProgram(page, 'print("first line")\nx = 0\nwhile True:\n    x += 1\n');
  await page.click("#run");
  // The previous run's output is gone at once, and the new one arrives while
  // the program is still running (it never ends by itself).
  await page.waitForFunction(() => document.querySelector("#output").textContent === "first line\n", null, {
    timeout: 15_000,
  });
  assert.equal(await page.textContent("#status"), "running…");
  // The elapsed time and the current line are shown, and the line is highlighted.
  await page.waitForFunction(() => /^\d+\.\d s · line [34]$/.test(document.querySelector("#progress").textContent), null, {
    timeout: 5_000,
  });
  assert.match(await page.textContent(".cm-running-line"), /x \+= 1|while True:/);
  await page.screenshot({ path: join(artifacts, "page-streaming.png") });
  await page.click("#stop");
  await page.waitForFunction(() => document.querySelector("#status").textContent === "stopped");
  assert.equal(await page.textContent("#output"), "first line\n\n[stopped]\n");
  assert.equal(await page.$(".cm-running-line"), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test("what a program writes to stderr (logging) stays in the output after the run", async () => {
  const { page, errors } = await openPage();
  await setProgram(page, "import logging\nlogging.warning('loss %.2f', 0.5)\nprint('step 1')\n");
  await page.click("#run");
  await waitForRun(page);
  assert.equal(await page.textContent("#output"), "step 1\nWARNING:root:loss 0.50\n");
  assert.equal(await page.textContent("#output .stderr"), "WARNING:root:loss 0.50\n");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a tensor loop is ended by the time limit with a TimeoutError naming its line", async () => {
  const { page, errors } = await openPage();
  await page.selectOption("#timeout", "5000");
  await setProgram(page, 'import torch\nx = torch.zeros(1, device="tpu")\nwhile True:\n    x = x + 1\n');
  const started = Date.now();
  await page.click("#run");
  await waitForRun(page);
  const output = await page.textContent("#output");
  assert.match(output, /line [34]/, output);
  assert.match(output, /TimeoutError|budget/, output);
  assert.match(await page.textContent("#status"), /^TimeoutError|Error/);
  assert.ok(Date.now() - started < 30_000);
  // The limit is kept for the next visit.
  assert.equal(await page.evaluate(() => localStorage.getItem("tpu-playground:timeout")), "5000");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a share link carries the mode and chip, and never silently replaces a draft", async () => {
  const { page, errors } = await openPage();
  const program = "import torch\nprint(torch.arange(3, device='tpu') * 7)\n";
  await setProgram(page, program);
  await page.selectOption("#mode", "fused");
  await page.click(".tabs [data-panel=chip]");
  await page.selectOption("#chip-select", "v6e");
  await page.fill("#slice-input", "2x2");
  await page.click("#chip-apply");
  await page.waitForFunction(() => document.querySelector("#chip-badge").textContent === "v6e · 2x2");
  await page.click("#share");
  await page.waitForFunction(() => location.hash.startsWith("#code="));
  const url = page.url();
  assert.match(url, /mode=fused/);
  assert.match(url, /chip=v6e/);
  assert.match(url, /slice=2x2/);
  await page.close();

  // Someone with a draft of their own opens the link.
  const context = await browser.newContext();
  const mine = await openPage({ context });
  const draft = 'print("my own draft")\n';
  await setProgram(mine.page, draft);
  await mine.page.goto(url);
  await mine.page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready", null, {
    timeout: 60_000,
  });
  const other = mine.page;
  await waitForEditor(other, program);
  assert.equal(await other.inputValue("#mode"), "fused");
  await other.waitForFunction(() => document.querySelector("#chip-badge").textContent === "v6e · 2x2");
  assert.match(await other.textContent("#notice"), /your draft is one undo away/);
  await other.click("#run");
  await waitForRun(other);
  assert.match(await other.textContent("#chip-run"), /TPU v6e \(Trillium\), slice 2x2/);
  // One undo brings the draft back.
  await other.click(".cm-content");
  await other.keyboard.press("Control+z");
  await waitForEditor(other, draft);
  // Reloading the link now keeps the edited draft, and offers the link's program.
  await other.reload();
  await other.waitForFunction(() => document.querySelector("#status")?.textContent === "ready", null, {
    timeout: 60_000,
  });
  await waitForEditor(other, draft);
  assert.match(await other.textContent("#notice"), /Your edited draft is kept/);
  await other.click("#notice-action");
  await waitForEditor(other, program);
  assert.deepEqual([...errors, ...mine.errors], []);
  await context.close();
});

test("examples have URLs, and choosing one can be undone", async () => {
  const { page, errors } = await openPage({ url: `${baseUrl}#example=attention` });
  assert.match(await page.textContent(".cm-content"), /softmax/);
  const mine = "print('mine')\n";
  await setProgram(page, mine);
  await page.selectOption("#examples", "hello");
  await page.waitForFunction(() => location.hash === "#example=hello");
  assert.match(await page.textContent(".cm-content"), /torch/);
  assert.match(await page.textContent("#notice"), /Ctrl\+Z brings your program back/);
  await page.click(".cm-content");
  await page.keyboard.press("Control+z");
  await waitForEditor(page, mine);
  // The notice's button does the same.
  await page.selectOption("#examples", "mlp");
  await page.click("#notice-action");
  await waitForEditor(page, mine);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the Summary panel shows the busy fraction and groups fallbacks and syncs", async () => {
  const { page, errors } = await openPage();
  // A float64 loss on a float32 tensor and its backward in a loop: WGSL has
  // no float64, so the cast and each op after it (mul, sum, ...) fall back to
  // the host once per step, and the cast reads relu's result from the device.
  await setProgram(
    page,
    [
      "import torch",
      'x = torch.randn(8, 4, device="tpu", requires_grad=True)',
      "for step in range(5):",
      "    loss = (torch.relu(x).double() * 2).sum()",
      "    loss.backward()",
      "print(loss.item() > 0)",
      "",
    ].join("\n"),
  );
  await page.click("#run");
  await waitForRun(page);
  assert.match(await page.textContent("#status"), /^ok /);
  const summary = await page.textContent("#summary-view");
  assert.match(summary, /(dispatch-bound|compute-bound|memory-bound)/);
  assert.match(summary, /chip busy [\d.]+ (ns|µs|ms) of [\d.]+ (µs|ms) simulated \([\d.]+%\)/);
  // Fallbacks grouped by op: fewer rows than fallback ops, each with its count and reason.
  const fallbackOps = await page.evaluate(() => Number(document.querySelector("#summary-view h3").textContent.match(/(\d+) op/)[1]));
  const groups = await page.$$eval("#summary-view table.fallbacks tbody tr", (trs) =>
    trs.map((tr) => [...tr.children].map((td) => td.textContent)),
  );
  assert.ok(groups.length > 0 && groups.length < fallbackOps, `${groups.length} groups for ${fallbackOps} ops`);
  assert.ok(groups.every(([op, times, , why]) => op && Number(times) >= 1 && why.length > 0), JSON.stringify(groups));
  const syncGroups = await page.$$eval("#summary-view table.sync-groups tbody tr", (trs) => trs.length);
  assert.ok(syncGroups > 0, "a fallback that reads the device is a sync");
  await page.screenshot({ path: join(artifacts, "panel-summary.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("Debug's first non-finite result is in the status and marked in the editor; errors are underlined", async () => {
  const { page, errors } = await openPage();
  await page.selectOption("#mode", "debug");
  // 3e38 * 10 overflows float32 to inf on every IEEE adapter.
  await setProgram(page, 'import torch\nx = torch.tensor([3e38, 1.0], device="tpu")\ny = x * 10\nprint(y)\n');
  await page.click("#run");
  await waitForRun(page);
  assert.match(await page.textContent("#status"), /^inf first in aten::mul\w* at line 3 /);
  await page.waitForSelector(".cm-lintRange-warning");
  assert.equal(await page.evaluate(() => document.querySelector(".cm-lintRange-warning").closest(".cm-line").textContent), "y = x * 10");
  await page.selectOption("#mode", "strict");
  await setProgram(page, "x = 1\ny = x + undefined_name\n");
  await page.click("#run");
  await waitForRun(page);
  await page.waitForSelector(".cm-lintRange-error");
  assert.match(await page.evaluate(() => document.querySelector(".cm-lintRange-error").textContent), /undefined_name|x \+ undefined_name/);
  await page.screenshot({ path: join(artifacts, "page-error-marked.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("20,000 printed lines stay inside the output pane; Copy and Clear work", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { page, errors } = await openPage({ context });
  await setProgram(page, "for i in range(20000):\n    print(i)\n");
  await page.click("#run");
  await waitForRun(page);
  const box = await page.locator("#output").boundingBox();
  assert.ok(box.height < 500, `the output pane is ${box.height}px tall`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1));
  assert.match(await page.textContent("#output"), /\n19999\n$/);
  // Scrolled to the end, as a terminal is.
  assert.ok(await page.evaluate(() => {
    const o = document.querySelector("#output");
    return o.scrollTop + o.clientHeight >= o.scrollHeight - 4;
  }));
  await page.click("#copy-output");
  assert.equal((await page.evaluate(() => navigator.clipboard.readText())).split("\n").length, 20001);
  await page.click("#clear-output");
  assert.equal(await page.textContent("#output"), "");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a 50-step loop's Kernels panel is paginated, sources scroll in their cell, Run stays in sight", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, errors } = await openPage({ context });
  // Fused mode, whose kernels carry their generated source; the host reads a
  // value every step, so each step launches its own kernels.
  await page.selectOption("#mode", "fused");
  await setProgram(
    page,
    'import torch\nx = torch.ones(8, device="tpu")\nfor i in range(50):\n    x = (x * 1.01 + 0.5).tanh()\n    if x.sum().item() < 0:\n        break\nprint(round(x.sum().item(), 1))\n',
  );
  await page.click("#run");
  await waitForRun(page);
  await page.click(".tabs [data-panel=kernels]");
  assert.equal(await page.$$eval("#kernels-view table.kernels tbody tr", (trs) => trs.length), 50);
  const [, total, hidden] = (await page.textContent("#kernels-view .pager")).match(/kernels 1–50 of (\d+) \((\d+) hidden\)/);
  assert.ok(Number(total) >= 100 && Number(hidden) === Number(total) - 50, `${total} kernels, ${hidden} hidden`);
  const width = await page.evaluate(() => document.querySelector("#kernels-view table").getBoundingClientRect().width);
  await page.click("#kernels-view details summary");
  const opened = await page.evaluate(() => document.querySelector("#kernels-view table").getBoundingClientRect().width);
  assert.ok(Math.abs(opened - width) < 1, `the table widened from ${width} to ${opened}`);
  await page.click("#kernels-view .pager button:has-text('next')");
  assert.match(await page.textContent("#kernels-view .pager"), /kernels 51–100 of/);
  // The Ops table pages too, and says what it hides.
  await page.click(".tabs [data-panel=ops]");
  assert.match(await page.textContent("#ops-view .pager"), /ops 1–50 of \d+ \(\d+ hidden\)/);
  const run = await page.locator("#run").boundingBox();
  assert.ok(run.y >= 0 && run.y + run.height <= 800, JSON.stringify(run));
  await page.click(".tabs [data-panel=kernels]");
  await page.screenshot({ path: join(artifacts, "panel-kernels-loop.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the backend picker restarts the runtime on the CPU reference", async () => {
  const { page, errors } = await openPage();
  await page.selectOption("#backend-select", "reference");
  // With its large matrix products on as many threads as the machine has
  // cores, up to 4 (the runtime's worker and helper workers).
  const cores = await page.evaluate(() => Math.min(navigator.hardwareConcurrency, 4));
  const label = cores > 1 ? `CPU reference · ${cores} threads` : "CPU reference";
  await page.waitForFunction((label) => document.querySelector("#backend").textContent === label, label, {
    timeout: 60_000,
  });
  await page.waitForFunction(() => document.querySelector("#status").textContent === "ready");
  await page.click("#run");
  await waitForRun(page);
  assert.match(await page.textContent("#output"), /36\.0/);
  await page.click(".tabs [data-panel=ops]");
  const backends = await page.$$eval("#ops-view tbody tr", (trs) => trs.map((tr) => tr.children[5].textContent));
  assert.ok(backends.length > 0 && backends.every((b) => b === "reference"), JSON.stringify(backends));
  // The choice is kept, and WebGPU comes back when chosen.
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready", null, { timeout: 60_000 });
  assert.equal(await page.textContent("#backend"), label);
  await page.selectOption("#backend-select", "wgpu");
  await page.waitForFunction(() => /^WebGPU/.test(document.querySelector("#backend").textContent), null, {
    timeout: 60_000,
  });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the CPU reference's large matrix products on two threads print what one thread prints, bit for bit", async () => {
  // The package's API from web/dist, in a fixture page served from the
  // repository: the runtime's worker and, at 2 threads, one helper worker.
  const served = await serveDir(root);
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${served.url}tests/e2e/fixtures/threads.html`);
    await page.waitForFunction(() => window.fixtureReady === true);
    // Products split by rows and by batch entries, operands transposed in
    // place, a fused epilogue; every element summed in float64 and some
    // printed in full.
    const program = [
      "import torch",
      "torch.manual_seed(0)",
      'a = torch.randn(512, 384, device="tpu")',
      'b = torch.randn(384, 512, device="tpu")',
      'x = torch.randn(4, 256, 256, device="tpu")',
      'y = torch.randn(4, 384, 256, device="tpu")',
      "for t in (a @ b, a @ b.t().contiguous().t(), x @ y.transpose(1, 2), torch.relu(a @ b + 1.0)):",
      "    print(tuple(t.shape), t.double().sum().item(), t.flatten()[::4999].tolist())",
      "",
    ].join("\n");
    const one = await page.evaluate(([t, s]) => window.runWith(t, s), [1, program]);
    const two = await page.evaluate(([t, s]) => window.runWith(t, s), [2, program]);
    assert.equal(one.diagnostics, 0, one.output);
    assert.equal(one.threads, 1);
    assert.equal(one.helped, 0);
    assert.equal(two.threads, 2);
    assert.ok(two.helped >= 4, `products shared with the helper: ${two.helped}`);
    assert.equal(one.label, "CPU reference");
    assert.equal(two.output, one.output);
    assert.match(one.output, /^\(512, 512\) -?\d/);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    served.close();
  }
});

test("the editor indents 4 spaces and the keys panel lists the shortcuts", async () => {
  const { page, errors } = await openPage();
  await setProgram(page, "");
  await page.keyboard.type("if True:");
  await page.keyboard.press("Enter");
  await page.keyboard.type("pass");
  assert.equal(await page.evaluate(() => document.querySelectorAll(".cm-line")[1].textContent), "    pass");
  await page.keyboard.press("Home");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.querySelectorAll(".cm-line")[1].textContent), "        pass");
  await page.click("#keys");
  assert.equal(await page.isVisible("#keys-help"), true);
  const help = await page.textContent("#keys-help");
  for (const key of ["Ctrl/Cmd+Enter", "Escape", "Tab", "Ctrl/Cmd+Z"]) assert.ok(help.includes(key), key);
  await page.screenshot({ path: join(artifacts, "page-keys.png") });
  await page.keyboard.press("Escape");
  assert.equal(await page.isVisible("#keys-help"), false);
  assert.deepEqual(errors, []);
  await page.close();
});
