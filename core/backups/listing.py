"""Looking at ``backups/``: listing the backups of either owner, checking one without writing anything
beside it (an ``immutable=1`` connection), and copying one out for browsing.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.backups.names import BACKUP_NAME_RE, backup_created_at, backup_owner, name_key
from core.clock import now_ms
from core.engine import sqlite3
from core.errors import MemoryError_, NotFoundError, Notice, ValidationError_
from core.files import connect_file, file_kind, header_journal, header_problem, quick_check, side_files
from core.paths import backups_dir, chmod_private, ensure_private_dir
from core.schema import CORE_TABLES


@dataclass(frozen=True)
class BackupInfo:
    """One entry of ``backups/`` with a backup name.


    ``created_at`` comes from the name (UTC), ``age`` is ``now - created_at`` in ms, ``size`` is in
    bytes, ``quick_check`` is ``"ok"``, the reason it is not usable, or ``None`` when not checked.
    ``journal`` is ``"wal"`` or ``"rollback"`` from the file header (``None`` when it cannot be read).
    ``kind`` is ``file`` for a regular file (anything else is never opened and never ok).
    ``side_files`` are the suffixes of files beside it (``-wal``, ``-shm``, ``-journal``): not part of
    the backup, ignored. :attr:`owner` says whose it is, by its name.
    """

    path: Path
    created_at: int | None
    age: int | None
    size: int
    quick_check: str | None = None
    journal: str | None = None
    kind: str = "file"
    side_files: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def ok(self) -> bool:
        return self.quick_check == "ok"

    @property
    def owner(self) -> str | None:
        """``"agent"`` for the agent's ``memory-…`` backups, ``"philont-desktop"`` for this project's."""
        return backup_owner(self.name)


def open_backup(path: Path, timeout_s: float = 1.0) -> sqlite3.Connection:
    """A read-only ``immutable=1`` connection to a closed backup: no file is created, changed or locked
    beside it (files already there are ignored)."""
    kind = file_kind(path)
    if kind != "file":
        raise not_regular(path, kind)
    conn = connect_file(path, mode="ro", immutable="1", timeout_s=timeout_s)
    conn.execute("PRAGMA query_only=1")
    return conn


def not_regular(path: Path, kind: str | None) -> MemoryError_:
    if kind is None:
        return NotFoundError(
            f"The backup {path} does not exist.", code="backup.not_found", params={"path": str(path)}
        )
    return ValidationError_(
        f"{path} is a {kind}, not a backup file; it was not opened.",
        code="backup.not_regular",
        params={"path": str(path), "kind": kind},
    )


def check_backup(path: str | os.PathLike[str]) -> Notice:
    """``quick_check`` of a backup without writing anything beside it, as a :class:`Notice`.


    Codes: ``backup.ok``; ``backup.missing``; ``backup.not_regular`` (``kind``: a FIFO, device or other
    special file is never opened); ``db.open.<problem>`` (``problem``, ``detail``: the header says it is
    empty, not SQLite, truncated or unreadable); ``backup.unreadable`` (``error``: SQLite cannot read it);
    ``backup.quick_check`` (``result``: SQLite's complaint); ``backup.not_memory`` (``missing``: the core
    tables it lacks). The message is the English text, ``"ok"`` when sound.
    """
    p = Path(path)
    kind = file_kind(p)
    if kind is None:
        return Notice("backup.missing", "missing", {"path": str(p)})
    if kind != "file":
        return Notice("backup.not_regular", f"not a regular file ({kind}): not opened", {"kind": kind})
    found = header_problem(p)
    if found is not None:
        return Notice(
            f"db.open.{found.problem}", found.detail, {"problem": found.problem, "detail": found.detail}
        )
    try:
        conn = open_backup(p)
        try:
            result = quick_check(conn)
            if result != "ok":
                return Notice("backup.quick_check", result, {"result": result})
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            conn.close()
    except (sqlite3.Error, MemoryError_) as exc:
        return Notice("backup.unreadable", f"cannot be read: {exc}", {"error": str(exc)})
    missing = [t for t in CORE_TABLES if t not in names]
    if missing:
        return Notice(
            "backup.not_memory", "not a memory database: missing " + ", ".join(missing), {"missing": missing}
        )
    return Notice("backup.ok", "ok")


def check_backup_file(path: str | os.PathLike[str]) -> str:
    """:func:`check_backup`'s English text: ``"ok"`` for a sound memory database, else the reason."""
    return check_backup(path).message


def list_backups(db_path: str | os.PathLike[str]) -> list[Path]:
    """The regular files of ``backups/`` with a backup name of either kind (the agent's and this
    project's; :func:`backup_owner` says whose), newest first."""
    d = backups_dir(db_path)
    if not d.is_dir():
        return []
    found = [p for p in d.iterdir() if BACKUP_NAME_RE.match(p.name) and file_kind(p) == "file"]
    return sorted(found, key=name_key, reverse=True)


def list_backups_info(
    db_path: str | os.PathLike[str], *, check: bool = True, now: int | None = None
) -> list[BackupInfo]:
    """Every entry of ``backups/`` with a backup name of either kind, newest first: age, size, kind,
    owner and (``check``) ``quick_check``. Entries that are not regular files are listed as not usable,
    never opened."""
    t = now_ms() if now is None else int(now)
    d = backups_dir(db_path)
    if not d.is_dir():
        return []
    out: list[BackupInfo] = []
    for p in sorted((p for p in d.iterdir() if BACKUP_NAME_RE.match(p.name)), key=name_key, reverse=True):
        kind = file_kind(p)
        if kind is None:
            continue  # rotated away meanwhile
        created = backup_created_at(p.name)
        age = None if created is None else t - created
        if kind != "file":
            reason = f"not a regular file ({kind}): not opened"
            out.append(BackupInfo(p, created, age, 0, reason, None, kind, side_files(p)))
            continue
        try:
            size = p.stat().st_size
        except OSError:
            continue
        qc = check_backup_file(p) if check else None
        out.append(BackupInfo(p, created, age, size, qc, header_journal(p), "file", side_files(p)))
    return out


def newest_good_backup(db_path: str | os.PathLike[str]) -> Path | None:
    """The newest backup of either kind that passes ``quick_check`` and is a memory database (read-only
    look); :func:`backup_owner` of its name says whose it is."""
    for p in list_backups(db_path):
        if check_backup_file(p) == "ok":
            return p
    return None


def browse_copy_needed(path: str | os.PathLike[str]) -> bool:
    """Whether an ordinary read-only connection to ``path`` would create or read files beside it.


    False only for a rollback-journal file (this project's backups) with nothing beside it: that can be
    browsed in place. A WAL-mode copy (the agent's backups) must be copied first.
    """
    p = Path(path)
    return header_journal(p) != "rollback" or bool(side_files(p))


def copy_for_browsing(
    path: str | os.PathLike[str],
    dest_dir: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[int, int], object] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Path:
    """Copy a backup into a private folder (0700; file 0600, rollback journal) and return the copy's path.


    Read through an immutable connection with the backup API, so nothing is written beside the original.
    Without ``dest_dir`` a new folder in the system's temporary directory; the caller removes it.
    """
    src_path = Path(path)
    kind = file_kind(src_path)
    if kind != "file":
        raise not_regular(src_path, kind)
    found = header_problem(src_path)
    if found is not None:
        raise ValidationError_(
            f"The backup {src_path.name} cannot be read: {found.detail}",
            code="backup.unreadable",
            params={"path": str(src_path), "problem": found.problem, "detail": found.detail},
        )
    d = Path(dest_dir) if dest_dir is not None else Path(tempfile.mkdtemp(prefix="philont-browse-"))
    ensure_private_dir(d)
    with contextlib.suppress(OSError):
        os.chmod(d, 0o700)
    target = d / src_path.name
    src = open_backup(src_path)
    try:
        backup_api_copy(src, target, progress=progress, cancel=cancel)
    except BaseException:
        with contextlib.suppress(OSError):
            target.unlink()
        raise
    finally:
        src.close()
    return target


def backup_api_copy(
    src: sqlite3.Connection,
    target: Path,
    *,
    progress: Callable[[int, int], object] | None = None,
    cancel: Callable[[], bool] | None = None,
    journal: str = "DELETE",
) -> int:
    """Copy ``src`` into a new file ``target`` (0600) with the backup API; returns the page count."""
    dst = sqlite3.connect(str(target), isolation_level=None, check_same_thread=False)
    chmod_private(target)
    try:
        total_pages = int(src.execute("PRAGMA page_count").fetchone()[0]) or 1
        step = max(64, total_pages // 100)

        def _cb(status: int, remaining: int, total: int) -> None:
            if cancel is not None and cancel():
                raise MemoryError_("The copy was cancelled.", code="backup.cancelled")
            if progress is not None:
                progress(total - remaining, total)

        src.backup(dst, pages=step, progress=_cb)
        dst.execute(f"PRAGMA journal_mode={journal}")
    finally:
        dst.close()
    return total_pages
