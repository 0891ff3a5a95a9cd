// args: nRanks rounds switchSP(0/1) switchVM(0/1) order(fifo|lifo|shuffle)
export default async function (page, args) {
  const [n, rounds, sw, vmsw, order] = [+(args[0] ?? 2), +(args[1] ?? 10), +(args[2] ?? 1), +(args[3] ?? 1), args[4] ?? "shuffle"];
  const r = await page.evaluate(async ({ n, rounds, sw, vmsw, order }) => {
    const h = spike.host;
    h.switchSP = !!sw;
    spike.wasm.rp_set_switch_vm_stack(vmsw);
    const memBefore = spike.mem();
    const ranks = [];
    const memAt = {};
    for (let i = 0; i < n; i++) {
      ranks.push(spike.newRank());
      memAt[i + 1] = spike.mem();
    }
    // barrier
    let waiting = [], sum = 0, gen = 0, seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    h.collective = (rank, v) => new Promise((resolve) => {
      waiting.push(resolve); sum += v;
      if (waiting.length === n) {
        const s = sum, w = waiting; waiting = []; sum = 0; gen++;
        if (order === "lifo") w.reverse();
        else if (order === "shuffle") w.sort(() => rnd() - 0.5);
        setTimeout(() => w.forEach((f) => f(s)), 0);
      }
    });
    const prog = (R) => `
import _host
R, N, ROUNDS = ${R}, ${n}, ${rounds}
data = [R * 1000 + i for i in range(50)]
acc = 0.0
def deep(k, v):
    if k == 0:
        return _host.collective(R, v)
    loc = [k] * 3
    r = deep(k - 1, v)
    assert loc == [k] * 3, "local clobbered"
    return r
for rnd in range(ROUNDS):
    v = float(R + rnd)
    s = deep((R * 3 + rnd) % 11, v)
    want = float(sum(r + rnd for r in range(N)))
    if s != want:
        raise RuntimeError(f"rank {R} round {rnd}: got {s} want {want}")
    acc += s
    d = {str(i): i * R for i in range(20)}
    assert d["7"] == 7 * R
    data = [x + 1 for x in data]
assert data == [R * 1000 + i + ROUNDS for i in range(50)], "data"
print("rank", R, "ok", acc)
`;
    const t = performance.now();
    const ticks0 = spike.ticks;
    const outs = ranks.map(() => "PENDING (timeout 60s)");
    await Promise.race([
      Promise.all(ranks.map((i, R) => spike.run(i, prog(R)).then((o) => { outs[R] = o; }, (e) => { outs[R] = "JS-ERROR " + e + " " + (e.stack||"").split("\n").slice(1,12).join(" <- "); }))),
      new Promise((res) => setTimeout(res, 60000)),
    ]);
    outs.push("barrier generations " + gen);
    const ms = performance.now() - t;
    const want = (R) => { let a = 0; for (let k = 0; k < rounds; k++) a += n * k + n * (n - 1) / 2; return `rank ${R} ok ${a.toFixed(1)}`; };
    const good = outs.filter((o, R) => typeof o === "string" && o.trim() === want(R)).length;
    return { n, rounds, sw, vmsw, order, good, ms: Math.round(ms), ticks: spike.ticks - ticks0,
             memBefore, memAt, maxDepth: h.maxDepth.slice(0,4), mainSP: spike.mainSP, tops: h.stackTop.slice(0,4), outs: outs.map((o) => String(o).slice(0, 1500)) };
  }, { n, rounds, sw, vmsw, order });
  console.log(JSON.stringify(r));
}
