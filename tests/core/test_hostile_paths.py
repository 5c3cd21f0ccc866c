"""Hostile paths and arguments: special files never hang or get replaced, orphan -wal/-shm are never
merged, numbers beyond range are usage errors, and every case gets a specific message."""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from core import schema
from core.cli import main
from core.db import MemoryDB
from core.engine import sqlite3
from core.errors import DatabaseOpenError, ValidationError_
from core.export import export_layer
from core.paths import expand_user, replaceable_target
from core.timeline import RawStore

REPO = Path(__file__).resolve().parents[2]
NOW = 1_781_524_800_000
posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, sockets and /dev are POSIX")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("philont-memory: error: "), err
    return lines[0]


def _db(path: Path) -> Path:
    db = MemoryDB.create(path, now=NOW)
    RawStore(db).append_message("global", "user", "hello deploy", NOW)
    db.close()
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _cli_subprocess(*argv: str) -> subprocess.CompletedProcess[str]:
    """The command line in a child with a deadline: a blocking open fails the test instead of hanging it."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "core", *argv], capture_output=True, text=True, timeout=60, env=env, cwd=REPO
    )


# -- special files as the database ----------------------------------------------------------------------------


@posix_only
def test_a_fifo_as_the_database_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "memory.sqlite"
    os.mkfifo(fifo)
    for argv in (["info"], ["search", "deploy"], ["facts"], ["check"], ["backup"]):
        proc = _cli_subprocess("--db", str(fifo), *argv)
        assert proc.returncode == 1, (argv, proc.stdout, proc.stderr)
        line = one_error(proc.stderr)
        assert "FIFO (named pipe), not a database file; it was not opened" in line
    assert fifo.is_fifo() and not (tmp_path / "backups").exists()


@posix_only
def test_sockets_devices_folders_and_links_get_specific_messages(tmp_path, capsys):
    sock_path = tmp_path / "sock"
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(sock_path))
        loop = tmp_path / "loop"
        os.symlink(tmp_path / "loop2", loop)
        os.symlink(loop, tmp_path / "loop2")
        dangling = tmp_path / "dangling"
        os.symlink(tmp_path / "nowhere.sqlite", dangling)
        afile = tmp_path / "plain"
        afile.write_text("x")
        cases = {
            str(sock_path): "This is a socket, not a database file; it was not opened.",
            "/dev/null": "This is a character device, not a database file; it was not opened.",
            str(loop): "a loop of symbolic links (a link that leads back to itself), not a file",
            str(dangling): f"a symbolic link to {tmp_path / 'nowhere.sqlite'}, which does not exist",
            str(afile / "memory.sqlite"): "a part of the path is a file, not a folder",
            str(tmp_path): "This path is a directory, not a database file.",
            "~no-such-user-here/memory.sqlite": "this machine has no user 'no-such-user-here', so it was "
            "taken as written",
        }
        for db, expected in cases.items():
            code, out, err = run(capsys, "--db", db, "info")
            assert code == 1 and out == "", db
            assert expected in one_error(err), (db, err)
    finally:
        s.close()


def test_odd_but_valid_names_open(tmp_path, capsys):
    """A '~' inside a name and a name that is not UTF-8 are names like any other."""
    tilde = _db(tmp_path / "notes~1.sqlite")
    code, out, _ = run(capsys, "--db", str(tilde), "search", "deploy")
    assert code == 0 and "hello deploy" in out
    if sys.platform.startswith("linux"):
        raw = os.fsencode(tmp_path) + b"/m\xffemory.sqlite"
        name = os.fsdecode(raw)  # as argv hands it over: a lone surrogate
        _db(Path(name))
        code, out, err = run(capsys, "--db", name, "search", "deploy")
        assert code == 0 and "hello deploy" in out, err
        code, out, err = run(capsys, "--db", name + "-missing", "info")
        assert code == 1 and "m\\udcffemory.sqlite-missing: No database file exists" in one_error(err)
        code, out, err = run(capsys, "--db", name, "--json", "info")
        assert code == 0 and "m\\udcffemory.sqlite" in out  # JSON-escaped, as JSON.stringify writes it


def test_expand_user_never_raises():
    assert expand_user("~/x") == Path(os.path.expanduser("~/x"))
    assert expand_user("~no-such-user-here/x") == Path("~no-such-user-here/x")
    assert expand_user("a~b") == Path("a~b")


# -- writing to a path a person chose ---------------------------------------------------------------------------


@posix_only
def test_export_force_replaces_only_regular_files(tmp_path, capsys):
    db = _db(tmp_path / "memory.sqlite")
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    proc = _cli_subprocess("--db", str(db), "export", "messages", str(fifo), "--force")
    assert proc.returncode == 1 and fifo.is_fifo()
    assert "names a FIFO (named pipe); only a regular file is ever replaced" in one_error(proc.stderr)
    for target, words in (("/dev/null", "a character device"), (str(tmp_path), "a folder")):
        code, _out, err = run(capsys, "--db", str(db), "export", "messages", target, "--force")
        assert code == 1 and words in one_error(err), err
    # Through a symbolic link: the file it leads to is replaced, the link stays a link.
    real = tmp_path / "real.jsonl"
    real.write_text("old\n")
    link = tmp_path / "link.jsonl"
    os.symlink(real, link)
    code, _out, err = run(capsys, "--db", str(db), "export", "messages", str(link), "--force")
    assert code == 0, err
    assert link.is_symlink() and "hello deploy" in real.read_text()
    with pytest.raises(ValidationError_) as exc:
        replaceable_target(tmp_path)
    assert exc.value.code == "path.not_replaceable" and exc.value.params["kind"] == "folder"
    db_ro = MemoryDB.open(db)
    try:
        with pytest.raises(ValidationError_):
            export_layer(db_ro, "messages", "/dev/null", "jsonl")
    finally:
        db_ro.close()


def test_a_new_database_never_merges_an_orphan_wal_or_shm(tmp_path, capsys):
    for suffix in ("-wal", "-shm"):
        target = tmp_path / suffix.strip("-") / "memory.sqlite"
        target.parent.mkdir()
        orphan = Path(str(target) + suffix)
        orphan.write_bytes(b"left by another database")
        with pytest.raises(DatabaseOpenError) as exc:
            MemoryDB.create(target)
        assert exc.value.problem == "orphan-files" and str(orphan) in str(exc.value)
        assert exc.value.code == "db.open.orphan-files"
        code, _out, err = run(capsys, "demo", "--out", str(target), "--messages", "10")
        assert code == 1 and str(orphan) in one_error(err) and "Move it away first" in err
        assert not target.exists() and orphan.read_bytes() == b"left by another database"


# -- arguments ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["search", "x", "--limit", "9223372036854775807"], "--limit: must be at most 1000000000"),
        (["search", "x", "--limit", "99999999999999999999999"], "must be at most"),
        (["forget-candidates", "--limit", "9223372036854775807"], "must be at most"),
        (["context", "x", "--recent-budget", "99999999999999999999"], "must be at most"),
        (["audit", "--limit", "99999999999999999999"], "must be at most"),
        (["undo", "99999999999999999999"], "must be at most 9223372036854775807"),
        (["--now", "253402300800000", "facts"], "outside the years 0000 to 9999"),
        (["--now", "10000-01-01", "facts"], "outside the years 0000 to 9999"),
        (["--now", "99999999999999999999", "facts"], "outside the years 0000 to 9999"),
        (
            ["search", "x", "--since", "99999999999999999999999"],
            "--since: '99999999999999999999999' is outside",
        ),
        (["demo", "--out", "{tmp}/d.sqlite", "--messages", "1e20"], "not an integer: '1e20'"),
        (
            ["demo", "--out", "{tmp}/d.sqlite", "--messages", "100000000000000000000"],
            "must be at most 10000000",
        ),
    ],
)
def test_numbers_beyond_range_are_usage_errors(tmp_path, capsys, argv, words):
    db = _db(tmp_path / "memory.sqlite")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = run(capsys, "--db", str(db), *argv)
    assert code == 2 and out == ""
    assert words in one_error(err), err
    assert not (tmp_path / "d.sqlite").exists()


def test_now_is_for_reading(tmp_path, capsys):
    db = _db(tmp_path / "memory.sqlite")
    before = _digest(db)
    for argv in (
        ["tool", "store_fact", '{"namespace":"user","key":"k","value":1}', "--write"],
        ["undo", "1"],
        ["task", "disable", "x"],
        ["event", "delete", "x"],
        ["restore", "memory-20260101T000000.sqlite", "--yes"],
    ):
        code, out, err = run(capsys, "--db", str(db), "--now", str(NOW), *argv)
        assert code == 2 and out == "", argv
        assert "--now is for reading: a write records the current time" in one_error(err)
    assert _digest(db) == before and not (tmp_path / "backups").exists()


def test_a_write_tool_refuses_text_sqlite_cannot_store_before_writing_anything(tmp_path, capsys):
    db = _db(tmp_path / "memory.sqlite")
    before = _digest(db)
    code, out, err = run(
        capsys,
        "--db",
        str(db),
        "tool",
        "store_fact",
        '{"namespace":"user","key":"k\udcff","value":1}',
        "--write",
    )
    assert code == 1 and out == ""
    assert "key holds text that is not valid Unicode (a lone surrogate" in one_error(err)
    assert "nothing was written" in err
    assert _digest(db) == before and not (tmp_path / "backups").exists()
    # In a JSON value the surrogate is escaped (as JSON.stringify does): stored, and printed visibly.
    code, out, err = run(
        capsys,
        "--db",
        str(db),
        "tool",
        "store_fact",
        '{"namespace":"user","key":"k","value":"v\ud800"}',
        "--write",
    )
    assert code == 0 and out.startswith("Stored user.k "), err
    code, out, err = run(capsys, "--db", str(db), "tool", "get_fact", '{"namespace":"user","key":"k"}')
    assert code == 0 and out.startswith('"v\\ud800" '), out  # JSON.stringify's escape


def test_check_counts_index_and_content_in_one_snapshot(tmp_path, capsys):
    """A writer committing between the index count and the content count must not be reported as
    an inconsistency: the counts come from one read transaction."""
    path = _db(tmp_path / "memory.sqlite")
    writer = sqlite3.connect(str(path), isolation_level=None)
    db = MemoryDB.open(path)
    wrote: list[str] = []

    def between(statement: str) -> None:
        if "memory_raw_messages_fts_docsize" in statement and not wrote:
            wrote.append(statement)
            writer.execute(
                "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) "
                "VALUES ('global', 'user', 'written meanwhile', 1)"
            )

    try:
        db.conn.set_trace_callback(between)
        with db.read_snapshot() as conn:
            problems = schema.fts_consistency(conn)
        db.conn.set_trace_callback(None)
        assert wrote and problems == []
        assert schema.fts_consistency(db.conn) == []  # and afterwards, the new row is indexed
    finally:
        db.close()
        writer.close()
