"""The two ways a restore replaces the live file: in place under an exclusive lock for a sound file (its
content backed up first), or a staged copy given the live name once a damaged or missing file's remains
are moved aside; both end with the ``database.restore`` audit row.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core import audit, schema
from core.backups.activity import Watch, held_by_another_process, lock_exclusive, locked_error
from core.backups.damaged import damaged_names, move_aside
from core.backups.listing import backup_api_copy, open_backup
from core.backups.names import RESTORE_ACTION, backup_created_at
from core.backups.writing import copy_to_backup, ensure_backup_folder
from core.engine import sqlite3
from core.errors import MemoryError_
from core.files import connect_file, file_kind, header_journal, link_no_clobber, quick_check, side_files
from core.paths import backups_dir, chmod_private, ensure_private_dir, fsync_dir


@dataclass(frozen=True)
class RestoreResult:
    """``db_path`` now holds the content of ``restored_from``.


    For a sound file, ``safety_backup`` is the backup of the content it replaced. For a damaged or
    missing one, ``problem`` says what was wrong (``not-sqlite``, ``empty``, ``truncated``, ``corrupt``,
    ``missing``) and ``damaged`` lists the files moved aside, byte for byte, into ``backups/`` (the main
    file first, then its ``-wal``/``-shm``/``-journal``; empty when there was nothing). ``audit_id`` is the
    ``database.restore`` row of the restored file's audit trail.
    """

    db_path: Path
    restored_from: Path
    safety_backup: Path | None = None
    damaged: tuple[Path, ...] = ()
    problem: str | None = None
    detail: str | None = None
    pages: int = 0
    audit_id: int | None = None

    @property
    def kept_as(self) -> Path | None:
        """Where the replaced content is: the safety backup, or the damaged file moved aside."""
        return self.safety_backup or (self.damaged[0] if self.damaged else None)


@dataclass
class LiveState:
    """What a look at the live file found; ``problem`` is ``None`` for a sound database."""

    problem: str | None
    detail: str | None = None
    existed: tuple[str, ...] = ()  # side-file suffixes present before the look
    shm: bytes | None = None  # the -shm's bytes before the look

    def undo_look(self, db: Path) -> None:
        """Remove the side files a read-only look created, and put the ``-shm`` bytes back."""
        for suffix in ("-wal", "-shm"):
            if suffix not in self.existed and file_kind(str(db) + suffix) == "file":
                with contextlib.suppress(OSError):
                    os.unlink(str(db) + suffix)
        shm = Path(str(db) + "-shm")
        if self.shm is not None and file_kind(shm) == "file" and shm.read_bytes() != self.shm:
            shm.write_bytes(self.shm)


def _record_restore(conn: sqlite3.Connection, actor: str, db: Path, src: Path, before: dict[str, Any]) -> int:
    """The ``database.restore`` audit row, written in the restored file in a transaction of its own."""
    schema.create_audit_table(conn)
    conn.execute("BEGIN IMMEDIATE")
    try:
        entry = audit.record(
            conn,
            actor=actor,
            action=RESTORE_ACTION,
            target_type="database",
            target_id=db.name,
            before=before,
            after={"restoredFrom": str(src), "backupCreatedAt": backup_created_at(src.name)},
        )
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    return entry.id


def _chmod_live(db: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        f = Path(str(db) + suffix)
        if file_kind(f) == "file":
            chmod_private(f)


def _stage_with_page_size(
    src: sqlite3.Connection, where: Path, page_size: int
) -> tuple[sqlite3.Connection, Path]:
    """A private WAL-mode copy of the backup beside the live file, with the live file's page size.


    A WAL database cannot take pages of another size, and a page 1 that says "rollback journal" (this
    project's backups) switches the live file out of WAL as it is copied in: a copy that failed then left
    it in a rollback journal with a hot journal beside it. From this copy the copy into the live file is
    one WAL transaction: it commits whole or leaves the file as it was."""
    d = Path(tempfile.mkdtemp(prefix=".philont-restore-", dir=where))
    with contextlib.suppress(OSError):
        os.chmod(d, 0o700)
    staged = d / "staged.sqlite"
    conn = sqlite3.connect(str(staged), isolation_level=None, check_same_thread=False)
    try:
        chmod_private(staged)
        src.backup(conn, pages=-1)
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute(f"PRAGMA page_size={int(page_size)}")
        conn.execute("VACUUM")
        conn.execute("PRAGMA journal_mode=WAL")  # page 1 is copied too: it must keep the live file in WAL
    except BaseException:
        conn.close()
        shutil.rmtree(d, ignore_errors=True)
        raise
    return conn, d


def restore_in_place(
    db: Path,
    src_path: Path,
    lock_timeout_s: float,
    progress: Callable[[int, int], object] | None,
    actor: str,
    watch: Watch | None,
) -> RestoreResult:
    """The live file is sound: back its content up, then copy the backup in under an exclusive lock."""
    src = open_backup(src_path)
    dest = None
    staged_dir: Path | None = None
    source = src
    done = [0]
    try:
        dest = lock_exclusive(db, lock_timeout_s)
        if watch is not None:  # written between the look and the lock: the agent is at work
            watch.check()
        safety = copy_to_backup(dest, backups_dir(db), db_name=db.name)  # a new name, never the one restored
        src_ps = int(src.execute("PRAGMA page_size").fetchone()[0])
        dst_ps = int(dest.execute("PRAGMA page_size").fetchone()[0])
        dest_wal = str(dest.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"
        # The live file stays in WAL: the copy takes its page size, and a header that says WAL.
        if dest_wal and (src_ps != dst_ps or header_journal(src_path) != "wal"):
            source, staged_dir = _stage_with_page_size(src, db.parent, dst_ps)
        total_pages = int(source.execute("PRAGMA page_count").fetchone()[0]) or 1
        step = max(64, total_pages // 100)

        def _cb(status: int, remaining: int, total: int) -> None:
            done[0] = total
            if progress is not None:
                progress(total - remaining, total)

        source.backup(dest, pages=step, progress=_cb)
        if str(dest.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
            dest.execute("PRAGMA journal_mode=WAL")
        result = quick_check(dest)
        if result != "ok":
            raise MemoryError_(
                f"The restored database fails quick_check ({result.splitlines()[0]}). The file that was "
                f"replaced is in {safety}.",
                code="restore.result_bad",
                params={"path": str(db), "problem": result.splitlines()[0], "kept": str(safety)},
            )
        before = {"path": str(db), "state": "replaced", "problem": None, "keptAs": [str(safety)]}
        audit_id = _record_restore(dest, actor, db, src_path, before)
    finally:
        if dest is not None:
            dest.close()
        if staged_dir is not None:
            if source is not src:
                with contextlib.suppress(sqlite3.Error):
                    source.close()
            shutil.rmtree(staged_dir, ignore_errors=True)
        src.close()
    _chmod_live(db)
    return RestoreResult(db, src_path, safety_backup=safety, pages=done[0], audit_id=audit_id)


def _copy_backup(src_path: Path, staged: Path, progress: Callable[[int, int], object] | None) -> int:
    """Copy the backup into ``staged`` (WAL mode) with the backup API; returns the page count."""
    src = open_backup(src_path)
    try:
        return backup_api_copy(src, staged, progress=progress, journal="WAL")
    finally:
        src.close()


def _check_and_record(
    staged: Path, db: Path, src_path: Path, live: LiveState, names: dict[str, Path], actor: str
) -> int:
    """``quick_check`` the staged copy and write its ``database.restore`` row; returns the row's id."""
    conn = connect_file(staged, mode="rw", timeout_s=5.0)
    try:
        result = quick_check(conn)
        if result != "ok":
            raise MemoryError_(
                f"The copy of the backup fails quick_check ({result.splitlines()[0]}). Nothing was changed.",
                code="restore.result_bad",
                params={"path": str(db), "problem": result.splitlines()[0], "kept": None},
            )
        before = {
            "path": str(db),
            "state": "missing" if live.problem == "missing" else "damaged",
            "problem": live.problem,
            "keptAs": [str(p) for p in names.values()],
        }
        return _record_restore(conn, actor, db, src_path, before)
    finally:
        conn.close()  # the last connection: the -wal is folded in and removed


def _reappeared(db: Path, d: Path, staged: Path, moved: list[Path]) -> MemoryError_:
    return MemoryError_(
        f"A new file appeared at {db} during the restore (did the agent start?); it was left alone. "
        f"The damaged files are in {d}; the restored copy is {staged}.",
        code="restore.live_reappeared",
        params={"path": str(db), "staged": str(staged), "kept": [str(p) for p in moved]},
    )


def restore_over_damaged(
    db: Path,
    src_path: Path,
    live: LiveState,
    progress: Callable[[int, int], object] | None,
    actor: str,
    watch: Watch | None,
) -> RestoreResult:
    """The live file is damaged or missing: stage the backup beside it, move the damaged files aside
    into ``backups/``, then give the staged copy the live name."""
    ensure_private_dir(db.parent)
    stage = Path(tempfile.mkdtemp(prefix=".philont-restore-", dir=db.parent))
    keep_stage = False
    try:
        with contextlib.suppress(OSError):
            os.chmod(stage, 0o700)
        staged = stage / db.name
        pages = _copy_backup(src_path, staged, progress)
        d = backups_dir(db)
        ensure_backup_folder(d)
        live.undo_look(db)
        suffixes = (("",) if file_kind(db) == "file" else ()) + side_files(db)
        names = damaged_names(db, d, suffixes) if suffixes else {}
        audit_id = _check_and_record(staged, db, src_path, live, names, actor)
        with open(staged, "rb") as fh:
            os.fsync(fh.fileno())
        if held_by_another_process(db):
            raise locked_error(db)
        if watch is not None:
            watch.check()
        moved = move_aside(db, names) if names else []
        if not link_no_clobber(staged, db):
            keep_stage = True
            raise _reappeared(db, d, staged, moved)
        fsync_dir(db.parent)
        fsync_dir(d)
    finally:
        if not keep_stage:
            shutil.rmtree(stage, ignore_errors=True)
    _chmod_live(db)
    return RestoreResult(
        db,
        src_path,
        damaged=tuple(moved),
        problem=live.problem,
        detail=live.detail,
        pages=pages,
        audit_id=audit_id,
    )
