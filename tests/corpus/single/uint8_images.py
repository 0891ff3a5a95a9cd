# Images as datasets store them, torch.uint8: drawn with randint, indexed,
# converted to float and scaled as torchvision's ToTensor does; uint8
# arithmetic wraps modulo 256 and promotes as PyTorch's type rules say.
import torch

device = "tpu"
torch.manual_seed(1)
images = torch.randint(0, 256, (4, 5, 5), dtype=torch.uint8)
print(images.dtype, images.shape, images.element_size(), images[0, 0].tolist())
batch = images.unsqueeze(1).clone().to(device)
print(batch.shape, batch.dtype)
x = batch[2].float() / 255
print(round(x.mean().item(), 4), x.dtype, x.max().item() <= 1.0)

a = torch.tensor([250, 3, 128], dtype=torch.uint8, device=device)
print((a + 10).tolist(), (a * 2).tolist(), (-a).tolist(), (a - 5).tolist())
print((a / 2).tolist(), (a // 3).tolist(), a.sum().item(), a.sum().dtype)
print(a.max().item(), a.min().item(), a.argmax().item(), (a > 100).tolist())
print((a + torch.tensor(300, device=device)).tolist(), (a + torch.ones(3, dtype=torch.int32, device=device)).dtype)
print((a.float() * 0.5).dtype, (a + True).dtype, torch.tensor([-1.5, 300.7, 255.9]).to(torch.uint8).tolist())
print(a.to(torch.int64).tolist(), a.byte().dtype, torch.iinfo(torch.uint8))
print(a.cumsum(0).tolist(), a.cumsum(0).dtype, a.prod().item())
mask = a > 100
print(a[mask].tolist(), torch.where(mask, a, torch.zeros_like(a)).tolist())
print(torch.zeros(2, dtype=torch.uint8).cpu(), torch.full((2,), 7, dtype=torch.uint8).cpu())
