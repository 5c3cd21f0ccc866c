"""SIGKILL in the middle of a privacy purge, at moments spread over it: the purge is one transaction per file, so
after every kill the database passes ``integrity_check`` and each full-text table's integrity check
against its content, and its planted rows are either all redacted or all as they were, never some."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from core.engine import sqlite3
from tests.reliability.helpers import child_env, python

PLANTED = 300
FTS = ("memory_raw_messages_fts", "memory_notes_fts", "memory_skills_fts")

CHILD = """
import sys
from core.engine import sqlite3
from core.privacy.finding import PrivacyFinding
from core.privacy.purge import plan, purge

path = sys.argv[1]
conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
rows = conn.execute("SELECT id, content FROM memory_raw_messages WHERE content LIKE 'key sk-kill-%'").fetchall()
conn.close()
found = [
    PrivacyFinding(f"k{i}", "secret.token", "secret", "messages", "memory_raw_messages", i, "content", 4,
                   len(text), "sk…", 0.9)
    for i, text in rows
]
p = plan(path, found)
print("planned", len(p.targets), flush=True)
purge(path, p, vacuum=True, wal_recent_s=0, observe_s=0)
print("done", flush=True)
"""


def _plant(path: Path) -> None:
    conn = sqlite3.connect(str(path))
    with conn:
        for i in range(PLANTED):
            conn.execute(
                "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('global', 'user', ?, ?)",
                (f"key sk-kill-{i:04d}-Zq8Lm2Xw8Rv7Pn3Hy6Jd", 1_781_524_800_000 + i),
            )
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def _state(path: Path) -> tuple[int, int]:
    """``(still planted, redacted)`` after the file passed every integrity check."""
    conn = sqlite3.connect(str(path))
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for fts in FTS:
            conn.execute(f"INSERT INTO {fts}({fts}, rank) VALUES('integrity-check', 1)")
        conn.rollback()
        planted = conn.execute(
            "SELECT count(*) FROM memory_raw_messages WHERE content LIKE 'key sk-kill-%'"
        ).fetchone()[0]
        redacted = conn.execute(
            "SELECT count(*) FROM memory_raw_messages WHERE content = 'key [redacted: secret.token]'"
        ).fetchone()[0]
        return planted, redacted
    finally:
        conn.close()


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL")
def test_a_purge_killed_at_any_moment_leaves_each_file_whole_and_all_or_nothing(live_copy):
    # Kill moments spread over the purge (2 to 4 s on the small demo on a busy 2-core machine): before,
    # inside and after its transaction, and during the VACUUM that follows it.
    before = 0
    for delay in (0.05, 0.4, 0.8, 1.2, 1.8, 2.5, 3.5, 8.0):
        _plant(live_copy)
        child = subprocess.Popen(
            [python(), "-c", CHILD, str(live_copy)], stdout=subprocess.PIPE, text=True, env=child_env()
        )
        assert child.stdout is not None
        assert child.stdout.readline().startswith("planned")
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.wait(30)
        planted, redacted = _state(live_copy)
        # all or nothing: this round's rows are all still there, or all redacted
        assert (planted, redacted - before) in ((PLANTED, 0), (0, PLANTED)), (delay, planted, redacted)
        before = redacted
        if planted:  # this round's purge did not commit: clear the rows for the next round
            conn = sqlite3.connect(str(live_copy))
            with conn:
                conn.execute("DELETE FROM memory_raw_messages WHERE content LIKE 'key sk-kill-%'")
            conn.close()
