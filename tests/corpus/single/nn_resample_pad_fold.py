# Resampling and rearranging images: interpolate (nearest, linear,
# bilinear, with and without align_corners), the Upsample modules, the
# padding modules of every mode, pixel and channel shuffles, fold/unfold and
# LP pooling, with gradients through them.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
img = torch.arange(2 * 2 * 3 * 4, dtype=torch.float32, device=device).reshape(2, 2, 3, 4) / 10
print(F.interpolate(img, scale_factor=2)[0, 0].cpu())
print(F.interpolate(img, size=(5, 7), mode="nearest")[1, 1].cpu())
print(F.interpolate(img, size=(5, 7), mode="nearest-exact")[1, 1].cpu())
print(F.interpolate(img, scale_factor=2, mode="bilinear")[0, 1].cpu())
print(F.interpolate(img, size=(4, 6), mode="bilinear", align_corners=True)[1, 0].cpu())
seq = torch.tensor([[[0.0, 1.0, 4.0, 9.0]]], device=device)
print(F.interpolate(seq, size=7, mode="linear").cpu(), F.interpolate(seq, scale_factor=1.5, mode="linear",
                                                                     align_corners=True).cpu())
print(F.interpolate(img, size=(2, 2), mode="area")[0, 0].cpu())
x = img.clone().requires_grad_(True)
F.interpolate(x, scale_factor=(1.5, 2.5), mode="bilinear").pow(2).sum().backward()
print(x.grad[0, 0].cpu())
for m in [nn.Upsample(scale_factor=2), nn.Upsample(size=(4, 4), mode="bilinear"), nn.UpsamplingNearest2d(scale_factor=2),
          nn.UpsamplingBilinear2d(size=(3, 5))]:
    print(m, m(img).shape, round(m(img).sum().item(), 4))
print(nn.UpsamplingBilinear2d(scale_factor=2)(img)[0, 0, :2].cpu())

small = torch.arange(1.0, 7.0, device=device).reshape(1, 1, 2, 3)
for m in [nn.ZeroPad2d(1), nn.ZeroPad2d((1, 0, 0, 2)), nn.ConstantPad2d((0, 1, 1, 0), -1.5), nn.ReflectionPad2d(1),
          nn.ReplicationPad2d((2, 1, 0, 1)), nn.CircularPad2d(1)]:
    print(m)
    print(m(small)[0, 0].cpu())
line = torch.arange(1.0, 5.0, device=device).reshape(1, 1, 4)
for m in [nn.ZeroPad1d(2), nn.ConstantPad1d((1, 2), 7.0), nn.ReflectionPad1d((2, 1)), nn.ReplicationPad1d(2),
          nn.CircularPad1d((1, 2))]:
    print(m, m(line)[0, 0].cpu())
vol = torch.arange(8.0, device=device).reshape(1, 1, 2, 2, 2)
for m in [nn.ZeroPad3d(1), nn.ConstantPad3d((1, 0, 0, 0, 0, 1), 2.0), nn.ReplicationPad3d(1), nn.CircularPad3d(1)]:
    out = m(vol)
    print(m, tuple(out.shape), round(out.sum().item(), 3))

chans = torch.arange(2 * 8 * 2 * 2, dtype=torch.float32, device=device).reshape(2, 8, 2, 2)
ps = nn.PixelShuffle(2)
up = ps(chans)
print(ps, up.shape, up[0, 0].cpu())
print(nn.PixelUnshuffle(2)(up).equal(chans), F.pixel_unshuffle(up, 4).shape)
print(nn.ChannelShuffle(4), nn.ChannelShuffle(4)(chans)[0, :, 0, 0].cpu())
print(torch.pixel_shuffle(chans, 2).shape, torch.channel_shuffle(chans, 2)[1, :, 1, 1].cpu())

pic = torch.arange(1 * 2 * 4 * 5, dtype=torch.float32, device=device).reshape(1, 2, 4, 5)
cols = F.unfold(pic, kernel_size=(2, 3), padding=1, stride=(2, 1))
print(cols.shape, cols[0, :, :3].cpu())
unf = nn.Unfold(kernel_size=2)
fold = nn.Fold(output_size=(4, 5), kernel_size=2)
blocks = unf(pic)
print(unf, fold, blocks.shape)
print(fold(blocks)[0, 1].cpu())
print(F.fold(cols, (4, 5), (2, 3), padding=1, stride=(2, 1))[0, 0].cpu())
torch.manual_seed(0)
w = torch.randn(3, 8, device=device, requires_grad=True)
conv_like = (w @ unf(pic)).reshape(1, 3, 3, 4)
conv_like.sum().backward()
print(conv_like[0, 2].detach().cpu(), w.grad[0].cpu())

pool = nn.LPPool2d(2, 2)
print(pool, pool(pic)[0, 0].cpu())
print(nn.LPPool1d(1.5, 2, stride=1)(line).cpu())
