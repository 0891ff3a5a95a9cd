import torch_tpu

# A v5e 4x4 slice: 16 chips on a 2-D mesh (v5e wraps around only on axes of
# 16, so both axes are lines). Each collective below is simulated link by link
# over the ICI; the Torus panel shows its traffic, the Timeline its ICI lane.
torch_tpu.set_chip("v5e", "4x4")
print(torch_tpu.get_chip())
for kind in ("all-gather", "reduce-scatter", "all-reduce"):
    r = torch_tpu.simulate_collective(kind, 64 * 2**20, axes=(0, 1))
    print(f"{kind:15s} {r['simulated_us']:9.1f} us simulated, busiest link {r['max_link_bytes'] / 2**20:.1f} MiB")
small = torch_tpu.simulate_collective("all-gather", 4096, axes=(1,))
print("a 4 kB all-gather is latency-bound:", small["latency_bound"])
