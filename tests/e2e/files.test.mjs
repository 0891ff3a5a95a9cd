// End-to-end tests of the page's Files panel and arguments field: a file
// dropped in is what `open()` reads, what the program writes is listed and
// downloads with its bytes, the files outlive a reload, and the arguments
// reach `sys.argv` and the share link.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { artifacts, browser, openPage, setProgram, waitForRun } from "./helpers.mjs";

const PROGRAM = `import sys, argparse, collections
p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=1)
p.add_argument("name")
a = p.parse_args()
print(sys.argv[1:], a.steps, a.name)
text = open("input.txt").read()
words = collections.Counter(text.split())
print(len(text.splitlines()), "lines", words.most_common(1))
with open("counts.txt", "w") as f:
    for w, n in sorted(words.items()):
        f.write(f"{w} {n}\\n")
print(open("counts.txt").read().count("\\n"), "words written")
`;

test("a dropped input.txt is read, the file written is listed and downloads, and both outlive a reload", async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const { page, errors } = await openPage({ context });
  await page.click(".tabs [data-panel=files]");
  await page.setInputFiles("#files-input", {
    name: "input.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("the cat sat\non the mat\nthe end\n"),
  });
  await page.waitForFunction(() => document.querySelector("#files-view")?.textContent.includes("input.txt"));
  assert.equal(await page.textContent("#files-message"), "added input.txt");

  await setProgram(page, PROGRAM);
  await page.fill("#args", `--steps 3 "two words"`);
  await page.click("#run");
  await waitForRun(page);
  assert.equal(
    await page.textContent("#output"),
    "['--steps', '3', 'two words'] 3 two words\n3 lines [('the', 3)]\n6 words written\n",
  );
  await page.waitForFunction(() => document.querySelector("#files-view")?.textContent.includes("counts.txt"));
  await page.screenshot({ path: join(artifacts, "page-files.png") });

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.click('#files-view a.download[data-path="/home/user/counts.txt"]'),
  ]);
  assert.equal(download.suggestedFilename(), "counts.txt");
  const saved = await readFile(await download.path(), "utf8");
  assert.equal(saved, "cat 1\nend 1\nmat 1\non 1\nsat 1\nthe 3\n");

  // The arguments ride in the share link.
  await page.click("#share");
  await page.waitForFunction(() => location.hash.startsWith("#code="));
  assert.match(page.url(), /args=--steps\+3\+%22two\+words%22/);

  // Kept in this browser: a reload finds both files.
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready", null, { timeout: 60_000 });
  await page.click(".tabs [data-panel=files]");
  await page.waitForFunction(() => {
    const text = document.querySelector("#files-view")?.textContent ?? "";
    return text.includes("input.txt") && text.includes("counts.txt");
  });
  assert.equal(await page.inputValue("#args"), `--steps 3 "two words"`);

  // Removed from the panel, gone for the program.
  await page.click('#files-view tr:has-text("input.txt") button');
  await page.waitForFunction(() => !document.querySelector("#files-view")?.textContent.includes("input.txt"));
  await setProgram(page, 'import os\nprint(sorted(os.listdir(".")))\n');
  await page.click("#run");
  await waitForRun(page);
  assert.equal(await page.textContent("#output"), "['counts.txt']\n");
  assert.deepEqual(errors, []);
  await context.close();
});
