"""``backups/`` belongs to the agent: this project's backups never enter its rotation, never delete one of
its backups, and a run of writes takes one backup, not one per write."""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core.backups import backup_file_name, backup_owner, list_backups, recent_own_backup, restore_backup
from core.cli import main
from core.db import MemoryDB
from core.engine import sqlite3
from core.paths import backups_dir

AGENT_PATTERN = "memory-*.sqlite"  # the names the agent's rotation counts and deletes (spec decision 10)


@pytest.fixture
def db_copy(demo_db_path, tmp_path) -> Path:
    dest = tmp_path / "memory" / "memory.sqlite"
    dest.parent.mkdir(mode=0o700)
    shutil.copyfile(demo_db_path, dest)
    os.chmod(dest, 0o600)
    return dest


def _agent_week(db: Path) -> dict[Path, bytes]:
    """28 backups as the agent's BackupRunner leaves them: every 6 hours for a week."""
    d = backups_dir(db)
    d.mkdir(mode=0o700, exist_ok=True)
    start = datetime(2026, 6, 1, tzinfo=UTC)
    made = {}
    for i in range(28):
        p = d / f"memory-{(start + timedelta(hours=6 * i)).strftime('%Y%m%dT%H%M%S')}.sqlite"
        shutil.copyfile(db, p)
        made[p] = p.read_bytes()
    return made


def _task(db: Path) -> str:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return str(conn.execute("SELECT id FROM memory_schedules WHERE enabled = 1 LIMIT 1").fetchone()[0])
    finally:
        conn.close()


def _cli_json(capsys, db: Path, *argv: str) -> dict:
    code = main(["--db", str(db), "--json", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def _ours(db: Path) -> list[Path]:
    return [p for p in list_backups(db) if backup_owner(p.name) == "philont-desktop"]


def test_a_run_of_cli_writes_keeps_the_agents_week_and_takes_one_backup(capsys, db_copy):
    week = _agent_week(db_copy)
    task = _task(db_copy)
    reused = []
    for i in range(30):  # more writes than the agent keeps backups
        res = _cli_json(capsys, db_copy, "task", "disable" if i % 2 == 0 else "enable", task)
        reused.append(res["backup_reused"])
    _cli_json(
        capsys, db_copy, "tool", "store_fact", '{"namespace":"user","key":"tea","value":"green"}', "--write"
    )
    _cli_json(capsys, db_copy, "undo", "31")
    assert all(p.read_bytes() == content for p, content in week.items())  # every one, byte for byte
    ours = _ours(db_copy)
    assert len(ours) == 1 and reused == [False] + [True] * 29
    assert not fnmatch.fnmatch(ours[0].name, AGENT_PATTERN)


def test_the_agents_rotation_never_counts_or_deletes_ours(capsys, db_copy):
    """What the agent's BackupRunner does next (sort ``memory-*.sqlite`` descending, keep 28) leaves every
    backup this project wrote: the CLI's, ``backup``'s and a restore's safety backup."""
    week = _agent_week(db_copy)
    _cli_json(capsys, db_copy, "task", "disable", _task(db_copy))
    explicit = Path(_cli_json(capsys, db_copy, "backup")["backup"])
    safety = restore_backup(db_copy, explicit, agent_running_check=False).safety_backup
    assert safety is not None
    d = backups_dir(db_copy)
    counted = sorted((p for p in d.iterdir() if fnmatch.fnmatch(p.name, AGENT_PATTERN)), reverse=True)
    assert sorted(counted) == sorted(week)  # the agent still sees its own 28, nothing of ours
    ours = _ours(db_copy)
    assert explicit in ours and safety in ours and len(ours) == 3
    listed = _cli_json(capsys, db_copy, "backups", "--no-check")["backups"]
    assert {r["owner"] for r in listed if r["name"].startswith("memory-")} == {"agent"}
    assert {r["owner"] for r in listed if r["name"].startswith("philont-desktop-")} == {"philont-desktop"}


def test_a_write_after_the_run_window_takes_a_new_backup(capsys, db_copy):
    task = _task(db_copy)
    first = Path(_cli_json(capsys, db_copy, "task", "disable", task)["backup"])
    # The same backup an hour old: the next write starts a new run of edits.
    old = first.with_name(backup_file_name(datetime.now(UTC) - timedelta(hours=1)))
    first.rename(old)
    assert recent_own_backup(db_copy) is None
    res = _cli_json(capsys, db_copy, "task", "enable", task)
    assert res["backup_reused"] is False and Path(res["backup"]) != old
    assert sorted(_ours(db_copy)) == sorted([old, Path(res["backup"])])


def test_a_backup_of_another_database_does_not_cover_this_one(capsys, db_copy):
    other = db_copy.with_name("other.sqlite")
    shutil.copyfile(db_copy, other)
    with MemoryDB.open(other) as db:
        theirs = db.backup()
    res = _cli_json(capsys, db_copy, "task", "disable", _task(db_copy))
    assert res["backup_reused"] is False and Path(res["backup"]) != theirs
    assert Path(res["backup"]).name.startswith("philont-desktop-memory-")
    assert theirs.name.startswith("philont-desktop-other-") and theirs.exists()


def test_rotation_keeps_the_newest_28_of_ours_only(db_copy):
    week = _agent_week(db_copy)
    d = backups_dir(db_copy)
    start = datetime(2026, 5, 1, tzinfo=UTC)
    for i in range(30):
        (d / backup_file_name(start + timedelta(minutes=i))).write_bytes(b"an old one of ours")
    with MemoryDB.open(db_copy) as db:
        made = db.backup()
    ours = _ours(db_copy)
    assert len(ours) == 28 and ours[0] == made
    assert all(p.read_bytes() == content for p, content in week.items())


def test_a_damaged_recent_backup_does_not_cover_the_run(capsys, db_copy):
    task = _task(db_copy)
    first = Path(_cli_json(capsys, db_copy, "task", "disable", task)["backup"])
    first.write_bytes(first.read_bytes()[:8192])  # cut short since
    res = _cli_json(capsys, db_copy, "task", "enable", task)
    assert res["backup_reused"] is False and Path(res["backup"]) != first
