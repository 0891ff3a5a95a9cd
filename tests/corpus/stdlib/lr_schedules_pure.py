# Learning-rate schedules and early stopping written in plain Python, as small
# training utilities do: linear warmup + cosine decay, step decay, one-cycle,
# inverse square root (Noam), and an EarlyStopping helper with patience.
import math


def cosine_with_warmup(it, warmup=100, total=1000, max_lr=1e-3, min_lr=1e-4):
    if it < warmup:
        return max_lr * (it + 1) / warmup
    if it > total:
        return min_lr
    ratio = (it - warmup) / (total - warmup)
    coeff = 0.5 * (1.0 + math.cos(math.pi * ratio))
    return min_lr + coeff * (max_lr - min_lr)


def step_decay(epoch, base=0.1, gamma=0.1, milestones=(30, 60, 80)):
    return base * gamma ** sum(epoch >= m for m in milestones)


def noam(step, d_model=512, warmup=4000):
    step = max(step, 1)
    return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


def one_cycle(it, total=100, max_lr=0.01, pct=0.3):
    up = int(total * pct)
    if it < up:
        return max_lr / 25 + (max_lr - max_lr / 25) * it / up
    t = (it - up) / (total - up)
    return max_lr / 25e4 + (max_lr - max_lr / 25e4) * (1 + math.cos(math.pi * t)) / 2


for it in [0, 50, 99, 100, 550, 1000, 1200]:
    print(f"cosine {it:5d}: {cosine_with_warmup(it):.6e}")
print([round(step_decay(e), 8) for e in (0, 29, 30, 60, 85)])
print([f"{noam(s):.3e}" for s in (1, 1000, 4000, 16000)])
print([round(one_cycle(i), 6) for i in (0, 15, 30, 65, 99)])


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience, self.min_delta = patience, min_delta
        self.best, self.bad_epochs, self.stop = math.inf, 0, False

    def __call__(self, val_loss):
        if val_loss < self.best - self.min_delta:
            self.best, self.bad_epochs = val_loss, 0
        else:
            self.bad_epochs += 1
            self.stop = self.bad_epochs >= self.patience
        return self.stop


es = EarlyStopping(patience=2, min_delta=0.01)
for epoch, loss in enumerate([1.0, 0.8, 0.795, 0.7, 0.71, 0.705, 0.6]):
    stop = es(loss)
    print(f"epoch {epoch} val {loss} best {es.best} bad {es.bad_epochs} stop {stop}")
    if stop:
        break
