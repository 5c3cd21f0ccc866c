"""Files read beside the database: read only when they are regular files of a sane size, never trusted.

The app and the command line keep a few small files of their own outside the database (the review marks,
the app's settings) and read some of the agent's (a project's ``plan.md``). Any of them may be a FIFO (an
``open`` for reading waits for a writer forever), a link to ``/dev/zero`` (a read never ends), a huge
file, or JSON nested 100,000 levels deep or holding numbers no program reads. :func:`read_bytes` and
:func:`read_json` read such a file only when it is a regular file of at most ``max_bytes`` (opened without
blocking, checked again on the open descriptor) and parse JSON as :func:`core.damage.loads_json` does
(depth limited, ``NaN``/``Infinity`` refused; ``RecursionError``, ``OverflowError`` and ``ValueError``
caught). A file of ours that fails is moved aside to ``<name>.bad-YYYYMMDDTHHmmss`` (``-2``, ``-3``... when
that name is taken) by :func:`set_aside`, so that it never again is the reason nothing opens; a file of
the agent's is only left unread.

Each file set aside is reported once as a :class:`~core.errors.Notice` (code ``sidefile.set_aside``,
parameters ``path``, ``moved_to``, ``reason``: the code of why, ``sidefile.why.<what>``, and ``detail``) to
the listeners of :func:`listen` / :func:`reporting` (the command line prints it on stderr, the app in its status bar); one
reported while nobody listens waits for the next listener.
"""

from __future__ import annotations

import contextlib
import math
import os
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.damage import loads_json
from core.errors import Notice

__all__ = [
    "MAX_SIDE_FILE_BYTES",
    "SideFileProblem",
    "check",
    "listen",
    "partial_files",
    "read_bytes",
    "read_json",
    "read_json_lines",
    "reporting",
    "set_aside",
    "temp_path",
    "unlisten",
    "write_json",
    "write_json_lines",
]

#: The largest side file read (the review marks of many databases stay well under 4 MB).
MAX_SIDE_FILE_BYTES = 16 * 1024 * 1024
#: Notices kept while nobody listens (the newest).
MAX_PENDING = 20
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)
_LOCK = threading.Lock()
_LISTENERS: list[Callable[[Notice], None]] = []
_PENDING: list[Notice] = []

_REASONS = {
    "not_regular": "it is {kind_name}, not a regular file (reading it could wait forever)",
    "too_large": "it holds more than {max_bytes} bytes",
    "unreadable": "it cannot be read ({error})",
    "not_utf8": "it is not UTF-8 text",
    "invalid_json": "it is not valid JSON ({error})",
    "too_deep": "its JSON nests too deep",
    "out_of_range": "its JSON holds a number beyond the range of a double",
    "wrong_shape": "its content is not what it should hold ({error})",
}


@dataclass(frozen=True)
class SideFileProblem:
    """Why a side file was not read: ``what`` is a key of the reasons (``not_regular``, ``too_large``,
    ``unreadable``, ``not_utf8``, ``invalid_json``, ``too_deep``, ``out_of_range``, ``wrong_shape``);
    ``params`` fill its sentence (``kind``: ``fifo``, ``socket``, ``char-device``, ``folder``...,
    ``max_bytes``, ``error``)."""

    what: str
    params: dict[str, Any]

    @property
    def code(self) -> str:
        return f"sidefile.why.{self.what}"

    @property
    def detail(self) -> str:
        kind_name = _KIND_NAMES.get(str(self.params.get("kind")), "a special file")
        try:
            return _REASONS[self.what].format(kind_name=kind_name, **self.params)
        except (KeyError, IndexError, ValueError):
            return self.what


_KIND_NAMES = {
    "folder": "a folder",
    "fifo": "a FIFO",
    "socket": "a socket",
    "char-device": "a character device",
    "block-device": "a block device",
}


def _kind(mode: int) -> str:
    """The kind of a file that is not a regular one, as :func:`core.paths.inspect_path` names it."""
    for kind, test in (
        ("folder", stat.S_ISDIR),
        ("fifo", stat.S_ISFIFO),
        ("socket", stat.S_ISSOCK),
        ("char-device", stat.S_ISCHR),
        ("block-device", stat.S_ISBLK),
    ):
        if test(mode):
            return kind
    return "special"


def _check_stat(st: os.stat_result, max_bytes: int) -> SideFileProblem | None:
    if not stat.S_ISREG(st.st_mode):
        return SideFileProblem("not_regular", {"kind": _kind(st.st_mode)})
    if st.st_size > max_bytes:
        return SideFileProblem("too_large", {"max_bytes": max_bytes})
    return None


def check(path: str | os.PathLike[str], max_bytes: int = MAX_SIDE_FILE_BYTES) -> SideFileProblem | None:
    """Why ``path`` (links followed) must not be read, or ``None`` when it is a regular file of at most
    ``max_bytes`` or does not exist. Nothing is opened."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        return SideFileProblem("unreadable", {"error": getattr(exc, "strerror", None) or str(exc)})
    return _check_stat(st, max_bytes)


def read_bytes(
    path: str | os.PathLike[str], max_bytes: int = MAX_SIDE_FILE_BYTES
) -> tuple[bytes | None, SideFileProblem | None]:
    """``(content, None)``, ``(None, None)`` when there is no file, or ``(None, problem)``."""
    problem = check(path, max_bytes)
    if problem is not None:
        return None, problem
    try:
        fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | _O_BINARY)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, SideFileProblem("unreadable", {"error": exc.strerror or str(exc)})
    try:
        problem = _check_stat(os.fstat(fd), max_bytes)  # what was opened, if the name changed meanwhile
        if problem is not None:
            return None, problem
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > max_bytes:  # it grew after the check
            return None, SideFileProblem("too_large", {"max_bytes": max_bytes})
        return b"".join(chunks), None
    except OSError as exc:
        return None, SideFileProblem("unreadable", {"error": exc.strerror or str(exc)})
    finally:
        os.close(fd)


def _finite(value: Any) -> bool:
    """Whether every number of a parsed JSON value (at most 256 levels deep) is finite."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def read_json(
    path: str | os.PathLike[str], max_bytes: int = MAX_SIDE_FILE_BYTES
) -> tuple[Any, SideFileProblem | None]:
    """``(value, None)``, ``(None, None)`` when there is no file, or ``(None, problem)``: the file read by
    :func:`read_bytes` and parsed as UTF-8 JSON, every number finite."""
    text, problem = _read_text(path, max_bytes)
    return _parse(text) if text is not None else (None, problem)


def read_json_lines(
    path: str | os.PathLike[str], max_bytes: int = MAX_SIDE_FILE_BYTES
) -> tuple[list[Any] | None, SideFileProblem | None]:
    """A JSON Lines side file: ``(values, None)`` (``None`` for a line that is not a JSON value with
    finite numbers), ``(None, None)`` when there is no file, or ``(None, problem)``. Each line is parsed
    on its own, so that a large file never holds the interpreter for the whole of it."""
    text, problem = _read_text(path, max_bytes)
    if text is None:
        return None, problem
    return [_parse(line)[0] for line in text.splitlines() if line.strip()], None


def _read_text(path: str | os.PathLike[str], max_bytes: int) -> tuple[str | None, SideFileProblem | None]:
    data, problem = read_bytes(path, max_bytes)
    if data is None:
        return None, problem
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, SideFileProblem("not_utf8", {})


def _parse(text: str) -> tuple[Any, SideFileProblem | None]:
    try:
        value, bad, message = loads_json(text)
    except (RecursionError, OverflowError, ValueError, TypeError) as exc:
        return None, SideFileProblem("invalid_json", {"error": str(exc)[:200]})
    if bad is not None:
        return None, SideFileProblem(bad, {"error": message or ""})
    if not _finite(value):
        return None, SideFileProblem("out_of_range", {})
    return value, None


def write_json(path: str | os.PathLike[str], data: Any, *, indent: int | None = 1) -> None:
    """Write ``data`` as the side file ``path``, whole or not at all: a private temporary file beside
    it (0600, in a private folder), flushed and synced, renamed over it, the folder synced. Values JSON
    cannot hold are written as their text."""
    import json

    _write_atomic(
        path, lambda fh: json.dump(data, fh, ensure_ascii=False, indent=indent, sort_keys=True, default=str)
    )


def write_json_lines(path: str | os.PathLike[str], values: Iterable[Any]) -> None:
    """Write ``values`` as a JSON Lines side file, a value a line, whole or not at all (as
    :func:`write_json`). Each value is made into text on its own: a large file never holds the
    interpreter for the whole of it."""
    import json

    def write(fh: Any) -> None:
        for value in values:
            fh.write(json.dumps(value, ensure_ascii=False, sort_keys=True, default=str))
            fh.write("\n")

    _write_atomic(path, write)


def temp_path(path: Path) -> Path:
    """The temporary file beside ``path`` that this thread writes before renaming it over ``path``."""
    return path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")


def partial_files(path: Path) -> list[Path]:
    """The temporary files beside ``path`` (:func:`temp_path` of any thread): being written, or left by
    a crash."""
    import glob

    return sorted(path.parent.glob(f".{glob.escape(path.name)}.*.tmp"))


def _write_atomic(path: str | os.PathLike[str], write: Callable[[Any], None]) -> None:
    from core.paths import chmod_private, ensure_private_dir, fsync_dir

    target = Path(path)
    ensure_private_dir(target.parent)
    tmp = temp_path(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        chmod_private(tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(target.parent)


def _stamp() -> str:
    return time.strftime("%Y%m%dT%H%M%S", time.localtime())


def set_aside(path: str | os.PathLike[str], problem: SideFileProblem) -> Path | None:
    """Move the file at ``path`` (a link itself, not its target) to ``<name>.bad-<time>`` beside it and
    report it (:func:`reporting`); the new path, or ``None`` when it could not be moved (it stays
    unread then)."""
    p = Path(path)
    base = p.with_name(f"{p.name}.bad-{_stamp()}")
    target = base
    for n in range(2, 100):
        if not os.path.lexists(target):
            break
        target = base.with_name(f"{base.name}-{n}")
    try:
        os.rename(p, target)
    except OSError:
        return None
    detail = problem.detail
    _report(
        Notice(
            "sidefile.set_aside",
            f"{p} was set aside as {target.name}: {detail}. A new one is made when needed.",
            {
                "path": str(p),
                "moved_to": str(target),
                "reason": problem.code,
                "detail": detail,
                **problem.params,
            },
        )
    )
    return target


def _report(notice: Notice) -> None:
    with _LOCK:
        listeners = list(_LISTENERS)
        if not listeners:
            _PENDING[:] = [*_PENDING[-(MAX_PENDING - 1) :], notice]
            return
    for fn in listeners:
        with contextlib.suppress(Exception):
            fn(notice)


def listen(fn: Callable[[Notice], None]) -> None:
    """Give ``fn`` (called on the thread that set the file aside) every side file set aside from now
    on, and first the ones set aside while nobody listened."""
    with _LOCK:
        _LISTENERS.append(fn)
        pending = list(_PENDING)
        _PENDING.clear()
    for notice in pending:
        with contextlib.suppress(Exception):
            fn(notice)


def unlisten(fn: Callable[[Notice], None]) -> None:
    with _LOCK, contextlib.suppress(ValueError):
        _LISTENERS.remove(fn)


@contextlib.contextmanager
def reporting(fn: Callable[[Notice], None]) -> Iterator[None]:
    """:func:`listen` while the block runs."""
    listen(fn)
    try:
        yield
    finally:
        unlisten(fn)
