"""Opening databases: the two modes, the report, refusals and bad files."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest

from core import paths
from core.backups import BACKUP_NAME_RE, list_backups
from core.db import MemoryDB
from core.engine import sqlite3
from core.errors import DatabaseOpenError, ReadOnlyError
from tests.conftest import FIXED_NOW


def _digest(p: Path) -> str:
    """Hash of a file's bytes; a missing file counts as empty (a WAL reader may create an empty -wal)."""
    return hashlib.sha256(p.read_bytes() if p.exists() else b"").hexdigest()


def _snapshot(db_path: Path) -> tuple[str, str]:
    return _digest(db_path), _digest(Path(str(db_path) + "-wal"))


def _make_db(path: Path) -> Path:
    db = MemoryDB.create(path, now=FIXED_NOW)
    with db.write() as c:
        c.execute(
            "INSERT INTO memory_raw_messages(session_id, role, content, timestamp) VALUES ('global','user',?,?)",
            ("数据库迁移计划 hello migrations", FIXED_NOW),
        )
    db.close()
    return path


def test_resolve_db_path_precedence(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("MEMORY_DB_PATH", raising=False)
    assert paths.resolve_db_path() == tmp_path / ".philont" / "memory" / "memory.sqlite"
    monkeypatch.setenv("MEMORY_DB_PATH", str(tmp_path / "env.sqlite"))
    assert paths.resolve_db_path() == tmp_path / "env.sqlite"
    assert paths.resolve_db_path(tmp_path / "x.sqlite") == tmp_path / "x.sqlite"


def test_create_sets_private_modes_wal_and_version(tmp_path):
    target = tmp_path / "new" / "deeper" / "memory.sqlite"
    db = MemoryDB.create(target, now=FIXED_NOW)
    try:
        assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE(target.parent.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
        assert db.report.schema_version == 31
        assert db.report.journal_mode == "wal"
        assert db.report.complete
        assert db.report.missing_additive_columns == []
        row = db.conn.execute("SELECT started_at FROM memory_raw_sessions WHERE id='global'").fetchone()
        assert row[0] == FIXED_NOW
    finally:
        db.close()
    with open(target, "rb") as fh:
        header = fh.read(20)
    assert header[18:20] == b"\x02\x02"  # WAL recorded in the file header


def test_create_refuses_existing_file(tmp_path):
    p = tmp_path / "memory.sqlite"
    p.write_bytes(b"something")
    with pytest.raises(DatabaseOpenError) as ei:
        MemoryDB.create(p)
    assert ei.value.problem == "exists"
    assert p.read_bytes() == b"something"


def test_readonly_browsing_leaves_bytes_unchanged(tmp_path):
    p = _make_db(tmp_path / "memory.sqlite")
    before = _snapshot(p)
    db = MemoryDB.open(p)
    assert db.read_only and db.report.quick_check == "ok"
    for _ in range(3):
        db.conn.execute("SELECT * FROM memory_raw_messages").fetchall()
        db.conn.execute(
            "SELECT rowid FROM memory_raw_messages_fts WHERE memory_raw_messages_fts MATCH 'migration'"
        ).fetchall()
        db.data_version()
    with pytest.raises(ReadOnlyError), db.write():
        pass
    with pytest.raises(sqlite3.OperationalError):
        db.conn.execute("DELETE FROM memory_raw_messages")
    db.close()
    assert _snapshot(p) == before


def test_first_write_takes_backup_then_adds_additive_columns(tmp_path):
    p = _make_db(tmp_path / "memory.sqlite")
    raw = sqlite3.connect(p)
    raw.execute("ALTER TABLE memory_skills DROP COLUMN matched_count")
    raw.commit()
    raw.close()
    db = MemoryDB.open(p)
    assert db.report.missing_additive_columns == ["memory_skills.matched_count"]
    assert db.report.writable  # a v31 file without additive columns may be written after a backup
    db.close()

    db = MemoryDB.open(p, writable=True)
    assert list_backups(p) == []
    with db.write() as c:
        c.execute("UPDATE memory_raw_sessions SET ended_at=1 WHERE id='global'")
    backups = list_backups(p)
    assert len(backups) == 1 and BACKUP_NAME_RE.match(backups[0].name)
    assert stat.S_IMODE(backups[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(backups[0].parent.stat().st_mode) == 0o700
    assert db.has_column("memory_skills", "matched_count")
    # The backup holds the state from before the first write.
    b = sqlite3.connect(backups[0])
    assert b.execute("SELECT ended_at FROM memory_raw_sessions WHERE id='global'").fetchone()[0] is None
    b.close()
    db.close()


def test_newer_schema_is_read_only_and_never_restamped(tmp_path):
    p = _make_db(tmp_path / "memory.sqlite")
    raw = sqlite3.connect(p)
    raw.execute("UPDATE memory_meta SET value='51' WHERE key='schema_version'")
    raw.commit()
    raw.close()
    before = _snapshot(p)
    db = MemoryDB.open(p)
    assert db.report.schema_version == 51
    assert not db.report.writable
    assert "newer" in db.report.read_only_reason
    notice = db.report.read_only_notice()
    assert notice.code == "db.read_only.schema_newer"
    assert notice.params == {"version": 51, "min_known": 31, "max_known": 50}
    db.close()
    with pytest.raises(ReadOnlyError, match="newer"):
        MemoryDB.open(p, writable=True)
    assert _snapshot(p) == before


@pytest.mark.parametrize("stored", ["31", "42", "48", "50"])
def test_known_schema_versions_open_writable_and_keep_their_stamp(tmp_path, stored):
    p = _make_db(tmp_path / "memory.sqlite")
    raw = sqlite3.connect(p)
    raw.execute("UPDATE memory_meta SET value = ? WHERE key = 'schema_version'", (stored,))
    raw.commit()
    raw.close()
    db = MemoryDB.open(p, writable=True)
    assert db.report.writable and db.report.read_only_notice() is None
    with db.write() as c:
        c.execute("INSERT INTO memory_notes (id, content, created_at) VALUES ('n', 'x', 1)")
    db.close()
    raw = sqlite3.connect(p)
    assert raw.execute("SELECT value FROM memory_meta WHERE key = 'schema_version'").fetchone()[0] == stored
    raw.close()


@pytest.mark.parametrize(
    ("stored", "code", "params"),
    [
        ("abc", "db.read_only.schema_invalid", {"value": "abc"}),
        ("-1", "db.read_only.schema_invalid", {"value": "-1"}),
        ("", "db.read_only.schema_invalid", {"value": ""}),
        ("+31", "db.read_only.schema_invalid", {"value": "+31"}),
        ("3.1e1", "db.read_only.schema_invalid", {"value": "3.1e1"}),
        ("31.5", "db.read_only.schema_invalid", {"value": "31.5"}),
        (
            "12345678901234567890123456",
            "db.read_only.schema_newer",
            {"version": 12345678901234567890123456, "min_known": 31, "max_known": 50},
        ),
        ("30", "db.read_only.schema_older", {"version": 30, "min_known": 31, "max_known": 50}),
        (None, "db.read_only.schema_missing", {}),
    ],
)
def test_a_version_that_is_not_known_is_read_only_with_a_coded_reason(tmp_path, stored, code, params):
    p = _make_db(tmp_path / "memory.sqlite")
    raw = sqlite3.connect(p)
    if stored is None:
        raw.execute("DELETE FROM memory_meta WHERE key = 'schema_version'")
    else:
        raw.execute("UPDATE memory_meta SET value = ? WHERE key = 'schema_version'", (stored,))
    raw.commit()
    raw.close()
    before = _snapshot(p)
    db = MemoryDB.open(p)
    notice = db.report.read_only_notice()
    assert not db.report.writable
    assert (notice.code, notice.params) == (code, params)
    assert notice.message == db.report.read_only_reason
    db.close()
    with pytest.raises(ReadOnlyError, match="writing is refused"):
        MemoryDB.open(p, writable=True)
    assert _snapshot(p) == before


def test_missing_core_table_refuses_writing(tmp_path):
    p = _make_db(tmp_path / "memory.sqlite")
    raw = sqlite3.connect(p)
    raw.execute("DROP TABLE memory_facts")
    raw.commit()
    raw.close()
    db = MemoryDB.open(p)
    assert "memory_facts" in db.report.missing_tables
    assert "core tables are missing" in db.report.read_only_reason
    assert db.report.read_only_notice().code == "db.read_only.missing_tables"
    assert db.report.read_only_notice().params == {"names": ["memory_facts"]}
    db.close()


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "empty"),
        (b"hello, this is a text file and not a database\n" * 10, "not-sqlite"),
        (os.urandom(4096), "not-sqlite"),
    ],
)
def test_bad_files_give_clear_errors_and_are_not_touched(tmp_path, content, problem):
    p = tmp_path / "memory.sqlite"
    p.write_bytes(content)
    with pytest.raises(DatabaseOpenError) as ei:
        MemoryDB.open(p)
    assert ei.value.problem == problem
    assert str(p) in str(ei.value)
    assert p.read_bytes() == content
    assert sorted(x.name for x in tmp_path.iterdir()) == ["memory.sqlite"]


def test_truncated_file_names_newest_good_backup(tmp_path):
    p = _make_db(tmp_path / "memory.sqlite")
    db = MemoryDB.open(p, writable=True)
    good = db.backup()
    db.close()
    # A backup that is itself damaged (newer name) must be skipped.
    bad = good.with_name("memory-29991231T235959.sqlite")
    bad.write_bytes(b"garbage")
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(DatabaseOpenError) as ei:
        MemoryDB.open(p)
    assert ei.value.problem in ("truncated", "corrupt")
    assert ei.value.backup == good
    assert str(good) in str(ei.value)


def test_missing_file_is_an_error_without_creating_anything(tmp_path):
    p = tmp_path / "nope" / "memory.sqlite"
    with pytest.raises(DatabaseOpenError) as ei:
        MemoryDB.open(p)
    assert ei.value.problem == "missing"
    assert not p.parent.exists()


def test_write_transactions_nest_and_roll_back(file_db):
    with pytest.raises(RuntimeError), file_db.write() as c:
        c.execute("INSERT INTO memory_meta(key, value) VALUES ('a', '1')")
        with file_db.write() as c2:
            c2.execute("INSERT INTO memory_meta(key, value) VALUES ('b', '2')")
        raise RuntimeError("boom")
    assert file_db.conn.execute("SELECT count(*) FROM memory_meta WHERE key IN ('a','b')").fetchone()[0] == 0
    with file_db.write() as c:
        c.execute("INSERT INTO memory_meta(key, value) VALUES ('a', '1')")
    assert not file_db.in_transaction
    assert file_db.conn.execute("SELECT value FROM memory_meta WHERE key='a'").fetchone()[0] == "1"


def test_data_version_moves_when_another_connection_commits(tmp_path):
    p = _make_db(tmp_path / "memory.sqlite")
    reader = MemoryDB.open(p)
    v0 = reader.data_version()
    writer = MemoryDB.open(p, writable=True, backup_before_write=False)
    with writer.write() as c:
        c.execute("INSERT INTO memory_meta(key, value) VALUES ('x', 'y')")
    assert reader.data_version() != v0
    writer.close()
    reader.close()


def test_backup_rotation_keeps_the_newest_of_ours_and_every_one_of_the_agents(tmp_path):
    p = _make_db(tmp_path / "memory.sqlite")
    d = paths.backups_dir(p)
    d.mkdir(mode=0o700)
    for i in range(30):
        (d / f"memory-2026010{1 + i // 10}T0000{i % 10:02d}.sqlite").write_bytes(b"agent")
        (d / f"philont-desktop-memory-2026010{1 + i // 10}T0000{i % 10:02d}.sqlite").write_bytes(b"ours")
    (d / "unrelated.txt").write_text("keep me")
    db = MemoryDB.open(p)
    made = db.backup(retain=28)
    db.close()
    kept = list_backups(p)
    assert kept[0] == made
    assert len([k for k in kept if k.name.startswith("philont-desktop-")]) == 28
    assert len([k for k in kept if k.name.startswith("memory-")]) == 30
    assert (d / "unrelated.txt").exists()
    assert not any(".partial" in x.name for x in d.iterdir())


def test_two_backups_in_one_second_keep_both(tmp_path):
    p = _make_db(tmp_path / "memory.sqlite")
    db = MemoryDB.open(p)
    first = db.backup()
    second = db.backup()
    db.close()
    assert first != second
    assert first.exists() and second.exists()
    assert list_backups(p) == [second, first]


def test_stale_partial_backups_of_dead_processes_are_removed(tmp_path):
    import subprocess
    import sys

    p = _make_db(tmp_path / "memory.sqlite")
    d = paths.backups_dir(p)
    d.mkdir(mode=0o700)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead_pid = int(dead.stdout)
    stale = d / f"memory-20260101T000000.sqlite.partial-{dead_pid}-1"
    stale_journal = d / f"memory-20260101T000000.sqlite.partial-{dead_pid}-1-journal"
    alive = d / f"memory-20260101T000001.sqlite.partial-{os.getppid()}-1"
    for f in (stale, stale_journal, alive):
        f.write_bytes(b"half a copy")
    db = MemoryDB.open(p)
    made = db.backup()
    db.close()
    assert not stale.exists() and not stale_journal.exists()
    assert alive.exists()  # its process still runs: it may be writing
    assert made.exists() and stat.S_IMODE(made.stat().st_mode) == 0o600


CLOSED_PROBE = r"""
import inspect, json, sys
from core.db import MemoryDB
from core.errors import DatabaseClosedError

ARGS = {"table_exists": ("memory_notes",), "has_column": ("memory_notes", "id"), "fetch_tuples": ("SELECT 1",)}
CONSTRUCTORS = {"open", "create", "memory"}
METADATA = {"closed", "read_only", "in_transaction"}  # properties that keep answering after close()

path, kind = sys.argv[1], sys.argv[2]
db = {"file": lambda: MemoryDB.open(path), "writable": lambda: MemoryDB.open(path, writable=True),
      "memory": lambda: MemoryDB.memory()}[kind]()
db.close()
db.close()  # again: nothing
out = {}
for name in sorted(n for n in dir(MemoryDB) if not n.startswith("_")):
    attr = inspect.getattr_static(MemoryDB, name)
    if name in CONSTRUCTORS or name == "close" or name in METADATA or not (
        callable(attr) or isinstance(attr, property)
    ):
        continue
    try:
        if isinstance(attr, property):
            getattr(db, name)
        else:
            result = getattr(db, name)(*ARGS.get(name, ()))
            if hasattr(result, "__enter__"):
                with result:
                    pass
        out[name] = "no error"
    except DatabaseClosedError as exc:
        out[name] = [exc.code, exc.params["path"]]
    except Exception as exc:
        out[name] = f"{type(exc).__name__}: {exc}"
try:
    with db:
        pass
    out["with"] = "no error"
except DatabaseClosedError as exc:
    out["with"] = [exc.code, exc.params["path"]]
print(json.dumps(out))
"""


@pytest.mark.parametrize("kind", ["file", "writable", "memory"])
def test_every_public_method_of_a_closed_database_raises_one_clear_error(tmp_path, kind):
    """A closed MemoryDB never reaches the SQLite binding (``backup()`` after ``close()`` used to crash the
    process): each public method and the connection raise ``DatabaseClosedError`` (code ``db.closed``).
    Runs in a child process, so that a crash fails this test only."""
    import json
    import subprocess
    import sys

    p = _make_db(tmp_path / "memory.sqlite")
    run = subprocess.run(
        [sys.executable, "-c", CLOSED_PROBE, str(p), kind], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    where = ":memory:" if kind == "memory" else str(p)
    assert {"backup", "conn", "write", "data_version", "with"} <= set(out)
    assert out == {name: ["db.closed", where] for name in out}


_OTHER_PROCESS = """
import sys
from core.engine import sqlite3
conn = sqlite3.connect(sys.argv[1])
conn.execute("SELECT count(*) FROM memory_raw_messages").fetchone()
print("open", flush=True)
sys.stdin.readline()
conn.close()
"""


def test_a_second_look_keeps_the_locks_of_the_connections_already_open(tmp_path):
    """Opening a database this process has open again must not drop its SQLite locks: another process
    closing would then think it is the last connection, checkpoint and delete the -wal under the
    writer, whose next commits would be lost."""
    import subprocess
    import sys

    from core.timeline import RawStore

    path = tmp_path / "memory.sqlite"
    MemoryDB.create(path, now=FIXED_NOW).close()
    writer = MemoryDB.open(path, writable=True, check=False, backup_before_write=False)
    try:
        RawStore(writer).append_message("global", "user", "before", FIXED_NOW)
        env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
        other = subprocess.Popen(
            [sys.executable, "-c", _OTHER_PROCESS, str(path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        assert other.stdout.readline().strip() == "open"
        MemoryDB.open(path, check=False).close()  # a second look, as a worker thread takes one
        other.communicate("close\n", timeout=60)
        assert Path(str(path) + "-wal").exists()
        RawStore(writer).append_message("global", "user", "after", FIXED_NOW + 1)
        with MemoryDB.open(path, check=False) as look:
            texts = [r[0] for r in look.conn.execute("SELECT content FROM memory_raw_messages")]
        assert texts == ["before", "after"]
    finally:
        writer.close()
