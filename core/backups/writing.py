"""Writing this project's backups: a private temporary file synced and then given a free name (never
replacing one), rotation of this project's own backups only, and the run-of-edits rule.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from core import paths
from core.backups.names import (
    BACKUP_RETAIN,
    NAME_WAIT_S,
    PARTIAL_RE,
    RUN_WINDOW_S,
    STALE_PARTIAL_S,
    backup_created_at,
    backup_file_name,
    database_stem,
    name_key,
    own_of,
)
from core.clock import now_ms
from core.engine import sqlite3
from core.errors import MemoryError_, ReadOnlyError
from core.files import file_kind, header_problem, link_no_clobber, process_alive
from core.paths import backups_dir, ensure_private_dir, fsync_dir


def remove_stale_partials(d: Path) -> list[Path]:
    """Delete temporary backup files left by a process that died while backing up.


    Only ``memory-<time>.sqlite.partial-<pid>-<thread>`` files (and their ``-journal``) are touched:
    those of a process that no longer runs, or older than an hour. Backups proper never match.
    """
    removed: list[Path] = []
    if not d.is_dir():
        return removed
    now = time.time()
    for p in d.iterdir():
        m = PARTIAL_RE.match(p.name)
        if not m or int(m.group(1)) == os.getpid() or file_kind(p) != "file":
            continue
        try:
            old = now - p.stat().st_mtime > STALE_PARTIAL_S
        except OSError:
            continue
        if old or not process_alive(int(m.group(1))):
            with contextlib.suppress(OSError):
                p.unlink()
                removed.append(p)
    return removed


def _free_backup_name(d: Path, db_name: str, *, timeout_s: float = NAME_WAIT_S) -> str:
    """A backup name whose second is not taken yet, waiting up to ``timeout_s`` for the next second."""
    deadline = time.monotonic() + timeout_s
    while True:
        name = backup_file_name(db_name=db_name)
        if not os.path.lexists(d / name) or time.monotonic() >= deadline:
            return name
        time.sleep(0.05)


def _place_backup(tmp: Path, d: Path, name: str) -> Path:
    """Rename the finished ``tmp`` to ``name`` in ``d``, or ``<name>-<n>.sqlite`` when taken."""
    stem = name[: -len(".sqlite")]
    for n in range(0, 10_000):
        final = d / (name if n == 0 else f"{stem}-{n}.sqlite")
        if link_no_clobber(tmp, final):
            return final
    raise MemoryError_(f"No free backup name in {d}.", code="backup.no_free_name", params={"dir": str(d)})


def folder_not_writable(d: Path) -> ReadOnlyError:
    return ReadOnlyError(
        f"The backups folder {d} cannot be written (backups, and the files a restore moves aside, are kept "
        "there). Nothing was changed.",
        code="backup.folder_not_writable",
        params={"path": str(d)},
    )


def ensure_backup_folder(d: Path) -> None:
    """Create the backups folder ``d`` if missing, or raise an error that says why no backup can be
    written there: a loop of symbolic links (``backup.folder_symlink_loop``), something that is not a
    folder (``backup.folder_not_folder``, ``kind``), a folder that cannot be written
    (``backup.folder_not_writable``). ``path`` is the folder."""
    kind, _st, detail = paths.inspect_path(d)
    if kind == "symlink-loop":
        raise MemoryError_(
            f"The backups folder {d} is a symbolic link loop (a link that leads back to itself), so "
            "nothing can be kept there. Nothing was changed.",
            code="backup.folder_symlink_loop",
            params={"path": str(d)},
        )
    if kind not in ("folder", "missing"):
        raise MemoryError_(
            f"The backups folder {d} is not a folder (this path names {paths.describe_kind(kind, detail)}), "
            "so nothing can be kept there. Nothing was changed.",
            code="backup.folder_not_folder",
            params={"path": str(d), "kind": kind},
        )
    try:
        ensure_private_dir(d)
    except PermissionError as exc:
        raise folder_not_writable(d) from exc
    if not os.access(d, os.W_OK):
        raise folder_not_writable(d)


def copy_to_backup(
    conn: sqlite3.Connection,
    d: Path,
    *,
    db_name: str = "memory.sqlite",
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Copy the database behind ``conn`` into a new backup of this project's in ``d`` and return its
    path (``philont-desktop-<database>-<UTC second>.sqlite``, the database named by ``db_name``).


    SQLite's online backup API in one step (a consistent snapshot even while the agent writes; a
    stepwise copy restarts on every write from another process), into a private temporary file that
    is synced and then named: an interrupted backup never leaves a file under a backup name, and an
    existing backup is never replaced.
    """
    ensure_backup_folder(d)
    remove_stale_partials(d)
    name = _free_backup_name(d, db_name)
    tmp = d / f"{name}.partial-{os.getpid()}-{threading.get_ident()}"
    try:
        os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except PermissionError as exc:
        raise folder_not_writable(d) from exc
    dst = sqlite3.connect(str(tmp), isolation_level=None)
    try:

        def _cb(status: int, remaining: int, total: int) -> None:
            if progress is not None:
                progress(total - remaining, total)

        conn.backup(dst, pages=-1, progress=_cb)
        dst.execute("PRAGMA journal_mode=DELETE")
        dst.close()
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        final = _place_backup(tmp, d, name)
    except BaseException:
        dst.close()
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(d)
    return final


def own_backups(d: Path, db_name: str) -> list[Path]:
    """This project's backups of the database named ``db_name`` in ``d`` (regular files), newest first."""
    if not d.is_dir():
        return []
    stem = database_stem(db_name)
    found = (p for p in d.iterdir() if own_of(p, stem) and file_kind(p) == "file")
    return sorted(found, key=name_key, reverse=True)


def rotate(d: Path, retain: int = BACKUP_RETAIN, *, db_name: str = "memory.sqlite") -> list[Path]:
    """Delete all but the newest ``retain`` (at least 1) of this project's backups of ``db_name`` in
    ``d``; returns what was deleted.


    Only this project's own backups of that database count and go: the agent's ``memory-*.sqlite``
    backups, damaged files kept aside by a restore, backups of other databases, other files and special
    files are never touched.
    """
    removed = []
    for old in own_backups(d, db_name)[max(1, retain) :]:
        with contextlib.suppress(OSError):
            old.unlink()
            removed.append(old)
    return removed


def recent_own_backup(
    db_path: str | os.PathLike[str], *, window_s: float = RUN_WINDOW_S, now: int | None = None
) -> Path | None:
    """This project's newest backup of ``db_path`` when it was taken less than ``window_s`` ago (by the
    time in its name), else ``None``: a write within that window belongs to the same run of edits, which
    one backup covers."""
    t = now_ms() if now is None else int(now)
    p = Path(db_path)
    for b in own_backups(backups_dir(p), paths.real_path(p).name)[:1]:
        created = backup_created_at(b.name)
        if created is not None and 0 <= t - created < window_s * 1000 and header_problem(b) is None:
            return b  # (a cut or emptied one does not count: the write takes a new one)
    return None
