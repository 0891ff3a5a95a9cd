# pytorch/examples distributed/ddp-tutorial-series/multigpu.py (BSD-3-Clause):
# a Trainer over DistributedSampler batches, launched with mp.spawn. Adapted:
# the device line (the original moves to `rank`, a CUDA index), gloo for nccl,
# two processes for torch.cuda.device_count(), arguments given to parse_args,
# MyTrainDataset (datautils.py) inline and seeded, the checkpoint kept in
# memory, and only rank 0 printing (the ranks' lines interleave by chance).
import io
import torch
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader

import torch.multiprocessing as mp
from torch.utils.data.distributed import DistributedSampler
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed import init_process_group, destroy_process_group
import os

device = "tpu"


class MyTrainDataset(Dataset):
    def __init__(self, size):
        self.size = size
        g = torch.Generator().manual_seed(0)  # (adapted) seeded
        self.data = [(torch.rand(20, generator=g), torch.rand(1, generator=g)) for _ in range(size)]

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        return self.data[index]


def ddp_setup(rank, world_size):
    """
    Args:
        rank: Unique identifier of each process
        world_size: Total number of processes
    """
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "12355"
    init_process_group(backend="gloo", rank=rank, world_size=world_size)  # (adapted) nccl


class Trainer:
    def __init__(
        self,
        model: torch.nn.Module,
        train_data: DataLoader,
        optimizer: torch.optim.Optimizer,
        gpu_id: int,
        save_every: int,
    ) -> None:
        self.gpu_id = gpu_id
        self.model = model.to(device)  # (adapted) .to(gpu_id)
        self.train_data = train_data
        self.optimizer = optimizer
        self.save_every = save_every
        self.model = DDP(model)  # (adapted) device_ids=[gpu_id]

    def _run_batch(self, source, targets):
        self.optimizer.zero_grad()
        output = self.model(source)
        loss = F.mse_loss(output, targets)
        loss.backward()
        self.optimizer.step()
        return loss

    def _run_epoch(self, epoch):
        b_sz = len(next(iter(self.train_data))[0])
        if self.gpu_id == 0:  # (adapted) rank 0 prints
            print(f"[GPU{self.gpu_id}] Epoch {epoch} | Batchsize: {b_sz} | Steps: {len(self.train_data)}")
        self.train_data.sampler.set_epoch(epoch)
        for source, targets in self.train_data:
            source = source.to(device)
            targets = targets.to(device)
            loss = self._run_batch(source, targets)
        if self.gpu_id == 0:  # (adapted) the last batch's loss
            print(f"  last loss {loss.item():.6f}")

    def _save_checkpoint(self, epoch):
        ckp = self.model.module.state_dict()
        buffer = io.BytesIO()  # (adapted) "checkpoint.pt"
        torch.save(ckp, buffer)
        print(f"Epoch {epoch} | Training checkpoint saved ({len(ckp)} tensors)")

    def train(self, max_epochs: int):
        for epoch in range(max_epochs):
            self._run_epoch(epoch)
            if self.gpu_id == 0 and epoch % self.save_every == 0:
                self._save_checkpoint(epoch)
        if self.gpu_id == 0:  # (adapted) the trained weights
            print("weight", self.model.module.weight.detach().cpu()[0, :4])


def load_train_objs():
    train_set = MyTrainDataset(256)  # load your dataset
    torch.manual_seed(0)  # (adapted) the same model on every rank
    model = torch.nn.Linear(20, 1)  # load your model
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
    return train_set, model, optimizer


def prepare_dataloader(dataset: Dataset, batch_size: int):
    return DataLoader(
        dataset,
        batch_size=batch_size,
        pin_memory=False,  # (adapted) no accelerator to pin for
        shuffle=False,
        sampler=DistributedSampler(dataset)
    )


def main(rank: int, world_size: int, save_every: int, total_epochs: int, batch_size: int):
    ddp_setup(rank, world_size)
    dataset, model, optimizer = load_train_objs()
    train_data = prepare_dataloader(dataset, batch_size)
    trainer = Trainer(model, train_data, optimizer, rank, save_every)
    trainer.train(total_epochs)
    destroy_process_group()


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description='simple distributed training job')
    parser.add_argument('total_epochs', type=int, help='Total epochs to train the model')
    parser.add_argument('save_every', type=int, help='How often to save a snapshot')
    parser.add_argument('--batch_size', default=32, type=int, help='Input batch size on each device (default: 32)')
    args = parser.parse_args(["3", "2", "--batch_size", "16"])  # (adapted)

    world_size = 2  # (adapted) torch.cuda.device_count()
    mp.spawn(main, args=(world_size, args.save_every, args.total_epochs, args.batch_size), nprocs=world_size)
