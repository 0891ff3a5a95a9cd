# torch.utils.data: datasets, samplers, default_collate and DataLoader (with
# num_workers=0, and with workers run in turn in this process: _WorkersDataLoaderIter),
# following PyTorch's dataset.py, sampler.py and dataloader.py.
# Shuffling draws from torch's generators exactly as PyTorch does, so seeded
# runs see the same batches: each pass over a DataLoader first draws a base
# seed (`torch.empty((), dtype=torch.int64).random_(generator=loader.generator)`),
# then a RandomSampler without a generator of its own draws a seed from the
# default generator for a fresh torch.Generator and takes a randperm from it.
# Iteration is eager here (a pass is built as a list when it starts), since the
# interpreter's for loops take lists.
import torch


class Dataset:
    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    def __init__(self, *tensors):
        for tensor in tensors:
            if tensors[0].size(0) != tensor.size(0):
                raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = []
        total = 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = 0
        while self.cumulative_sizes[dataset_idx] <= idx:
            dataset_idx += 1
        sample_idx = idx if dataset_idx == 0 else idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]


def random_split(dataset, lengths, generator=None):
    if abs(sum(lengths) - 1) < 1e-9 and sum(lengths) <= 1 and any(isinstance(l, float) for l in lengths):
        subset_lengths = []
        for frac in lengths:
            if frac < 0 or frac > 1:
                raise ValueError("Fraction at index " + str(len(subset_lengths)) + " is not between 0 and 1")
            subset_lengths.append(int(frac * len(dataset)))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = torch.randperm(sum(lengths), generator=generator).tolist()
    out = []
    offset = 0
    for length in lengths:
        out.append(Subset(dataset, indices[offset:offset + length]))
        offset += length
    return out


class Sampler:
    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        # A property in PyTorch (the dataset's length when not given), read
        # once here.
        self.num_samples = len(data_source) if num_samples is None else num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError("replacement should be a boolean value, but got replacement=" + str(self.replacement))
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got num_samples="
                             + str(self.num_samples))

    def __iter__(self):
        n = len(self.data_source)
        if self.generator is None:
            seed = int(torch.empty((), dtype=torch.int64).random_().item())
            generator = torch.Generator()
            generator.manual_seed(seed)
        else:
            generator = self.generator
        # Lazily, as PyTorch's generator does: its draws happen as the
        # indices are taken (a sampler of 10**10 samples costs nothing ahead).
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from torch.randint(high=n, size=(32,), dtype=torch.int64, generator=generator).tolist()
            yield from torch.randint(high=n, size=(self.num_samples % 32,), dtype=torch.int64,
                                     generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from torch.randperm(n, generator=generator).tolist()
            yield from torch.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in torch.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class BatchSampler(Sampler):
    def __init__(self, sampler, batch_size, drop_last):
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, but got batch_size=" + str(batch_size))
        if not isinstance(drop_last, bool):
            raise ValueError("drop_last should be a boolean value, but got drop_last=" + str(drop_last))
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if len(batch) > 0 and not self.drop_last:
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


def default_convert(data):
    return data


def default_collate(batch):
    elem = batch[0]
    if isinstance(elem, torch.Tensor):
        return torch.stack(batch, 0)
    if isinstance(elem, bool):
        return torch.tensor(batch)
    if isinstance(elem, int):
        return torch.tensor(batch)
    if isinstance(elem, float):
        return torch.tensor(batch, dtype=torch.float64)
    if isinstance(elem, str):
        return batch
    if isinstance(elem, dict):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) or isinstance(elem, list):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(samples)) for samples in zip(*batch)]
    raise TypeError("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found "
                    + str(type(elem)))


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if num_workers == 0 and (prefetch_factor is not None or persistent_workers):
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                             "to enable multiprocessing, otherwise set prefetch_factor to None."
                             if prefetch_factor is not None else "persistent_workers option needs num_workers > 0")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.persistent_workers = persistent_workers
        if isinstance(dataset, IterableDataset):
            if shuffle not in (False, None):
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 "shuffle=" + str(shuffle))
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 "sampler=" + str(sampler))
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                                 "but got batch_sampler=" + str(batch_sampler))
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None:
            if drop_last:
                raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                                 "drop_last")
        if sampler is None:
            if shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if batch_sampler is not None else default_convert
        self.collate_fn = collate_fn

    def _index_sampler(self):
        if self.batch_sampler is not None:
            return self.batch_sampler
        return self.sampler

    def __iter__(self):
        if self.num_workers > 0:
            return _WorkersDataLoaderIter(self)
        return _SingleProcessDataLoaderIter(self)

    def __len__(self):
        if isinstance(self.dataset, IterableDataset):
            length = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else -(-length // self.batch_size)
            return length
        return len(self._index_sampler())


class _SingleProcessDataLoaderIter:
    # What iterating a DataLoader gives, as PyTorch's: it draws its base seed
    # (for worker seeds) when made, then fetches one batch per `next`, so the
    # sampler draws as it is consumed.
    def __init__(self, loader):
        self._loader = loader
        self._base_seed = torch.empty((), dtype=torch.int64).random_(generator=loader.generator)
        if isinstance(loader.dataset, IterableDataset):
            self._dataset_iter = iter(loader.dataset)
            self._sampler_iter = None
        else:
            self._sampler_iter = iter(loader._index_sampler())
        self._num_yielded = 0

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._loader)

    def __next__(self):
        loader = self._loader
        if self._sampler_iter is None:
            data = self._next_from_iterable()
        else:
            index = next(self._sampler_iter)
            if loader.batch_sampler is not None:
                data = [loader.dataset[idx] for idx in index]
            else:
                data = loader.dataset[index]
        self._num_yielded += 1
        return loader.collate_fn(data)

    def _next_from_iterable(self):
        loader = self._loader
        if loader.batch_size is None:
            return next(self._dataset_iter)
        data = []
        for _ in range(loader.batch_size):
            try:
                data.append(next(self._dataset_iter))
            except StopIteration:
                break
        if len(data) == 0 or (loader.drop_last and len(data) < loader.batch_size):
            raise StopIteration
        return data


class WorkerInfo:
    def __init__(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)

    def __repr__(self):
        return ("WorkerInfo(id=" + str(self.id) + ", num_workers=" + str(self.num_workers) + ", seed="
                + str(self.seed) + ", dataset=" + repr(self.dataset) + ")")


_worker_info = [None]


def get_worker_info():
    return _worker_info[0]


class _Worker:
    # One of a DataLoader's workers, run in this process: its own torch
    # generator and Python `random` state, seeded as PyTorch seeds a worker
    # process (base_seed + id), swapped in while it works.
    def __init__(self, loader, worker_id, base_seed):
        import random
        self.info = WorkerInfo(id=worker_id, num_workers=loader.num_workers, seed=base_seed + worker_id,
                               dataset=loader.dataset)
        self.generator = torch.Generator().manual_seed(base_seed + worker_id)
        saved = random.getstate()
        random.seed(base_seed + worker_id)
        self.py_random = random.getstate()
        random.setstate(saved)

    def run(self, work):
        import random
        saved = random.getstate()
        random.setstate(self.py_random)
        _worker_info[0] = self.info
        torch._C.generator_swap(self.generator._handle)
        try:
            return work()
        finally:
            torch._C.generator_swap(self.generator._handle)
            _worker_info[0] = None
            self.py_random = random.getstate()
            random.setstate(saved)


class _WorkersDataLoaderIter(_SingleProcessDataLoaderIter):
    # DataLoader(num_workers=N) as PyTorch's multi-process iterator behaves,
    # with the workers run in turn in this process (a browser page has no
    # processes to fork): batch i is fetched by worker i % N, in order, with
    # that worker's random state, get_worker_info() and worker_init_fn;
    # an IterableDataset is iterated once per worker (each sees its own
    # worker info, to shard itself) and the workers' batches alternate.
    # The workers share the dataset object, where PyTorch's hold copies.
    def __init__(self, loader):
        super().__init__(loader)
        base = int(self._base_seed.item())
        self._workers = [_Worker(loader, w, base) for w in range(loader.num_workers)]
        if loader.worker_init_fn is not None:
            for w, worker in enumerate(self._workers):
                worker.run(lambda: loader.worker_init_fn(w))
        self._next_worker = 0
        if self._sampler_iter is None:
            self._worker_iters = [worker.run(lambda: iter(loader.dataset)) for worker in self._workers]
            self._exhausted = [False] * len(self._workers)
        else:
            # PyTorch hands out prefetch_factor batches of indices per worker
            # as the iterator starts, so the sampler draws then.
            self._indices = []
            for _ in range(loader.prefetch_factor * loader.num_workers):
                try:
                    self._indices.append(next(self._sampler_iter))
                except StopIteration:
                    break

    def __next__(self):
        loader = self._loader
        if self._sampler_iter is None:
            return self._next_from_workers()
        if self._indices:
            index = self._indices.pop(0)
        else:
            index = next(self._sampler_iter)
        try:
            self._indices.append(next(self._sampler_iter))
        except StopIteration:
            pass
        worker = self._workers[self._num_yielded % len(self._workers)]
        if loader.batch_sampler is not None:
            data = worker.run(lambda: [loader.dataset[idx] for idx in index])
        else:
            data = worker.run(lambda: loader.dataset[index])
        self._num_yielded += 1
        return worker.run(lambda: loader.collate_fn(data))

    def _next_from_workers(self):
        while not all(self._exhausted):
            w = self._next_worker
            self._next_worker = (w + 1) % len(self._workers)
            if self._exhausted[w]:
                continue
            self._dataset_iter = self._worker_iters[w]
            try:
                data = self._workers[w].run(self._next_from_iterable)
            except StopIteration:
                self._exhausted[w] = True
                continue
            self._num_yielded += 1
            return self._loader.collate_fn(data)
        raise StopIteration
