# PyTorch's text-classification tutorial in miniature: token ids of
# different lengths concatenated with offsets, an EmbeddingBag (mean) and a
# Linear, trained with SGD, gradient clipping and StepLR, then evaluated.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)
vocab, classes = 50, 4
texts = [torch.randint(1, vocab, (int(n),)) for n in torch.randint(3, 9, (32,))]
labels = torch.tensor([int(t.sum()) % classes for t in texts])


def collate(batch_texts, batch_labels):
    offsets = [0]
    for t in batch_texts[:-1]:
        offsets.append(offsets[-1] + len(t))
    return (torch.cat(batch_texts).to(device), torch.tensor(offsets).to(device), batch_labels.to(device))


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)


model = TextClassificationModel(vocab, 16, classes).to(device)
print(model)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
for epoch in range(3):
    model.train()
    total_acc, total_count = 0, 0
    for i in range(0, 32, 8):
        text, offsets, label = collate(texts[i:i + 8], labels[i:i + 8])
        optimizer.zero_grad()
        predicted_label = model(text, offsets)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
    scheduler.step()
    print("epoch", epoch, "accuracy", round(total_acc / total_count, 4), "loss", round(loss.item(), 4),
          "lr", scheduler.get_last_lr())
model.eval()
with torch.no_grad():
    text, offsets, label = collate(texts[:5], labels[:5])
    out = model(text, offsets)
    print(out.argmax(1).cpu(), [round(v, 4) for v in out[0].tolist()])
