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
    ours = ours.rename(d / "memory-20260615T110000.sqlite")
    _wal_flagged_copy(live, d / "memory-20260614T120000.sqlite")
    (d / "memory-20260613T120000.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x00" * 84 + b"junk" * 300)
    (d / "unrelated.txt").write_text("x")
    before = _listing(d)
    infos = list_backups_info(live, now=T0)
    assert _listing(d) == before  # no -wal / -shm appeared beside the WAL-flagged backup
    assert [i.name for i in infos] == [
        "memory-20260615T110000.sqlite",
        "memory-20260614T120000.sqlite",
        "memory-20260613T120000.sqlite",
    ]
    a, b, c = infos
    assert (a.created_at, a.age, a.size) == (T0 - 3_600_000, 3_600_000, ours.stat().st_size)
    assert b.age == 86_400_000
    assert (a.quick_check, b.quick_check) == ("ok", "ok") and a.ok and b.ok
    assert not c.ok and c.quick_check
    assert (a.journal, b.journal) == ("rollback", "wal")
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
        assert check.execute("PRAGMA page_size").fetchone()[0] == 8192
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
