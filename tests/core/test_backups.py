"""core.backups: listing backups/ without writing there, the agent-running check and restoring safely."""

from __future__ import annotations

import os
import shutil
import stat
import time

import pytest

from core.backups import (
    AgentRunningError,
    agent_activity,
    backup_created_at,
    browse_copy_needed,
    check_backup_file,
    copy_for_browsing,
    header_journal,
    list_backups_info,
    restore_backup,
)
from core.db import MemoryDB
from core.engine import sqlite3
from core.errors import NotFoundError, ValidationError_
from core.notes import NotesStore
from core.paths import backups_dir
from tests.conftest import FIXED_NOW

T0 = FIXED_NOW


def _mode(p) -> int:
    return stat.S_IMODE(os.stat(p).st_mode)


def _listing(d):
    return sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in d.iterdir())


def _notes(path) -> list[str]:
    db = MemoryDB.open(path)
    try:
        return sorted(n.content for n in NotesStore(db).list(limit=100))
    finally:
        db.close()


def _add_note(path, text):
    db = MemoryDB.open(path, writable=True, backup_before_write=False)
    try:
        NotesStore(db).upsert(None, text, created_at=T0)
    finally:
        db.close()


def _wal_flagged_copy(src_path, dest, *, page_size=None):
    """A copy as the reference's BackupRunner writes it: the backup API, header still WAL."""
    src = sqlite3.connect(str(src_path))
    dst = sqlite3.connect(str(dest))
    src.backup(dst)
    src.close()
    if page_size:
        dst.execute("PRAGMA journal_mode=DELETE")
        dst.execute(f"PRAGMA page_size={page_size}")
        dst.execute("VACUUM")
        dst.execute("PRAGMA journal_mode=WAL")
    dst.close()
    for suffix in ("-wal", "-shm"):
        p = dest.parent / (dest.name + suffix)
        if p.exists():
            p.unlink()
    return dest


@pytest.fixture
def live(tmp_path):
    path = tmp_path / "memory" / "memory.sqlite"
    MemoryDB.create(path, now=T0).close()
    _add_note(path, "version A")
    return path


def test_created_at_from_the_name():
    assert backup_created_at("memory-20260615T120000.sqlite") == T0
    assert backup_created_at("memory-20261340T000000.sqlite") is None
    assert backup_created_at("notes.sqlite") is None


def test_list_info_age_size_quick_check_and_nothing_written(live):
    d = backups_dir(live)
    d.mkdir(mode=0o700)
    db = MemoryDB.open(live)
    ours = db.backup()
    db.close()
    ours = ours.rename(d / "philont-desktop-memory-20260615T110000.sqlite")
    _wal_flagged_copy(live, d / "memory-20260614T120000.sqlite")
    (d / "memory-20260613T120000.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x00" * 84 + b"junk" * 300)
    (d / "unrelated.txt").write_text("x")
    before = _listing(d)
    infos = list_backups_info(live, now=T0)
    assert _listing(d) == before  # no -wal / -shm appeared beside the WAL-flagged backup
    assert [i.name for i in infos] == [
        "philont-desktop-memory-20260615T110000.sqlite",
        "memory-20260614T120000.sqlite",
        "memory-20260613T120000.sqlite",
    ]
    a, b, c = infos
    assert (a.created_at, a.age, a.size) == (T0 - 3_600_000, 3_600_000, ours.stat().st_size)
    assert b.age == 86_400_000
    assert (a.quick_check, b.quick_check) == ("ok", "ok") and a.ok and b.ok
    assert not c.ok and c.quick_check
    assert (a.journal, b.journal) == ("rollback", "wal")
    assert [i.owner for i in infos] == ["philont-desktop", "agent", "agent"]
    assert browse_copy_needed(b.path) and not browse_copy_needed(a.path)
    assert [i.quick_check for i in list_backups_info(live, check=False)] == [None, None, None]


def test_check_reports_a_file_that_is_not_a_memory_database(tmp_path):
    p = tmp_path / "other.sqlite"
    c = sqlite3.connect(str(p))
    c.execute("CREATE TABLE x(a)")
    c.close()
    assert check_backup_file(p).startswith("not a memory database: missing memory_raw_sessions")


def test_copy_for_browsing_leaves_the_backups_folder_alone(live, tmp_path):
    d = backups_dir(live)
    d.mkdir(mode=0o700)
    src = _wal_flagged_copy(live, d / "memory-20260614T120000.sqlite")
    before = _listing(d)
    copy = copy_for_browsing(src, tmp_path / "browse")
    assert _listing(d) == before
    assert copy.parent == tmp_path / "browse" and _mode(copy) == 0o600
    assert header_journal(copy) == "rollback"
    assert _notes(copy) == ["version A"]


def test_agent_activity_sees_another_connection(live):
    assert agent_activity(live) is None
    other = MemoryDB.open(live)  # an idle reader in WAL mode, like the agent between turns
    try:
        other.conn.execute("SELECT count(*) FROM memory_notes").fetchone()
        reason = agent_activity(live)
        assert reason is not None and "open in another program" in reason
    finally:
        other.close()
    assert agent_activity(live) is None


def test_agent_activity_sees_a_recent_wal(live):
    writer = MemoryDB.open(live, writable=True, backup_before_write=False)
    reader = MemoryDB.open(live)
    try:
        NotesStore(writer).upsert(None, "fresh", created_at=T0)
        reader.conn.execute("SELECT 1").fetchone()
        assert "-wal file was written" in agent_activity(live)
    finally:
        writer.close()
        reader.close()


def test_restore_is_refused_while_another_connection_holds_the_db(live):
    db = MemoryDB.open(live)
    backup = db.backup()
    db.close()
    _add_note(live, "version B")
    agent = MemoryDB.open(live)
    agent.conn.execute("SELECT count(*) FROM memory_notes").fetchone()
    try:
        with pytest.raises(AgentRunningError, match="open in another program"):
            restore_backup(live, backup, wal_recent_s=0)
    finally:
        agent.close()
    assert _notes(live) == ["version A", "version B"]
    assert list_backups_info(live, check=False)[0].path == backup  # no safety backup was written


def test_restore_replaces_the_content_and_keeps_the_replaced_file(live):
    db = MemoryDB.open(live)
    backup = db.backup()
    db.close()
    _add_note(live, "version B")
    time.sleep(1.05)  # the safety backup gets a name of its own second
    result = restore_backup(live, backup)
    assert result.db_path == live and result.restored_from == backup
    assert result.safety_backup.parent == backups_dir(live) and result.safety_backup != backup
    assert _notes(live) == ["version A"]
    assert _notes(result.safety_backup) == ["version A", "version B"]
    assert _mode(live) == 0o600 and _mode(result.safety_backup) == 0o600
    assert backup.exists()
    check = sqlite3.connect(str(live))
    try:
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert check.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    finally:
        check.close()
    assert not [p for p in live.parent.iterdir() if p.name.startswith(".philont-restore")]


def test_restore_in_the_same_second_never_overwrites_the_chosen_backup(live):
    db = MemoryDB.open(live)
    backup = db.backup()
    db.close()
    result = restore_backup(live, backup)
    assert result.safety_backup != backup and backup.exists()
    assert _notes(backup) == ["version A"]


def test_restore_from_a_wal_backup_with_another_page_size(live, tmp_path):
    d = backups_dir(live)
    d.mkdir(mode=0o700)
    backup = _wal_flagged_copy(live, d / "memory-20260614T120000.sqlite", page_size=8192)
    assert header_journal(backup) == "wal"
    _add_note(live, "version B")
    restore_backup(live, backup)
    assert _notes(live) == ["version A"]
    assert not [
        p.name for p in live.parent.iterdir() if p.name.endswith("-journal") or p.name.startswith(".")
    ]
    check = sqlite3.connect(str(live))
    try:
        assert check.execute("PRAGMA page_size").fetchone()[0] == 4096  # the live file never left WAL
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        check.close()


def test_restore_refuses_bad_input(live, tmp_path):
    with pytest.raises(NotFoundError):
        restore_backup(live, tmp_path / "missing.sqlite")
    with pytest.raises(ValidationError_, match="same file"):
        restore_backup(live, live)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 10)
    with pytest.raises(ValidationError_, match="cannot be restored"):
        restore_backup(live, junk)
    newer = tmp_path / "newer.sqlite"
    shutil.copy(live, newer)
    c = sqlite3.connect(str(newer))
    c.execute("UPDATE memory_meta SET value = '99' WHERE key = 'schema_version'")
    c.commit()
    c.close()
    with pytest.raises(ValidationError_, match="schema version 99"):
        restore_backup(live, newer)
    assert _notes(live) == ["version A"]
    assert not backups_dir(live).exists()


# -- looking creates nothing; special files never hang; names are never reused ------------------------------


def _damage_live(live):
    live.write_bytes(b"this is not a database\n" * 50)
    for s in ("-wal", "-shm"):
        (live.parent / (live.name + s)).unlink(missing_ok=True)


def test_the_open_error_names_a_wal_backup_without_writing_beside_it(live):
    from core.db import MemoryDB as DB
    from core.errors import DatabaseOpenError

    d = backups_dir(live)
    d.mkdir(mode=0o700)
    backup = _wal_flagged_copy(live, d / "memory-20260614T120000.sqlite")
    _damage_live(live)
    before = _listing(d)
    with pytest.raises(DatabaseOpenError) as ei:
        DB.open(live)
    assert ei.value.backup == backup
    assert check_backup_file(backup) == "ok"
    assert [i.ok for i in list_backups_info(live)] == [True]
    assert _listing(d) == before


def test_files_beside_a_backup_are_ignored_and_reported(live):
    d = backups_dir(live)
    d.mkdir(mode=0o700)
    backup = _wal_flagged_copy(live, d / "memory-20260614T120000.sqlite")
    (d / (backup.name + "-wal")).write_bytes(b"\x00" * 100)
    (d / (backup.name + "-shm")).write_bytes(b"")
    before = _listing(d)
    (info,) = list_backups_info(live)
    assert info.ok and info.side_files == ("-wal", "-shm")
    assert browse_copy_needed(backup)
    assert _listing(d) == before


def _run_bounded(fn, unblock, timeout=20):
    """Run ``fn`` in a thread; if it is still running after ``timeout`` s, unblock it and fail."""
    import threading

    box = {}

    def target():
        try:
            box["result"] = fn()
        except BaseException as exc:  # handed to the test
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        unblock()
        t.join(5)
        pytest.fail("blocked on a special file in backups/")
    if "error" in box:
        raise box["error"]
    return box.get("result")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_special_files_in_backups_are_never_opened(live, tmp_path, capsys):
    import socket

    from core.cli import main
    from core.db import MemoryDB as DB
    from core.errors import DatabaseOpenError

    d = backups_dir(live)
    d.mkdir(mode=0o700)
    good = _wal_flagged_copy(live, d / "memory-20260614T120000.sqlite")
    fifo = d / "memory-20991231T000000.sqlite"
    os.mkfifo(fifo)
    zero = d / "memory-20991230T000000.sqlite"
    zero.symlink_to("/dev/zero")
    (d / "memory-20991229T000000.sqlite").mkdir()
    sock = socket.socket(socket.AF_UNIX)
    sock_path = d / "memory-20991228T000000.sqlite"
    try:
        sock.bind(str(sock_path))
    except OSError:  # a path too long for a socket name: the others still cover the case
        sock_path = None
    _damage_live(live)

    def unblock():
        os.close(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))

    def look():
        infos = list_backups_info(live)
        with pytest.raises(DatabaseOpenError) as ei:
            DB.open(live)
        return infos, ei.value.backup

    try:
        infos, named = _run_bounded(look, unblock)
        assert named == good
        kinds = {i.name: (i.kind, i.ok) for i in infos}
        assert kinds[fifo.name] == ("FIFO", False) and kinds[zero.name] == ("device", False)
        assert kinds["memory-20991229T000000.sqlite"] == ("directory", False)
        if sock_path is not None:
            assert kinds[sock_path.name] == ("socket", False)
        assert "not a regular file (FIFO): not opened" in next(i.quick_check for i in infos if i.path == fifo)
        with pytest.raises(ValidationError_) as ei:
            _run_bounded(lambda: restore_backup(live, fifo), unblock)
        assert ei.value.code == "backup.not_regular" and ei.value.params["kind"] == "FIFO"
        code = _run_bounded(lambda: main(["--db", str(live), "restore", fifo.name, "--yes"]), unblock)
        assert code == 1 and "is a FIFO, not a file; it was not opened" in capsys.readouterr().err
        assert _run_bounded(lambda: main(["--db", str(live), "backups"]), unblock) == 0
        # A restore of the good backup works beside them, and rotation leaves them alone.
        restore_backup(live, good)
        from core.backups import rotate

        assert rotate(d, 1) == []
        assert fifo.exists() and zero.is_symlink()
    finally:
        sock.close()


def _occupy(d, seconds):
    """Files with backup names for the seconds around now, each with its own bytes."""
    from datetime import UTC, datetime, timedelta

    from core.backups import backup_file_name

    now = datetime.now(UTC)
    taken = {}
    for s in seconds:
        p = d / backup_file_name(now + timedelta(seconds=s))
        p.write_bytes(f"someone else's file {s}".encode())
        taken[p] = p.read_bytes()
    return taken


def test_an_existing_backup_name_is_never_replaced(live):
    d = backups_dir(live)
    d.mkdir(mode=0o700)
    taken = _occupy(d, range(-1, 6))
    db = MemoryDB.open(live)
    try:
        made = db.backup(retain=1000)
    finally:
        db.close()
    assert made not in taken and made.exists()
    assert all(p.read_bytes() == content for p, content in taken.items())
    assert check_backup_file(made) == "ok" and made in [i.path for i in list_backups_info(live, check=False)]


def test_backups_at_the_same_moment_all_survive(live):
    import threading

    dbs = [MemoryDB.open(live) for _ in range(4)]
    made: list = []
    barrier = threading.Barrier(len(dbs))

    def run(db):
        barrier.wait()
        made.append(db.backup(retain=1000))

    threads = [threading.Thread(target=run, args=(db,)) for db in dbs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for db in dbs:
        db.close()
    assert len(set(made)) == 4
    assert all(check_backup_file(p) == "ok" for p in made)


def test_rotation_never_touches_damaged_copies_or_the_agents_backups(live):
    from core.backups import rotate

    d = backups_dir(live)
    d.mkdir(mode=0o700)
    kept = d / "damaged-20200101T000000-memory.sqlite"
    kept.write_bytes(b"evidence")
    for i in range(3):
        (d / f"memory-2026010{i + 1}T000000.sqlite").write_bytes(b"agent")
        (d / f"philont-desktop-memory-2026010{i + 1}T000000.sqlite").write_bytes(b"ours")
        (d / f"philont-desktop-other-2026010{i + 1}T000000.sqlite").write_bytes(b"another database")
    assert [p.name for p in rotate(d, 1)] == [
        "philont-desktop-memory-20260102T000000.sqlite",
        "philont-desktop-memory-20260101T000000.sqlite",
    ]
    assert kept.read_bytes() == b"evidence"
    assert sorted(p.name for p in d.iterdir() if p.name.startswith("memory-")) == [
        "memory-20260101T000000.sqlite",
        "memory-20260102T000000.sqlite",
        "memory-20260103T000000.sqlite",
    ]
    assert len([p for p in d.iterdir() if p.name.startswith("philont-desktop-other-")]) == 3
