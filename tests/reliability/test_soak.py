"""Soak: the app browses, searches, refreshes and curates while a separate agent process writes.

The agent (``agent_sim.py``) appends messages and actions, stores facts and records skill outcomes on
its own writable connection (``busy_timeout=5000``), about 40 writes a second, for
``PHILONT_SOAK_SECONDS`` (default 60). Meanwhile the main window (offscreen, editing mode on) visits
every tab in turn, searches, fetches older pages, lets live refresh fire, and makes audited edits:
two pins and two value edits of facts, two note edits through the Notes tab (one undone and redone),
two skill descriptions through the Skills tab.

Afterwards: every agent write succeeded and none waited anywhere near its 5 s timeout; the timeline
reaches the agent's last message; ``integrity_check`` is ok; every edit is in the audit trail exactly
once and its value is in the data exactly once.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from core.audit import AUDIT_TABLE
from core.curation import facts as fact_curation
from core.db import MemoryDB
from core.facts import FactStore
from core.jsutil import js_stringify
from core.skills import SkillStore
from philont_desktop.main_window import MainWindow
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until
from tests.reliability.helpers import HERE, REPO, child_env, integrity, python, settle

SOAK_SECONDS = float(os.environ.get("PHILONT_SOAK_SECONDS", "60"))
AGENT_RATE = 40.0  # writes a second
MAX_AGENT_LATENCY_MS = 5000.0  # the agent's busy_timeout: no write may come near it
IDLE_MS = 20_000
SEARCH_TERMS = ("deploy", "数据库", "agent sim", "certificate", "证书续期", "migration", "log")


def _start_agent(db: Path, out: Path, ready: Path, skills: list[str]) -> subprocess.Popen:
    args = [
        python(),
        str(HERE / "agent_sim.py"),
        "--db",
        str(db),
        "--seconds",
        str(SOAK_SECONDS),
        "--rate",
        str(AGENT_RATE),
        "--out",
        str(out),
        "--ready",
        str(ready),
        "--seed",
        "11",
    ]
    for s in skills:
        args += ["--skill", s]
    return subprocess.Popen(
        args, cwd=REPO, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def _pick_targets(path: Path) -> dict[str, Any]:
    """Facts and skills the app edits, and skills the agent records outcomes for (disjoint)."""
    db = MemoryDB.open(path)
    try:
        facts = [
            f
            for f in FactStore(db).list_facts()
            if f.namespace != "self" and not f.pinned and f.confidence_valid
        ]
        seen_keys: set[tuple[str, str]] = set()
        unique = []
        for f in facts:
            if (f.namespace, f.key) not in seen_keys:
                seen_keys.add((f.namespace, f.key))
                unique.append(f)
        skills = sorted(
            (s for s in SkillStore(db).list_every() if s.description.strip()), key=lambda s: s.name
        )
    finally:
        db.close()
    assert len(unique) >= 4 and len(skills) >= 5, "the demo database is too small for the soak"
    return {
        "pin": [unique[0], unique[2]],
        "edit": [unique[1], unique[3]],
        "app_skills": skills[:2],
        "agent_skills": [s.name for s in skills[2:5]],
    }


class Soak:
    """The app side of the soak: a window, the steps it records and the browsing loop."""

    def __init__(self, qtbot, path: Path):
        self.qtbot = qtbot
        self.path = path
        self.window = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=250)
        qtbot.addWidget(self.window)
        self.window.show()
        self.window.open_database(path)
        assert spin_until(lambda: self.window.ctx is not None, IDLE_MS), self.window.open_error
        self.ctx = self.window.ctx
        self.steps: list[tuple[str, Any]] = []
        self.ctx.changed.connect(lambda changes: self.steps.append((changes.kind, changes.entry)))
        self.expected: list[dict[str, Any]] = []
        self.searches = 0
        self.visits = 0

    # -- helpers --------------------------------------------------------------------------------------
    def tab(self, name: str):
        tab = self.window.show_tab(name)
        assert tab is not None, f"no {name} tab"
        tab.ensure_activated()
        assert settle(tab, IDLE_MS), f"{name} still loading"
        return tab

    def wait_writer(self) -> None:
        assert spin_until(lambda: not self.ctx.undo.busy, IDLE_MS), "an edit did not finish"

    def curate(self, change: Any) -> Any:
        done: list[Any] = []
        failed: list[BaseException] = []
        job = self.ctx.curate(change, on_result=done.append, on_error=failed.append)
        assert job.wait(IDLE_MS), f"{change.action} did not finish"
        self.wait_writer()
        assert not failed, f"{change.action} failed: {failed[0]!r}"
        return done[0].entry

    # -- edits ----------------------------------------------------------------------------------------
    def pin_fact(self, fact) -> None:
        entry = self.curate(fact_curation.pin(fact.id, seen=fact))
        self.expected.append({"kind": "pin", "audit": entry.id, "fact": fact.id})

    def edit_fact(self, fact, n: int) -> None:
        value = {"soak": n, "text": f"soak edit {n} of {fact.namespace}.{fact.key}"}
        entry = self.curate(fact_curation.edit(fact.id, value=value))
        self.expected.append(
            {"kind": "fact_edit", "audit": entry.id, "value_json": js_stringify(value), "key": fact.key}
        )

    def edit_note(self, row: int, n: int, *, undo_redo: bool = False) -> None:
        tab = self.tab("notes")
        if tab.search_edit.text():
            tab.search_edit.setText("")
            tab.reload()
            assert settle(tab, IDLE_MS)
        note = tab.model.row_at(row)
        assert note is not None
        assert tab.select_note(note.id)
        assert settle(tab, IDLE_MS)
        text = f"soak note edit {n}: {note.content[:60]}"
        tab.content_edit.setPlainText(text)
        before = len(self.steps)
        tab.save()
        assert settle(tab, IDLE_MS)
        self.wait_writer()
        performed = [e for k, e in self.steps[before:] if k == "perform"]
        assert len(performed) == 1, f"the note edit was not made: {self.ctx.errors}"
        entry = performed[0]
        assert entry.action == "notes.update" and entry.target_id == note.id
        if undo_redo:
            self.ctx.undo.undo()
            self.wait_writer()
            self.ctx.undo.redo()
            self.wait_writer()
            kinds = [k for k, _ in self.steps[before:]]
            assert kinds == ["perform", "undo", "redo"], (kinds, self.ctx.errors)
        self.expected.append(
            {"kind": "note", "audit": entry.id, "note": note.id, "content": text, "undo_redo": undo_redo}
        )

    def edit_skill(self, skill, n: int) -> None:
        tab = self.tab("skills")
        text = f"soak skill description {n}: {skill.description[:60]}"
        before = len(self.steps)
        job = tab.update_details(skill, description=text)
        assert job is not None, self.ctx.errors
        assert job.wait(IDLE_MS)
        self.wait_writer()
        performed = [e for k, e in self.steps[before:] if k == "perform"]
        assert len(performed) == 1, f"the skill edit was not made: {self.ctx.errors}"
        self.expected.append(
            {"kind": "skill", "audit": performed[0].id, "skill": skill.id, "description": text}
        )

    # -- browsing -------------------------------------------------------------------------------------
    def browse(self, i: int) -> None:
        names = list(self.window.tabs_by_name)
        name = names[i % len(names)]
        tab = self.tab(name)
        self.visits += 1
        term = SEARCH_TERMS[i % len(SEARCH_TERMS)]
        if name == "timeline":
            tab.search(term if (i // len(names)) % 2 == 0 else "")
            self.searches += 1
            assert settle(tab, IDLE_MS)
            tab.messages.fetch_older()
        elif name == "notes":
            tab.search_edit.setText(term if (i // len(names)) % 2 == 0 else "")
            tab.reload()
            self.searches += 1
            assert settle(tab, IDLE_MS)
            if tab.model.canFetchMore(tab.model.index(-1, -1).parent()):
                tab.model.fetchMore(tab.model.index(-1, -1).parent())
        else:
            tab.refresh()
        assert settle(tab, IDLE_MS), f"{name} still loading after a refresh"
        self.qtbot.wait(250)  # let live refresh fire while this tab is shown


@pytest.mark.slow
def test_app_and_agent_share_the_database_without_harm(qtbot, live_copy, tmp_path):
    targets = _pick_targets(live_copy)
    out, ready = tmp_path / "agent.json", tmp_path / "agent.ready"
    agent = _start_agent(live_copy, out, ready, targets["agent_skills"])
    soak: Soak | None = None
    try:
        assert spin_until(lambda: ready.exists() or agent.poll() is not None, 60_000)
        assert agent.poll() is None, agent.stdout.read() if agent.stdout else ""
        started = time.monotonic()
        soak = Soak(qtbot, live_copy)
        ctx = soak.ctx
        job = soak.window.set_editing(True)
        assert job is not None
        assert spin_until(lambda: ctx.editing or bool(ctx.errors), 60_000), "editing mode did not start"
        assert ctx.editing, ctx.errors

        edits = [
            lambda: soak.pin_fact(targets["pin"][0]),
            lambda: soak.edit_fact(targets["edit"][0], 1),
            lambda: soak.edit_note(0, 1),
            lambda: soak.edit_skill(targets["app_skills"][0], 1),
            lambda: soak.pin_fact(targets["pin"][1]),
            lambda: soak.edit_fact(targets["edit"][1], 2),
            lambda: soak.edit_note(1, 2, undo_redo=True),
            lambda: soak.edit_skill(targets["app_skills"][1], 2),
        ]
        hard_stop = started + SOAK_SECONDS + 90
        i = 0
        n_tabs = len(soak.window.tabs_by_name)
        while (agent.poll() is None or soak.visits < 2 * n_tabs) and time.monotonic() < hard_stop:
            elapsed = time.monotonic() - started
            due = int(elapsed / SOAK_SECONDS * (len(edits) + 1))
            if edits and due > len(soak.expected) and len(soak.expected) < len(edits):
                edits[len(soak.expected)]()
            soak.browse(i)
            i += 1
        while len(soak.expected) < len(edits):  # a short soak still makes every edit
            edits[len(soak.expected)]()
        agent.wait(timeout=max(5.0, hard_stop - time.monotonic()))
        log = agent.stdout.read() if agent.stdout else ""
        assert out.exists(), f"the agent wrote no result: {log}"
        result = json.loads(out.read_text())

        # -- the agent was never harmed -------------------------------------------------------------
        assert result["errors"] == [], result["errors"][:5]
        assert agent.returncode == 0, log
        assert result["writes"] >= SOAK_SECONDS * AGENT_RATE * 0.5, result["writes"]
        assert result["max_ms"] < MAX_AGENT_LATENCY_MS, result["slowest"][:5]

        # -- the app kept up: live refresh fired and the timeline reaches the last message ---------
        assert ctx.live.changes_seen > 0
        assert soak.searches >= 2 and soak.visits >= 2 * n_tabs
        tl = soak.tab("timeline")
        tl.search("")
        assert settle(tl, IDLE_MS)
        last_id = result["last_message_id"]

        def _newest() -> int:
            rows = tl.messages.messages()
            return max((m.id for m in rows), default=0)

        deadline = time.monotonic() + 30
        while _newest() < last_id and time.monotonic() < deadline:
            if tl.messages.has_newer:
                tl.messages.fetch_newer()
            else:
                tl.refresh()
            assert settle(tl, IDLE_MS)
            qtbot.wait(100)
        assert _newest() == last_id
        errors_shown = list(ctx.errors)
        steps = list(soak.steps)
        expected = list(soak.expected)
        soak.window.close()
        soak = None
    finally:
        if agent.poll() is None:
            agent.kill()
            agent.wait(timeout=30)
        if soak is not None:
            soak.window.close()

    assert errors_shown == []
    assert [k for k, _ in steps].count("perform") == len(edits)

    # -- the file is sound and every edit is there exactly once --------------------------------------
    assert integrity(live_copy) == "ok"
    db = MemoryDB.open(live_copy)
    try:
        conn = db.conn
        originals = conn.execute(
            f"SELECT id, action FROM {AUDIT_TABLE} WHERE action NOT IN ('undo', 'redo') ORDER BY id"
        ).fetchall()
        assert sorted(r["id"] for r in originals) == sorted(e["audit"] for e in expected)
        for e in expected:
            if e["kind"] == "pin":
                row = conn.execute("SELECT decay_tau_days FROM memory_facts WHERE id = ?", (e["fact"],))
                assert row.fetchone()[0] == -1
            elif e["kind"] == "fact_edit":
                rows = conn.execute(
                    "SELECT superseded_by, forgotten_at FROM memory_facts WHERE value_json = ?",
                    (e["value_json"],),
                ).fetchall()
                assert len(rows) == 1 and rows[0]["superseded_by"] is None, e
            elif e["kind"] == "note":
                n = conn.execute(
                    "SELECT count(*) FROM memory_notes WHERE content = ?", (e["content"],)
                ).fetchone()[0]
                assert n == 1, e
                got = conn.execute("SELECT content FROM memory_notes WHERE id = ?", (e["note"],))
                assert got.fetchone()[0] == e["content"]
                toggles = conn.execute(
                    f"SELECT action FROM {AUDIT_TABLE} WHERE undone_of = ? ORDER BY id", (e["audit"],)
                ).fetchall()
                assert [t[0] for t in toggles] == (["undo", "redo"] if e["undo_redo"] else [])
            elif e["kind"] == "skill":
                n = conn.execute(
                    "SELECT count(*) FROM memory_skills WHERE description = ?", (e["description"],)
                ).fetchone()[0]
                assert n == 1, e
                got = conn.execute("SELECT description FROM memory_skills WHERE id = ?", (e["skill"],))
                assert got.fetchone()[0] == e["description"]
        # The agent's own rows are all there too.
        n_agent = conn.execute(
            "SELECT count(*) FROM memory_raw_messages WHERE session_id = ?", (result["session_id"],)
        ).fetchone()[0]
        assert n_agent == result["message_ids"]
        n_facts = conn.execute(
            "SELECT count(*) FROM memory_facts WHERE namespace = ?", (result["fact_namespace"],)
        ).fetchone()[0]
        assert n_facts == result["facts_stored"]
    finally:
        db.close()
