"""Writing an output file safely: a regular file (or none yet) is written whole to a temporary
file beside it and renamed into place, so no reader ever sees half of it; a symbolic link is
followed and its target replaced, the link kept; anything else at the path (a device such as
/dev/null, a FIFO, a socket, /dev/stdout) is written to directly, never replaced.
"""
from __future__ import annotations

import os
import stat


class OutputError(ValueError):
    """An output that cannot be written: 'cannot write PATH: why'."""


def _why(path: str, e: OSError) -> OutputError:
    return OutputError(f"cannot write {path}: {e.strerror or e}")


def destination(path: str) -> tuple[str, bool]:
    """Where the bytes go (for a symbolic link, its target) and whether to write there directly
    (not a regular file, or a path under /dev or /proc). OutputError when nothing can be written."""
    try:
        mode = os.stat(path).st_mode             # through any links
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise _why(path, e) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {path}: it is a folder; give a file name")
    if (mode is not None and not stat.S_ISREG(mode)) or os.path.abspath(path).startswith(("/dev/", "/proc/")):
        return path, True
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise OutputError(f"cannot write {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (mode is not None and not os.access(real, os.W_OK)):
        raise OutputError(f"cannot write {path}: permission denied")
    return real, False


def check(path: str) -> None:
    """Fail early, before any work, when path cannot be written."""
    destination(path)


class Output:
    """A binary file being written to `path`: `file` to write to, then `commit()` to put it in
    place, or `discard()` (also on an exception in a `with`) to leave the path as it was."""

    def __init__(self, path: str):
        self.path = path
        self.real, direct = destination(path)
        self._tmp = None
        try:
            if direct:
                self.file = open(self.real, "wb")
            else:
                import tempfile
                fd, self._tmp = tempfile.mkstemp(prefix=f".{os.path.basename(self.real)}.",
                                                 suffix=".part", dir=os.path.dirname(self.real))
                self.file = os.fdopen(fd, "wb")
        except OSError as e:
            raise _why(path, e) from None

    def commit(self) -> None:
        try:
            self.file.close()
            if self._tmp is not None:
                os.chmod(self._tmp, _mode_for(self.real))
                os.replace(self._tmp, self.real)
                self._tmp = None
        except OSError as e:
            self.discard()
            raise _why(self.path, e) from None

    def discard(self) -> None:
        try:
            self.file.close()
        except OSError:
            pass
        if self._tmp is not None and os.path.exists(self._tmp):
            os.unlink(self._tmp)
        self._tmp = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.commit()
        else:
            self.discard()
        return False


def _mode_for(real: str) -> int:
    """The file's present permissions, or the usual ones for a new file (mkstemp makes 0600)."""
    try:
        return stat.S_IMODE(os.stat(real).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_bytes(path: str, data: bytes) -> None:
    """All of data to path, safely (see the module)."""
    with Output(path) as out:
        try:
            out.file.write(data)
        except OSError as e:
            raise _why(path, e) from None


def write_text(path: str, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))
