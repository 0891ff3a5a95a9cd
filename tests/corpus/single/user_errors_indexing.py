# Off-by-one and out-of-range indexing while handling a batch: integer and
# slice indexing past the end, label ids beyond an embedding, gather/scatter
# bounds, and what negative and empty slices give back.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(8)

batch = torch.arange(12, device=device).reshape(3, 4)

def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out.cpu() if isinstance(out, torch.Tensor) else out)
    except (IndexError, RuntimeError, ValueError, TypeError) as e:
        print(label, type(e).__name__ + ":", e)

attempt("row 3", lambda: batch[3])
attempt("row -4", lambda: batch[-4])
attempt("row -1", lambda: batch[-1])
attempt("col 4", lambda: batch[:, 4])
attempt("too many", lambda: batch[0, 1, 2])
attempt("slice past end", lambda: batch[2:10])
attempt("empty slice", lambda: batch[5:])
attempt("list index", lambda: batch[[0, 2]])
attempt("list out of range", lambda: batch[[0, 3]])
attempt("tensor index", lambda: batch[torch.tensor([1, -1], device=device)])
attempt("bool mask wrong size", lambda: batch[torch.tensor([True, False], device=device)])
attempt("select", lambda: batch.select(1, 5))
attempt("narrow", lambda: batch.narrow(1, 2, 3))
attempt("index_select", lambda: batch.index_select(0, torch.tensor([0, 7], device=device)))
attempt("gather", lambda: batch.gather(1, torch.tensor([[0], [4], [1]], device=device)))
attempt("item from row", lambda: batch[1, 2].item())
attempt("python list", lambda: [1, 2, 3][3])
attempt("dim out of range", lambda: batch.sum(dim=2))
attempt("softmax dim", lambda: batch.float().softmax(dim=-3))

emb = nn.Embedding(10, 3).to(device)
ids = torch.tensor([[1, 9], [3, 10]], device=device)
attempt("embedding id 10", lambda: emb(ids))
attempt("embedding clamp", lambda: emb(ids.clamp(max=9)).shape)

# Assigning through an index: shape must fit.
scores = torch.zeros(3, 4, device=device)
scores[0] = torch.ones(4, device=device)
scores[:, 1] = 2.0
def assign_row():
    scores[1] = torch.ones(3, device=device)
    return scores

attempt("assign wrong shape", assign_row)
scores[batch > 9] = -1.0
print(scores.cpu())
labels = torch.tensor([0, 2, 5], device=device)
attempt("one_hot too small", lambda: torch.nn.functional.one_hot(labels, num_classes=4))
attempt("one_hot", lambda: torch.nn.functional.one_hot(labels).shape)
