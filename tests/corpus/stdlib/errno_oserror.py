# errno codes and OSError subclasses as file utilities handle them: ENOENT and
# friends, errorcode names, the subclass chosen for each errno, filename in
# the exception, and checking e.errno == errno.ENOENT in a handler.
import errno
import os
import tempfile

print(errno.ENOENT, errno.errorcode[errno.ENOENT], errno.errorcode[errno.EEXIST], errno.errorcode[errno.EACCES])
print(errno.EISDIR > 0, errno.ENOTDIR > 0, errno.errorcode[errno.EINVAL], errno.errorcode[errno.ENOTEMPTY])
print(os.strerror(errno.ENOENT))
for code in (errno.ENOENT, errno.EEXIST, errno.EACCES, errno.EISDIR, errno.ENOTDIR, errno.EINVAL):
    e = OSError(code, os.strerror(code), "x.txt")
    print(errno.errorcode[code], type(e).__name__, e.filename)
print(issubclass(FileNotFoundError, OSError), IOError is OSError, EnvironmentError is OSError)
with tempfile.TemporaryDirectory() as tmp:
    missing = os.path.join(tmp, "nope.txt")
    try:
        open(missing)
    except OSError as e:
        print(type(e).__name__, e.errno == errno.ENOENT, errno.errorcode[e.errno], e.strerror, os.path.basename(e.filename))
    try:
        open(tmp, "w")
    except IsADirectoryError as e:
        print(type(e).__name__, errno.errorcode[e.errno])
    path = os.path.join(tmp, "f")
    open(path, "w").close()
    try:
        os.mkdir(path)
    except FileExistsError as e:
        print(type(e).__name__, errno.errorcode[e.errno])
    try:
        os.listdir(path)
    except NotADirectoryError as e:
        print(type(e).__name__, errno.errorcode[e.errno])


def load_or_default(p):
    try:
        with open(p) as f:
            return f.read()
    except OSError as e:
        if e.errno == errno.ENOENT:
            return "default"
        raise


print(load_or_default("/definitely/not/here.cfg"))
e = FileNotFoundError(errno.ENOENT, "No such file or directory", "a.txt")
print(e, e.args, str(OSError("plain")), OSError(1, "x").errno)
