"""A restore while the agent writes through a connection per write (no lock held between writes, no
``-wal`` left after each): it is refused, nothing is restored and no backup is written."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from core.backups import AgentRunningError, list_backups, restore_backup
from core.db import MemoryDB
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
