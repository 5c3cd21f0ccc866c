"""A restore that fails leaves the live file exactly as it was and says truthfully what happened."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.backups import header_journal, restore_backup
from core.db import MemoryDB
from core.engine import sqlite3
from core.paths import backups_dir
from tests.damage import notes

REPO = Path(__file__).resolve().parents[2]
BIG = [f"B {i:04d} " + "y" * 500 for i in range(1500)]  # the backup holds more than the live file


def _fill(path: Path, texts: list[str]) -> None:
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.execute("BEGIN")
        for i, t in enumerate(texts):
            conn.execute(
                "INSERT INTO memory_notes (id, content, importance, created_at) VALUES (?, ?, 0.5, 0)",
                (f"n{i}", t),
            )
        conn.execute("COMMIT")
    finally:
        conn.close()


def _backup(live: Path, dest: Path, page_size: int | None, journal: str = "WAL") -> Path:
    """A copy of ``live`` (in WAL mode as the agent's are, or rollback as this project's), rebuilt with
    ``page_size`` when given."""
    src = sqlite3.connect(str(live))
    dst = sqlite3.connect(str(dest))
    src.backup(dst)
    src.close()
    if page_size:
        dst.execute("PRAGMA journal_mode=DELETE")
        dst.execute(f"PRAGMA page_size={page_size}")
        dst.execute("VACUUM")
    dst.execute(f"PRAGMA journal_mode={journal}")
    dst.close()
    for s in ("-wal", "-shm"):
        Path(str(dest) + s).unlink(missing_ok=True)
    return dest


@pytest.fixture(
    params=[(None, "WAL"), (8192, "WAL"), (None, "DELETE")],
    ids=["agents-same-page-size", "agents-other-page-size", "this-apps"],
)
def setup(request, tmp_path) -> tuple[Path, Path]:
    """A sound WAL live file with 3 notes and a bigger backup: the agent's (a WAL copy, of the same or
    another page size) or this app's (a rollback-journal copy)."""
    live = tmp_path / "memory" / "memory.sqlite"
    live.parent.mkdir(mode=0o700)
    MemoryDB.create(live).close()
    _fill(live, BIG)
    d = backups_dir(live)
    d.mkdir(mode=0o700)
    page_size, journal = request.param
    backup = _backup(live, d / "memory-20260601T000000.sqlite", page_size, journal)
    conn = sqlite3.connect(str(live), isolation_level=None)
    conn.execute("DELETE FROM memory_notes")
    conn.execute("VACUUM")
    conn.close()
    _fill(live, ["one", "two", "three"])
    for s in ("-wal", "-shm"):
        Path(str(live) + s).unlink(missing_ok=True)
    assert header_journal(live) == "wal"
    return live, backup


def _assert_as_it_was(live: Path, before: bytes) -> None:
    assert live.read_bytes() == before
    assert header_journal(live) == "wal"
    assert not os.path.exists(str(live) + "-journal")  # no hot journal
    assert not [p for p in live.parent.iterdir() if p.name.startswith(".philont-restore-")]
    with MemoryDB.open(live) as db:  # a read-only tool opens it
        assert db.report.journal_mode == "wal" and db.report.quick_check in (None, "ok")
    assert notes(live) == ["one", "three", "two"]


def test_a_restore_that_fails_midway_leaves_the_live_file_as_it_was(setup):
    live, backup = setup
    before = live.read_bytes()
    calls = []

    def disk_full(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError):
        restore_backup(live, backup, agent_running_check=False, progress=disk_full)
    assert len(calls) == 2  # it failed in the middle of the copy
    _assert_as_it_was(live, before)
    result = restore_backup(live, backup, agent_running_check=False)  # and a later restore works
    assert result.safety_backup is not None
    with MemoryDB.open(live) as db:
        assert db.conn.execute("SELECT count(*) FROM memory_notes").fetchone()[0] == len(BIG)


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_full_disk_during_a_restore_leaves_the_live_file_as_it_was(setup):
    """The disk fills while the backup is copied in: no file may grow any more (RLIMIT_FSIZE)."""
    live, backup = setup
    before = live.read_bytes()
    script = textwrap.dedent(
        f"""
        import resource, signal, sys
        from core.backups import restore_backup
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        def full(done, total):
            resource.setrlimit(resource.RLIMIT_FSIZE, ({len(before)}, resource.RLIM_INFINITY))
        try:
            restore_backup({str(live)!r}, {str(backup)!r}, agent_running_check=False, progress=full)
        except Exception as exc:
            print(type(exc).__name__, exc)
            sys.exit(7)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 7, done.stdout + done.stderr
    _assert_as_it_was(live, before)


# -- moving a damaged file aside, into backups/ on another file system ------------------------------------


@pytest.fixture
def other_file_system(monkeypatch):
    """``backups/`` behaves as if it were on another file system: a link or rename between it and
    anywhere else fails with EXDEV, as the kernel says it."""
    real_link, real_rename = os.link, os.rename

    def crosses(src, dst) -> bool:
        return (Path(src).parent.name == "backups") != (Path(dst).parent.name == "backups")

    def link(src, dst, *a, **k):
        if crosses(src, dst):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return real_link(src, dst, *a, **k)

    def rename(src, dst, *a, **k):
        if crosses(src, dst):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return real_rename(src, dst, *a, **k)

    monkeypatch.setattr(os, "link", link)
    monkeypatch.setattr(os, "rename", rename)


def _full_after(monkeypatch, ok_copies: int) -> list[Path]:
    """Copies fail as on a full disk after ``ok_copies`` whole ones: half the bytes land, then ENOSPC."""
    import shutil

    real = shutil.copyfile
    made: list[Path] = []

    def copyfile(src, dst, *a, **k):
        made.append(Path(dst))
        if len(made) <= ok_copies:
            return real(src, dst, *a, **k)
        data = Path(src).read_bytes()
        Path(dst).write_bytes(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shutil, "copyfile", copyfile)
    return made


def test_a_damaged_file_moved_to_another_file_system_arrives_whole(tmp_path, other_file_system):
    from tests.damage import damage, make_memory

    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    before = damage(live, "corrupt-page")
    result = restore_backup(live, backup)
    kept = {p.name.split(live.name, 1)[1]: p.read_bytes() for p in result.damaged}
    assert kept == before
    assert not [p for p in backups_dir(live).iterdir() if ".partial-" in p.name]


def test_a_failed_move_to_a_full_file_system_leaves_no_partial_copy_and_says_so(
    tmp_path, other_file_system, monkeypatch
):
    from core.errors import MemoryError_
    from tests.damage import damage, files, make_memory

    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    before = damage(live, "corrupt-page")
    listing = sorted(p.name for p in backups_dir(live).iterdir())
    _full_after(monkeypatch, 0)
    with pytest.raises(MemoryError_) as ei:
        restore_backup(live, backup)
    assert ei.value.code == "restore.move_failed" and "Nothing was changed." in ei.value.message
    assert sorted(p.name for p in backups_dir(live).iterdir()) == listing  # no damaged-… copy, whole or not
    assert files(live) == before  # and the damaged file is where it was, byte for byte
    assert ei.value.params["errno"] == "ENOSPC"


def test_a_move_that_cannot_be_undone_says_what_stayed_where(tmp_path, other_file_system, monkeypatch):
    """The file moves, its -wal does not, and moving the file back fails too: the message says so."""
    from core.errors import MemoryError_
    from tests.damage import damage, make_memory

    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    before = damage(live, "stale-wal")
    assert set(before) >= {"", "-wal"}
    _full_after(monkeypatch, 1)
    with pytest.raises(MemoryError_) as ei:
        restore_backup(live, backup)
    assert ei.value.code == "restore.move_incomplete" and "Nothing was changed" not in ei.value.message
    (stayed,) = map(Path, ei.value.params["moved"])
    assert stayed.read_bytes() == before[""] and stayed.name in ei.value.message
    assert not [p for p in backups_dir(live).iterdir() if ".partial-" in p.name]
