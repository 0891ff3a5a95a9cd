export default async function (page) {
  // loop cost with poll hook off / on
  const cost = await page.evaluate(async () => {
    const out = {};
    const loop = "s=0\nfor i in range(300000): s += i*i % 7\nprint(s)";
    for (const every of [0, 100000, 10000, 1000]) {
      spike.wasm.rp_set_poll(every);
      await spike.run(0, loop);
      const t = performance.now();
      const o = await spike.run(0, loop);
      out["every" + every] = [Math.round(performance.now() - t), o.trim()];
    }
    return out;
  });
  console.log("loop ms by poll interval:", JSON.stringify(cost));
  await page.evaluate(() => { spike.wasm.rp_set_poll(10000); spike.setStop(0);
    globalThis.__stopT0 = performance.now(); globalThis.__t0ticks = spike.ticks;
    globalThis.__stopRes = spike.run(0, "n = 0\nwhile True:\n    n += 1\n").then((o) => { globalThis.__stopT1 = performance.now(); return o; }); });
  await page.waitForTimeout(1000);
  const tClick = await page.evaluate(() => performance.now());
  await page.click("#stop", { timeout: 5000 });
  const r = await page.evaluate(async (tClick) => {
    const o = await Promise.race([__stopRes, new Promise((r) => setTimeout(() => r("NOT STOPPED after 10s"), 10000))]);
    const n = await spike.run(0, "print(n)");
    return { out: o.trim().split("\n").slice(-2).join(" | "), stopLatencyMs: Math.round(__stopT1 - tClick),
             ranMs: Math.round(__stopT1 - __stopT0), ticksDuring: spike.ticks - __t0ticks, iterations: n.trim() };
  }, tClick);
  console.log("stop button:", JSON.stringify(r));
  await page.evaluate(() => spike.wasm.rp_set_poll(0));
  // without the hook: JS can't stop it; a watchdog reports hang (don't run: it would hang the page)
}
