"""Where the memory database lives, the private directories around it, and what a path names.

Paths come from people: ``~`` is expanded as a shell expands it (at the start only; ``~user`` of an
unknown user and a ``~`` inside a name are kept as written), a name that is not UTF-8 is kept as its
bytes (``os.fsencode``), and :func:`inspect_path` says what is there without opening it, so that a
FIFO, a socket or a device is never opened for reading (it could block forever) and never replaced.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from core.errors import ValidationError_

ENV_VAR = "MEMORY_DB_PATH"
DEFAULT_RELATIVE = Path(".philont") / "memory" / "memory.sqlite"


def default_db_path() -> Path:
    """``$HOME/.philont/memory/memory.sqlite`` (``HOME``, falling back to the user's home)."""
    home = os.environ.get("HOME") or str(Path.home())
    return Path(home) / DEFAULT_RELATIVE


def expand_user(path: str | os.PathLike[str]) -> Path:
    """``path`` with a leading ``~`` or ``~user`` expanded as a shell does; never raises.

    A ``~`` inside a name (``notes~1.sqlite``), ``~user`` of a user this machine does not know and a
    ``~`` without a home directory stay as written (``Path.expanduser`` raises there).
    """
    return Path(os.path.expanduser(os.fspath(path)))


def resolve_db_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """Explicit path > ``$MEMORY_DB_PATH`` > the default path. Nothing is created here."""
    if explicit:
        return expand_user(explicit)
    env = os.environ.get(ENV_VAR)
    if env:
        return expand_user(env)
    return default_db_path()


def real_path(path: str | os.PathLike[str]) -> Path:
    """The absolute path with symbolic links resolved as far as they go (a loop stays unresolved)."""
    p = expand_user(path)
    try:
        return p.resolve()
    except (RuntimeError, OSError):  # a symbolic link loop (RuntimeError before Python 3.13)
        return Path(os.path.abspath(p))


def backups_dir(db_path: str | os.PathLike[str]) -> Path:
    """The sibling ``backups/`` directory of a database file."""
    return real_path(db_path).parent / "backups"


# -- what a path names ---------------------------------------------------------------------------------------

#: :func:`inspect_path` kinds that are no file at all.
NOTHING = ("missing", "dangling-symlink", "symlink-loop", "not-a-folder", "unreachable")
#: Kinds of special files, with the words for them.
SPECIAL_KINDS = {
    "fifo": "a FIFO (named pipe)",
    "socket": "a socket",
    "char-device": "a character device",
    "block-device": "a block device",
    "other": "a special file",
}


def file_kind(mode: int) -> str:
    """``regular``, ``folder`` or a key of :data:`SPECIAL_KINDS` for an ``st_mode``."""
    if stat.S_ISREG(mode):
        return "regular"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "char-device"
    if stat.S_ISBLK(mode):
        return "block-device"
    return "other"


def inspect_path(path: str | os.PathLike[str]) -> tuple[str, os.stat_result | None, str]:
    """``(kind, stat, detail)`` of what ``path`` names, symbolic links followed, nothing opened.

    ``kind`` is ``regular``, ``folder``, a key of :data:`SPECIAL_KINDS`, or one of :data:`NOTHING`:
    ``missing``, ``dangling-symlink`` (a link to nothing; ``detail`` is its target), ``symlink-loop``,
    ``not-a-folder`` (a part of the path is a file) or ``unreachable`` (permission denied on a folder
    of the path, a name too long; ``detail`` says which).
    """
    p = os.fspath(path)
    try:
        st = os.stat(p)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink-loop", None, ""
        if exc.errno == errno.ENOTDIR:
            return "not-a-folder", None, ""
        if exc.errno == errno.ENOENT:
            if os.path.islink(p):
                with contextlib.suppress(OSError):
                    return "dangling-symlink", None, os.readlink(p)
                return "dangling-symlink", None, ""
            return "missing", None, ""
        return "unreachable", None, exc.strerror or str(exc)
    return file_kind(st.st_mode), st, ""


def describe_kind(kind: str, detail: str = "") -> str:
    """English for an :func:`inspect_path` kind, as the end of "This path names ..."."""
    words = {
        "regular": "a file",
        "folder": "a folder",
        "missing": "nothing: no file exists there",
        "dangling-symlink": f"a symbolic link to {os.fsdecode(detail) or 'a missing file'}, which does not exist",
        "symlink-loop": "a loop of symbolic links (a link that leads back to itself), not a file",
        "not-a-folder": "nothing: a part of the path is a file, not a folder",
        "unreachable": f"a place that cannot be reached ({detail})",
    }
    return words.get(kind) or SPECIAL_KINDS.get(kind, "a special file")


def tilde_note(path: str | os.PathLike[str]) -> str:
    """A sentence for a path that still starts with ``~`` after expansion (an unknown user), else ''."""
    s = os.fspath(path)
    if not s.startswith("~"):
        return ""
    user = s[1:].split(os.sep, 1)[0]
    if user:
        return (
            f" It starts with '~{user}', and this machine has no user {user!r}, so it was taken as written."
        )
    return " It starts with '~', and no home directory is known, so it was taken as written."


def replaceable_target(path: str | os.PathLike[str], what: str = "the output") -> Path:
    """The file a write to ``path`` may create or replace: ``path``, or the regular file its symbolic
    links lead to (so that the link stays a link). Refused (:class:`ValidationError_`, code
    ``path.not_replaceable``) when it names a folder, a FIFO, a socket, a device, a link to nothing or
    a link loop: a write replaces only regular files.
    """
    p = expand_user(path)
    kind, _st, detail = inspect_path(p)
    if kind == "missing":
        return p
    if kind == "regular":
        return real_path(p) if os.path.islink(p) else p
    note = tilde_note(p) if kind in NOTHING else ""
    raise ValidationError_(
        f"{p}: {what} cannot be written there: this path names {describe_kind(kind, detail)}; only a "
        f"regular file is ever replaced.{note}",
        code="path.not_replaceable",
        params={"path": str(p), "kind": kind, "detail": os.fsdecode(detail)},
    )


def ensure_private_dir(path: str | os.PathLike[str]) -> Path:
    """Create ``path`` (and parents) if missing; directories created here get mode 0700.

    An existing directory keeps its mode: it is somebody else's.
    """
    p = Path(path)
    missing: list[Path] = []
    cur = p
    while not cur.exists():
        missing.append(cur)
        if cur.parent == cur:
            break
        cur = cur.parent
    for d in reversed(missing):
        d.mkdir(mode=0o700, exist_ok=True)
        os.chmod(d, 0o700)
    return p


def chmod_private(path: str | os.PathLike[str]) -> None:
    """Set mode 0600 on a file this project created (ignored where unsupported)."""
    with contextlib.suppress(OSError):
        os.chmod(path, 0o600)


def fsync_dir(path: str | os.PathLike[str]) -> None:
    """Flush a directory entry to disk after a file was renamed into it (ignored where unsupported)."""
    with contextlib.suppress(OSError):
        dfd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
