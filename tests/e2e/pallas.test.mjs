// End-to-end test of the Kernels panel's Pallas section on the Pallas
// example: each pallas_call at its line, its grid with the sequential axis
// marked, its operands' blocks and index maps, the VMEM its blocks take
// double-buffered, the MXU fit of its dot, and the WGSL shader it became on
// WebGPU. What the panel should show is worked out here from the example's
// text: the kernels' names, the lines of their pallas_calls, the block sizes
// and the arrays' shapes. The screenshot lands in tests/artifacts/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { artifacts, openPage, root, waitForRun } from "./helpers.mjs";

/** Bytes in KiB, as the page writes a count from 1 KiB up to 1 MiB. */
const kib = (n) => {
  assert.ok(n >= 1024 && n < 2 ** 20, `${n} bytes`);
  return `${(n / 1024).toFixed(2)} KiB`;
};

async function exampleFacts() {
  const source = await readFile(join(root, "www", "src", "examples", "pallas.py"), "utf8");
  const lines = source.split("\n");
  // Each pallas_call's line, with the kernel it calls (on the next line).
  const calls = lines.flatMap((l, i) =>
    l.includes("return pl.pallas_call(") ? [{ line: i + 1, kernel: lines[i + 1].trim().replace(",", "") }] : [],
  );
  const [m, k] = /^x = torch\.randn\((\d+), (\d+)/m.exec(source).slice(1).map(Number);
  const n = Number(/^w = torch\.randn\(\d+, (\d+)/m.exec(source)[1]);
  const block = Number(/BlockSpec\(\((\d+), \1\)/.exec(source)[1]);
  const rows = Number(/BlockSpec\(\((\d+), d\)/.exec(source)[1]);
  return { source, calls, m, k, n, block, rows };
}

test("the Kernels panel shows each pallas_call's grid, blocks, VMEM, MXU fit and WGSL", async () => {
  const { page, errors } = await openPage();
  const ex = await exampleFacts();
  await page.selectOption("#examples", "pallas");
  await page.click("#run");
  await waitForRun(page);
  const status = await page.textContent("#status");
  assert.match(status, /^ok /, `${status}\n${await page.textContent("#output")}`);
  const expected = await readFile(join(root, "www", "src", "examples", "pallas.expected"), "utf8");
  assert.equal(await page.textContent("#output"), expected);

  await page.click(".tabs [data-panel=kernels]");
  await page.waitForSelector("#kernels-view section.pallas");
  const shown = await page.$$eval("#kernels-view .pallas-call", (calls) =>
    calls.map((c) => ({
      head: c.querySelector("h4").textContent,
      operands: [...c.querySelectorAll("table.pallas-operands tbody tr")].map((tr) =>
        [...tr.querySelectorAll("td")].map((td) => td.textContent),
      ),
      vmem: c.querySelector(".pallas-vmem").textContent,
      mxu: [...c.querySelectorAll(".pallas-mxu li")].map((li) => li.textContent),
      wgsl: c.querySelector(".pallas-wgsl pre")?.textContent ?? null,
    })),
  );
  assert.equal(shown.length, ex.calls.length);
  const [matmul, rmsnorm] = shown;
  const b = ex.block;

  // The matmul: its grid (i, j, k) with k, the contraction, in order.
  assert.ok(
    matmul.head.startsWith(
      `${ex.calls[0].kernel} (line ${ex.calls[0].line}): grid (i=${ex.m / b}, j=${ex.n / b}, k=${ex.k / b} (in order))`,
    ),
    matmul.head,
  );
  assert.match(matmul.head, /kernel #\d+ WGSL$/);
  const blockBytes = b * b * 4;
  assert.deepEqual(
    matmul.operands.map((o) => o.slice(0, 3)),
    [
      ["in", `(${ex.m}, ${ex.k}) float32`, `(${b}, ${b})`],
      ["in", `(${ex.k}, ${ex.n}) float32`, `(${b}, ${b})`],
      ["out", `(${ex.m}, ${ex.n}) float32`, `(${b}, ${b})`],
    ],
  );
  assert.deepEqual(
    matmul.operands.map((o) => o[3]),
    ["lambda i, j, k: (i, k)", "lambda i, j, k: (k, j)", "lambda i, j, k: (i, j)"],
  );
  // Every grid step brings new input blocks; the output block is written
  // back once per (i, j).
  const steps = (ex.m / b) * (ex.n / b) * (ex.k / b);
  assert.deepEqual(
    matmul.operands.map((o) => Number(o[5])),
    [steps, steps, (ex.m / b) * (ex.n / b)],
  );
  assert.ok(
    matmul.vmem.startsWith(`VMEM: ${kib(2 * 3 * blockBytes)} double-buffered, of the v5e's 128.00 MiB`),
    matmul.vmem,
  );
  assert.equal(matmul.mxu.length, 1);
  assert.match(matmul.mxu[0], new RegExp(`\\[${b}, ${b}\\] @ \\[${b}, ${b}\\] fills 100% of the 128-wide MXU`));
  assert.match(matmul.wgsl, /@compute @workgroup_size/);

  // RMSNorm: one grid axis over row blocks, every step independent, no dot.
  assert.ok(rmsnorm.head.startsWith(`${ex.calls[1].kernel} (line ${ex.calls[1].line}): grid (i=${ex.m / ex.rows})`), rmsnorm.head);
  assert.equal(rmsnorm.operands[1][3], "lambda i: (0,)");
  assert.deepEqual(rmsnorm.mxu, []);

  // The matmul's record with its traced block operations open.
  await page.click("#kernels-view .pallas-call:first-of-type details:not(.pallas-wgsl) summary");
  const first = await page.$("#kernels-view .pallas-call");
  await first.screenshot({ path: join(artifacts, "panel-pallas.png") });
  assert.deepEqual(errors, []);
  await page.close();
});
