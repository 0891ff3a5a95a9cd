# __eq__/__ne__ with reflection and identity fallback, __lt__ for sorting, min/max, list membership and index, and NotImplemented.
import torch

device = "tpu"


class Checkpoint:
    def __init__(self, epoch, loss):
        self.epoch = epoch
        self.loss = loss

    def __eq__(self, other):
        if not isinstance(other, Checkpoint):
            return NotImplemented
        return self.epoch == other.epoch

    def __lt__(self, other):
        return self.loss < other.loss

    def __repr__(self):
        return f"ckpt(e{self.epoch}, {self.loss:.3f})"


class BestCheckpoint(Checkpoint):
    def __eq__(self, other):
        print("  BestCheckpoint.__eq__ first")
        return isinstance(other, Checkpoint) and self.loss == other.loss

    def __gt__(self, other):
        print("  BestCheckpoint.__gt__ first")
        return self.loss > other.loss


torch.manual_seed(10)
losses = (torch.rand(5, device=device) * 2).cpu().tolist()
ckpts = [Checkpoint(i, l) for i, l in enumerate(losses)]
print(sorted(ckpts)[:2], min(ckpts), max(ckpts))
print(Checkpoint(1, 0.0) in ckpts, Checkpoint(9, 0.0) in ckpts, ckpts.index(Checkpoint(2, 5.0)))
print(ckpts[0] == ckpts[0], ckpts[0] == 0, ckpts[0] != "x", ckpts[0] != Checkpoint(0, 1.0))
best = BestCheckpoint(3, losses[3])
print(ckpts[3] == best)
print(ckpts[0] < best)
print(sorted(ckpts, reverse=True)[0].epoch, sorted(ckpts, key=lambda c: -c.epoch)[0].epoch)


class Plain:
    pass


p, q = Plain(), Plain()
print(p == p, p == q, p != q, p in [q, p])
try:
    p < q
except TypeError as e:
    print("TypeError:", e)
try:
    ckpts[0] < 3
except (TypeError, AttributeError) as e:
    print(type(e).__name__)
