"""Where the memory database lives, and the private directories around it."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

ENV_VAR = "MEMORY_DB_PATH"
DEFAULT_RELATIVE = Path(".philont") / "memory" / "memory.sqlite"


def default_db_path() -> Path:
    """``$HOME/.philont/memory/memory.sqlite`` (``HOME``, falling back to the user's home)."""
    home = os.environ.get("HOME") or str(Path.home())
    return Path(home) / DEFAULT_RELATIVE


def resolve_db_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """Explicit path > ``$MEMORY_DB_PATH`` > the default path. Nothing is created here."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return default_db_path()


def backups_dir(db_path: str | os.PathLike[str]) -> Path:
    """The sibling ``backups/`` directory of a database file."""
    return Path(db_path).expanduser().resolve().parent / "backups"


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
