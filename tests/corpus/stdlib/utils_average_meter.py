# The AverageMeter / ProgressMeter helpers from the pytorch/examples ImageNet
# script, in plain Python: running averages with __str__ built from a format
# string, a batch-progress line with a zero-padded counter, and a summary.
from enum import Enum


class Summary(Enum):
    NONE = 0
    AVERAGE = 1
    SUM = 2


class AverageMeter:
    def __init__(self, name, fmt=":f", summary_type=Summary.AVERAGE):
        self.name, self.fmt, self.summary_type = name, fmt, summary_type
        self.reset()

    def reset(self):
        self.val = self.avg = self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(**self.__dict__)

    def summary(self):
        if self.summary_type is Summary.NONE:
            return ""
        key = {Summary.AVERAGE: "avg", Summary.SUM: "sum"}[self.summary_type]
        return ("{name} {" + key + ":.3f}").format(**self.__dict__)


class ProgressMeter:
    def __init__(self, num_batches, meters, prefix=""):
        num_digits = len(str(num_batches // 1))
        fmt = "{:" + str(num_digits) + "d}"
        self.batch_fmtstr = "[" + fmt + "/" + fmt.format(num_batches) + "]"
        self.meters, self.prefix = meters, prefix

    def display(self, batch):
        entries = [self.prefix + self.batch_fmtstr.format(batch)]
        entries += [str(meter) for meter in self.meters]
        print("\t".join(entries))

    def display_summary(self):
        print(" ".join(["*"] + [m.summary() for m in self.meters]))


batch_time = AverageMeter("Time", ":6.3f", Summary.NONE)
losses = AverageMeter("Loss", ":.4e")
top1 = AverageMeter("Acc@1", ":6.2f")
top5 = AverageMeter("Acc@5", ":6.2f", Summary.SUM)
progress = ProgressMeter(120, [batch_time, losses, top1, top5], prefix="Epoch: [3]")
for i in range(0, 120, 30):
    batch_time.update(0.25 + i / 1000)
    losses.update(2.0 / (i + 1), n=32)
    top1.update(50 + i / 4, n=32)
    top5.update(80 + i / 10, n=32)
    progress.display(i)
progress.display_summary()
print(losses.count, round(losses.avg, 6), top1.sum)
