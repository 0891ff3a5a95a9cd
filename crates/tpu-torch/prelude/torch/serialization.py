# torch.save and torch.load in PyTorch's own format: a zip archive (stored,
# not compressed) whose `data.pkl` is the object pickled at protocol 2 with
# each tensor a call of `torch._utils._rebuild_tensor_v2` on a storage, and
# each storage a record `data/N` of its raw little-endian bytes, aligned to 64
# bytes, beside `byteorder`, `version` and the rest of PyTorch 2.15's records.
# A checkpoint written here loads in PyTorch and one PyTorch wrote loads here.
#
# `weights_only=True` is the default, as in PyTorch 2.6 and later: only
# tensors, containers, numbers, strings and allowlisted globals load.
#
# What differs: a tensor that is a view is saved as its own storage (its
# elements only, not the whole storage it views), so views of one storage no
# longer share memory after loading; tensors that are the same view (tied
# weights) still share one storage.
import array
import collections
import hashlib
import io
import os
import pickle
import struct
import sys
import zipfile

import torch
import torch._utils

DEFAULT_PROTOCOL = 2

# The storage classes checkpoints name, by dtype (`torch.FloatStorage`).
_STORAGE_DTYPES = {
    "FloatStorage": torch.float32,
    "DoubleStorage": torch.float64,
    "BFloat16Storage": torch.bfloat16,
    "HalfStorage": torch.float16,
    "LongStorage": torch.int64,
    "IntStorage": torch.int32,
    "ByteStorage": torch.uint8,
    "BoolStorage": torch.bool,
}
# PyTorch's storage classes this project has no dtype for.
_UNSUPPORTED_STORAGES = {
    "CharStorage": "int8",
    "ShortStorage": "int16",
    "ComplexFloatStorage": "complex64",
    "ComplexDoubleStorage": "complex128",
}


def _storage_class(name):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("torch." + name + " objects are not supported yet; the class names a "
                                  "storage's dtype in checkpoints")

    cls = type(name, (), {"__init__": __init__, "__module__": "torch"})
    cls.__qualname__ = name
    return cls


for _name in list(_STORAGE_DTYPES) + list(_UNSUPPORTED_STORAGES):
    setattr(torch, _name, _storage_class(_name))
_STORAGE_OF_DTYPE = {dtype: name for name, dtype in _STORAGE_DTYPES.items()}

# array typecodes of the dtypes' bytes (bfloat16 is the high half of a float32).
_TYPECODES = {torch.float32: "f", torch.float64: "d", torch.int64: "q", torch.int32: "i", torch.uint8: "B"}


def _to_bytes(flat):
    # The raw little-endian bytes of a flat CPU tensor.
    values = flat.tolist()
    if flat.dtype == torch.bool:
        return bytes(values)
    if flat.dtype == torch.bfloat16:
        words = array.array("I", array.array("f", values).tobytes())
        return array.array("H", [w >> 16 for w in words]).tobytes()
    if flat.dtype == torch.float16:
        return struct.pack("<" + str(len(values)) + "e", *values)
    data = array.array(_TYPECODES[flat.dtype], values)
    if sys.byteorder != "little":
        data.byteswap()
    return data.tobytes()


def _from_bytes(raw, dtype):
    if dtype == torch.bool:
        return torch.tensor([b != 0 for b in raw], dtype=torch.bool)
    if dtype == torch.float16:
        return torch.tensor(list(struct.unpack("<" + str(len(raw) // 2) + "e", raw)), dtype=torch.float16)
    if dtype == torch.bfloat16:
        halves = array.array("H", raw)
        values = array.array("f", array.array("I", [h << 16 for h in halves]).tobytes())
        return torch.tensor(values.tolist(), dtype=torch.bfloat16)
    data = array.array(_TYPECODES[dtype], raw)
    if sys.byteorder != "little":
        data.byteswap()
    return torch.tensor(data.tolist(), dtype=dtype)


class _Storage:
    # A storage as checkpoints hold it: a flat tensor of one dtype on one
    # device (what `_rebuild_tensor_v2` takes views of).
    def __init__(self, flat, location):
        self._flat = flat
        self.location = location
        self.dtype = flat.dtype

    def __reduce__(self):
        # Pickled outside torch.save, as PyTorch pickles a storage: a nested
        # checkpoint of it.
        buffer = io.BytesIO()
        save(self, buffer)
        return (_load_from_bytes, (buffer.getvalue(),))


def _load_from_bytes(b):
    return load(io.BytesIO(b), weights_only=False)


# The save in progress: its storages by the view they hold.
_saving = []


def _storage_for(tensor):
    # The storage `tensor` is saved as: one per distinct view, so tied weights
    # (one parameter under two names) stay one storage.
    t = tensor.detach()
    location = "cpu" if t.device.type == "cpu" else t.device.type + ":" + str(t.device.index or 0)
    key = (t.data_ptr(), tuple(t.shape), tuple(t.stride()), t.dtype)
    views = _saving[-1] if _saving else {}
    if key not in views:
        views[key] = _Storage(t.reshape(-1).to("cpu").clone(), location)
    return views[key]


def _reduce_tensor(tensor):
    if tensor.dtype not in _STORAGE_OF_DTYPE:
        raise NotImplementedError("torch.save of a " + str(tensor.dtype) + " tensor")
    strides = []
    step = 1
    for s in reversed(tuple(tensor.shape)):
        strides.insert(0, step)
        step *= s
    args = (_storage_for(tensor), 0, tuple(tensor.shape), tuple(strides), tensor.requires_grad,
            collections.OrderedDict())
    return (torch._utils._rebuild_tensor_v2, args)


def _reduce_parameter(param):
    return (torch._utils._rebuild_parameter, (param.data, param.requires_grad, collections.OrderedDict()))


def _archive_name(f):
    if isinstance(f, (str, os.PathLike)):
        base = os.path.basename(os.fspath(f))
        return os.path.splitext(base)[0] or "archive"
    return "archive"


class _Pickler(pickle.Pickler):
    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = []
        self.keys = {}

    def persistent_id(self, obj):
        if isinstance(obj, _Storage):
            if id(obj) not in self.keys:
                self.keys[id(obj)] = str(len(self.storages))
                self.storages.append(obj)
            name = _STORAGE_OF_DTYPE[obj.dtype]
            return ("storage", getattr(torch, name), self.keys[id(obj)], obj.location, obj._flat.numel())
        return None

    def reducer_override(self, obj):
        if isinstance(obj, torch.nn.Parameter):
            return _reduce_parameter(obj)
        if isinstance(obj, torch.Tensor):
            return _reduce_tensor(obj)
        return NotImplemented


def _padded_info(name, offset):
    # A record whose data starts at a multiple of 64 bytes, as PyTorch's
    # writer aligns them: the local header (30 bytes and the name) padded by
    # an extra field ("FB", PyTorch's id) of the right length.
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    header = 30 + len(name.encode())
    pad = (-(offset + header + 4)) % 64
    info.extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
    return info


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("torch.save(_use_new_zipfile_serialization=False): only the zip format is "
                                  "supported")
    _saving.append({})
    try:
        data = io.BytesIO()
        pickler = _Pickler(data, pickle_protocol)
        pickler.dump(obj)
        storages = pickler.storages
    finally:
        _saving.pop()
    payload = data.getvalue()
    records = [("data.pkl", payload), (".format_version", b"1"), (".storage_alignment", b"64")]
    if not _disable_byteorder_record:
        records.append(("byteorder", b"little"))
    for key, storage in enumerate(storages):
        records.append(("data/" + str(key), _to_bytes(storage._flat)))
    records.append(("version", b"3\n"))
    digest = int(hashlib.sha1(payload).hexdigest(), 16) % 10 ** 40
    records.append((".data/serialization_id", ("%040d" % digest).encode()))
    prefix = _archive_name(f) + "/"
    opened = open(f, "wb") if isinstance(f, (str, os.PathLike)) else None
    target = opened if opened is not None else f
    try:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
            for name, content in records:
                archive.writestr(_padded_info(prefix + name, buffer.tell()), content)
        target.write(buffer.getvalue())
    finally:
        if opened is not None:
            opened.close()


# What `weights_only=True` lets a checkpoint name, besides the storages.
_SAFE_GLOBALS = {
    ("collections", "OrderedDict"),
    ("collections", "defaultdict"),
    ("torch._utils", "_rebuild_tensor_v2"),
    ("torch._utils", "_rebuild_tensor"),
    ("torch._utils", "_rebuild_parameter"),
    ("torch._utils", "_rebuild_parameter_with_state"),
    ("torch", "Size"),
    ("torch", "device"),
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "bytearray"),
    ("builtins", "slice"),
    ("builtins", "complex"),
    ("_codecs", "encode"),
}
_user_safe_globals = []


def add_safe_globals(safe_globals):
    _user_safe_globals.extend(safe_globals)


def get_safe_globals():
    return list(_user_safe_globals)


def clear_safe_globals():
    del _user_safe_globals[:]


class safe_globals:
    def __init__(self, safe_globals):
        self.safe_globals = list(safe_globals)

    def __enter__(self):
        _user_safe_globals.extend(self.safe_globals)

    def __exit__(self, *exc):
        for g in self.safe_globals:
            _user_safe_globals.remove(g)
        return False


def _weights_only_error(detail):
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, do those "
        "steps only if you trust the source of the checkpoint. \n\t(1) In PyTorch 2.6, we changed the default "
        "value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` "
        "with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. "
        "Do it only if you got the file from a trusted source.\n\t(2) Alternatively, to load with "
        "`weights_only=True` please check the recommended steps in the following error message.\n\t"
        "WeightsUnpickler error: " + detail)


def _restore(storage, location, map_location):
    # The device a storage loads to: where it was saved unless map_location
    # says otherwise (a device, a string, a dict of locations, a function).
    if map_location is None:
        target = location
    elif isinstance(map_location, dict):
        target = map_location.get(location, location)
    elif callable(map_location) and not isinstance(map_location, (str, torch.device)):
        result = map_location(storage, location)
        return result if result is not None else storage
    else:
        target = map_location
    device = torch.device(target)
    if device.type not in ("cpu", "tpu"):
        raise RuntimeError("Attempting to deserialize object on a " + device.type.upper() + " device but "
                           "this playground has no such device; use map_location=torch.device('cpu') "
                           "(or 'tpu') to map your storages")
    return _Storage(storage._flat.to(device), location)


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, archive, prefix, map_location, weights_only):
        super().__init__(file)
        self.archive = archive
        self.prefix = prefix
        self.map_location = map_location
        self.weights_only = weights_only
        self.loaded = {}

    def find_class(self, module, name):
        if module == "torch" and name in _STORAGE_DTYPES:
            return getattr(torch, name)
        if module == "torch" and name in _UNSUPPORTED_STORAGES:
            raise NotImplementedError("torch.load of a " + _UNSUPPORTED_STORAGES[name] + " tensor: this "
                                      "playground has no " + _UNSUPPORTED_STORAGES[name] + " dtype")
        if module == "torch" and isinstance(getattr(torch, name, None), torch.dtype):
            return getattr(torch, name)
        if self.weights_only and (module, name) not in _SAFE_GLOBALS:
            for g in _user_safe_globals:
                if getattr(g, "__module__", None) == module and getattr(g, "__qualname__", None) == name:
                    return g
            raise _weights_only_error(
                "Unsupported global: GLOBAL " + module + "." + name + " was not an allowed global by default. "
                "Please use `torch.serialization.add_safe_globals([" + module + "." + name + "])` or the "
                "`torch.serialization.safe_globals([" + module + "." + name + "])` context manager to "
                "allowlist this global if you trust this class/function.\n\nCheck the documentation of "
                "torch.load to learn more about types accepted by default with weights_only "
                "https://pytorch.org/docs/stable/generated/torch.load.html.")
        return super().find_class(module, name)

    def persistent_load(self, saved_id):
        if not isinstance(saved_id, tuple) or saved_id[0] != "storage":
            raise pickle.UnpicklingError("unknown persistent id " + repr(saved_id))
        _, storage_type, key, location, numel = saved_id
        if key not in self.loaded:
            dtype = _STORAGE_DTYPES[storage_type.__name__]
            raw = self.archive.read(self.prefix + "data/" + str(key))
            storage = _Storage(_from_bytes(raw, dtype), location)
            self.loaded[key] = _restore(storage, location, self.map_location)
        return self.loaded[key]


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    if weights_only is None:
        weights_only = True
    opened = open(f, "rb") if isinstance(f, (str, os.PathLike)) else None
    source = opened if opened is not None else f
    try:
        raw = source.read()
    finally:
        if opened is not None:
            opened.close()
    if not zipfile.is_zipfile(io.BytesIO(raw)):
        if raw[:1] == b"\x80" or raw[:2] == b"PK":
            raise RuntimeError("torch.load: this checkpoint is in PyTorch's legacy (non-zip) format, which is "
                               "not supported; save it again with torch.save's default format")
        raise pickle.UnpicklingError("invalid load key, " + repr(raw[:1].decode("latin-1")) + ".")
    # Member names are read as UTF-8 (they are ASCII): zipfile's default,
    # cp437, goes through the pure-Python charmap codec, which in the browser
    # fails once an earlier run's interpreter has been finalised.
    archive = zipfile.ZipFile(io.BytesIO(raw), metadata_encoding="utf-8")
    names = archive.namelist()
    pickles = [n for n in names if n.endswith("/data.pkl") and n.count("/") == 1]
    if not pickles:
        raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
    prefix = pickles[0][: -len("data.pkl")]
    unpickler = _Unpickler(io.BytesIO(archive.read(pickles[0])), archive, prefix, map_location, weights_only)
    return unpickler.load()
