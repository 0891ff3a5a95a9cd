# Token classification with padding: class weights, ignore_index for pad positions, MultiStepLR.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(31)
PAD = -100
vocab, n_tags, emb = 12, 3, 8

lengths = [5, 3, 6, 2]
tokens = torch.zeros(4, 6, dtype=torch.long)
tags = torch.full((4, 6), PAD, dtype=torch.long)
for i, n in enumerate(lengths):
    tokens[i, :n] = torch.randint(1, vocab, (n,))
    tags[i, :n] = tokens[i, :n] % n_tags
print("tokens", tokens.tolist())
print("tags  ", tags.tolist())
tokens, tags = tokens.to(device), tags.to(device)

model = nn.Sequential(nn.Embedding(vocab, emb, padding_idx=0), nn.Linear(emb, 16), nn.ReLU(), nn.Linear(16, n_tags)).to(device)
print("padding row is zero:", model[0].weight[0].abs().sum().item() == 0.0)
weights = torch.tensor([1.0, 2.0, 0.5], device=device)
criterion = nn.CrossEntropyLoss(weight=weights, ignore_index=PAD)
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[10, 20], gamma=0.2)

for epoch in range(30):
    logits = model(tokens)
    loss = criterion(logits.view(-1, n_tags), tags.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if epoch % 10 == 9:
        mask = tags != PAD
        acc = ((logits.argmax(-1) == tags) & mask).sum().item() / mask.sum().item()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} acc {acc:.3f} lr {sched.get_last_lr()[0]:.4f}")

print("pad embedding grad stays zero:", model[0].weight.grad[0].abs().sum().item() == 0.0)
per_token = nn.functional.cross_entropy(logits.view(-1, n_tags), tags.view(-1), reduction="none", ignore_index=PAD)
print("per-token loss at pads:", per_token.view(4, 6)[3].detach().cpu().tolist()[2:])
print(criterion)
