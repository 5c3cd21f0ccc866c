"""The change set: known agent-like writes after a baseline, found exactly with a time baseline, with a
backup baseline, between two backups, and through ``philont-memory changes``."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core import curation
from core.actions import ActionStore
from core.calendar import CalendarStore
from core.changes import Cancelled, changes_against, changes_since
from core.changes.marks import ReviewMarks
from core.changes.model import CODES, render
from core.cli import main
from core.curation import facts as cfacts
from core.db import MemoryDB
from core.decay import forget_crossing_time
from core.facts import FactStore
from core.notes import NotesStore
from core.schedules import ScheduleStore
from core.skills import SkillStore
from core.timeline import RawStore
from tests.support import FIXED_NOW

DAY = 86_400_000
HOUR = 3_600_000
T1 = FIXED_NOW
T0 = T1 - DAY
ACTOR = "tester@philont-desktop"
VERIFY = {"kind": "tool_result_ok"}


def _stamp(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y%m%dT%H%M%S")


def _outcome(db, skill: str, tool: str, ok: bool, at: int) -> None:
    ActionStore(db).append(
        "global", tool, {"skill": skill}, "ok" if ok else "boom", ok, at, linked_skill=skill
    )
    SkillStore(db).record_skill_outcome(skill, ok, at)


def _before_baseline(db) -> dict:
    """The memory as the agent left it before ``T0``."""
    fs, sk, raw = FactStore(db), SkillStore(db), RawStore(db)
    ids = {}
    fs.store_fact("user", "name", "Lin", confidence=0.9, now=T0 - 10 * DAY)
    ids["plan"] = fs.store_fact("project", "old_plan", "v1 first", now=T0 - 9 * DAY).id
    ids["db"] = fs.store_fact("project", "db", "sqlite", now=T0 - 8 * DAY).id
    ids["lang"] = fs.store_fact("project", "lang", "python", now=T0 - 8 * DAY).id
    # context.* decays with tau = 1 day: 2.5 days old at T0 (score 0.082), below 0.05 before T1.
    ids["topic"] = fs.store_fact("context", "topic", "backups", now=T0 - int(2.5 * DAY)).id
    sk.create_skill(
        "deploy", "deploy the app", ["deploy"], "run deploy", verification=VERIFY, now=T0 - 20 * DAY
    )
    sk.create_skill("backup-db", "back up", ["backup"], "run backup", now=T0 - 20 * DAY)
    sk.create_skill(
        "fetch-report", "fetch the report", ["report"], "curl report", verification=VERIFY, now=T0 - 20 * DAY
    )
    _outcome(db, "deploy", "deploy_tool", True, T0 - 5 * DAY)
    _outcome(db, "backup-db", "backup_tool", True, T0 - 5 * DAY)
    _outcome(db, "backup-db", "backup_tool", True, T0 - 4 * DAY)
    ns = NotesStore(db)
    ids["note_old"] = ns.upsert(None, "old note about backups", 0.4, created_at=T0 - 6 * DAY).id
    ids["note_sum"] = ns.upsert(
        "session-summary-x", "summary: talked about plans", 0.5, created_at=T0 - 6 * DAY
    ).id
    raw.append_message("global", "user", "an old message", T0 - 3 * DAY, "web:a")
    return ids


def _agent_writes(db, ids: dict) -> None:
    """What the agent (and one person, through curation) did in ``(T0, T1]``."""
    fs, sk, raw = FactStore(db), SkillStore(db), RawStore(db)
    fs.store_fact("user", "city", "Chengdu", confidence=0.8, now=T0 + 1 * HOUR)
    fs.store_fact("user", "name", "Lin Xiao", confidence=0.95, now=T0 + 2 * HOUR)
    fs.soft_forget(ids["plan"], at=T0 + 3 * HOUR)
    _outcome(db, "deploy", "deploy_tool", True, T0 + 4 * HOUR)  # draft -> confirmed
    ns = NotesStore(db)
    ids["note_new"] = ns.upsert(None, "new note: the agent learned a thing", 0.7, created_at=T0 + 5 * HOUR).id
    ns.forget(ids["note_old"], at=T0 + 6 * HOUR)
    for h in (7, 7.25, 7.5):  # confirmed -> draft -> draft -> deprecated
        _outcome(db, "backup-db", "backup_tool", False, T0 + int(h * HOUR))
    sk.revise_recipe(
        "fetch-report",
        reason="skill_repair:i1: the url moved",
        action_template="curl report v2",
        now=T0 + 8 * HOUR,
    )
    sk.create_skill("summarize-pdf", "summaries", ["pdf"], "pdftotext", now=T0 + 9 * HOUR)
    ids["event"] = (
        CalendarStore(db).create("Dentist", T1 + 2 * DAY, timezone="Asia/Shanghai", now=T0 + 10 * HOUR).id
    )
    ids["task"] = ScheduleStore(db).create("water plants", T1 + DAY, now=T0 + 11 * HOUR).id
    for i, (origin, role) in enumerate(
        [
            ("web:a", "user"),
            ("web:a", "assistant"),
            ("web:a", "user"),
            ("wechat:b", "user"),
            ("wechat:b", "assistant"),
        ]
    ):
        raw.append_message("global", role, f"message {i}", T0 + 12 * HOUR + i * 60_000, origin)
    # A person pins project.db in the desktop app (audited).
    cfacts.pin(ids["db"]).perform(db, ACTOR, now=T0 + 13 * HOUR)
    # In-place writes that leave no time in the row: seen only against a backup.
    fs.set_tau(ids["lang"], 90)
    ns.upsert(ids["note_sum"], "summary: talked about plans and the release", 0.5)


@pytest.fixture
def world(tmp_path):
    """A database with a backup taken at T0 (named for T0) and the writes of the window applied."""
    path = tmp_path / "memory" / "memory.sqlite"
    db = MemoryDB.create(path, now=T0 - 30 * DAY)
    ids = _before_baseline(db)
    raw_backup = db.backup()
    backup = raw_backup.with_name(f"memory-{_stamp(T0)}.sqlite")
    os.replace(raw_backup, backup)
    _agent_writes(db, ids)
    db.close()
    return path, backup, ids


def _crossing(path: Path, fid: str) -> int:
    with MemoryDB.open(path) as db:
        f = FactStore(db).get_by_id(fid)
    t = forget_crossing_time(f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days)
    assert T0 < t <= T1
    return t


def _common(path: Path, ids: dict) -> set[tuple]:
    """What both baselines find: (code, target label, at, dating)."""
    return {
        ("change.fact.new", "user.city", T0 + 1 * HOUR, "exact"),
        ("change.fact.replaced", "user.name", T0 + 2 * HOUR, "exact"),
        ("change.fact.forgotten", "project.old_plan", T0 + 3 * HOUR, "exact"),
        ("change.fact.decayed", "context.topic", _crossing(path, ids["topic"]), "derived"),
        ("change.fact.pinned", "project.db", T0 + 13 * HOUR, "exact"),
        ("change.skill.maturity", "deploy", T0 + 4 * HOUR, "derived"),
        ("change.skill.counters", "deploy", T0 + 4 * HOUR, "derived"),
        ("change.skill.deprecated", "backup-db", T0 + int(7.5 * HOUR), "derived"),
        ("change.skill.counters", "backup-db", T0 + int(7.5 * HOUR), "derived"),
        ("change.skill.revised", "fetch-report", T0 + 8 * HOUR, "exact"),
        ("change.skill.new", "summarize-pdf", T0 + 9 * HOUR, "exact"),
        ("change.note.new", "new note: the agent learned a thing", T0 + 5 * HOUR, "exact"),
        ("change.note.forgotten", "old note about backups", T0 + 6 * HOUR, "exact"),
        ("change.timeline.conversation", "web:a", T0 + 12 * HOUR + 2 * 60_000, "exact"),
        ("change.timeline.conversation", "wechat:b", T0 + 12 * HOUR + 4 * 60_000, "exact"),
        ("change.actions.tool", "deploy_tool", T0 + 4 * HOUR, "exact"),
        ("change.actions.tool", "backup_tool", T0 + int(7.5 * HOUR), "exact"),
        ("change.actions.started_failing", "backup_tool", T0 + 7 * HOUR, "exact"),
        ("change.calendar.new", "Dentist", T0 + 10 * HOUR, "exact"),
        ("change.schedule.new", "water plants", T0 + 11 * HOUR, "exact"),
    }


def _found(cs) -> set[tuple]:
    return {(it.code, it.target.label, it.at, it.dating) for it in cs.items}


def _by(cs, code: str, label: str):
    return next(it for it in cs.items if it.code == code and it.target.label == label)


def test_time_baseline_finds_exactly_the_dated_changes(world):
    path, _backup, ids = world
    with MemoryDB.open(path) as db:
        cs = changes_since(db, T0, until=T1)
    assert _found(cs) == _common(path, ids)
    assert cs.baseline.kind == "time" and cs.until == T1
    assert [n.code for n in cs.notices] == ["change.notice.time_blind"]
    rep = _by(cs, "change.fact.replaced", "user.name")
    assert rep.params["old"] == "Lin" and rep.params["new"] == "Lin Xiao"
    assert (rep.params["old_confidence"], rep.params["new_confidence"]) == (0.9, 0.95)
    assert rep.before["createdAt"] == T0 - 10 * DAY and rep.after["createdAt"] == T0 + 2 * HOUR
    assert rep.summary == "user.name: Lin → Lin Xiao (confidence 0.9 → 0.95)"
    mat = _by(cs, "change.skill.maturity", "deploy")
    assert mat.params["path"] == ["draft", "confirmed"]
    assert [s["actionId"] for s in mat.details["steps"]] != [None]
    dep = _by(cs, "change.skill.deprecated", "backup-db")
    assert dep.params["from"] == "confirmed"
    assert [s["after"] for s in dep.details["steps"]] == ["draft", "deprecated"]
    assert _by(cs, "change.skill.counters", "backup-db").params == {
        "name": "backup-db",
        "successes": 0,
        "failures": 3,
        "uses": None,
    }
    rev = _by(cs, "change.skill.revised", "fetch-report")
    assert rev.params["reason"] == "skill_repair:i1: the url moved"
    assert rev.before["actionTemplate"] == "curl report" and rev.after["actionTemplate"] == "curl report v2"
    assert (
        rev.word_diff()
        == rev.to_json()["details"]["diff"]
        == {
            "old": [["curl report", False]],
            "new": [["curl report ", False], ["v2", True]],
        }
    )
    conv = _by(cs, "change.timeline.conversation", "web:a")
    assert (conv.params["messages"], conv.params["user"], conv.params["rank"]) == (3, 2, 1)
    pin = _by(cs, "change.fact.pinned", "project.db")
    assert pin.actor == ACTOR
    fail = _by(cs, "change.actions.started_failing", "backup_tool")
    assert (fail.params["failures"], fail.params["calls"], fail.params["previous_calls"]) == (3, 3, 2)


def test_backup_baseline_adds_the_changes_the_rows_do_not_date(world):
    path, backup, ids = world
    before = sorted(p.name for p in backup.parent.iterdir())
    data = backup.read_bytes()
    progress: list[tuple[int, int]] = []
    cs = changes_against(
        backup, db_path=path, now=T1, chunk_rows=2, progress=lambda d, t: progress.append((d, t))
    )
    undated = {
        ("change.fact.tau", "project.lang", None, "unknown"),
        ("change.note.edited", "summary: talked about plans and the release", None, "unknown"),
    }
    assert _found(cs) == _common(path, ids) | undated
    assert cs.baseline.kind == "backup" and cs.baseline.since == T0 and cs.notices == []
    tau = _by(cs, "change.fact.tau", "project.lang")
    assert (tau.params["old_tau"], tau.params["new_tau"]) == (None, 90)
    counters = _by(cs, "change.skill.counters", "deploy")
    assert (counters.params["successes"], counters.params["failures"], counters.params["uses"]) == (1, 0, 1)
    # Streaming: progress rises to the end; nothing appears beside the backup, whose bytes are kept.
    assert len(progress) > 10 and progress[-1][0] == progress[-1][1]
    assert [d for d, _ in progress] == sorted(d for d, _ in progress)
    assert sorted(p.name for p in backup.parent.iterdir()) == before
    assert backup.read_bytes() == data


def test_same_change_same_id_from_either_baseline(world):
    path, backup, _ids = world
    with MemoryDB.open(path) as db:
        by_time = {it.id for it in changes_since(db, T0, until=T1).items}
    by_backup = changes_against(backup, db_path=path, now=T1).items
    assert {it.id for it in by_backup if it.dating != "unknown"} == by_time
    assert len({it.id for it in by_backup}) == len(by_backup)


def test_two_backups_against_each_other(world, tmp_path):
    path, backup, ids = world
    with MemoryDB.open(path, writable=True) as db:
        later = db.backup(tmp_path / "elsewhere")
    named = later.with_name(f"memory-{_stamp(T1)}.sqlite")
    os.replace(later, named)
    cs = changes_against(backup, other=named)
    assert cs.baseline.kind == "backups" and cs.until == T1
    assert {(c, lbl) for c, lbl, _a, _d in _found(cs)} == {
        (c, lbl) for c, lbl, _a, _d in _common(path, ids)
    } | {
        ("change.fact.tau", "project.lang"),
        ("change.note.edited", "summary: talked about plans and the release"),
    }


def test_cancel_stops_a_comparison(world):
    path, backup, _ids = world
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(Cancelled):
        changes_against(backup, db_path=path, now=T1, chunk_rows=1, cancel=cancel)


def test_layers_filter_and_unknown_layer(world):
    path, _backup, _ids = world
    with MemoryDB.open(path) as db:
        cs = changes_since(db, T0, until=T1, layers=["notes", "facts"])
    assert cs.layers == ("facts", "notes") and {it.layer for it in cs.items} == {"facts", "notes"}
    with MemoryDB.open(path) as db, pytest.raises(Exception) as err:
        changes_since(db, T0, layers=["memes"])
    assert getattr(err.value, "code", "") == "changes.layer_unknown"


def test_every_change_has_an_english_summary(world):
    path, backup, _ids = world
    with MemoryDB.open(path) as db:
        items = changes_since(db, T0, until=T1).items + changes_against(backup, db_path=path, now=T1).items
    for it in items:
        assert it.code in CODES and it.summary != it.code, it.code
        assert it.notice().code == it.code and it.notice().message == it.summary
    assert render("change.no_such_code", {}) == "change.no_such_code"
    assert render("change.fact.new", {}) == "change.fact.new"  # missing parameters: the code, never a crash


# -- the command line -------------------------------------------------------------------------------------------


def _cli_json(capsys, *args: str) -> dict:
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_time_and_backup_baselines_match_the_api(world, capsys):
    path, backup, ids = world
    out = _cli_json(capsys, "--db", str(path), "--json", "--now", str(T1), "changes", "--since", str(T0))
    got = {(c["code"], c["target"]["label"], c["at"], c["dating"]) for c in out["changes"]}
    assert got == _common(path, ids)
    assert out["baseline"]["kind"] == "time" and out["counts"]["facts"] == 5
    first = out["changes"][0]
    assert set(first) == {
        "id",
        "layer",
        "code",
        "summary",
        "params",
        "target",
        "at",
        "dating",
        "actor",
        "before",
        "after",
        "details",
    }
    out = _cli_json(
        capsys,
        "--db",
        str(path),
        "--json",
        "--now",
        str(T1),
        "changes",
        "--against",
        backup.name,
        "--layer",
        "notes",
    )
    assert {(c["code"], c["dating"]) for c in out["changes"]} == {
        ("change.note.new", "exact"),
        ("change.note.forgotten", "exact"),
        ("change.note.edited", "unknown"),
    }


def test_cli_default_baseline_is_the_review_mark(world, capsys):
    path, _backup, _ids = world
    out = _cli_json(capsys, "--db", str(path), "--json", "--now", str(T1), "changes", "--layer", "notes")
    assert out["baseline"]["since"] == T1 - 7 * DAY  # no mark: the last 7 days
    ReviewMarks().mark_all(path, T0 + 5 * HOUR + 1)
    out = _cli_json(capsys, "--db", str(path), "--json", "--now", str(T1), "changes", "--layer", "notes")
    assert out["baseline"]["since"] == T0 + 5 * HOUR + 1
    assert [c["code"] for c in out["changes"]] == ["change.note.forgotten"]


def test_cli_text_output_and_usage_errors(world, capsys):
    path, backup, _ids = world
    assert main(["--db", str(path), "--now", str(T1), "changes", "--since", str(T0), "--layer", "facts"]) == 0
    text = capsys.readouterr().out
    assert "facts: 5 changes" in text
    assert "2026-06-14 14:00Z  user.name: Lin → Lin Xiao (confidence 0.9 → 0.95)" in text
    assert "by tester@philont-desktop" in text
    assert main(["--db", str(path), "changes", "--to", str(backup)]) == 2
    assert "--to needs --against" in capsys.readouterr().err
    assert main(["--db", str(path), "changes", "--since", "x", "--against", str(backup)]) == 2
    assert main(["--db", str(path), "changes", "--against", "missing.sqlite"]) == 1


def test_cli_escapes_control_characters_of_stored_text(tmp_path, capsys):
    path = tmp_path / "m.sqlite"
    with MemoryDB.create(path, now=T0 - DAY) as db:
        FactStore(db).store_fact("user", "evil\x1b[31m", "red\x07", now=T0 + HOUR)
    assert main(["--db", str(path), "--now", str(T1), "changes", "--since", str(T0), "--layer", "facts"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "evil\\x1b[31m" in out


def test_opening_never_writes_the_database(world):
    path, backup, _ids = world
    snap = {
        p.name: p.read_bytes() for p in path.parent.iterdir() if p.is_file() and not p.name.endswith("-shm")
    }
    with MemoryDB.open(path) as db:
        changes_since(db, T0, until=T1)
    changes_against(backup, db_path=path, now=T1)
    for name, data in snap.items():
        assert (path.parent / name).read_bytes() == data, name


def test_curation_undo_shows_as_a_person_change(world):
    path, _backup, ids = world
    with MemoryDB.open(path, writable=True) as db:
        edit = cfacts.unpin(ids["db"]).perform(db, ACTOR, now=T1 - HOUR)
        curation.undo(db, edit.id, ACTOR, now=T1 - HOUR // 2)
    with MemoryDB.open(path) as db:
        cs = changes_since(db, T1 - 2 * HOUR, until=T1, layers=["facts"])
    assert [(it.code, it.at, it.actor) for it in cs.items] == [
        ("change.fact.pinned", T1 - HOUR // 2, ACTOR),
        ("change.fact.unpinned", T1 - HOUR, ACTOR),
    ]


def test_a_missing_backup_is_a_clear_error(world, tmp_path):
    path, _backup, _ids = world
    with pytest.raises(Exception) as err:
        changes_against(tmp_path / "nope.sqlite", db_path=path)
    assert getattr(err.value, "code", "") == "db.open.missing"


def test_decay_prefilter_loses_no_crossing(demo_db_path, monkeypatch):
    """The SQL prefilter of threshold crossings finds what checking every active fact finds."""
    from core.changes import facts as cf

    def decayed(since: int, until: int) -> set[tuple]:
        with MemoryDB.open(demo_db_path) as db:
            cs = changes_since(db, since, until=until, layers=["facts"])
        return {(it.target.id, it.at) for it in cs.items if it.code == "change.fact.decayed"}

    windows = [(T1 - n * DAY, T1 - m * DAY) for n, m in ((1, 0), (7, 0), (30, 20), (90, 60), (400, 0))]
    windows += [(T1, T1 + 30 * DAY), (T1 + 100 * DAY, T1 + 400 * DAY)]
    found = {w: decayed(*w) for w in windows}
    assert sum(len(v) for v in found.values()) > 20
    monkeypatch.setattr(cf, "_NEAR", "")
    for w in windows:
        assert decayed(*w) == found[w], w


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_never_opened_as_a_backup(world, tmp_path):
    path, _backup, _ids = world
    fifo = tmp_path / "memory-20260614T120000.sqlite"
    os.mkfifo(fifo)
    with pytest.raises(Exception) as err:
        changes_against(fifo, db_path=path)  # would block forever if it were opened
    assert getattr(err.value, "code", "").startswith(("db.open", "backup.not_regular"))


def test_sparse_message_ids_are_compared_in_a_few_chunks(tmp_path):
    """Integer keys are cut by value from the next key either side has: a gap of 10^15 ids costs nothing."""
    path = tmp_path / "memory" / "memory.sqlite"
    with MemoryDB.create(path, now=T0 - DAY) as db:
        RawStore(db).append_message("global", "user", "before", T0 - HOUR, "web:a")
        raw_backup = db.backup()
        backup = raw_backup.with_name(f"memory-{_stamp(T0)}.sqlite")
        os.replace(raw_backup, backup)
        with db.write() as conn:
            conn.execute(
                "INSERT INTO memory_raw_messages (id, session_id, role, content, timestamp, origin_session_id) "
                "VALUES (?, 'global', 'user', 'far away', ?, 'web:a')",
                (10**15, T0 + HOUR),
            )
    ticks: list[int] = []
    cs = changes_against(
        backup,
        db_path=path,
        now=T1,
        layers=["timeline"],
        chunk_rows=10,
        progress=lambda d, t: ticks.append(d),
    )
    conv = _by(cs, "change.timeline.conversation", "web:a")
    assert (conv.params["messages"], conv.after["lastId"]) == (1, 10**15)
    assert len(ticks) < 10


def test_schedules_paused_after_failures_and_calendar_edits(tmp_path):
    """A task the scheduler paused after failing runs (dated by its newest failed run); an event changed in
    place (seen only against a backup, at an unknown time); a task deleted in the app (audited)."""
    from core.curation import calendar as ccal

    path = tmp_path / "memory" / "memory.sqlite"
    with MemoryDB.create(path, now=T0 - DAY) as db:
        event = CalendarStore(db).create("Dentist", T1 + DAY, timezone="Asia/Shanghai", now=T0 - DAY)
        task = ScheduleStore(db).create("water plants", T1 + DAY, cron_expr="interval:3600000", now=T0 - DAY)
        gone = ScheduleStore(db).create("old reminder", T1 + DAY, now=T0 - DAY)
        raw_backup = db.backup()
        backup = raw_backup.with_name(f"memory-{_stamp(T0)}.sqlite")
        os.replace(raw_backup, backup)
        with db.write() as conn:
            conn.execute(
                "UPDATE memory_schedules SET consecutive_failures = 3, paused_until = ?, last_run_at = ? WHERE id = ?",
                (T1 + DAY, T0 + 20 * HOUR, task.id),
            )
            conn.execute(
                "INSERT INTO schedule_outcomes (id, schedule_id, fired_at, duration_ms, outcome, text_summary, "
                "created_at) VALUES ('o1', ?, ?, 100, 'failed', 'HTTP 500', ?)",
                (task.id, T0 + 19 * HOUR, T0 + 19 * HOUR),
            )
            conn.execute("UPDATE memory_calendar SET title = 'Dentist (moved)' WHERE id = ?", (event.id,))
        ccal.delete_schedule(gone.id).perform(db, ACTOR, now=T0 + 21 * HOUR)
    layers = ["schedules", "calendar"]
    with MemoryDB.open(path) as db:
        by_time = changes_since(db, T0, until=T1, layers=layers)
    assert {(it.code, it.target.label, it.at, it.dating) for it in by_time.items} == {
        ("change.schedule.paused", "water plants", T0 + 19 * HOUR, "derived"),
        ("change.schedule.removed", "old reminder", T0 + 21 * HOUR, "exact"),
    }
    by_backup = changes_against(backup, db_path=path, now=T1, layers=layers)
    assert {(it.code, it.target.label, it.at, it.dating) for it in by_backup.items} == {
        ("change.schedule.paused", "water plants", T0 + 19 * HOUR, "derived"),
        ("change.schedule.removed", "old reminder", T0 + 21 * HOUR, "exact"),
        ("change.calendar.changed", "Dentist (moved)", None, "unknown"),
    }
    assert _by(by_backup, "change.calendar.changed", "Dentist (moved)").params["fields"] == ["title"]


# -- backups that are not plain closed files -------------------------------------------------------------------


def _note_only_in_wal(backup: Path, dest: Path) -> None:
    """``dest`` (+ ``-wal``): a copy of ``backup`` whose ``-wal`` holds a committed note the main file lacks,
    as a file copied with its ``-wal`` while the writer had not checkpointed."""
    import shutil
    import sqlite3

    work = dest.with_name("work.sqlite")
    shutil.copyfile(backup, work)
    conn = sqlite3.connect(work)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.execute(
            "INSERT INTO memory_notes (id, content, importance, created_at) "
            "VALUES ('wal-note', 'written only in the wal', 0.5, ?)",
            (T0 - HOUR,),
        )
        conn.commit()
        shutil.copyfile(work, dest)
        shutil.copyfile(str(work) + "-wal", str(dest) + "-wal")
    finally:
        conn.close()


def test_rows_committed_in_a_backups_wal_are_compared(world, tmp_path):
    import tempfile

    path, backup, _ids = world
    walled = tmp_path / "copies" / backup.name
    walled.parent.mkdir()
    _note_only_in_wal(backup, walled)
    beside = {p.name: p.read_bytes() for p in walled.parent.iterdir() if p.name.startswith(walled.name)}
    assert set(beside) == {walled.name, walled.name + "-wal"}
    cs = changes_against(walled, db_path=path, now=T1, layers=["notes"])
    assert ("change.note.removed", "written only in the wal") in {
        (it.code, it.params.get("preview")) for it in cs.items
    }
    # Compared with the database's own backup taken later, the wal's note is gone there as well.
    cs = changes_against(backup, other=walled, layers=["notes"])
    assert "wal-note" in {it.target.id for it in cs.items if it.code == "change.note.new"}
    # Nothing was created or changed beside the backup, and the private copy is gone.
    now_beside = {p.name: p.read_bytes() for p in walled.parent.iterdir() if p.name.startswith(walled.name)}
    assert now_beside == beside
    assert list(Path(tempfile.gettempdir()).glob("philont-compare-*")) == []


def test_a_damaged_backup_is_an_error_naming_it(world, tmp_path):
    import sqlite3

    path, backup, _ids = world
    with MemoryDB.open(path, writable=True) as db:
        FactStore(db).store_fact("user", "bulk", "x" * 3000, now=T1)
    damaged = tmp_path / "damaged.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("VACUUM INTO ?", (str(damaged),))
    conn.close()
    conn = sqlite3.connect(damaged)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'memory_facts'").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(damaged.read_bytes())
    data[(root - 1) * size : root * size] = b"\xff" * size
    damaged.write_bytes(bytes(data))
    for kw in ({"db_path": path}, {"other": backup}):
        with pytest.raises(Exception) as err:
            changes_against(damaged, **kw)
        assert getattr(err.value, "code", "") == "changes.backup_unreadable"
        assert err.value.params["path"] == str(damaged) and str(damaged) in str(err.value)
    with pytest.raises(Exception) as err:
        changes_against(backup, other=damaged)
    assert getattr(err.value, "code", "") == "changes.backup_unreadable"
    assert err.value.params["path"] == str(damaged)


def test_a_backup_that_is_not_a_memory_file_is_an_error_naming_it(world, tmp_path, capsys):
    import sqlite3

    path, backup, _ids = world
    other = tmp_path / "photos.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()
    conn.close()
    for kw in ({"db_path": path}, {"other": backup}):
        with pytest.raises(Exception) as err:
            changes_against(other, **kw)
        assert getattr(err.value, "code", "") == "changes.backup_not_memory"
        assert err.value.params == {"path": str(other)}
    assert main(["--db", str(path), "changes", "--against", str(other)]) == 1
    assert f"The backup {other} is not a memory database" in capsys.readouterr().err


def test_two_files_that_share_no_rows_say_so(world, tmp_path, capsys):
    path, backup, _ids = world
    stranger = tmp_path / "stranger" / "memory.sqlite"
    with MemoryDB.create(stranger, now=T0 - DAY) as db:
        FactStore(db).store_fact("user", "name", "Somebody else", now=T0)
        NotesStore(db).upsert(None, "another agent's note", 0.5, created_at=T0)
    cs = changes_against(stranger, db_path=path, now=T1)
    found = [n for n in cs.notices if n.code == "change.notice.unrelated"]
    assert len(found) == 1
    assert found[0].params["shared"] == 0 and found[0].params["baseline"] == str(stranger)
    assert found[0].params["baseline_rows"] == 2 and found[0].params["other_rows"] > 2
    # A backup of the same memory shares its rows: no such notice.
    cs = changes_against(backup, db_path=path, now=T1)
    assert "change.notice.unrelated" not in {n.code for n in cs.notices}
    assert main(["--db", str(path), "--now", str(T1), "changes", "--against", str(stranger)]) == 0
    assert "share no rows" in capsys.readouterr().out


def test_cli_threshold_must_be_a_finite_number(world, capsys):
    path, _backup, _ids = world
    for bad in ("nan", "inf", "Infinity", "-nan"):
        assert main(["--db", str(path), "changes", f"--threshold={bad}"]) == 2, bad
        assert "--threshold" in capsys.readouterr().err
    assert main(["--db", str(path), "--now", str(T1), "changes", "--threshold", "0.1"]) == 0
