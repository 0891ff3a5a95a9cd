# torch.nn.utils.rnn: batches of sequences of different lengths. A
# PackedSequence holds the steps of every sequence, longest first, step by
# step (`data`), with how many sequences are still running at each step
# (`batch_sizes`); the recurrent layers (torch.nn's _rnn.py) run on it,
# advancing only the running sequences at each step, as cuDNN and ATen do.
import collections

import torch

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]

_Fields = collections.namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])


class PackedSequence(_Fields):
    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        device = data.device
        indices = [None if t is None else t.to(device) for t in (self.sorted_indices, self.unsorted_indices)]
        return type(self)(data, self.batch_sizes, indices[0], indices[1])

    def cpu(self):
        return self.to("cpu")

    def double(self):
        return self.to(dtype=torch.float64)

    def float(self):
        return self.to(dtype=torch.float32)

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False

    def __repr__(self):
        return ("PackedSequence(data=" + repr(self.data) + ", batch_sizes=" + repr(self.batch_sizes)
                + ", sorted_indices=" + repr(self.sorted_indices) + ", unsorted_indices="
                + repr(self.unsorted_indices) + ")")


def invert_permutation(permutation):
    if permutation is None:
        return None
    output = torch.empty_like(permutation)
    output.scatter_(0, permutation, torch.arange(permutation.numel(), device=permutation.device))
    return output


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    if not isinstance(lengths, torch.Tensor):
        lengths = torch.as_tensor(lengths, dtype=torch.int64)
    lengths = lengths.to("cpu", torch.int64)
    if enforce_sorted:
        if any(a < b for a, b in zip(lengths.tolist(), lengths.tolist()[1:])):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
                               "to sidestep this requirement if you do not need ONNX exportability.")
        sorted_indices = None
    else:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    steps = input if not batch_first else input.transpose(0, 1)
    counts = lengths.tolist()
    if counts and counts[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    if counts and counts[0] > steps.shape[0]:
        raise RuntimeError("Expected sequence length to be larger than or equal to " + str(counts[0])
                           + ", but got " + str(steps.shape[0]))
    batch_sizes = [sum(1 for n in counts if n > t) for t in range(counts[0] if counts else 0)]
    data = torch.cat([steps[t, :b] for t, b in enumerate(batch_sizes)], 0)
    return PackedSequence(data, torch.tensor(batch_sizes, dtype=torch.int64), sorted_indices, None)


def _padded_steps(sequence, padding_value, total):
    # The packed steps back as [steps, batch, ...], in the packed (sorted) order.
    sizes = sequence.batch_sizes.tolist()
    batch = sizes[0] if sizes else 0
    rest = list(sequence.data.shape[1:])
    rows, offset = [], 0
    for b in sizes:
        step = sequence.data[offset:offset + b]
        offset += b
        if b < batch:
            fill = torch.full([batch - b] + rest, padding_value, dtype=step.dtype, device=step.device)
            step = torch.cat([step, fill], 0)
        rows.append(step)
    for _ in range(total - len(sizes)):
        rows.append(torch.full([batch] + rest, padding_value, dtype=sequence.data.dtype, device=sequence.data.device))
    return torch.stack(rows, 0)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    sizes = sequence.batch_sizes.tolist()
    if total_length is not None and total_length < len(sizes):
        raise ValueError("Expected total_length to be at least the length of the longest sequence in input, but got "
                         "total_length=" + str(total_length) + " and max sequence length being " + str(len(sizes)))
    padded = _padded_steps(sequence, padding_value, total_length or len(sizes))
    batch = sizes[0] if sizes else 0
    lengths = torch.tensor([sum(1 for b in sizes if b > i) for i in range(batch)], dtype=torch.int64)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices.cpu()]
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    if padding_side not in ("left", "right"):
        raise ValueError("Expected padding_side to be one of left or right, but got " + str(padding_side) + ".")
    if isinstance(sequences, torch.Tensor):
        sequences = sequences.unbind(0)
    longest = max(s.shape[0] for s in sequences)
    rows = []
    for s in sequences:
        missing = longest - s.shape[0]
        if missing:
            fill = torch.full([missing] + list(s.shape[1:]), padding_value, dtype=s.dtype, device=s.device)
            s = torch.cat([s, fill] if padding_side == "right" else [fill, s], 0)
        rows.append(s)
    return torch.stack(rows, 0 if batch_first else 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:n] for seq, n in zip(padded_sequences, lengths.tolist())]


def pack_sequence(sequences, enforce_sorted=True):
    lengths = torch.as_tensor([s.shape[0] for s in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
