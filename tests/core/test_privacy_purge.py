"""The privacy purge on a planted memory folder (secrets in messages, actions, notes, facts, skills and their
revisions, calendar and tasks, in the audit trail's stored states, and in a backup of the agent's): after
the purge no file of the memory folder or of the app's data folder holds a planted text (the ``-wal`` and
``-shm`` included), the full-text indexes find none, every other row is as it was, ``check`` passes and
each FTS5 table passes its own integrity check; it is refused while another program writes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core import audit, curation
from core.changes.marks import ReviewMarks
from core.cli import main
from core.db import MemoryDB
from core.engine import sqlite3
from core.errors import MemoryError_, Notice
from core.health.finding import Finding
from core.jsutil import js_stringify
from core.privacy.purge import NOT_UNDOABLE, PURGE_ACTION, PurgeRefused, plan, purge, sha256
from core.privacy.rewrite import marker
from tests.fixtures.purge_planted import BACKUP_NAME, KEY, KINDS, PASSWORD, PLANTED, dump, findings, plant

FTS = ("memory_raw_messages_fts", "memory_notes_fts", "memory_skills_fts")
NO_WAIT = {"wal_recent_s": 0, "observe_s": 0}


@pytest.fixture
def planted(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """The planted database and the app's data folder (holding the review marks of the database)."""
    app = tmp_path / "app"
    monkeypatch.setenv("PHILONT_REVIEW_MARKS", str(app / "review-marks.json"))
    folder = tmp_path / "memory"
    folder.mkdir()
    path = plant(folder)
    ReviewMarks().mark_items(path, ["fact.new:0123456789abcdef"])
    return path, app


def _files(*folders: Path) -> list[Path]:
    return sorted(p for f in folders for p in f.rglob("*") if p.is_file())


def _holding(*folders: Path) -> dict[str, list[str]]:
    """Every file below ``folders`` that holds a planted text as UTF-8 bytes, with the texts."""
    out: dict[str, list[str]] = {}
    for p in _files(*folders):
        data = p.read_bytes()
        hits = [t for t in PLANTED if t.encode("utf-8") in data]
        if hits:
            out[str(p)] = hits
    return out


def _match(path: Path, fts: str, text: str) -> list[int]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        phrase = '"' + text.replace('"', '""') + '"'
        return [r[0] for r in conn.execute(f"SELECT rowid FROM {fts} WHERE {fts} MATCH ?", (phrase,))]
    finally:
        conn.close()


def _like(path: Path, fts: str, column: str, text: str) -> list[int]:
    """The substring path: LIKE answered by the trigram index."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute(f"SELECT rowid FROM {fts} WHERE {column} LIKE ?", (f"%{text}%",))]
    finally:
        conn.close()


def _fts_integrity(path: Path) -> None:
    conn = sqlite3.connect(str(path))
    try:
        for fts in FTS:
            conn.execute(f"INSERT INTO {fts}({fts}, rank) VALUES('integrity-check', 1)")
        conn.commit()
    finally:
        conn.close()


def _header(path: Path) -> tuple[int, bytes]:
    head = path.read_bytes()[:20]
    return int.from_bytes(head[16:18], "big"), head[18:20]


def _purge_all(path: Path, mode: str = "redact", **kw: Any):
    p = plan(path, findings(path), mode, include_backups=True)
    return p, purge(path, p, **NO_WAIT, **kw)


def test_after_a_purge_no_file_of_the_memory_or_app_folder_holds_a_planted_text(planted):
    path, app = planted
    before = _holding(path.parent, app)
    assert set(before) >= {str(path), str(path.parent / "backups" / BACKUP_NAME)}
    assert all(set(PLANTED) <= set(v) for v in before.values())
    p, result = _purge_all(path)
    assert result.ok, result.to_json()
    assert {f.role for f in p.files} == {"live", "wal", "backup"}
    assert _holding(path.parent, app) == {}
    names = sorted(x.name for x in _files(path.parent, app))
    assert names == [BACKUP_NAME, "memory.sqlite", "memory.sqlite-shm", "review-marks.json"]  # -wal emptied
    assert all(f.wal_truncated for f in result.files)
    # secure_delete alone left nothing behind: no rebuild was needed
    assert [f.free_space for f in result.files] == ["clean", "clean"]


def test_the_full_text_indexes_find_none_of_the_texts_and_find_the_markers(planted):
    path, _app = planted
    assert _match(path, "memory_raw_messages_fts", KEY) and _match(path, "memory_notes_fts", PASSWORD)
    _purge_all(path)
    backup = path.parent / "backups" / BACKUP_NAME
    for f in (path, backup):
        for fts, col in (("memory_raw_messages_fts", "content"), ("memory_notes_fts", "content")):
            for text in PLANTED:
                assert _match(f, fts, text) == [] and _like(f, fts, col, text[:12]) == []
        for text in PLANTED:
            assert _match(f, "memory_skills_fts", text) == []
        # the raw layer has no UPDATE trigger: the redacted text was indexed by the purge itself
        assert _match(f, "memory_raw_messages_fts", marker(KINDS[KEY])) == [6]


def test_every_other_row_is_unchanged_and_redacted_rows_differ_only_by_the_markers(planted):
    path, _app = planted
    before = dump(path)
    _purge_all(path)
    after = dump(path)

    def redacted(v: Any) -> Any:
        if not isinstance(v, str):
            return v
        for text, kind in KINDS.items():
            v = v.replace(text, marker(kind))
        return v

    audit_rows = after.pop("philont_desktop_audit")
    old_audit = before.pop("philont_desktop_audit")
    assert after.keys() == before.keys()
    for table, rows in before.items():
        assert after[table] == [tuple(redacted(v) for v in r) for r in rows], table
    assert audit_rows[: len(old_audit)] == [tuple(redacted(v) for v in r) for r in old_audit]
    assert sum(r != tuple(map(redacted, r)) for r in before["memory_raw_messages"]) == 3


def test_check_passes_and_every_fts_table_passes_its_integrity_check(planted, capsys):
    path, _app = planted
    _purge_all(path)
    assert main(["--db", str(path), "check"]) == 0
    capsys.readouterr()
    backup = path.parent / "backups" / BACKUP_NAME
    for f in (path, backup):
        _fts_integrity(f)
        with MemoryDB.open(f) as db:
            assert db.report.quick_check == "ok"


def test_a_backup_is_rewritten_in_place_with_its_name_page_size_and_journal_mode(planted):
    path, _app = planted
    backup = path.parent / "backups" / BACKUP_NAME
    header = _header(backup)
    ino = backup.stat().st_ino
    _purge_all(path)
    assert backup.exists() and _header(backup) == header and backup.stat().st_ino == ino
    assert sorted(x.name for x in backup.parent.iterdir()) == [BACKUP_NAME]  # no -wal, -shm or copy left


def test_without_include_backups_only_the_database_is_rewritten_and_the_backup_is_named(planted):
    path, _app = planted
    p = plan(path, findings(path))
    backup = str(path.parent / "backups" / BACKUP_NAME)
    assert [f.role for f in p.files] == ["live", "wal"] and p.elsewhere == (backup,)
    assert purge(path, p, **NO_WAIT).ok
    assert list(_holding(path.parent)) == [backup]


def test_delete_removes_the_rows_and_keeps_the_others(planted):
    path, _app = planted
    before = dump(path)
    _p, result = _purge_all(path, "delete")
    assert result.ok, result.to_json()
    after = dump(path)
    msgs = {r[0] for r in before["memory_raw_messages"]} - {r[0] for r in after["memory_raw_messages"]}
    assert msgs == {6, 10, 13}
    assert [r[1] for r in after["memory_notes"]] == ["n-plain"]
    assert [r[1] for r in after["memory_facts"]] == ["f-plain"]
    assert [r[1] for r in after["memory_skills"]] == ["s-2"]
    assert [r[1] for r in after["memory_calendar"]] == ["c-2"] and [
        r[1] for r in after["memory_schedules"]
    ] == ["t-2"]
    kept = {r[0] for r in after["memory_raw_messages"]}
    assert [r for r in before["memory_raw_messages"] if r[0] in kept] == after["memory_raw_messages"]
    assert _holding(path.parent) == {}
    _fts_integrity(path)


def test_delete_of_a_revision_drops_that_revision_and_keeps_the_skill(planted):
    path, _app = planted
    only = [f for f in findings(path) if f.layer == "skill_revisions"]
    p = plan(path, only, "delete")
    assert purge(path, p, **NO_WAIT).ok
    with MemoryDB.open(path) as db:
        hist = db.conn.execute("SELECT revision_history FROM memory_skills WHERE id = 's-1'").fetchone()[0]
    assert PASSWORD not in hist and '"reason":"second"' in hist and '"reason":"first"' not in hist


def test_the_audit_trail_records_kind_and_hash_never_the_text_and_cannot_undo_it(planted):
    path, _app = planted
    _p, result = _purge_all(path)
    with MemoryDB.open(path) as db:
        entries = audit.list_entries(db, limit=100)
    purged = [e for e in entries if e.action == PURGE_ACTION]
    assert [e.id for e in reversed(purged)] == result.audit_ids
    assert {e.target_type for e in purged} == {
        "message", "action", "note", "fact", "skill", "calendar_event", "schedule"
    }  # fmt: skip
    hashes = {(p["kind"], p["sha256"]) for e in purged for p in e.before["purged"]}
    assert (KINDS[KEY], sha256(KEY)) in hashes and (KINDS[PASSWORD], sha256(PASSWORD)) in hashes
    assert not any(t in (e.before_json or "") + (e.after_json or "") for e in entries for t in PLANTED)
    with MemoryDB.open(path, writable=True) as db, pytest.raises(MemoryError_) as ei:
        curation.undo(db, purged[0].id, "u@philont-desktop")
    assert ei.value.code == "curation.undo_unavailable" or "cannot be undone" in ei.value.message


def test_a_row_changed_after_the_plan_leaves_that_file_as_it_was(planted):
    path, _app = planted
    p = plan(path, findings(path))
    conn = sqlite3.connect(str(path))
    conn.execute("UPDATE memory_notes SET content = 'changed meanwhile' WHERE id = 'n-secret'")
    conn.commit()
    conn.close()
    before = dump(path)
    result = purge(path, p, **NO_WAIT)
    live = result.files[0]
    assert not result.ok and live.error is not None and live.error["code"] == "privacy.purge.changed"
    assert dump(path) == before


def test_refused_while_another_program_holds_the_database(planted):
    path, _app = planted
    p = plan(path, findings(path))
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            f"c = sqlite3.connect({str(path)!r})\n"
            "c.execute('SELECT value FROM memory_meta').fetchall()\n"
            "print('ready', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        before = path.read_bytes()
        with pytest.raises(PurgeRefused) as ei:
            purge(path, p, **NO_WAIT)
        assert ei.value.code == "privacy.purge.agent_running" and ei.value.params["reason"] == "locked"
        assert path.read_bytes() == before
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(10)


def test_refused_when_the_wal_was_written_just_now(planted):
    path, _app = planted
    p = plan(path, findings(path))
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("INSERT INTO memory_meta VALUES ('x', 'y')")
    conn.commit()
    with pytest.raises(PurgeRefused) as ei:
        purge(path, p)
    conn.close()
    assert ei.value.params["reason"] == "wal_recent"
    assert _holding(path.parent)


def test_vacuum_on_request_is_timed_and_keeps_the_file_sound(planted):
    path, _app = planted
    _p, result = _purge_all(path, vacuum=True)
    assert result.ok and all(f.vacuum_s is not None for f in result.files)
    assert _holding(path.parent) == {}
    _fts_integrity(path)


def test_the_plan_never_holds_the_texts_in_its_json_and_says_it_cannot_be_undone(planted):
    path, _app = planted
    p = plan(path, findings(path), include_backups=True)
    text = repr(p.to_json())
    assert not any(t in text for t in PLANTED)
    assert p.warning == NOT_UNDOABLE and "cannot be undone" in p.warning
    assert len(p.targets) == 30 and not p.skipped


def test_a_damaged_file_in_the_backups_folder_is_named_as_holding_the_text(planted):
    path, _app = planted
    kept = path.parent / "backups" / "damaged-20260101T000000-memory.sqlite"
    kept.write_bytes(b"junk " + KEY.encode() + b" junk")
    p = plan(path, findings(path), include_backups=True)
    assert p.elsewhere == (str(kept),)


def test_a_backup_that_fails_is_left_as_it_was_and_the_database_is_still_purged(planted):
    path, _app = planted
    backup = path.parent / "backups" / BACKUP_NAME
    p = plan(path, findings(path), include_backups=True)
    conn = sqlite3.connect(str(backup))
    conn.execute("UPDATE memory_notes SET content = 'changed meanwhile' WHERE id = 'n-secret'")
    conn.commit()
    conn.close()
    before = backup.read_bytes()
    result = purge(path, p, **NO_WAIT)
    assert result.files[0].error is None and result.files[1].error is not None
    assert result.files[1].error["code"] == "privacy.purge.changed"
    assert not result.ok and list(_holding(path.parent)) == [str(backup)] and backup.read_bytes() == before


def test_after_purging_what_the_scan_found_a_new_scan_finds_nothing(tmp_path):
    """The scan's own findings (live file and this project's backup) purged with --all's path."""
    from core.privacy import Allowed, scan
    from tests.fixtures import privacy_planted as scanned

    path = tmp_path / "memory" / "memory.sqlite"
    with MemoryDB.create(path, now=scanned.FIXED_NOW) as db:
        scanned.plant(db)
        db.backup()
    first = scan(path, include_backups=True, allow=Allowed())
    assert {f.file is None for f in first.findings} == {True, False}
    result = purge(path, plan(path, first.findings, include_backups=True), **NO_WAIT)
    assert result.ok, result.to_json()
    assert scan(path, include_backups=True, allow=Allowed()).findings == []
    leftovers = [
        str(p)
        for p in _files(path.parent)
        if any(v.encode() in p.read_bytes() for v in scanned.secret_values())
    ]
    assert leftovers == []


# -- the command line ---------------------------------------------------------------------------------------


@pytest.fixture
def scanned_db(tmp_path) -> Path:
    """The scan's planted database with this project's backup of it."""
    from tests.fixtures import privacy_planted as scanned

    path = tmp_path / "memory" / "memory.sqlite"
    with MemoryDB.create(path, now=scanned.FIXED_NOW) as db:
        scanned.plant(db)
        db.backup()
    return path


def _cli(capsys, *argv: Any) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _expected(path: Path) -> tuple[int, int, int]:
    """``(findings, rows, rows of the database)`` of a purge of every finding with the backups, through
    the library (what the command line must say)."""
    from core.privacy import Allowed, scan

    found = scan(path, include_backups=True, allow=Allowed()).findings
    p = plan(path, found, include_backups=True)
    return len(found), len(p.targets), len(p.targets_of(None))


def _all_bytes(folder: Path) -> dict[str, bytes]:
    """Every file's bytes but the -shm (every reader writes it) and an empty -wal (a read-only look may
    make one)."""
    out = {str(p): p.read_bytes() for p in _files(folder) if not p.name.endswith("-shm")}
    return {k: v for k, v in out.items() if v or not k.endswith("-wal")}


def test_cli_without_yes_prints_the_plan_and_the_warning_and_changes_nothing(scanned_db, capsys):
    n, rows, live_rows = _expected(scanned_db)
    before = _all_bytes(scanned_db.parent)
    code, out, err = _cli(capsys, "--db", scanned_db, "privacy", "purge", "--all", "--include-backups")
    assert code == 2
    lines = out.splitlines()
    assert lines[0] == f"privacy purge (redact): {n} findings, {rows} rows in 2 files"
    assert "  database  messages  memory_raw_messages:1 content  redact  secret.openai_key" in lines
    assert f"  {scanned_db}  the database ({live_rows} rows, 0 audit rows)" in lines
    assert (
        lines[-1]
        == NOT_UNDOABLE
        == (
            "A purge cannot be undone: the text is removed from the database, its -wal, free pages, the full-text "
            "index, the audit trail and the backups listed, and no backup is taken first (it would keep the text)."
        )
    )
    assert err == (
        "philont-memory: error: nothing was purged: a purge cannot be undone. Read the plan above, stop the "
        "agent, then run it again with --yes\n"
    )
    assert _all_bytes(scanned_db.parent) == before


def test_cli_purge_all_with_yes_leaves_nothing_for_a_new_scan(scanned_db, capsys):
    from tests.fixtures import privacy_planted as scanned

    _n, rows, live_rows = _expected(scanned_db)
    code, out, err = _cli(
        capsys, "--db", scanned_db, "privacy", "purge", "--all", "--include-backups", "--yes"
    )
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"purged {rows} rows (redact) in 2 files"
    assert lines[1] == f"  {scanned_db}: {live_rows} rows, 0 audit rows scrubbed, -wal emptied"
    assert lines[-1] == f"audit entries #1-#{rows} (kind and SHA-256 only, not undoable)"
    code, out, _err = _cli(capsys, "--db", scanned_db, "--json", "privacy", "scan", "--include-backups")
    assert code == 0 and '"findings": []' in out
    assert not any(
        v.encode() in b for b in _all_bytes(scanned_db.parent).values() for v in scanned.secret_values()
    )
    assert main(["--db", str(scanned_db), "check"]) == 0


def test_cli_purges_named_findings_only_and_refuses_unknown_ones(scanned_db, capsys):
    import json

    code, out, _err = _cli(capsys, "--db", scanned_db, "--json", "privacy", "scan")
    found = json.loads(out)["findings"]
    first = found[0]["id"]
    code, out, err = _cli(capsys, "--db", scanned_db, "privacy", "purge", "pf-nothing", "--yes")
    assert code == 1 and "no finding 'pf-nothing'" in err
    code, out, err = _cli(
        capsys, "--db", scanned_db, "--json", "privacy", "purge", first, "--delete", "--yes"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["purged"] and data["plan"]["mode"] == "delete" and data["result"]["ok"]
    assert [r["findings"] for r in data["plan"]["rows"]] == [[first]]
    code, out, _err = _cli(capsys, "--db", scanned_db, "--json", "privacy", "scan")
    assert len(json.loads(out)["findings"]) == len(found) - 1


def test_cli_names_or_all_but_not_both(scanned_db, capsys):
    code, _out, err = _cli(capsys, "--db", scanned_db, "privacy", "purge", "--yes")
    assert code == 2 and "name the findings to purge" in err


def test_cli_refuses_while_the_wal_was_just_written_with_status_3(scanned_db, capsys):
    conn = sqlite3.connect(str(scanned_db))
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("INSERT INTO memory_meta VALUES ('x', 'y')")
    conn.commit()
    try:
        code, _out, err = _cli(capsys, "--db", scanned_db, "privacy", "purge", "--all", "--yes")
    finally:
        conn.close()
    assert code == 3 and "seems to be in use" in err and "Nothing was purged." in err


# -- the reference agent's library ----------------------------------------------------------------------------

REFERENCE_DEPS = os.environ.get("PHILONT_REFERENCE_DEPS", "")
CHECK_FTS = Path(__file__).resolve().parents[1] / "fixtures" / "reference" / "check_fts.mjs"


@pytest.mark.skipif(
    not (shutil.which("node") and (Path(REFERENCE_DEPS) / "node_modules" / "better-sqlite3").is_dir()),
    reason="needs Node and PHILONT_REFERENCE_DEPS: a folder with node_modules/better-sqlite3 (see "
    "tests/fixtures/reference/README.md)",
)
def test_the_reference_library_opens_the_purged_files_and_their_fts_tables_pass_integrity_check(planted):
    import json

    path, _app = planted
    _purge_all(path, "redact")
    backup = path.parent / "backups" / BACKUP_NAME
    run = subprocess.run(
        ["node", str(CHECK_FTS), "--deps", REFERENCE_DEPS, str(path), str(backup)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["files"] == {
        str(f): {"integrity": "ok", "fts": dict.fromkeys(FTS, "ok")} for f in (path, backup)
    }


def test_findings_that_no_longer_match_or_lie_outside_the_memory_folder_are_left_out_with_a_notice(
    planted, tmp_path
):
    from dataclasses import replace

    path, _app = planted
    fs = findings(path)
    gone = replace(fs[0], row=999_999)
    beyond = replace(fs[1], start=10_000, end=10_010)
    elsewhere = replace(fs[2], file=str(tmp_path / "other.sqlite"))
    hostile = replace(fs[3], column='content" = 1; DROP TABLE memory_notes; --')
    p = plan(path, [gone, beyond, elsewhere, hostile])
    assert [(n.code, n.params.get("why")) for n in p.skipped] == [
        ("privacy.purge.outside", None),
        ("privacy.purge.stale", "row_gone"),
        ("privacy.purge.stale", "span_outside"),
        ("privacy.purge.stale", "table_unreadable"),
    ]
    assert p.targets == ()


def _old_copy_in_free_space(path: Path) -> None:
    """An edit written without secure_delete (as the agent's SQLite writes) leaves the old value in the
    free space of a page: in no row, so in no finding."""
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA secure_delete=OFF")
    conn.execute(
        "UPDATE memory_notes SET content = 'was: ' || content || ' ' || hex(randomblob(300)) WHERE id = 'n-secret'"
    )
    conn.commit()
    conn.execute("UPDATE memory_notes SET content = 'router password changed' WHERE id = 'n-secret'")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def test_an_old_copy_left_in_free_space_is_found_and_the_file_rebuilt(planted):
    path, _app = planted
    _old_copy_in_free_space(path)
    assert PASSWORD.encode() in path.read_bytes()
    p = plan(path, findings(path))
    assert not [t for t in p.targets if t.row == "n-secret"]  # the row no longer holds it
    result = purge(path, p, **NO_WAIT)
    live = result.files[0]
    assert live.free_space == "vacuumed" and live.vacuum_s is not None
    assert PASSWORD.encode() not in path.read_bytes()


def test_a_file_too_large_to_search_is_said_unchecked_and_vacuum_clears_it(planted, monkeypatch):
    from core.privacy import rewrite

    path, _app = planted
    _old_copy_in_free_space(path)
    monkeypatch.setattr(rewrite, "SEARCH_BUDGET", 1)
    result = purge(path, plan(path, findings(path)), **NO_WAIT)
    assert result.files[0].free_space == "unchecked" and PASSWORD.encode() in path.read_bytes()
    result = purge(path, plan(path, findings(path)), vacuum=True, **NO_WAIT)
    assert result.files[0].free_space == "vacuum" and PASSWORD.encode() not in path.read_bytes()


def test_progress_counts_every_row_and_each_file_and_ends_at_the_total(planted):
    path, _app = planted
    p = plan(path, findings(path), include_backups=True)
    seen: list[tuple[int, int]] = []
    purge(path, p, progress=lambda done, total: seen.append((done, total)), **NO_WAIT)
    total = len(p.targets) + 2
    assert seen[-1] == (total, total) and [d for d, _t in seen[:-1]] == list(range(1, total + 1))


def test_the_apps_derived_files_are_deleted_and_other_app_files_holding_a_text_are_named(
    planted, monkeypatch
):
    from core.privacy import purge_plan

    path, app = planted
    saved = app / "replays" / "saved.turns.jsonl"
    saved.parent.mkdir(parents=True)
    saved.write_text(f'{{"trigger": "my key is {KEY}"}}\n', encoding="utf-8")
    other = app / "replays" / "other.json"
    other.write_text(f'{{"note": "{PASSWORD}"}}', encoding="utf-8")
    monkeypatch.setattr(purge_plan, "DERIVED", [])
    monkeypatch.setattr(purge_plan, "_SAVED_FOR_TEST", {path: [saved]}, raising=False)
    purge_plan.register_derived("tests.core.test_privacy_purge:_saved_for_test")
    p = plan(path, findings(path), include_backups=True, app_dir=app)
    assert [(f.role, f.path) for f in p.files if f.role == "derived"] == [("derived", str(saved))]
    assert p.elsewhere == (str(other),)
    result = purge(path, p, **NO_WAIT)
    assert result.derived_removed == [str(saved)] and not saved.exists()
    assert list(_holding(path.parent, app)) == [str(other)]


def test_a_saved_replay_of_the_database_is_deleted_by_the_purge(planted, monkeypatch):
    """The Recall page's saved result holds rare words and trigger snippets of the messages, and its
    window counts 3-character pieces of them."""
    from core.replay.store import ENV_VAR, ReplayStore

    path, app = planted
    monkeypatch.setenv(ENV_VAR, str(app / "replays"))
    store = ReplayStore()
    head, turns = store.path(path), store.turns_path(path)
    head.parent.mkdir(parents=True)
    head.write_text("{}", encoding="utf-8")
    turns.write_text(f'{{"terms": ["{KEY}"]}}\n', encoding="utf-8")
    partial = turns.with_name(f".{turns.name}.123.456.tmp")  # a replay being written, or left by a crash
    partial.write_text(f'{{"terms": ["{KEY}"]}}\n', encoding="utf-8")
    windows = store.windows_path(path)
    windows.write_text(
        f'{{"version": 1, "windows": [["{KEY[:3]}", 1, 1]], "note": "{KEY}"}}', encoding="utf-8"
    )
    every = {str(head), str(turns), str(partial), str(windows)}
    p = plan(path, findings(path), include_backups=True, app_dir=app)
    assert {f.path for f in p.files if f.role == "derived"} == every
    result = purge(path, p, **NO_WAIT)
    assert set(result.derived_removed) == every
    assert not any(map(os.path.exists, every)) and list(_holding(path.parent, app)) == []


def test_the_doctors_last_report_of_the_database_is_deleted_by_the_purge(planted, monkeypatch):
    """The Health tab's last report names rows and holds their labels (a note's title, a fact's key)."""
    from core.health.sidedata import ENV_VAR, HealthSideData

    path, app = planted
    monkeypatch.setenv(ENV_VAR, str(app / "health.json"))
    side = HealthSideData()
    side.save_last(path, 1, [Finding("health.notes.duplicate", "warn", "notes", ["n1"], Notice("c", KEY))])
    report = side.last_path(path)
    p = plan(path, findings(path), include_backups=True, app_dir=app)
    assert {f.path for f in p.files if f.role == "derived"} == {str(report)}
    result = purge(path, p, **NO_WAIT)
    assert result.derived_removed == [str(report)] and not report.exists()
    assert list(_holding(path.parent, app)) == []


def _plant_copies(path: Path) -> None:
    """The password again: alone in a new message (no finding would name it), twice in one action
    result, and in a plan of the agent's own tables."""
    conn = sqlite3.connect(str(path))
    with conn:
        conn.execute(
            "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('global', 'user', ?, 1)",
            (f"try {PASSWORD} again",),
        )
        conn.execute(
            "UPDATE memory_actions SET result = ? WHERE tool_name = 'noop'", (f"{PASSWORD} / {PASSWORD}",)
        )
        conn.execute(
            "INSERT INTO memory_plans (id, session_id, steps_json, status, review_history_json, created_at, "
            "updated_at, inner_iter, outer_iter, deliverables_json, is_placeholder) "
            "VALUES ('p1', 'global', ?, 'done', '[]', 1, 1, 0, 0, '[]', 0)",
            (js_stringify([{"step": f"log in with {PASSWORD}"}]),),
        )
    conn.close()


def test_other_copies_of_a_purged_text_are_redacted_too(planted):
    path, _app = planted
    _plant_copies(path)
    only_note = [f for f in findings(path) if f.table == "memory_notes" and f.kind == KINDS[PASSWORD]]
    p = plan(path, only_note)
    places = {(t.table, t.column, t.row) for t in p.targets}
    assert {("memory_plans", "steps_json", "p1"), ("memory_actions", "result", 3)} <= places
    assert p.unsearched == ()
    assert purge(path, p, **NO_WAIT).ok
    assert PASSWORD.encode() not in path.read_bytes()
    with MemoryDB.open(path) as db:
        steps = db.conn.execute("SELECT steps_json FROM memory_plans WHERE id = 'p1'").fetchone()[0]
        result = db.conn.execute("SELECT result FROM memory_actions WHERE id = 3").fetchone()[0]
    assert steps == js_stringify([{"step": f"log in with {marker(KINDS[PASSWORD])}"}])
    assert result == f"{marker(KINDS[PASSWORD])} / {marker(KINDS[PASSWORD])}"
    _fts_integrity(path)


def test_a_table_too_large_to_search_is_named_and_the_messages_are_searched_through_their_index(
    planted, monkeypatch
):
    from core.privacy import copies

    path, _app = planted
    _plant_copies(path)
    monkeypatch.setattr(copies, "SEARCH_BUDGET", 0)
    only_note = [f for f in findings(path) if f.table == "memory_notes" and f.kind == KINDS[PASSWORD]]
    p = plan(path, only_note)
    tables = {u["table"]: u["columns"] for u in p.unsearched}
    assert "result" in tables["memory_actions"] and "steps_json" in tables["memory_plans"]
    # searched through their indexes: only the columns these do not hold are named
    assert "memory_raw_messages" not in tables and "memory_notes" not in tables
    assert "action_template" in tables["memory_skills"] and "description" not in tables["memory_skills"]
    assert {t.row for t in p.targets if t.table == "memory_raw_messages"} == {13, 41}


def test_a_copy_in_a_name_that_identifies_its_row_is_named_not_rewritten(planted):
    from core.cli.privacy_purge import plan_lines

    path, _app = planted
    conn = sqlite3.connect(str(path))
    with conn:
        conn.execute("UPDATE memory_skills SET name = ? WHERE id = 's-2'", (f"tea {PASSWORD}",))
    conn.close()
    p = plan(path, [f for f in findings(path) if f.table == "memory_notes"])
    assert {"file": None, "table": "memory_skills", "chars": None, "columns": ["name"], "why": "unique"} in (
        p.unsearched
    )
    assert not [t for t in p.targets if t.column == "name"]
    assert (
        "holds a purged text in a name that identifies its row, not rewritten (rename it): database "
        "memory_skills (name)"
    ) in plan_lines(p)
    assert purge(path, p, **NO_WAIT).ok


def test_refused_while_this_program_has_the_database_open(planted):
    path, _app = planted
    p = plan(path, findings(path))
    with MemoryDB.open(path) as db:
        db.conn.execute("SELECT count(*) FROM memory_notes").fetchone()
        with pytest.raises(MemoryError_) as ei:
            purge(path, p, **NO_WAIT)
    assert ei.value.code == "privacy.purge.open_here"
    assert purge(path, p, **NO_WAIT).ok  # closed: it goes ahead


def test_a_database_in_rollback_journal_mode_is_purged_and_keeps_its_mode(planted):
    path, _app = planted
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    header = _header(path)
    _p, result = _purge_all(path)
    assert result.ok and result.files[0].wal_truncated is None
    assert _header(path) == header and _holding(path.parent) == {}
    assert sorted(x.name for x in path.parent.iterdir()) == ["backups", "memory.sqlite"]


def test_cli_json_plan_without_yes_holds_no_value_and_changes_nothing(scanned_db, capsys):
    import json

    from tests.fixtures import privacy_planted as scanned

    before = _all_bytes(scanned_db.parent)
    code, out, err = _cli(capsys, "--db", scanned_db, "--json", "privacy", "purge", "--all", "--delete")
    assert code == 2 and err.startswith("philont-memory: error: nothing was purged")
    data = json.loads(out)
    assert data["purged"] is False and data["plan"]["mode"] == "delete"
    roles = [f["role"] for f in data["plan"]["files"]]
    assert roles[0] == "live" and "backup" not in roles  # the backup is rewritten only with --include-backups
    assert not any(v in out for v in scanned.secret_values())
    assert _all_bytes(scanned_db.parent) == before


def test_a_backup_that_cannot_be_read_is_left_as_it_is_and_named(planted):
    path, _app = planted
    bad = path.parent / "backups" / "memory-20260101T000000.sqlite"
    bad.write_bytes(b"not a database at all")
    p = plan(path, findings(path), include_backups=True)
    assert [(n.code, n.params["path"]) for n in p.skipped] == [("privacy.purge.backup_unreadable", str(bad))]
    assert str(bad) not in {f.path for f in p.files}
    assert purge(path, p, **NO_WAIT).ok and bad.read_bytes() == b"not a database at all"


def _saved_for_test(live: Path) -> list[Path]:
    """A derived file named by ``"module:function"`` (see the test above)."""
    from core.privacy import purge_plan

    return list(getattr(purge_plan, "_SAVED_FOR_TEST", {}).get(live, []))
