export default async function (page) {
  const r = await page.evaluate(async () => {
    const out = {};
    const loop = "import time\nt=time.perf_counter()\ns=0\nfor i in range(300000): s += i*i % 7\nprint(s)";
    for (let k = 0; k < 3; k++) {
      const t = performance.now();
      const o = await spike.run(0, "s=0\nfor i in range(300000): s += i*i % 7\nprint(s)");
      out["loop" + k] = [Math.round(performance.now() - t), o.trim()];
    }
    const t1 = performance.now();
    out.misc = await spike.run(0, "import sys, math, json, re, collections\nprint(sys.version)\nprint(json.dumps({'a':[1,2]}), re.sub('a','b','aaa'), math.sqrt(2))\nimport os");
    out.miscMs = Math.round(performance.now() - t1);
    out.mem = spike.mem();
    return out;
  });
  console.log(JSON.stringify(r, null, 1));
}
