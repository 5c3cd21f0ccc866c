"""A memory file written the way the reference agent writes it opens read-only, every row reads, and the
three searches give the reference's hits in the reference's order.

The fixture (``tests/fixtures/reference/``, see its README) was written by better-sqlite3 with the
reference stores' statements and JS value encodings, and ``expected_hits.json`` holds what the
reference's search SQL returned on it (same process, SQLite 3.53). Nothing here needs Node.

Ties. ``searchMessages`` sorts by ``timestamp DESC`` only, and ``NotesStore.search`` by
``importance DESC, created_at DESC`` only, so rows equal in those keys come back in an undefined order
(spec Part A §4.3 point 5). Under the plan SQLite chose for the reference the equal-timestamp messages
happened to come in ascending id; ``core.timeline`` breaks the tie by id descending. So hit lists are
compared key by key, and within a run of equal keys as sets; when a page is cut inside such a run, any
members of the run may fill it (``boundary_tie_ids`` lists the whole run). Skill search has no such
freedom (a stable sort by score over ascending rowid, Part C g): those lists must be identical.

The copy under test lives in a temporary directory; the repository file is never opened.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from core.actions import ActionStore
from core.calendar import CalendarStore
from core.db import MemoryDB
from core.facts import FactStore
from core.jsutil import js_stringify
from core.notes import NotesStore
from core.schedules import ScheduleStore
from core.schema import CORE_TABLES
from core.skills import SkillStore
from core.timeline import RawStore

REF_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "reference"
REF_DB = REF_DIR / "reference-v31.sqlite"
EXPECTED: dict[str, Any] = json.loads((REF_DIR / "expected_hits.json").read_text(encoding="utf-8"))
PROBES: list[dict[str, Any]] = EXPECTED["probes"]
BAD_ACTION_IDS: set[int] = set(EXPECTED["deliberately_bad_json"]["memory_actions"])


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _copy_fixture(directory: Path) -> Path:
    dest = directory / REF_DB.name
    shutil.copyfile(REF_DB, dest)
    return dest


@pytest.fixture(scope="module")
def ref_db(tmp_path_factory: pytest.TempPathFactory):
    path = _copy_fixture(tmp_path_factory.mktemp("reference"))
    db = MemoryDB.open(path)
    yield db
    db.close()


def _raw_rows(db: MemoryDB, table: str, order: str) -> dict[Any, Any]:
    with db.lock:
        rows = db.conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
    return {r["id"]: r for r in rows}


def _count(db: MemoryDB, table: str) -> int:
    with db.lock:
        return db.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def _check_fields(model: Any, row: Any, converted: dict[str, Any] | None = None) -> None:
    """Every column of ``row`` is on ``model`` under its own name, with the same value (or the value
    given in ``converted`` for columns the model parses)."""
    converted = converted or {}
    for column, value in dict(row).items():  # a sqlite3.Row iterates its values, not its names
        expected = converted.get(column, value)
        assert getattr(model, column) == expected, (type(model).__name__, model.id, column)


# ---------------------------------------------------------------------------------------------------
# The fixture itself
# ---------------------------------------------------------------------------------------------------


def test_fixture_is_a_small_wal_mode_file():
    data = REF_DB.read_bytes()
    assert data[:16] == b"SQLite format 3\x00"
    assert (data[18], data[19]) == (2, 2)  # WAL mode kept in the header, as the reference leaves it
    assert len(data) < 1_000_000
    assert EXPECTED["generator"]["sqlite_version"].startswith("3.5")


# ---------------------------------------------------------------------------------------------------
# Opening and reading every row
# ---------------------------------------------------------------------------------------------------


def test_opens_read_only_as_a_complete_v31_database(ref_db: MemoryDB):
    r = ref_db.report
    assert ref_db.read_only and r.read_only
    assert r.schema_version == 31
    assert r.complete
    assert r.journal_mode == "wal"
    assert r.quick_check == "ok"
    assert r.missing_tables == []
    assert r.missing_core_columns == []
    assert r.missing_fts == []
    assert r.missing_triggers == []
    assert r.missing_indexes == []
    assert r.missing_additive_columns == []
    assert r.immutable is False
    assert r.warnings == []


def test_row_counts_are_the_writers_counts(ref_db: MemoryDB):
    for table, n in EXPECTED["counts"].items():
        assert _count(ref_db, table) == n, table
    assert set(CORE_TABLES) <= set(EXPECTED["counts"])


def test_every_session_and_message_reads(ref_db: MemoryDB):
    raw = RawStore(ref_db)
    sessions = raw.list_sessions()
    rows = _raw_rows(ref_db, "memory_raw_sessions", "rowid")
    assert sorted(s.id for s in sessions) == sorted(rows)
    with ref_db.lock:
        per_session = dict(
            ref_db.conn.execute("SELECT session_id, count(*) FROM memory_raw_messages GROUP BY 1").fetchall()
        )
    for s in sessions:
        _check_fields(s, rows[s.id])
        assert s.message_count == per_session.get(s.id, 0)
    assert {s.id for s in sessions} >= {
        "global",
        EXPECTED["sessions"]["scheduled"],
        *EXPECTED["sessions"]["legacy"],
    }

    messages = raw.query_timeline(order="asc", limit=None)
    rows = _raw_rows(ref_db, "memory_raw_messages", "id")
    assert len(messages) == len(rows) == EXPECTED["counts"]["memory_raw_messages"]
    assert {m.id for m in messages} == set(rows)
    for m in messages:
        _check_fields(m, rows[m.id])
    assert {m.role for m in messages} == {"system", "user", "assistant", "tool"}
    assert any(m.origin_session_id for m in messages) and any(m.origin_session_id is None for m in messages)
    # Chronological by (timestamp, id), including the rows written while the clock was stepped back.
    keys = [(m.timestamp, m.id) for m in messages]
    assert keys == sorted(keys)
    assert any(b.id < a.id for a, b in itertools.pairwise(messages))


def test_every_action_reads(ref_db: MemoryDB):
    actions = ActionStore(ref_db).list(limit=None)
    rows = _raw_rows(ref_db, "memory_actions", "id")
    assert len(actions) == len(rows) == EXPECTED["counts"]["memory_actions"]
    for a in actions:
        row = rows[a.id]
        if a.id in BAD_ACTION_IDS:
            assert a.params is None
            assert len(a.json_errors) == 1 and a.json_errors[0].startswith("params_json: invalid JSON")
        else:
            assert a.json_errors == []
            assert a.params == json.loads(row["params_json"])
        _check_fields(a, row, {"success": bool(row["success"])})
    assert {a.id for a in actions if a.json_errors} == BAD_ACTION_IDS
    assert any(a.linked_skill for a in actions) and any(not a.success for a in actions)


def test_every_note_reads(ref_db: MemoryDB):
    notes = NotesStore(ref_db).list(limit=None)
    rows = _raw_rows(ref_db, "memory_notes", "rowid")
    assert len(notes) == len(rows) == EXPECTED["counts"]["memory_notes"]
    for n in notes:
        _check_fields(n, rows[n.id])
    summaries = [n for n in notes if n.id.startswith("session-summary-")]
    assert len(summaries) == 3
    assert sum(1 for n in notes if n.forgotten_at is not None) == 2


def test_every_fact_reads(ref_db: MemoryDB):
    store = FactStore(ref_db)
    facts = store.all_rows()
    rows = _raw_rows(ref_db, "memory_facts", "rowid")
    assert len(facts) == len(rows) == EXPECTED["counts"]["memory_facts"]
    by_id = {f.id: f for f in facts}
    for f in facts:
        row = rows[f.id]
        assert f.json_errors == []
        assert f.value == json.loads(row["value_json"])
        _check_fields(f, row)
        # Supersede chains point both ways.
        if f.superseded_by is not None:
            assert by_id[f.superseded_by].supersedes == f.id
    assert sum(1 for f in facts if f.pinned) == 2
    assert sum(1 for f in facts if f.forgotten_at is not None) == 3
    history = store.history("user", "timezone")
    assert [h.value for h in history] == ["Asia/Shanghai", "Asia/Shanghai", "Europe/Berlin"]
    assert history[0].active and not history[1].active
    assert store.get_fact("user", "timezone", bump=False).value == "Asia/Shanghai"
    assert store.get_fact("username", "handle", bump=False) is None  # forgotten
    assert by_id[history[0].id].last_accessed_at > by_id[history[0].id].created_at  # getFact bumped it
    assert store.get_fact("project.atlas", "rows", bump=False).value == 1e21
    assert store.get_fact("project.atlas", "zero", bump=False).value == 0
    assert (
        store.get_fact("project.atlas", "escape", bump=False).value
        == 'quote " backslash \\ tab \t line\u2028sep'
    )
    assert store.get_fact("self", "identity", bump=False).value["content"] == [
        "I keep context",
        "I report honestly",
    ]
    assert {f.fact_kind for f in facts} == {"state", "event"}


def test_every_skill_reads(ref_db: MemoryDB):
    skills = SkillStore(ref_db).list_every()
    rows = {r["name"]: r for r in _raw_rows(ref_db, "memory_skills", "rowid").values()}
    assert len(skills) == len(rows) == EXPECTED["counts"]["memory_skills"]
    for s in skills:
        row = rows[s.name]
        assert s.json_errors == []
        verification = None
        if s.name != "status-check":  # deliberately malformed there: read as "no verification"
            verification = None if row["verification"] is None else json.loads(row["verification"])
        history = [] if row["revision_history"] is None else json.loads(row["revision_history"])
        _check_fields(
            s,
            row,
            {
                "trigger_keywords": json.loads(row["trigger_keywords"]),
                "verification": verification,
                "tool_policy": None if row["tool_policy"] is None else json.loads(row["tool_policy"]),
                "revision_history": s.revision_history,
                "when_to_use": row["when_to_use"] or "",
            },
        )
        assert [r.model_dump(by_alias=True) for r in s.revision_history] == history
    assert {s.maturity for s in skills} == {"playbook", "draft", "confirmed", "stable", "deprecated"}
    assert {s.kind for s in skills} == {"positive", "negative"}
    recipe = next(s for s in skills if s.name == "database-migration")
    assert recipe.is_recipe and recipe.maturity == "draft"
    assert [r.reason for r in recipe.revision_history] == ["skill_repair:rs-001", "skill_repair:rs-002"]
    assert recipe.verification == {"kind": "compute_recheck", "check": "checksum of every table"}
    assert next(s for s in skills if s.name == "status-check").verification is None
    # The re-created skill has a higher rowid than every skill created before it.
    rowids = [s.rowid for s in skills]
    assert rowids == sorted(rowids)


def test_every_calendar_event_and_schedule_reads(ref_db: MemoryDB):
    events = CalendarStore(ref_db).list_all()
    rows = _raw_rows(ref_db, "memory_calendar", "rowid")
    assert len(events) == len(rows) == EXPECTED["counts"]["memory_calendar"]
    for e in events:
        _check_fields(e, rows[e.id])
    schedules = ScheduleStore(ref_db).list_all()
    rows = _raw_rows(ref_db, "memory_schedules", "rowid")
    assert len(schedules) == len(rows) == EXPECTED["counts"]["memory_schedules"]
    for s in schedules:
        row = rows[s.id]
        assert s.json_errors == []
        assert s.payload == json.loads(row["payload_json"])
        _check_fields(s, row, {"enabled": bool(row["enabled"])})
    with ref_db.lock:
        meta = ref_db.conn.execute("SELECT key, value FROM memory_meta").fetchall()
    assert [tuple(r) for r in meta] == [("schema_version", "31")]


def test_json_columns_are_byte_identical_to_core_stringify(ref_db: MemoryDB):
    """What JSON.stringify wrote is what core.jsutil.js_stringify writes for the same value."""
    columns = {
        "memory_facts": ["value_json"],
        "memory_actions": ["params_json"],
        "memory_skills": ["trigger_keywords", "verification", "tool_policy", "revision_history"],
        "memory_schedules": ["payload_json"],
        "memory_pursuits": ["constitution_red_lines"],
    }
    checked, malformed = 0, []
    for table, cols in columns.items():
        with ref_db.lock:
            rows = ref_db.conn.execute(f"SELECT rowid, {', '.join(cols)} FROM {table}").fetchall()
        for row in rows:
            for col in cols:
                text = row[col]
                if text is None:
                    continue
                try:
                    value = json.loads(text)
                except ValueError:
                    malformed.append((table, col))
                    continue
                assert js_stringify(value) == text, (table, row["rowid"], col)
                checked += 1
    assert checked > 100
    # Only the two deliberately malformed values (see the README) do not parse.
    assert sorted(malformed) == [("memory_actions", "params_json"), ("memory_skills", "verification")]


# ---------------------------------------------------------------------------------------------------
# Searches
# ---------------------------------------------------------------------------------------------------


def _assert_same_hits(
    got_ids: list[Any],
    got_keys: list[Any],
    exp_ids: list[Any],
    exp_keys: list[Any],
    boundary: list[Any] | None,
) -> None:
    """Same sort keys position by position; the same rows within each run of equal keys (any rows of
    the run when the page ends inside it)."""
    assert got_keys == exp_keys, (got_ids, exp_ids)
    assert len(set(got_ids)) == len(got_ids)
    n, i = len(exp_ids), 0
    while i < n:
        j = i
        while j < n and exp_keys[j] == exp_keys[i]:
            j += 1
        got, exp = got_ids[i:j], exp_ids[i:j]
        if j == n and boundary is not None:
            assert set(got) <= set(boundary), (got, boundary)
        else:
            assert sorted(got) == sorted(exp), (i, got, exp)
        i = j


def _probe_id(p: dict[str, Any]) -> str:
    opts = ",".join(f"{k}={v}" for k, v in p["options"].items() if k != "now")
    return f"{p['layer']}:{p['query']!r}" + (f"[{opts}]" if opts else "")


def _params(layer: str) -> list[Any]:
    out = []
    for p in PROBES:
        if p["layer"] != layer:
            continue
        out.append(pytest.param(p, id=_probe_id(p)))
    return out


def _search_messages(db: MemoryDB, p: dict[str, Any]) -> list[Any]:
    o = p["options"]
    return RawStore(db).search_messages(
        p["query"],
        since=o.get("since"),
        until=o.get("until"),
        session_id=o.get("sessionId"),
        session_ids=o.get("sessionIds"),
        limit=o.get("limit", 20),
    )


def test_probe_list_covers_the_cases():
    layers = {p["layer"] for p in PROBES}
    assert layers == {"messages", "notes", "skills"}
    modes = {(p["layer"], p["mode"]) for p in PROBES}
    for layer in layers:
        assert {(layer, "fts"), (layer, "like"), (layer, "empty")} <= modes
    # Equal timestamps inside a page and at a page boundary are both exercised.
    assert any(len(set(p["timestamps"])) < len(p["timestamps"]) for p in PROBES if p["layer"] == "messages")
    assert any(len(p.get("boundary_tie_ids", [])) > 1 for p in PROBES if p["layer"] == "messages")


@pytest.mark.parametrize("probe", _params("messages"))
def test_search_messages_gives_the_reference_hits(ref_db: MemoryDB, probe: dict[str, Any]):
    hits = _search_messages(ref_db, probe)
    _assert_same_hits(
        [m.id for m in hits],
        [m.timestamp for m in hits],
        probe["ids"],
        probe["timestamps"],
        probe.get("boundary_tie_ids"),
    )
    o = probe["options"]
    if o.get("limit", 20) > 0:
        page = RawStore(ref_db).search_page(
            probe["query"],
            since=o.get("since"),
            until=o.get("until"),
            session_id=o.get("sessionId"),
            session_ids=o.get("sessionIds"),
            limit=o.get("limit", 20),
        )
        assert page.error is None
        assert page.mode == probe["mode"]  # the same path: FTS, the LIKE fallback, or nothing to search


@pytest.mark.parametrize("probe", _params("notes"))
def test_notes_search_gives_the_reference_hits(ref_db: MemoryDB, probe: dict[str, Any]):
    hits = NotesStore(ref_db).search(probe["query"], probe["options"]["limit"])
    _assert_same_hits(
        [n.id for n in hits],
        [[n.importance, n.created_at] for n in hits],
        probe["ids"],
        probe["keys"],
        probe.get("boundary_tie_ids"),
    )


@pytest.mark.parametrize("probe", _params("skills"))
def test_skill_search_gives_the_reference_hits_in_order(ref_db: MemoryDB, probe: dict[str, Any]):
    o = probe["options"]
    hits = SkillStore(ref_db).search(probe["query"], o["limit"], now=o["now"])
    assert [s.name for s in hits] == probe["names"]
    assert [s.id for s in hits] == probe["ids"]


# ---------------------------------------------------------------------------------------------------
# Nothing is written
# ---------------------------------------------------------------------------------------------------


def test_browsing_and_searching_leave_the_file_unchanged(tmp_path: Path):
    path = _copy_fixture(tmp_path)
    before = _sha256(path)
    assert before == _sha256(REF_DB)
    db = MemoryDB.open(path)
    try:
        raw = RawStore(db)
        raw.list_sessions()
        raw.query_timeline(order="asc", limit=None)
        ActionStore(db).list(limit=None)
        NotesStore(db).list(limit=None)
        facts = FactStore(db)
        facts.all_rows()
        facts.get_fact("user", "timezone")  # the bump is skipped on a read-only file
        SkillStore(db).list_every()
        CalendarStore(db).list_all()
        ScheduleStore(db).list_all()
        for p in PROBES:
            o = p["options"]
            if p["layer"] == "messages":
                _search_messages(db, p)
            elif p["layer"] == "notes":
                NotesStore(db).search(p["query"], o["limit"])
            else:
                SkillStore(db).search(p["query"], o["limit"], now=o["now"])
        assert db.total_changes() == 0
    finally:
        db.close()
    assert _sha256(path) == before
    wal = Path(f"{path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
