export default async function (page) {
  const r = await page.evaluate(async () => {
    const t = performance.now(), ticks0 = spike.ticks, res0 = spike.host.suspends;
    const o = await spike.run(0, `
import _host
vals = [_host.read(float(i)) for i in range(40)]
ok = all(v == 2.0 * i for i, v in enumerate(vals))
print(ok, vals[:5], vals[-1])
`);
    return { out: o.trim(), ms: Math.round(performance.now() - t), ticksDuring: spike.ticks - ticks0,
             suspends: spike.host.suspends - res0 };
  });
  console.log("jspi one interpreter:", JSON.stringify(r));
  // nested: suspend inside a deep Python recursion + generator + exception handler
  const r2 = await page.evaluate(async () => spike.run(0, `
import _host
def deep(n):
    if n == 0:
        return _host.read(21.0)
    try:
        return deep(n - 1)
    finally:
        pass
def gen():
    for i in range(3):
        yield _host.read(float(i))
print(deep(100), list(gen()), sorted([3,1,2], key=lambda x: -_host.read(float(x))))
`));
  console.log("jspi nested:", r2.trim());
}
