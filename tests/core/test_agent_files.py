"""Files written by the current agent (schema 48 and 50, and a v31 file upgraded to 50): every layer reads,
and every curation writes only its rows, audited and undoable, with ``schema_version`` kept.

The files come from ``tests/fixtures/agent_files.py`` (built here in a temporary folder, not committed).
After each edit the whole file is compared table by table and row by row with the file before it: only
the edited rows (and the full-text index of their table, and this project's audit table) may differ.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core import curation, schema
from core.calendar import CalendarStore
from core.curation import calendar as cc
from core.curation import facts as cf
from core.curation import notes as cn
from core.curation import skills as cs
from core.db import MemoryDB
from core.facts import FactStore
from core.notes import NotesStore
from core.schedules import ScheduleStore
from core.skills import SkillStore
from core.timeline import RawStore
from tests.fixtures import agent_files

ACTOR = "tester@philont-desktop"
KINDS = {"v48": "48", "v50": "50", "v31-to-v50": "50"}
AUDIT = {schema.AUDIT_TABLE, "sqlite_sequence"}


@pytest.fixture(scope="session")
def agent_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("agent-files")
    agent_files.make_fresh(d / "v48.sqlite", 48)
    agent_files.make_fresh(d / "v50.sqlite", 50)
    agent_files.make_upgraded(d / "v31-to-v50.sqlite")
    return d


@pytest.fixture(params=sorted(KINDS))
def agent_file(request, agent_dir, tmp_path) -> tuple[str, Path]:
    dst = tmp_path / "memory" / "memory.sqlite"
    dst.parent.mkdir()
    shutil.copyfile(agent_dir / f"{request.param}.sqlite", dst)
    return request.param, dst


# --------------------------------------------------------------------------------------------------
# Whole-file snapshots
# --------------------------------------------------------------------------------------------------


def _ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def snapshot(path: Path) -> dict[str, dict[Any, tuple]]:
    """Every ordinary table: ``{rowid (or primary key): row}``."""
    conn = _ro(path)
    try:
        out: dict[str, dict[Any, tuple]] = {}
        for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"):
            if sql.upper().startswith("CREATE VIRTUAL"):
                continue  # an FTS table's rows are its content table's; its shadow tables are compared
            try:
                rows = conn.execute(f'SELECT rowid, * FROM "{name}"').fetchall()
                out[name] = {r[0]: r[1:] for r in rows}
            except sqlite3.OperationalError:  # WITHOUT ROWID
                rows = conn.execute(f'SELECT * FROM "{name}"').fetchall()
                out[name] = {r: r for r in rows}
        return out
    finally:
        conn.close()


def layout(path: Path) -> tuple[list[tuple], dict[str, list[tuple]]]:
    conn = _ro(path)
    try:
        master = sorted(
            conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall(), key=str
        )
        tables = [r[1] for r in master if r[0] == "table"]
        return master, {t: conn.execute(f'PRAGMA table_info("{t}")').fetchall() for t in tables}
    finally:
        conn.close()


def version_of(path: Path) -> str:
    conn = _ro(path)
    try:
        return conn.execute("SELECT value FROM memory_meta WHERE key = 'schema_version'").fetchone()[0]
    finally:
        conn.close()


def changed(before: dict, after: dict) -> dict[str, set]:
    """``{table: {keys of rows added, removed or changed}}`` (tables without a change left out)."""
    out: dict[str, set] = {}
    for table in set(before) | set(after):
        b, a = before.get(table, {}), after.get(table, {})
        keys = {k for k in set(b) | set(a) if b.get(k) != a.get(k)}
        if keys:
            out[table] = keys
    return out


def fts_shadow(table: str) -> set[str]:
    fts = {"memory_notes": "memory_notes_fts", "memory_skills": "memory_skills_fts"}.get(table)
    return {f"{fts}_{s}" for s in ("data", "idx", "docsize", "config")} if fts else set()


def rowid_of(path: Path, table: str, where: str, *args: Any) -> set[int]:
    conn = _ro(path)
    try:
        return {r[0] for r in conn.execute(f"SELECT rowid FROM {table} WHERE {where}", args)}
    finally:
        conn.close()


# --------------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------------


def test_the_files_have_the_agents_layout(agent_file):
    kind, path = agent_file
    _, columns = layout(path)
    skills = [c[1] for c in columns["memory_skills"]]
    if kind == "v31-to-v50":  # the v31 columns, then the ones migrations 33-41 appended
        assert skills[7] == "created_at" and skills[-6:] == [
            "verification",
            "tool_policy",
            "revision_history",
            "offered_count",
            "from_disk",
            "matched_count",
        ]
    else:  # the newer base DDL: counts before created_at, migrated v31 columns at the end
        assert skills[7:10] == ["offered_count", "matched_count", "created_at"]
        assert skills[-5:] == [
            "root_pursuit_id",
            "maturity",
            "last_success_at",
            "consecutive_failures",
            "when_to_use",
        ]
    assert ("memory_cases" in columns) == (kind != "v48")
    assert ("folded_json" in [c[1] for c in columns["deferred_pushes"]]) == (kind != "v48")
    assert version_of(path) == KINDS[kind]


def test_every_layer_reads_and_nothing_is_misread(agent_file):
    kind, path = agent_file
    before = path.read_bytes()
    with MemoryDB.open(path) as db:
        r = db.report
        assert (r.schema_version, r.schema_status, r.writable) == (int(KINDS[kind]), "known", True)
        assert r.missing_tables == [] and r.missing_additive_columns == [] and r.missing_core_columns == []
        raw = RawStore(db)
        msgs = raw.query_timeline("asc", None)
        assert len(msgs) == raw.count()
        origins = {m.origin_session_id for m in msgs}
        assert set(agent_files.ORIGINS) <= origins and None in origins
        hits = raw.search_messages("hello")
        assert hits and all("hello" in m.content.lower() for m in hits)
        skills = {s.name: s for s in SkillStore(db).list_every()}
        recipe = skills["rerun-backup"]
        assert recipe.verification == {"kind": "tool_result_ok", "check": "exit code 0"}
        assert [h.reason.split(":")[0] for h in recipe.revision_history] == [
            "skill_repair",
            "owner asked to keep weekly archives",
            "skill_repair",
        ]
        assert skills["weather-lookup"].from_disk == 1 and skills["weather-lookup"].matched_count == 1
        assert skills["lisbon-trip"].maturity == "playbook" and skills["avoid-rm-rf"].kind == "negative"
        facts = FactStore(db)
        tz = facts.history("user", "timezone")
        assert [f.value for f in tz][:3] == ["Europe/Lisbon", "Asia/Shanghai", "Europe/Berlin"]
        assert tz[0].root_pursuit_id is None
        assert facts.get_fact("user", "language", bump=False).decay_tau_days == -1
        note = NotesStore(db).get_session_summary(agent_files.WEB)
        assert note is not None and note.content.endswith("(updated).") and note.root_pursuit_id is None
        assert any(e.title == "Design review with Marta" for e in CalendarStore(db).list_all())
        assert any(s.name == "daily-digest" for s in ScheduleStore(db).list_all())
    assert path.read_bytes() == before


# --------------------------------------------------------------------------------------------------
# Curation: each edit touches its rows only, keeps the stamp, is audited and undoes exactly
# --------------------------------------------------------------------------------------------------


def _head(db: MemoryDB, ns: str, key: str) -> Any:
    return FactStore(db).get_fact(ns, key, bump=False)


def _skill(db: MemoryDB, name: str) -> Any:
    return SkillStore(db).get_by_name(name)


# (name, make the edit from an open db, the tables it may change -> where clause selecting its rows)
Edit = tuple[str, Callable[[MemoryDB], Any], dict[str, tuple[str, tuple]]]

EDITS: list[Edit] = [
    (
        "fact edit",
        lambda db: cf.edit(_head(db, "user", "timezone").id, value="Asia/Tokyo"),
        {"memory_facts": ("namespace = 'user' AND key = 'timezone'", ())},
    ),
    (
        "fact pin",
        lambda db: cf.pin(_head(db, "project", "backup_target").id),
        {"memory_facts": ("namespace = 'project' AND key = 'backup_target'", ())},
    ),
    (
        "fact forget",
        lambda db: cf.forget(_head(db, "user", "name").id, now=agent_files.V31_NOW + 5 * agent_files.DAY),
        {"memory_facts": ("namespace = 'user' AND key = 'name'", ())},
    ),
    (
        "fact add",
        lambda db: cf.add("user", "city", "Lisbon", now=agent_files.V31_NOW + 5 * agent_files.DAY),
        {"memory_facts": ("namespace = 'user' AND key = 'city'", ())},
    ),
    (
        "note update",
        lambda db: cn.update(
            f"session-summary-{agent_files.WEB}", content="Backups fixed; retention is 14 days."
        ),
        {"memory_notes": ("id = ?", (f"session-summary-{agent_files.WEB}",))},
    ),
    (
        "note add",
        lambda db: cn.add("Marta moved the review to Thursday.", 0.6, note_id="note-from-the-app"),
        {"memory_notes": ("id = 'note-from-the-app'", ())},
    ),
    (
        "skill revise recipe",
        lambda db: cs.revise_recipe(
            _skill(db, "rerun-backup"),
            reason="prune by date folder",
            action_template="1. shell: df -h\n2. shell: prune by folder\n3. shell: run backup",
        ),
        {"memory_skills": ("name = 'rerun-backup'", ())},
    ),
    (
        "skill grade",
        lambda db: cs.set_maturity(_skill(db, "summarise-day"), "stable", reason="reliable for weeks"),
        {"memory_skills": ("name = 'summarise-day'", ())},
    ),
    (
        "skill delete",
        lambda db: cs.delete(_skill(db, "retry-deploy")),
        {"memory_skills": ("name = 'retry-deploy'", ())},
    ),
    (
        "schedule disable",
        lambda db: cc.disable_schedule(
            next(s.id for s in ScheduleStore(db).list_all() if (s.name, s.project) == ("daily-digest", "ops"))
        ),
        {"memory_schedules": ("name = 'daily-digest' AND project = 'ops'", ())},
    ),
    (
        "event delete",
        lambda db: cc.delete_event(
            next(e.id for e in CalendarStore(db).list_all() if e.title == "Design review with Marta")
        ),
        {"memory_calendar": ("title = 'Design review with Marta'", ())},
    ),
]


def _allowed(path: Path, targets: dict[str, tuple[str, tuple]]) -> dict[str, set | None]:
    """``{table: rowids that may change}``; None: any row (FTS shadow tables, the audit table)."""
    allowed: dict[str, set | None] = dict.fromkeys(AUDIT)
    for table, (where, args) in targets.items():
        allowed[table] = rowid_of(path, table, where, *args)
        allowed.update(dict.fromkeys(fts_shadow(table)))
    return allowed


def _assert_only(diff: dict[str, set], allowed: dict[str, set | None], path: Path, targets: dict) -> None:
    for table, keys in diff.items():
        assert table in allowed, f"{table} changed: rows {sorted(keys, key=str)[:5]}"
        if allowed[table] is not None:
            where, args = targets[table]
            now_rows = rowid_of(path, table, where, *args)
            assert keys <= allowed[table] | now_rows, f"{table}: other rows changed"
    for table in targets:
        assert table in diff, f"the edit did not change {table}"


def test_each_curation_changes_only_its_rows_and_undoes_exactly(agent_file):
    kind, path = agent_file
    original = snapshot(path)
    master0, columns0 = layout(path)
    db = MemoryDB.open(path, writable=True)
    try:
        assert db.ensure_writable_schema() is not None  # the backup before the first write
        done: list[int] = []
        for name, make, targets in EDITS:
            before = snapshot(path)
            allowed = _allowed(path, targets)
            edit = make(db).perform(db, ACTOR)
            assert edit.id is not None, name
            after = snapshot(path)
            _assert_only(changed(before, after), allowed, path, targets)
            assert version_of(path) == KINDS[kind], name
            done.append(edit.id)
        n = db.conn.execute(f"SELECT count(*) FROM {schema.AUDIT_TABLE} WHERE undone_of IS NULL").fetchone()[
            0
        ]
        assert n == len(EDITS)
        for audit_id in reversed(done):
            curation.undo(db, audit_id, ACTOR)
        assert schema.fts_consistency(db.conn) == []
    finally:
        db.close()
    restored = snapshot(path)
    diff = changed(original, restored)
    shadow = {t for table in ("memory_notes", "memory_skills") for t in fts_shadow(table)}
    assert set(diff) <= AUDIT | shadow, {
        t: sorted(k, key=str)[:3] for t, k in diff.items() if t not in AUDIT | shadow
    }
    master1, columns1 = layout(path)
    added = [m for m in master1 if m not in master0]
    assert {m[1] for m in added} == {schema.AUDIT_TABLE, *schema.AUDIT_INDEX_DDL}
    assert {t: c for t, c in columns1.items() if t != schema.AUDIT_TABLE} == columns0
    assert version_of(path) == KINDS[kind]
    assert list((path.parent / "backups").iterdir())


def test_the_cli_writes_a_fact_and_keeps_the_stamp(agent_file, capsys):
    from core.cli import main

    kind, path = agent_file
    assert main(["--db", str(path), "--json", "info"]) == 0
    assert '"writable": true' in capsys.readouterr().out
    args = [
        "--db",
        str(path),
        "tool",
        "store_fact",
        '{"namespace":"user","key":"pet","value":"旺财"}',
        "--write",
    ]
    assert main(args) == 0
    assert version_of(path) == KINDS[kind]
    conn = _ro(path)
    try:
        row = conn.execute(
            "SELECT value_json, root_pursuit_id FROM memory_facts WHERE key = 'pet'"
        ).fetchone()
    finally:
        conn.close()
    assert row == ('"旺财"', None)
