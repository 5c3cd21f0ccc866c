"""Restoring a backup over a live file damaged in each way the open path recognises, through the core and
the command line: the damaged files are kept byte for byte, the result passes ``check``, opens writable
and its audit trail says what happened; a restore never runs beside another process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.backups import AgentRunningError, list_backups, restore_backup
from core.cli import main
from core.db import MemoryDB
from core.errors import DatabaseOpenError, ValidationError_
from tests.damage import KINDS, add_notes, damage, files, make_memory, notes

PROBLEM = {
    "not-sqlite": "not-sqlite",
    "empty": "empty",
    "truncated": "truncated",
    "corrupt-page": "corrupt",
    "corrupt-schema": "corrupt",
    "missing": "missing",
    "orphan-wal": "missing",
    "stale-wal": "corrupt",
}
A_NOTES = [f"A {i:03d} " + "x" * 200 for i in range(200)]


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def live(tmp_path) -> Path:
    return tmp_path / "memory" / "memory.sqlite"


def _kept(result_damaged: list[str], live: Path) -> dict[str, bytes]:
    """The moved-aside files as suffix -> bytes (``damaged-<time>-memory.sqlite<suffix>``)."""
    out = {}
    for p in map(Path, result_damaged):
        assert p.parent == live.parent / "backups" and p.name.startswith("damaged-")
        suffix = p.name.split(live.name, 1)[1]
        out[suffix] = p.read_bytes()
    return out


def _assert_sound_and_writable(live: Path) -> None:
    with MemoryDB.open(live, writable=True) as db:
        assert db.report.writable and db.report.quick_check == "ok"
        assert db.report.journal_mode == "wal"
    assert notes(live) == A_NOTES
    assert sorted(p.name for p in live.parent.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [
        "backups",
        "memory.sqlite",
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_cli_restore_over_each_kind_of_damage(capsys, live, kind):
    backup = make_memory(live)
    backup_bytes = backup.read_bytes()
    before = damage(live, kind)
    code, out, err = cli(capsys, "--db", live, "--json", "restore", backup.name, "--yes")
    assert code == 0, err
    res = json.loads(out)
    assert res["problem"] == PROBLEM[kind] and res["safety_backup"] is None
    assert _kept(res["damaged"], live) == before  # every damaged file, byte for byte (none for "missing")
    assert sorted(p.name for p in live.parent.iterdir()) == ["backups", "memory.sqlite"]
    assert oct(live.stat().st_mode & 0o777) == "0o600"
    code, out, err = cli(capsys, "--db", live, "check")
    assert code == 0 and out.splitlines()[-1] == "ok", out + err
    _assert_sound_and_writable(live)
    # The audit trail says what happened, in the restored file itself.
    code, out, err = cli(capsys, "--db", live, "--json", "audit")
    entry = json.loads(out)["entries"][0]
    assert (entry["id"], entry["action"], entry["targetType"]) == (
        res["audit_id"],
        "database.restore",
        "database",
    )
    assert entry["before"]["problem"] == PROBLEM[kind]
    assert entry["before"]["keptAs"] == res["damaged"]
    assert entry["after"]["restoredFrom"] == str(backup)
    # The backup itself was only read, and nothing appeared beside it.
    assert backup.read_bytes() == backup_bytes
    assert not [p for p in backup.parent.iterdir() if p.name.startswith(backup.name + "-")]


def test_cli_text_says_where_the_damaged_file_went(capsys, live):
    backup = make_memory(live)
    damage(live, "stale-wal")
    code, out, err = cli(capsys, "--db", live, "restore", str(backup), "--yes")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"restored {live} from {backup}"
    kept = next(
        p
        for p in (live.parent / "backups").iterdir()
        if p.name.startswith("damaged-") and p.suffix == ".sqlite"
    )
    assert lines[1] == f"the damaged file (corrupt) was moved, unchanged, to {kept} (with its -wal, -shm)"
    assert lines[2].startswith("audit entry #")


def test_the_advice_of_the_open_error_works(capsys, live):
    """What issue 19 tried: `info` names the newest good backup; restoring it with --yes succeeds."""
    make_memory(live)
    damage(live, "not-sqlite")
    code, out, err = cli(capsys, "--db", live, "info")
    assert code == 1 and out == ""
    named = err.split("The newest backup that passes quick_check is ")[1].split(" (written by this app).")[0]
    code, out, err = cli(capsys, "--db", live, "restore", named, "--yes")
    assert code == 0 and out.startswith("restored"), err
    code, _, err = cli(capsys, "--db", live, "info")
    assert code == 0, err


def test_restore_over_a_sound_file_backs_it_up_and_audits(live):
    backup = make_memory(live)
    add_notes(live, ["B after the backup"])
    result = restore_backup(live, backup)
    assert result.problem is None and result.damaged == ()
    assert result.safety_backup is not None and "B after the backup" in notes(result.safety_backup)
    _assert_sound_and_writable(live)
    with MemoryDB.open(live) as db:
        from core.audit import list_entries

        entry = list_entries(db, limit=1)[0]
    assert entry.id == result.audit_id and entry.action == "database.restore"
    assert entry.before["state"] == "replaced" and entry.before["keptAs"] == [str(result.safety_backup)]


def test_a_damaged_file_held_by_another_process_is_not_moved(live):
    backup = make_memory(live)
    before = damage(live, "corrupt-page")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            f"c = sqlite3.connect({str(live)!r})\n"
            "c.execute('SELECT value FROM memory_meta').fetchall()\n"
            "print('ready', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(AgentRunningError) as ei:
            restore_backup(live, backup, wal_recent_s=0)
        assert ei.value.code == "restore.agent_running" and ei.value.params["reason"] == "locked"
        assert files(live)[""] == before[""]  # (the holder itself made a -wal and -shm)
        assert not [p for p in (live.parent / "backups").iterdir() if p.name.startswith("damaged-")]
    finally:
        holder.stdin.close()
        holder.wait(10)


def test_a_recently_written_wal_refuses_the_restore(live):
    backup = make_memory(live)
    damage(live, "orphan-wal")
    os.utime(str(live) + "-wal")  # written just now: the agent may be running
    with pytest.raises(AgentRunningError) as ei:
        restore_backup(live, backup)
    assert ei.value.params["reason"] == "wal_recent"
    assert not live.exists() and Path(str(live) + "-wal").exists()


def test_a_directory_at_the_live_path_is_refused(live, tmp_path):
    backup = make_memory(live)
    live.unlink()
    live.mkdir()
    with pytest.raises(ValidationError_) as ei:
        restore_backup(live, backup)
    assert ei.value.code == "restore.live_not_regular" and ei.value.params["kind"] == "directory"
    assert live.is_dir()


def test_restore_into_a_missing_directory(tmp_path):
    src = tmp_path / "old" / "memory.sqlite"
    backup = make_memory(src)
    live = tmp_path / "new" / "memory.sqlite"
    result = restore_backup(live, backup)
    assert result.problem == "missing" and notes(live) == A_NOTES
    assert oct(live.parent.stat().st_mode & 0o777) == "0o700"


def test_after_a_restore_the_open_error_is_gone_and_backups_are_listed(live):
    make_memory(live)
    damage(live, "truncated")
    with pytest.raises(DatabaseOpenError) as ei:
        MemoryDB.open(live)
    restore_backup(live, ei.value.backup)
    assert notes(live) == A_NOTES
    # The damaged copy is kept, but never counted (or rotated) as a backup.
    assert [p.name for p in list_backups(live)] == [ei.value.backup.name]
