"""Atomic file writing: a reader sees the old file or the new one, never half of one.

The bytes go to a temporary file in the *same directory* as the target (so the
final :func:`os.replace` is a rename within one file system, which POSIX and
Windows both make atomic), are flushed and ``fsync``-ed, and only then replace
the target. On any error the temporary file is removed and the target is left
exactly as it was.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

__all__ = ["atomic_writer", "write_bytes_atomic", "write_text_atomic"]

#: Mode given to a new file (an existing file keeps its own mode). Reports are
#: meant to be read by the web page and by people, so group and others may read.
DEFAULT_FILE_MODE = 0o644


@contextlib.contextmanager
def atomic_writer(path: Path, *, mode: int | None = None) -> Iterator[BinaryIO]:
    """Open a binary stream whose content replaces ``path`` when the block succeeds.

    Example::

        with atomic_writer(out / "report.pdf") as stream:
            stream.write(data)

    Args:
        path: The file to create or replace. Its parent directory must exist.
        mode: Permission bits of the result. ``None`` keeps the mode of an
            existing ``path``, else :data:`DEFAULT_FILE_MODE`.

    Yields:
        A writable binary file object (a temporary file next to ``path``).

    Raises:
        OSError: The temporary file could not be created, written or moved into
            place (e.g. the directory is missing or read-only). ``path`` is
            untouched and no temporary file is left behind. Exceptions raised
            inside the ``with`` block propagate the same way.
    """
    path = Path(path)
    if mode is None:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            mode = DEFAULT_FILE_MODE
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    _fsync_directory(path.parent)


def write_bytes_atomic(path: Path, data: bytes, *, mode: int | None = None) -> Path:
    """Write ``data`` to ``path`` atomically.

    Args:
        path: The file to create or replace. Its parent directory must exist.
        data: The complete new content.
        mode: Permission bits, as for :func:`atomic_writer`.

    Returns:
        ``path``.

    Raises:
        OSError: As for :func:`atomic_writer`; ``path`` is then untouched.
    """
    with atomic_writer(path, mode=mode) as stream:
        stream.write(data)
    return Path(path)


def write_text_atomic(
    path: Path, text: str, *, encoding: str = "utf-8", mode: int | None = None
) -> Path:
    """Write ``text`` to ``path`` atomically.

    Line endings are written as given (no newline translation), so the file is
    byte-for-byte the same on every platform.

    Args:
        path: The file to create or replace. Its parent directory must exist.
        text: The complete new content.
        encoding: Text encoding (UTF-8 unless told otherwise).
        mode: Permission bits, as for :func:`atomic_writer`.

    Returns:
        ``path``.

    Raises:
        UnicodeEncodeError: ``text`` cannot be encoded; nothing is written.
        OSError: As for :func:`atomic_writer`; ``path`` is then untouched.
    """
    return write_bytes_atomic(path, text.encode(encoding), mode=mode)


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable (POSIX); a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open directories
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse
        pass
    finally:
        os.close(fd)
