export default async function (page) {
  const r = await page.evaluate(async () => {
    const out = {};
    for (const m of ["json", "re", "collections", "functools", "dataclasses", "typing", "enum", "random", "copy", "contextlib", "textwrap", "math", "itertools", "os"]) {
      const t = performance.now();
      const o = await spike.run(0, `import ${m}`);
      out[m] = [Math.round((performance.now() - t) * 10) / 10, o.trim().split("\n").pop()];
    }
    out.demo = (await spike.run(0, `
import json, re, dataclasses, typing, random, collections
@dataclasses.dataclass
class P:
    x: int
    y: float = 0.5
print(json.dumps({"p": dataclasses.asdict(P(3))}), re.findall(r"\\d+", "a1b22c333"), collections.Counter("hello").most_common(1))
`)).trim();
    out.mem = spike.mem();
    return out;
  });
  console.log(JSON.stringify(r));
}
