# Dtype mistakes made while wiring up data and losses: integer targets where
# floats are needed and the other way round, Long inputs to Linear, matmul of
# mixed dtypes, and the casts that fix each one.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(4)

def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", out.dtype, tuple(out.shape))
    except Exception as e:
        print(label, type(e).__name__ + ":", e)

logits = torch.randn(4, 3, device=device)
labels = torch.tensor([0, 2, 1, 2], device=device)
attempt("cross_entropy long", lambda: F.cross_entropy(logits, labels))
attempt("cross_entropy int32", lambda: F.cross_entropy(logits, labels.int()))
attempt("cross_entropy float probs", lambda: F.cross_entropy(logits, F.one_hot(labels, 3).float()))
attempt("nll float target", lambda: F.nll_loss(logits.log_softmax(1), labels.float()))
attempt("mse long target", lambda: F.mse_loss(logits[:, 0], labels))
attempt("bce long target", lambda: F.binary_cross_entropy_with_logits(logits[:, 0], labels))
attempt("bce fixed", lambda: F.binary_cross_entropy_with_logits(logits[:, 0], (labels > 0).float()))

layer = nn.Linear(3, 2).to(device)
ints = torch.tensor([[1, 2, 3]], device=device)
attempt("linear long input", lambda: layer(ints))
attempt("linear cast", lambda: layer(ints.float()))
attempt("linear double", lambda: layer(ints.double()))
attempt("matmul mixed", lambda: torch.ones(2, 2, device=device) @ torch.ones(2, 2, dtype=torch.int64, device=device))
attempt("mm double float", lambda: torch.mm(torch.ones(2, 2, dtype=torch.float64, device=device), torch.ones(2, 2, device=device)))
attempt("add promotes", lambda: torch.ones(2, device=device) + torch.ones(2, dtype=torch.int64, device=device))
attempt("embedding float ids", lambda: nn.Embedding(5, 2).to(device)(torch.tensor([1.0, 2.0], device=device)))
attempt("index float", lambda: logits[torch.tensor([0.0, 1.0], device=device)])
attempt("gather int32", lambda: logits.gather(1, labels.int().unsqueeze(1)))
attempt("argmax float index", lambda: logits[:, logits.argmax(1).float()])
attempt("bool mask", lambda: logits[logits > 0])

t = torch.arange(4, device=device)
print(t.dtype, (t / 2).dtype, (t // 2).dtype, (t * 1.5).dtype, t.float().mean().item())
attempt("mean of long", lambda: t.mean())
attempt("long in-place float", lambda: t.mul_(1.5))
attempt("long in-place int", lambda: t.mul_(2))
print(t.tolist(), t.to(torch.float32).dtype, t.type(torch.float64).dtype)
