export default async function (page) {
  const r = await page.evaluate(async () => {
    const out = {};
    spike.host.switchSP = true;
    const i = spike.newRank();
    for (const n of [500, 900, 2000]) {
      const src = `import sys\nsys.setrecursionlimit(5000)\ndef f(n):\n    return _host.read(1.0) if n == 0 else f(n - 1) + 0\nimport _host\nprint(f(${n}))`;
      try { out["main" + n] = (await spike.run(0, src)).trim().split("\n").pop(); } catch (e) { out["main" + n] = "JS " + e; }
      try { out["rank" + n] = (await spike.run(i, src)).trim().split("\n").pop(); } catch (e) { out["rank" + n] = "JS " + e; }
    }
    out.maxDepth = spike.host.maxDepth;
    return out;
  });
  console.log(JSON.stringify(r));
}
