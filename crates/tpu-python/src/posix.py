# posix over the in-memory files of memfs.rs: what CPython's posixmodule.c
# does above the kernel. The `_fs_*` primitives are the module's native half
# (posix.rs); paths reach them absolute and normalised, and every check that
# gives a call its errno is made here. One user, no links, no permissions:
# what a program asks of those is accepted and changes nothing.

import sys as _sys
import time as _time

_ENOENT, _EBADF, _EACCES, _EEXIST, _ENOTDIR, _EISDIR, _EINVAL = 2, 9, 13, 17, 20, 21, 22
_ENOTEMPTY, _EXDEV = 39, 18
_MESSAGES = {
    _ENOENT: "No such file or directory",
    _EBADF: "Bad file descriptor",
    _EACCES: "Permission denied",
    _EEXIST: "File exists",
    _ENOTDIR: "Not a directory",
    _EISDIR: "Is a directory",
    _EINVAL: "Invalid argument",
    _ENOTEMPTY: "Directory not empty",
}
_CLASSES = {
    _ENOENT: FileNotFoundError,
    _EEXIST: FileExistsError,
    _ENOTDIR: NotADirectoryError,
    _EISDIR: IsADirectoryError,
    _EACCES: PermissionError,
}

O_RDONLY, O_WRONLY, O_RDWR, O_ACCMODE = 0, 1, 2, 3
O_CREAT, O_EXCL, O_NOCTTY, O_TRUNC, O_APPEND = 0o100, 0o200, 0o400, 0o1000, 0o2000
O_NONBLOCK, O_DIRECTORY, O_NOFOLLOW, O_CLOEXEC = 0o4000, 0o200000, 0o400000, 0o2000000
O_SYNC, O_DSYNC, O_NDELAY = 0o4010000, 0o10000, 0o4000
F_OK, X_OK, W_OK, R_OK = 0, 1, 2, 4
SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2
EX_OK = 0
_S_IFDIR, _S_IFREG = 0o040000, 0o100000

error = OSError
environ = {
    b"HOME": _fs_home.encode(),
    b"PATH": b"/usr/local/bin:/usr/bin:/bin",
    b"LANG": b"C.UTF-8",
    b"TMPDIR": b"/tmp",
}
_cwd = _fs_home
_descriptors = {}


def strerror(code):
    return _MESSAGES.get(code, "Unknown error %d" % code)


def _error(code, path=None, path2=None):
    cls = _CLASSES.get(code, OSError)
    if path2 is not None:
        return cls(code, strerror(code), path, None, path2)
    if path is not None:
        return cls(code, strerror(code), path)
    return cls(code, strerror(code))


def _now():
    return _time.time_ns()


def fspath(path):
    if isinstance(path, (str, bytes)):
        return path
    kind = type(path)
    try:
        result = kind.__fspath__(path)
    except AttributeError:
        if hasattr(kind, "__fspath__"):
            raise
        raise TypeError("expected str, bytes or os.PathLike object, not " + kind.__name__)
    if isinstance(result, (str, bytes)):
        return result
    raise TypeError(
        "expected %s.__fspath__() to return str or bytes, not %s"
        % (kind.__name__, type(result).__name__)
    )


def _text(path):
    path = fspath(path)
    return path.decode("utf-8", "surrogateescape") if isinstance(path, bytes) else path


def _absolute(path):
    """The normalised absolute path of `path`, as the store names it."""
    text = _text(path)
    if "\0" in text:
        raise ValueError("embedded null byte")
    if not text.startswith("/"):
        text = _cwd + "/" + text
    parts = []
    for part in text.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return "/" + "/".join(parts)


def _parent(absolute):
    return absolute.rsplit("/", 1)[0] or "/"


def _existing(path, shown=None):
    """The inode `path` names and its info; FileNotFoundError if none."""
    if isinstance(path, int):
        return _descriptor(path).ino, _fs_info(_descriptor(path).ino)
    absolute = _absolute(path)
    ino = _fs_lookup(absolute)
    if ino is None:
        raise _error(_ENOENT, path if shown is None else shown)
    return ino, _fs_info(ino)


def _check_parent(absolute, shown):
    parent = _parent(absolute)
    ino = _fs_lookup(parent)
    if ino is None:
        raise _error(_ENOENT, shown)
    if not _fs_info(ino)[0]:
        raise _error(_ENOTDIR, shown)


class stat_result(tuple):
    """os.stat_result: ten fields as a tuple, and the st_* attributes."""

    n_sequence_fields = 10
    n_fields = 19
    n_unnamed_fields = 3

    def __new__(cls, values, extra=None):
        self = tuple.__new__(cls, tuple(values)[:10])
        self.__extra = dict(extra or {})
        return self

    def __repr__(self):
        names = ("st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid",
                 "st_size", "st_atime", "st_mtime", "st_ctime")
        return "os.stat_result(%s)" % ", ".join("%s=%r" % (n, v) for n, v in zip(names, self))

    def __reduce__(self):
        return (stat_result, (tuple(self), self.__extra))

    st_mode = property(lambda self: self[0])
    st_ino = property(lambda self: self[1])
    st_dev = property(lambda self: self[2])
    st_nlink = property(lambda self: self[3])
    st_uid = property(lambda self: self[4])
    st_gid = property(lambda self: self[5])
    st_size = property(lambda self: self[6])
    st_atime = property(lambda self: self.__extra.get("st_atime", float(self[7])))
    st_mtime = property(lambda self: self.__extra.get("st_mtime", float(self[8])))
    st_ctime = property(lambda self: self.__extra.get("st_ctime", float(self[9])))
    st_atime_ns = property(lambda self: self.__extra.get("st_atime_ns", self[7] * 10**9))
    st_mtime_ns = property(lambda self: self.__extra.get("st_mtime_ns", self[8] * 10**9))
    st_ctime_ns = property(lambda self: self.__extra.get("st_ctime_ns", self[9] * 10**9))
    st_blksize = property(lambda self: 4096)
    st_blocks = property(lambda self: (self[6] + 511) // 512)
    st_rdev = property(lambda self: 0)


def _stat_of(ino, info):
    folder, size, mtime_ns = info
    mode = (_S_IFDIR | 0o755) if folder else (_S_IFREG | 0o644)
    seconds = mtime_ns // 10**9
    extra = {}
    for kind in ("atime", "mtime", "ctime"):
        extra["st_" + kind] = mtime_ns / 1e9
        extra["st_" + kind + "_ns"] = mtime_ns
    return stat_result((mode, ino, 1, 2 if folder else 1, 1000, 1000, size,
                        seconds, seconds, seconds), extra)


def stat(path, *, dir_fd=None, follow_symlinks=True):
    ino, info = _existing(path)
    return _stat_of(ino, info)


lstat = stat


def fstat(fd):
    entry = _descriptor(fd)
    return _stat_of(entry.ino, _fs_info(entry.ino))


def access(path, mode, *, dir_fd=None, effective_ids=False, follow_symlinks=True):
    try:
        _existing(path)
    except OSError:
        return False
    return True


def getcwd():
    return _cwd


def getcwdb():
    return _cwd.encode()


def chdir(path):
    global _cwd
    ino, info = _existing(path)
    if not info[0]:
        raise _error(_ENOTDIR, path)
    _cwd = _absolute(path)


def listdir(path="."):
    if isinstance(path, int):
        raise _error(_EBADF)
    ino, info = _existing(path)
    if not info[0]:
        raise _error(_ENOTDIR, path)
    names = _fs_children(_absolute(path))
    if isinstance(fspath(path), bytes):
        return [n.encode() for n in names]
    return names


class DirEntry:
    __slots__ = ("name", "path", "_ino")

    def __init__(self, name, path, ino):
        self.name = name
        self.path = path
        self._ino = ino

    def __fspath__(self):
        return self.path

    def __repr__(self):
        return "<DirEntry %r>" % (self.name,)

    def inode(self):
        return self._ino

    def is_dir(self, *, follow_symlinks=True):
        info = _fs_info(self._ino)
        return bool(info and info[0])

    def is_file(self, *, follow_symlinks=True):
        info = _fs_info(self._ino)
        return bool(info and not info[0])

    def is_symlink(self):
        return False

    def is_junction(self):
        return False

    def stat(self, *, follow_symlinks=True):
        info = _fs_info(self._ino)
        if info is None:
            raise _error(_ENOENT, self.path)
        return _stat_of(self._ino, info)

    @classmethod
    def __class_getitem__(cls, item):
        import types
        return types.GenericAlias(cls, item)


class _ScandirIterator:
    def __init__(self, entries):
        self._entries = iter(entries)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._entries)

    def close(self):
        self._entries = iter(())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def scandir(path="."):
    ino, info = _existing(path)
    if not info[0]:
        raise _error(_ENOTDIR, path)
    given = fspath(path)
    absolute = _absolute(path)
    entries = []
    for name in _fs_children(absolute):
        child = _fs_lookup(absolute.rstrip("/") + "/" + name)
        if isinstance(given, bytes):
            entries.append(DirEntry(name.encode(), given.rstrip(b"/") + b"/" + name.encode(), child)
                           if given else DirEntry(name.encode(), name.encode(), child))
        else:
            joined = name if given in ("", ".") and path == "." else given.rstrip("/") + "/" + name
            entries.append(DirEntry(name, joined, child))
    return _ScandirIterator(entries)


def mkdir(path, mode=0o777, *, dir_fd=None):
    absolute = _absolute(path)
    if _fs_lookup(absolute) is not None:
        raise _error(_EEXIST, path)
    _check_parent(absolute, path)
    _fs_create_folder(absolute, _now())


def rmdir(path, *, dir_fd=None):
    ino, info = _existing(path)
    if not info[0]:
        raise _error(_ENOTDIR, path)
    absolute = _absolute(path)
    if _fs_children(absolute):
        raise _error(_ENOTEMPTY, path)
    if absolute in ("/", "/home", _fs_home, "/tmp"):
        raise _error(_EACCES, path)
    _fs_unlink(absolute)


def unlink(path, *, dir_fd=None):
    ino, info = _existing(path)
    if info[0]:
        raise _error(_EISDIR, path)
    _fs_unlink(_absolute(path))


remove = unlink


def rename(src, dst, *, src_dir_fd=None, dst_dir_fd=None):
    ino, info = _existing(src)
    source, target = _absolute(src), _absolute(dst)
    if source == target:
        return
    _check_parent(target, dst)
    existing = _fs_lookup(target)
    if existing is not None:
        folder = _fs_info(existing)[0]
        if info[0] and not folder:
            raise _error(_ENOTDIR, src, dst)
        if folder and not info[0]:
            raise _error(_EISDIR, src, dst)
        if folder and _fs_children(target):
            raise _error(_ENOTEMPTY, src, dst)
        _fs_unlink(target)
    if info[0] and target.startswith(source + "/"):
        raise _error(_EINVAL, src, dst)
    _fs_rename(source, target)


replace = rename


def utime(path, times=None, *, ns=None, dir_fd=None, follow_symlinks=True):
    ino, info = _existing(path)
    if ns is not None:
        mtime = ns[1]
    elif times is not None:
        mtime = int(times[1] * 10**9)
    else:
        mtime = _now()
    _fs_set_mtime(ino, mtime)


def chmod(path, mode, *, dir_fd=None, follow_symlinks=True):
    _existing(path)


def readlink(path, *, dir_fd=None):
    _existing(path)
    raise _error(_EINVAL, path)


def symlink(src, dst, target_is_directory=False, *, dir_fd=None):
    raise PermissionError(1, "Operation not permitted: this file system has no links", src, None, dst)


link = symlink


class statvfs_result(tuple):
    f_bsize = property(lambda self: self[0])
    f_frsize = property(lambda self: self[1])
    f_blocks = property(lambda self: self[2])
    f_bfree = property(lambda self: self[3])
    f_bavail = property(lambda self: self[4])
    f_files = property(lambda self: self[5])
    f_ffree = property(lambda self: self[6])
    f_favail = property(lambda self: self[7])
    f_flag = property(lambda self: self[8])
    f_namemax = property(lambda self: self[9])


def statvfs(path):
    # The files live in the wasm instance's memory: 4 GiB at most.
    _existing(path)
    blocks = 2**32 // 4096
    free = blocks - (_fs_used() + 4095) // 4096
    return statvfs_result((4096, 4096, blocks, free, free, 2**20, 2**20, 2**20, 0, 255))


# ---- Descriptors: 0, 1, 2 are the streams; files from 3.


class _Open:
    __slots__ = ("ino", "path", "flags", "position")

    def __init__(self, ino, path, flags):
        self.ino, self.path, self.flags, self.position = ino, path, flags, 0


def _descriptor(fd):
    try:
        return _descriptors[fd]
    except (KeyError, TypeError):
        raise _error(_EBADF) from None


def open(path, flags, mode=0o777, *, dir_fd=None):
    absolute = _absolute(path)
    ino = _fs_lookup(absolute)
    access_mode = flags & O_ACCMODE
    if ino is None:
        if not flags & O_CREAT:
            raise _error(_ENOENT, path)
        _check_parent(absolute, path)
        ino = _fs_create_file(absolute, _now())
    else:
        if flags & O_CREAT and flags & O_EXCL:
            raise _error(_EEXIST, path)
        folder = _fs_info(ino)[0]
        if folder and access_mode != O_RDONLY:
            raise _error(_EISDIR, path)
        if not folder and flags & O_DIRECTORY:
            raise _error(_ENOTDIR, path)
        if not folder and flags & O_TRUNC and access_mode != O_RDONLY:
            _fs_truncate(ino, 0, _now())
    fd = 3
    while fd in _descriptors:
        fd += 1
    _descriptors[fd] = _Open(ino, absolute, flags)
    return fd


def close(fd):
    if fd in (0, 1, 2):
        return
    _descriptor(fd)
    del _descriptors[fd]


def closerange(low, high):
    for fd in range(low, high):
        _descriptors.pop(fd, None)


def read(fd, n):
    if fd == 0:
        return b""
    entry = _descriptor(fd)
    if entry.flags & O_ACCMODE == O_WRONLY:
        raise _error(_EBADF)
    if _fs_info(entry.ino)[0]:
        raise _error(_EISDIR)
    data = _fs_pread(entry.ino, entry.position, n)
    entry.position += len(data)
    return data


def readinto(fd, buffer):
    view = memoryview(buffer).cast("B")
    data = read(fd, len(view))
    view[: len(data)] = data
    return len(data)


def write(fd, data):
    if fd in (1, 2):
        stream = _sys.stdout if fd == 1 else _sys.stderr
        stream.write(bytes(data).decode("utf-8", "replace"))
        return len(data)
    entry = _descriptor(fd)
    if entry.flags & O_ACCMODE == O_RDONLY:
        raise _error(_EBADF)
    if entry.flags & O_APPEND:
        entry.position = _fs_info(entry.ino)[1]
    written = _fs_pwrite(entry.ino, entry.position, data, _now())
    entry.position += written
    return written


def pread(fd, n, offset):
    return _fs_pread(_descriptor(fd).ino, offset, n)


def pwrite(fd, data, offset):
    return _fs_pwrite(_descriptor(fd).ino, offset, data, _now())


def lseek(fd, position, how):
    entry = _descriptor(fd)
    if how == SEEK_SET:
        base = 0
    elif how == SEEK_CUR:
        base = entry.position
    elif how == SEEK_END:
        base = _fs_info(entry.ino)[1]
    else:
        raise _error(_EINVAL)
    if base + position < 0:
        raise _error(_EINVAL)
    entry.position = base + position
    return entry.position


def ftruncate(fd, length):
    _fs_truncate(_descriptor(fd).ino, length, _now())


def truncate(path, length):
    if isinstance(path, int):
        return ftruncate(path, length)
    ino, info = _existing(path)
    if info[0]:
        raise _error(_EISDIR, path)
    _fs_truncate(ino, length, _now())


def fsync(fd):
    _descriptor(fd if isinstance(fd, int) else fd.fileno())


fdatasync = fsync


def isatty(fd):
    return False


def dup(fd):
    entry = _descriptor(fd)
    new = 3
    while new in _descriptors:
        new += 1
    copy = _Open(entry.ino, entry.path, entry.flags)
    copy.position = entry.position
    _descriptors[new] = copy
    return new


def get_inheritable(fd):
    return False


def set_inheritable(fd, inheritable):
    pass


def get_blocking(fd):
    return True


def set_blocking(fd, blocking):
    pass


def device_encoding(fd):
    return None


# ---- The process: one, that cannot start others.


def getpid():
    return 1


def getppid():
    return 0


def getuid():
    return 1000


geteuid = getgid = getegid = getuid


def getlogin():
    return "user"


def umask(mask):
    return 0o022


def cpu_count():
    return 1


def urandom(n):
    import _random
    if n < 0:
        raise ValueError("negative argument not allowed")
    return _random.Random().getrandbits(8 * n).to_bytes(n, "little") if n else b""


def _exit(status):
    raise SystemExit(status)


def kill(pid, signal):
    raise PermissionError(1, "Operation not permitted")


class terminal_size(tuple):
    columns = property(lambda self: self[0])
    lines = property(lambda self: self[1])


def get_terminal_size(fd=1):
    raise OSError(25, "Inappropriate ioctl for device")


class uname_result(tuple):
    sysname = property(lambda self: self[0])
    nodename = property(lambda self: self[1])
    release = property(lambda self: self[2])
    version = property(lambda self: self[3])
    machine = property(lambda self: self[4])


def uname():
    return uname_result(("Emscripten", "tpu-playground", "1.0", "#1", "wasm32"))


def putenv(key, value):
    pass


def unsetenv(key):
    pass


def times():
    seconds = _time.process_time()
    return (seconds, 0.0, 0.0, 0.0, _time.monotonic())


def waitstatus_to_exitcode(status):
    return status


_have_functions = ["HAVE_FSTATAT", "HAVE_FTRUNCATE", "HAVE_MKDIRAT"]


# Linux's numbers, for errno on wasm32, whose errno module RustPython leaves
# empty: programs compare with its names (errno.ENOENT), and logging.config
# reads errno.ECONNRESET as it is imported.
_LINUX_ERRNO = (
    "EPERM 1 ENOENT 2 ESRCH 3 EINTR 4 EIO 5 ENXIO 6 E2BIG 7 ENOEXEC 8 EBADF 9 "
    "ECHILD 10 EAGAIN 11 EWOULDBLOCK 11 ENOMEM 12 EACCES 13 EFAULT 14 ENOTBLK 15 "
    "EBUSY 16 EEXIST 17 EXDEV 18 ENODEV 19 ENOTDIR 20 EISDIR 21 EINVAL 22 "
    "ENFILE 23 EMFILE 24 ENOTTY 25 ETXTBSY 26 EFBIG 27 ENOSPC 28 ESPIPE 29 "
    "EROFS 30 EMLINK 31 EPIPE 32 EDOM 33 ERANGE 34 EDEADLK 35 EDEADLOCK 35 "
    "ENAMETOOLONG 36 ENOLCK 37 ENOSYS 38 ENOTEMPTY 39 ELOOP 40 ENOMSG 42 "
    "EIDRM 43 ENOSTR 60 ENODATA 61 ETIME 62 ENOSR 63 ENOLINK 67 EPROTO 71 "
    "EMULTIHOP 72 EBADMSG 74 EOVERFLOW 75 EILSEQ 84 EUSERS 87 ENOTSOCK 88 "
    "EDESTADDRREQ 89 EMSGSIZE 90 EPROTOTYPE 91 ENOPROTOOPT 92 "
    "EPROTONOSUPPORT 93 ESOCKTNOSUPPORT 94 EOPNOTSUPP 95 ENOTSUP 95 "
    "EPFNOSUPPORT 96 EAFNOSUPPORT 97 EADDRINUSE 98 EADDRNOTAVAIL 99 ENETDOWN 100 "
    "ENETUNREACH 101 ENETRESET 102 ECONNABORTED 103 ECONNRESET 104 ENOBUFS 105 "
    "EISCONN 106 ENOTCONN 107 ESHUTDOWN 108 ETOOMANYREFS 109 ETIMEDOUT 110 "
    "ECONNREFUSED 111 EHOSTDOWN 112 EHOSTUNREACH 113 EALREADY 114 "
    "EINPROGRESS 115 ESTALE 116 EDQUOT 122 ECANCELED 125 EOWNERDEAD 130 "
    "ENOTRECOVERABLE 131"
)


def _fill_errno():
    import errno
    words = _LINUX_ERRNO.split()
    for name, code in zip(words[::2], map(int, words[1::2])):
        if not hasattr(errno, name):
            setattr(errno, name, code)
            errno.errorcode.setdefault(code, name)


_fill_errno()
del _fill_errno
