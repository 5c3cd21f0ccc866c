"""SIGKILL in the middle of a curation write and of a backup, many times, at random moments.

A child process (forked from a server that imported the core once) makes audited edits, or backups, in
a loop through the core APIs the app uses; the test kills it with SIGKILL after a random delay. After
every kill: ``integrity_check`` is ok, every edit the child reported as committed is there, no edit is
half there (each audit row and its data change are both present or both absent), and no file under
a backup name (``philont-desktop-<database>-YYYYMMDDTHHmmss.sqlite``) is incomplete (temporary
``.partial-*`` files may remain).
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from core.audit import AUDIT_TABLE
from core.backups import BACKUP_NAME_RE, list_backups
from core.backups import check_backup_file as check_backup
from core.db import MemoryDB
from core.paths import backups_dir
from tests.reliability import kill_child
from tests.reliability.helpers import integrity

KILLS = int(os.environ.get("PHILONT_KILLS", "20"))
PARTIAL_RE = re.compile(
    r"^(?:memory|philont-desktop-.+)-\d{8}T\d{6}\.sqlite\.partial-\d+-\d+(-journal|-wal|-shm)?$"
)
READY_TIMEOUT_S = 30.0


@pytest.fixture(scope="module")
def forks():
    """A multiprocessing context whose children start from a server that already imported the core."""
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["tests.reliability.kill_child"])
    return ctx


def _lines(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def _run_and_kill(
    forks, target, args: tuple[Any, ...], log: Path, delay_s: float, after: str = "ready"
) -> list[str]:
    """Start ``target`` in a child, let it work ``delay_s`` after it logged ``after``, SIGKILL it."""
    proc = forks.Process(target=target, args=args, daemon=True)
    proc.start()
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while after not in _lines(log) and proc.is_alive() and time.monotonic() < deadline:
            time.sleep(0.002)
        assert after in _lines(log), f"the child did not start (exit code {proc.exitcode})"
        time.sleep(delay_s)
        assert proc.is_alive(), f"the child stopped by itself (exit code {proc.exitcode}): {_lines(log)[-3:]}"
        proc.kill()
        proc.join(timeout=30)
        assert proc.exitcode == -9
    finally:
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=30)
    return _lines(log)


# -- curation --------------------------------------------------------------------------------------------


def _audit_rows(conn) -> list[dict[str, Any]]:
    rows = conn.execute(
        f"SELECT id, action, target_type, target_id, after_json FROM {AUDIT_TABLE} WHERE actor = ? ORDER BY id",
        (kill_child.ACTOR,),
    ).fetchall()
    return [
        {
            "id": r["id"],
            "action": r["action"],
            "target_id": r["target_id"],
            "after": json.loads(r["after_json"]) if r["after_json"] else None,
        }
        for r in rows
    ]


def _check_curation(path: Path, lines: list[str], note_ids: list[str], originals: dict[str, Any]) -> int:
    """Every check of one kill; returns how many edits are in the trail."""
    assert integrity(path) == "ok"
    db = MemoryDB.open(path)
    try:
        conn = db.conn
        audit = _audit_rows(conn)
        ids = {a["id"] for a in audit}
        committed = {int(x.split()[1]) for x in lines if x.startswith("committed ")}
        assert committed <= ids, f"committed edits missing after the kill: {sorted(committed - ids)}"

        # facts.add: every version row has its audit row and vice versa; each chain has one head.
        fact_rows = conn.execute(
            "SELECT id, key, superseded_by, supersedes FROM memory_facts WHERE namespace = ?",
            (kill_child.KILL_NAMESPACE,),
        ).fetchall()
        audited_facts = {a["target_id"] for a in audit if a["action"] == "facts.add"}
        assert {r["id"] for r in fact_rows} == audited_facts
        by_id = {r["id"]: r for r in fact_rows}
        for key in {r["key"] for r in fact_rows}:
            heads = [r for r in fact_rows if r["key"] == key and r["superseded_by"] is None]
            assert len(heads) == 1, f"{key}: {len(heads)} heads"
        for r in fact_rows:
            if r["superseded_by"] is not None:
                assert by_id[r["superseded_by"]]["supersedes"] == r["id"]

        # notes.add: every added note has its audit row and vice versa.
        added = conn.execute(
            "SELECT id FROM memory_notes WHERE content LIKE ?", (kill_child.ADD_PREFIX + " %",)
        ).fetchall()
        assert {r["id"] for r in added} == {a["target_id"] for a in audit if a["action"] == "notes.add"}

        # notes.update (and its undos): the text is what the newest audit row of the note says.
        for nid in note_ids:
            content = conn.execute("SELECT content FROM memory_notes WHERE id = ?", (nid,)).fetchone()[0]
            steps = [a for a in audit if a["target_id"] == nid]
            want = steps[-1]["after"]["content"] if steps else originals[nid]
            assert content == want, f"note {nid}: text and audit trail disagree"

        # skills.update: the description is what the newest audit row says.
        skill_id = originals["skill_id"]
        desc = conn.execute("SELECT description FROM memory_skills WHERE id = ?", (skill_id,)).fetchone()[0]
        steps = [a for a in audit if a["target_id"] == skill_id]
        want = steps[-1]["after"]["description"] if steps else originals["skill_description"]
        assert desc == want, "skill description and audit trail disagree"
        return len(audit)
    finally:
        db.close()


@pytest.mark.slow
def test_sigkill_during_curation_never_leaves_a_half_edit(forks, live_copy, tmp_path):
    db = MemoryDB.open(live_copy, writable=True, backup_before_write=False)
    try:
        db.ensure_writable_schema()
        notes = db.conn.execute("SELECT id, content FROM memory_notes ORDER BY id LIMIT 3").fetchall()
        skill = db.conn.execute(
            "SELECT id, name, description FROM memory_skills ORDER BY name LIMIT 1"
        ).fetchone()
    finally:
        db.close()
    note_ids = [r["id"] for r in notes]
    originals: dict[str, Any] = {r["id"]: r["content"] for r in notes}
    originals.update(skill_id=skill["id"], skill_description=skill["description"])
    rng = random.Random(20261129)
    trail = 0
    mid_edit = 0
    for round_ in range(KILLS):
        log = tmp_path / f"curation-{round_}.log"
        lines = _run_and_kill(
            forks,
            kill_child.curation_loop,
            (str(live_copy), str(log), round_, note_ids, skill["name"]),
            log,
            rng.uniform(0.02, 0.35),
        )
        if lines and lines[-1].startswith("begin "):
            mid_edit += 1
        n = _check_curation(live_copy, lines, note_ids, originals)
        assert n >= trail  # nothing committed earlier was lost
        trail = n
    assert trail > KILLS  # the children did edit between the kills
    assert mid_edit >= KILLS // 4, f"only {mid_edit} of {KILLS} kills hit an edit in progress"


# -- backups ---------------------------------------------------------------------------------------------


def _check_backups(path: Path, messages: int, checked: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """(complete backups, leftover partial files); fails on any other file or a bad backup.

    ``checked`` remembers (size, mtime) of the backups already verified, so each is read once.
    """
    good = partial = 0
    for p in sorted(backups_dir(path).iterdir()):
        if BACKUP_NAME_RE.match(p.name):
            st = p.stat()
            if checked.get(p.name) == (st.st_size, st.st_mtime_ns):
                good += 1
                continue
            checked[p.name] = (st.st_size, st.st_mtime_ns)
            assert check_backup(p) == "ok", f"{p.name} is incomplete"
            b = MemoryDB.open(p, check=False)
            try:
                n = b.conn.execute("SELECT count(*) FROM memory_raw_messages").fetchone()[0]
            finally:
                b.close()
            assert n == messages, f"{p.name} holds {n} messages, not {messages}"
            good += 1
        elif PARTIAL_RE.match(p.name):
            partial += 1
        else:
            pytest.fail(f"unexpected file in backups/: {p.name}")
    assert [p.name for p in list_backups(path)] == sorted(
        (p.name for p in backups_dir(path).iterdir() if BACKUP_NAME_RE.match(p.name)), reverse=True
    )
    return good, partial


@pytest.mark.slow
def test_sigkill_during_backup_never_leaves_a_partial_file_under_the_backup_name(forks, live_copy, tmp_path):
    db = MemoryDB.open(live_copy)
    try:
        messages = db.conn.execute("SELECT count(*) FROM memory_raw_messages").fetchone()[0]
        # How long one backup takes here: the kills land within that time after a backup starts.
        took = []
        for i in range(3):  # each into a folder of its own: no wait for a free second's name
            t = time.monotonic()
            db.backup(tmp_path / f"probe-{i}")
            took.append(time.monotonic() - t)
    finally:
        db.close()
    window = max(0.005, 0.9 * sorted(took)[1])
    before = live_copy.read_bytes()
    rng = random.Random(1129)
    mid_backup = 0
    checked: dict[str, tuple[int, int]] = {}
    for round_ in range(KILLS):
        log = tmp_path / f"backup-{round_}.log"
        lines = _run_and_kill(
            forks,
            kill_child.backup_loop,
            (str(live_copy), str(log), round_),
            log,
            rng.uniform(0.0, window),
            after="start 1",
        )
        if lines and lines[-1] == "start 1":
            mid_backup += 1
        _check_backups(live_copy, messages, checked)
        assert integrity(live_copy) == "ok"
    assert live_copy.read_bytes() == before  # backing up never wrote to the database
    assert mid_backup >= KILLS // 4, f"only {mid_backup} of {KILLS} kills hit a backup in progress"
    # The next backup after all those kills is complete, and leftovers never count as backups.
    db = MemoryDB.open(live_copy)
    try:
        fresh = db.backup(retain=1000)
    finally:
        db.close()
    assert check_backup(fresh) == "ok"
    good, _partial = _check_backups(live_copy, messages, checked)
    assert good >= 1 and fresh in list_backups(live_copy)


# -- a writer killed in the middle of a checkpoint -----------------------------------------------------------


def _newest_page_one(wal: bytes, page_size: int) -> bytes:
    """The last copy of page 1 in a -wal file (32-byte header, then 24-byte frame headers + pages)."""
    found = None
    pos = 32
    while pos + 24 + page_size <= len(wal):
        if int.from_bytes(wal[pos : pos + 4], "big") == 1:
            found = wal[pos + 24 : pos + 24 + page_size]
        pos += 24 + page_size
    assert found is not None, "page 1 is not in the -wal"
    return found


def test_a_file_left_by_a_writer_killed_mid_checkpoint_opens(tmp_path):
    """A checkpoint copies page 1 (holding the new page count) before the pages that extend the file.
    Killed in between, the agent leaves a main file shorter than its header says while every page is
    still in the -wal: the database is whole (SQLite reads it, quick_check ok) and must open, not be
    refused as truncated. Without its -wal the same short file is a truncation."""
    from core import cli
    from core.db import check_file_header
    from core.errors import DatabaseOpenError
    from core.notes import NotesStore

    src = tmp_path / "agent" / "memory.sqlite"
    db = MemoryDB.create(src)
    try:
        db.conn.execute("PRAGMA wal_autocheckpoint=0")
        notes = NotesStore(db)
        for i in range(300):  # grow the database by many pages, all of them in the -wal
            notes.upsert(f"n{i}", f"note {i} " + "z" * 2000)
        # The crash image: the main file and the -wal as they are while the writer still runs.
        crashed = tmp_path / "crashed" / "memory.sqlite"
        crashed.parent.mkdir()
        main = bytearray(src.read_bytes())
        wal = Path(str(src) + "-wal").read_bytes()
    finally:
        db.close()
    page_size = int.from_bytes(main[16:18], "big")
    main[:page_size] = _newest_page_one(wal, page_size)  # the checkpoint's first write, then the kill
    crashed.write_bytes(bytes(main))
    Path(str(crashed) + "-wal").write_bytes(wal)
    declared = int.from_bytes(main[28:32], "big")
    assert len(main) < declared * page_size  # shorter than its header says

    opened = MemoryDB.open(crashed, check=True)
    try:
        assert opened.report.quick_check == "ok"
        assert opened.conn.execute("SELECT count(*) FROM memory_notes").fetchone()[0] == 300
    finally:
        opened.close()
    assert cli.main(["--db", str(crashed), "info"]) == 0

    Path(str(crashed) + "-wal").unlink()
    Path(str(crashed) + "-shm").unlink(missing_ok=True)
    with pytest.raises(DatabaseOpenError) as err:
        check_file_header(crashed)
    assert err.value.problem == "truncated"


def test_a_demo_run_killed_midway_leaves_files_the_next_run_removes(tmp_path):
    """SIGKILL a demo generation while it writes: its ``.partial-<pid>`` files remain (nothing at the
    target). The next run for the same path removes them; a partial file of a process that still runs
    is left alone."""
    import signal
    import subprocess

    from core.demo import generate
    from tests.reliability.helpers import REPO, child_env, python

    target = tmp_path / "demo" / "memory.sqlite"
    target.parent.mkdir()
    proc = subprocess.Popen(
        [python(), "-m", "core", "demo", "--out", str(target), "--messages", "400000"],
        cwd=REPO,
        env=child_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    partial = target.with_name(f".{target.name}.partial-{proc.pid}")
    try:
        deadline = time.monotonic() + 60
        while (
            not os.path.exists(str(partial) + "-wal") and proc.poll() is None and time.monotonic() < deadline
        ):
            time.sleep(0.01)
        assert proc.poll() is None, "the demo run ended before it could be killed"
        time.sleep(0.3)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    left = sorted(p.name for p in target.parent.iterdir())
    assert partial.name in left and target.name not in left, left
    sleeper = subprocess.Popen([python(), "-c", "import time; time.sleep(60)"])
    try:
        running = target.with_name(f".{target.name}.partial-{sleeper.pid}")
        running.write_bytes(b"a demo run still writing")
        generate(target, messages=0, now=FIXED_DEMO_NOW)
        assert sorted(p.name for p in target.parent.iterdir() if "partial" in p.name) == [running.name]
    finally:
        sleeper.kill()
        sleeper.wait(timeout=30)
    with MemoryDB.open(target) as db:
        assert db.report.schema_version == 31


FIXED_DEMO_NOW = 1_781_000_000_000
