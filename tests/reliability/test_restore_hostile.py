"""Restores in hostile moments: while the agent writes through a connection per write (no lock held
between writes, no ``-wal`` left after each) it is refused, nothing is restored and no backup is
written; killed in the middle of copying a backup in, it leaves the live file as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from core.backups import AgentRunningError, header_journal, list_backups, restore_backup
from core.db import MemoryDB
from core.engine import sqlite3
from tests.reliability.helpers import HERE, REPO, child_env, python


def _start_agent(db: Path, out: Path, ready: Path, seconds: float) -> subprocess.Popen:
    args = [python(), str(HERE / "agent_sim.py"), "--db", str(db), "--seconds", str(seconds)]
    args += ["--rate", "5", "--out", str(out), "--ready", str(ready), "--connection-per-write"]
    return subprocess.Popen(
        args, cwd=REPO, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def _messages(path: Path) -> int:
    with MemoryDB.open(path) as db:
        return int(db.conn.execute("SELECT count(*) FROM memory_raw_messages").fetchone()[0])


def test_a_restore_is_refused_while_the_agent_writes_a_connection_at_a_time(live_copy, tmp_path):
    with MemoryDB.open(live_copy) as db:
        backup = db.backup()
    backups = list_backups(live_copy)
    out, ready = tmp_path / "agent.json", tmp_path / "ready"
    agent = _start_agent(live_copy, out, ready, seconds=8)
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert agent.poll() is None, agent.stdout.read() if agent.stdout else ""
            assert time.monotonic() < deadline, "the agent did not start"
            time.sleep(0.05)
        refusals = []
        for _ in range(3):  # every attempt, not a lucky one
            with pytest.raises(AgentRunningError) as ei:
                restore_backup(live_copy, backup)
            refusals.append(ei.value.params["reason"])
        assert "Nothing was changed." in ei.value.message
        agent.wait(60)
    finally:
        if agent.poll() is None:
            agent.terminate()
            agent.wait(60)
    assert set(refusals) <= {"written", "wal_recent", "locked"}
    assert list_backups(live_copy) == backups  # no safety backup: the restore never began
    result = json.loads(out.read_text())
    assert result["writes"] > 0 and result["errors"] == []  # the agent never noticed
    assert _messages(live_copy) > _messages(backup)  # the agent's writes are there, not the backup's state


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("page_size", [None, 8192], ids=["this-apps-backup", "agents-other-page-size"])
def test_a_restore_killed_while_copying_leaves_the_live_file_as_it_was(live_copy, tmp_path, page_size):
    """The process dies (SIGKILL) after the first pages of the backup went in: the live file keeps its
    bytes and WAL mode, no hot journal is left, and a read-only tool opens it."""
    with MemoryDB.open(live_copy) as db:
        backup = db.backup()  # this app's: a rollback-journal copy
        if page_size:
            agents = backup.with_name("memory-20260601T000000.sqlite")
            dst = sqlite3.connect(str(agents))
            db.conn.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
            dst.execute(f"PRAGMA page_size={page_size}")
            dst.execute("VACUUM")
            dst.execute("PRAGMA journal_mode=WAL")
            dst.close()
            for s in ("-wal", "-shm"):
                Path(str(agents) + s).unlink(missing_ok=True)
            backup = agents
    check = sqlite3.connect(f"file:{backup}?mode=ro&immutable=1", uri=True)
    assert check.execute("PRAGMA page_size").fetchone()[0] == (page_size or 4096)
    check.close()
    with MemoryDB.open(live_copy, writable=True, backup_before_write=False) as db, db.write() as conn:
        conn.execute("DELETE FROM memory_raw_messages WHERE id % 2 = 0")  # the live file differs from it
    for s in ("-wal", "-shm"):
        assert not Path(str(live_copy) + s).exists()
    before = live_copy.read_bytes()
    script = textwrap.dedent(
        f"""
        import os, signal
        from core.backups import restore_backup
        def die(done, total):
            os.kill(os.getpid(), signal.SIGKILL)
        restore_backup({str(live_copy)!r}, {str(backup)!r}, agent_running_check=False, progress=die)
        """
    )
    done = subprocess.run(
        [python(), "-c", script], cwd=REPO, env=child_env(), capture_output=True, timeout=120
    )
    assert done.returncode == -9, done.stderr
    assert live_copy.read_bytes() == before
    assert header_journal(live_copy) == "wal"
    assert not os.path.exists(str(live_copy) + "-journal")
    conn = sqlite3.connect(f"file:{live_copy}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    finally:
        conn.close()
