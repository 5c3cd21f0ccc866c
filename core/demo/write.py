"""Writing the planned memory through the stores, layer by layer, in one transaction."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core import schema
from core.actions import ActionStore
from core.calendar import CalendarStore
from core.db import MemoryDB
from core.demo import agenda, factbook, planner, skillbook, skillruns, stories
from core.demo.chat import Conv
from core.demo.conversations import render_run, run_specs
from core.demo.skillbook import SkillSpec
from core.demo.stories import FactOp
from core.demo.text import MINUTE_MS
from core.facts import FactStore
from core.notes import NotesStore
from core.schedules import ScheduleStore
from core.skills import SkillStore
from core.timeline import RawStore

ProgressFn = Callable[[str, int, int], None]
MsgRow = planner.MsgRow
ActionSpec = planner.ActionSpec


@dataclass
class Sizes:
    messages: int
    actions: int
    notes: int
    facts: int
    skills: int
    calendar: int
    schedules: int


@dataclass
class Plan:
    """Everything planned before the first write (no database needed)."""

    fixed: list[Conv] = field(default_factory=list)
    effects: stories.Effects = field(default_factory=stories.Effects)
    specs: list[SkillSpec] = field(default_factory=list)
    history: skillruns.History = field(default_factory=skillruns.History)
    fact_ops: list[FactOp] = field(default_factory=list)
    extra_schedules: list[tuple[dict[str, Any], int]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)


def make_plan(rng: Callable[[str], random.Random], sizes: Sizes, start: int, now: int) -> Plan:
    """The stories, skills, facts, reminders and calendar entries, with the conversations behind them."""
    p = Plan()
    convs, p.effects = stories.render_episodes(rng("stories"), now, start)
    p.fixed += convs
    r = rng("skills")
    specs = skillbook.curated_skills(r, now)
    specs = specs[: sizes.skills]
    specs += skillbook.bulk_skills(r, sizes.skills - len(specs), {s.name for s in specs}, start, now)
    p.specs = specs
    outcomes = sum(1 for s in specs if not s.curated for _t, op, _a in s.steps if op in ("ok", "fail"))
    conv_p = min(0.5, 0.06 * (sizes.messages / 6.5) / max(1, outcomes))
    p.history = skillruns.plan_histories(rng("skill-runs"), specs, now, conv_p)
    p.fixed += p.history.convs
    p.fact_ops, talks = _plan_facts(rng("facts"), sizes.facts, start, now, p)
    r = rng("talks")
    p.fixed += [factbook.render_talk(r, talk, now) for talk in talks]
    r = rng("agenda")
    extra = max(0, sizes.schedules - len(agenda.schedule_specs()))
    p.extra_schedules, convs = agenda.extra_reminders(r, extra, start, now)
    p.fixed += convs
    p.events, convs = agenda.plan_events(r, sizes.calendar, start, now, p.effects.events)
    p.fixed += convs
    p.fixed = [c for c in p.fixed if c.msgs and c.msgs[0][2] >= start]
    return p


def _plan_facts(
    rng: random.Random, rows: int, start: int, now: int, p: Plan
) -> tuple[list[FactOp], list[factbook.Talk]]:
    ops = sorted(factbook.curated_ops(now, start) + p.effects.facts + p.history.facts, key=lambda o: o[0])
    kept: list[FactOp] = []
    stored = 0
    for op in ops:  # a small memory keeps the oldest curated facts
        if op[1] in ("store", "self"):
            if stored >= rows:
                continue
            stored += 1
        kept.append(op)
    taken = {(o[2][0], o[2][1]) for o in kept if o[1] == "store"}
    bulk, talks = factbook.bulk_facts(rng, rows - stored, start, now, taken)
    return kept + bulk, talks


# -- writing ---------------------------------------------------------------------------------------------------


def bulk_load_messages(
    db: MemoryDB, raw: RawStore, rows: list[MsgRow], progress: ProgressFn | None = None, batch: int = 100_000
) -> int:
    """Append ``rows`` through :meth:`RawStore.append_many` and index them with one FTS ``rebuild``.

    The raw-message FTS insert trigger (named by :data:`core.schema.FTS_TABLES`) is dropped for the
    load, recreated from :data:`core.schema.TRIGGER_DDL` and the index rebuilt from the content table,
    all in the caller's transaction: nobody ever sees messages without their index. A trigram index
    built in one pass is about three times faster than row-by-row trigger inserts.
    """
    fts = next(f for f in schema.FTS_TABLES if f.content_table == "memory_raw_messages")
    trigger = next(t for t in fts.triggers if t.endswith("_ai"))
    done = 0
    with db.write() as conn:
        conn.execute(f'DROP TRIGGER IF EXISTS "{trigger}"')
        for i in range(0, len(rows), batch):
            done += raw.append_many(rows[i : i + batch], chunk_size=batch)
            if progress is not None:
                progress("messages", done, len(rows))
        conn.execute(schema.TRIGGER_DDL[trigger].strip())
        if progress is not None:
            progress("fts", 0, 1)
        conn.execute(f"INSERT INTO {fts.name}({fts.name}) VALUES('rebuild')")
        if progress is not None:
            progress("fts", 1, 1)
    return done


def write_timeline(
    db: MemoryDB, tl: planner.Timeline, now: int, rng: random.Random, progress: ProgressFn | None
) -> int:
    raw = RawStore(db)
    for sid in sorted(tl.sessions, key=lambda s: (tl.sessions[s][0], s)):
        raw.start_session(sid, started_at=tl.sessions[sid][0])
    n = bulk_load_messages(db, raw, tl.rows, progress)
    named = sorted((s for s in tl.sessions if not s.startswith("system:")), key=lambda s: tl.sessions[s][0])
    for sid in named[:-1]:
        raw.end_session(sid, at=min(now - 1, tl.sessions[sid][1] + int((1 + rng.random() * 20) * MINUTE_MS)))
    return n


def write_skills(
    db: MemoryDB, specs: list[SkillSpec], events: list[skillbook.Event], rng: random.Random
) -> None:
    """Create the skills, then replay their histories through the store (counters and grades follow)."""
    store = SkillStore(db)
    for spec in sorted(specs, key=lambda s: s.created):
        store.create_skill(
            spec.name, spec.description, spec.keywords, spec.template, kind=spec.kind, source=spec.source,
            maturity=spec.maturity, when_to_use=spec.when, verification=spec.verification,
            tool_policy=spec.policy, now=spec.created,
        )  # fmt: skip
    for t, name, op, args in events:
        if op == "o":
            store.record_skill_outcome(name, args[0], at=t)
        elif op == "u":
            store.record_usage(name, at=t)
        elif op == "m":
            store.set_maturity(name, args[0])
        elif op == "r":
            store.revise_recipe(name, reason=args[0], action_template=args[1], now=t)
    offerable = [s.name for s in specs if s.kind == "positive" and s.maturity != "playbook"]
    for _ in range(max(10, len(specs) // 2) if offerable else 0):
        shown = rng.sample(offerable, min(10, len(offerable)))
        store.record_skills_offered(shown, shown[: int(rng.random() * 3)])


def _fit(rng: random.Random, rows: list[ActionSpec], room: int) -> list[ActionSpec]:
    if len(rows) <= room:
        return rows
    keep = sorted(rng.sample(range(len(rows)), max(0, room)))
    return [rows[i] for i in keep]


def write_actions(
    db: MemoryDB, rng: random.Random, want: int, linked: list[ActionSpec], seen: list[ActionSpec],
    unseen: list[ActionSpec], start: int, now: int, progress: ProgressFn | None,
) -> int:  # fmt: skip
    """The action log: every linked action (each skill outcome has its action), then the calls the timeline
    shows, then calls no message shows, then background work, up to ``want`` rows."""
    seen = _fit(rng, seen, want - len(linked))
    others = seen + _fit(rng, unseen, want - len(linked) - len(seen))
    background: list[ActionSpec] = []
    _specs, autonomous = run_specs()
    for _ in range(want - len(linked) - len(others)):
        t = start + int(rng.random() * (now - start - MINUTE_MS))
        conv = render_run(
            rng, autonomous[int(rng.random() * len(autonomous))], "en", t, now, "", "autonomous"
        )
        for ts, tool, params, result, ok, _skill in conv.calls:
            background.append((ts, schema.GLOBAL_SESSION_ID, tool, params, result, ok, "autonomous", None))
    rows = sorted(linked + others + background, key=lambda a: a[0])
    store = ActionStore(db)
    for i in range(0, len(rows), 50_000):
        store.append_many([(sid, tool, params, result, ok, min(t, now - 1), trigger, skill)
                           for t, sid, tool, params, result, ok, trigger, skill in rows[i : i + 50_000]])  # fmt: skip
        if progress is not None:
            progress("actions", min(i + 50_000, len(rows)), len(rows))
    return len(rows)


def write_facts(
    db: MemoryDB, ops: list[FactOp], skill_ids: dict[str, str]
) -> tuple[int, dict[tuple[str, str], Any]]:
    """Apply the fact operations in time order; ``skill:<name>`` references become ``skill:<id>``."""
    store = FactStore(db)
    latest: dict[tuple[str, str], Any] = {}
    rows = 0
    for t, op, args in sorted(ops, key=lambda o: o[0]):
        if op == "store":
            ns, key, value, kw = args
            latest[(ns, key)] = store.store_fact(ns, key, value, now=t, **kw)
            rows += 1
        elif op == "self":
            key, content, refs = args
            refs = [
                f"skill:{skill_ids[r[6:]]}" if r.startswith("skill:") and r[6:] in skill_ids else r
                for r in refs
            ]
            latest[("self", key)] = store.update_self_fact(key, content, refs, now=t)
            rows += 1
        elif (fact := latest.get((args[0], args[1]))) is not None:
            if op == "pin":
                store.pin(fact.id)
            elif op == "tau":
                store.set_tau(fact.id, args[2])
            elif op == "forget":
                store.soft_forget(fact.id, at=t)
            elif op == "access":
                store.mark_accessed(fact.id, at=t)
    return rows, latest


def write_notes(db: MemoryDB, notes: list[agenda.NoteSpec], now: int) -> None:
    store = NotesStore(db)
    for t, nid, content, importance, sid, forgotten in notes:
        note = store.upsert(nid, content, importance, sid, created_at=t)
        if forgotten is not None:
            store.forget(note.id, at=min(forgotten, now))


def write_calendar(db: MemoryDB, events: list[dict[str, Any]], latest: dict[tuple[str, str], Any]) -> None:
    store = CalendarStore(db)
    for ev in events:
        ev = dict(ev)
        related = ev.pop("related", None)
        created = ev.pop("created")
        fact = latest.get(related) if related else None
        store.create(related_fact_id=fact.id if fact is not None else None, now=created, **ev)


def write_all(
    db: MemoryDB, rng: Callable[[str], random.Random], sizes: Sizes, start: int, now: int,
    progress: ProgressFn | None, lap: Callable[[str], None],
) -> dict[str, int]:  # fmt: skip
    """Plan, then write every layer; returns the row counts of the report."""
    plan = make_plan(rng, sizes, start, now)
    runs, n_sched = agenda.create_schedules(
        ScheduleStore(db), plan.effects.reminders, plan.extra_schedules, now
    )
    lap("schedules")
    linked_unseen = sum(1 for a in plan.history.actions if a[7] is not None)
    room = int(0.97 * (sizes.actions - linked_unseen))  # scheduled and background runs take a little too
    tl = planner.plan_timeline(
        rng("timeline"), sizes.messages, start, now, plan.fixed, runs, sizes.notes, room
    )
    lap("plan")
    n_messages = write_timeline(db, tl, now, rng("sessions"), progress)
    tl.rows = []
    lap("messages")
    write_skills(db, plan.specs, plan.history.events, rng("skill-events"))
    skill_ids = {s.name: s.id for s in SkillStore(db).list_every()}
    lap("skills")
    everything = tl.calls + tl.unseen_calls + plan.history.actions
    linked = [a for a in everything if a[7] is not None]
    seen = [a for a in tl.calls if a[7] is None]  # a tool message in the timeline: keep its action first
    unseen = [a for a in tl.unseen_calls + plan.history.actions if a[7] is None]
    n_actions = write_actions(db, rng("actions"), sizes.actions, linked, seen, unseen, start, now, progress)
    lap("actions")
    n_facts, latest = write_facts(db, plan.fact_ops, skill_ids)
    lap("facts")
    notes = agenda.plan_notes(rng("notes"), sizes.notes, tl, start, now)
    write_notes(db, notes, now)
    lap("notes")
    write_calendar(db, plan.events, latest)
    lap("calendar")
    return {
        "messages": n_messages,
        "sessions": len(tl.sessions) + 1,
        "actions": n_actions,
        "notes": len(notes),
        "facts": n_facts,
        "skills": len(plan.specs),
        "calendar_events": len(plan.events),
        "schedules": n_sched,
    }
