"""The shapes of a change set: :class:`ChangeItem`, :class:`Baseline`, :class:`ChangeSet`.

A change is identified by its layer, its code and its target (a fact's id and ``namespace.key``, a
skill's name, a note's id, a conversation, a tool, an event, a schedule). Its one-line summary is the
code with parameters (:meth:`ChangeItem.notice`, as :class:`core.errors.Notice`): the GUI translates
the code, the command line prints the English rendering made here (:func:`render`). ``before`` and
``after`` are the full values (JSON-ready), ``at`` the time of the change in epoch ms and ``dating``
how that time is known:

* ``exact``: a time the change itself wrote (``created_at``, ``forgotten_at``, a revision's ``at``, a
  message's ``timestamp``, the audit trail's ``at`` for an edit made in the desktop app);
* ``derived``: computed from other data (the action log's replay of a skill's ladder, a skill's
  ``last_success_at``, the decay model's crossing of the forget threshold);
* ``unknown``: nothing in the data dates it (only with a backup baseline, where the change is known to
  lie between the backup and the other side); ``at`` is ``None`` then.

Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.errors import Notice
from core.jsutil import iso_ms

__all__ = [
    "CODES",
    "DATINGS",
    "LAYERS",
    "Baseline",
    "ChangeItem",
    "ChangeSet",
    "Target",
    "preview",
    "render",
]

#: The layers of a change set, in the order they are listed.
LAYERS: tuple[str, ...] = ("facts", "skills", "notes", "timeline", "actions", "calendar", "schedules")
DATINGS: tuple[str, ...] = ("exact", "derived", "unknown")
PREVIEW_CHARS = 60


def preview(value: Any, limit: int = PREVIEW_CHARS) -> str:
    """A one-line preview of stored text or a JSON value: whitespace runs become one space, cut at ``limit``."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _num(x: Any) -> str:
    if x is None:
        return "—"
    if isinstance(x, bool) or not isinstance(x, int | float):
        return str(x)
    if isinstance(x, float) and not math.isfinite(x):
        return "∞" if x > 0 else ("-∞" if x < 0 else "NaN")
    return f"{x:.3g}" if isinstance(x, float) else str(x)


def _n(n: Any, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _tau(x: Any) -> str:
    return "the namespace's default" if x is None else f"{_num(x)} days"


def _fields(p: Mapping[str, Any]) -> str:
    return ", ".join(p.get("fields") or ()) or "nothing"


# The English one-line summaries, one per code. Each takes the item's params (see the README for the
# parameters of every code). The GUI has its own translated templates keyed by the same codes.
_EN: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "change.fact.new": lambda p: f"new fact {p['name']} = {p['value']}",
    "change.fact.replaced": lambda p: (
        f"{p['name']}: {p['old']} → {p['new']} (confidence {_num(p['old_confidence'])} → "
        f"{_num(p['new_confidence'])})"
    ),
    "change.fact.forgotten": lambda p: f"forgot {p['name']} = {p['value']}",
    "change.fact.unforgotten": lambda p: f"unforgot {p['name']} = {p['value']}",
    "change.fact.pinned": lambda p: f"pinned {p['name']}",
    "change.fact.unpinned": lambda p: f"unpinned {p['name']}",
    "change.fact.tau": lambda p: f"{p['name']}: decay τ {_tau(p['old_tau'])} → {_tau(p['new_tau'])}",
    "change.fact.decayed": lambda p: (
        f"{p['name']} fell below the forget threshold {_num(p['threshold'])} by decay"
    ),
    "change.fact.edited": lambda p: f"{p['name']}: {_fields(p)} changed in place",
    "change.fact.removed": lambda p: f"{p['name']} = {p['value']}: this version is gone",
    "change.skill.new": lambda p: f"new skill {p['name']} ({p['maturity']})",
    "change.skill.maturity": lambda p: f"{p['name']}: {' → '.join(p.get('path') or (p['from'], p['to']))}",
    "change.skill.deprecated": lambda p: f"{p['name']} became deprecated (was {p['from']})",
    "change.skill.revised": lambda p: f"{p['name']}: recipe revised ({p['reason'] or 'no reason given'})",
    "change.skill.counters": lambda p: f"{p['name']}: successes +{p['successes']}, failures +{p['failures']}",
    "change.skill.repair_exhausted": lambda p: (
        f"{p['name']} used up its repair attempts ({p['attempts']} of {p['limit']})"
    ),
    "change.skill.edited": lambda p: f"{p['name']}: {_fields(p)} changed",
    "change.skill.removed": lambda p: f"skill {p['name']} is gone",
    "change.note.new": lambda p: f"new note: {p['preview']}",
    "change.note.edited": lambda p: f"note edited ({_fields(p)}): {p['preview']}",
    "change.note.forgotten": lambda p: f"forgot note: {p['preview']}",
    "change.note.unforgotten": lambda p: f"unforgot note: {p['preview']}",
    "change.note.removed": lambda p: f"note is gone: {p['preview']}",
    "change.timeline.conversation": lambda p: (
        f"{p['conversation']}: {_n(p['messages'], 'message')}, {p['user']} from the user"
    ),
    "change.timeline.altered": lambda p: (
        f"{p['changed']} messages of the baseline changed and {p['missing']} are gone"
    ),
    "change.actions.tool": lambda p: f"{p['tool']}: {_n(p['calls'], 'call')}, {p['failures']} failed",
    "change.actions.started_failing": lambda p: (
        f"{p['tool']} started failing: {p['failures']} of {p['calls']} calls failed "
        f"(none of {p['previous_calls']} before)"
    ),
    "change.actions.altered": lambda p: (
        f"{p['changed']} actions of the baseline changed and {p['missing']} are gone"
    ),
    "change.calendar.new": lambda p: f"new event {p['title']}",
    "change.calendar.changed": lambda p: f"event {p['title']}: {_fields(p)} changed",
    "change.calendar.removed": lambda p: f"event {p['title']} is gone",
    "change.schedule.new": lambda p: f"new task {p['name']} ({p['action_type']})",
    "change.schedule.changed": lambda p: f"task {p['name']}: {_fields(p)} changed",
    "change.schedule.paused": lambda p: f"task {p['name']} paused after {p['failures']} failures in a row",
    "change.schedule.removed": lambda p: f"task {p['name']} is gone",
    # Notices of a whole change set.
    "change.notice.time_blind": lambda p: (
        "A time baseline sees only changes the data dates: pin and τ changes, unforgetting, edited "
        "notes, events and tasks show only when made in the desktop app (its audit trail); compare "
        "against a backup to see every change."
    ),
    "change.notice.reversed": lambda p: (
        f"The baseline ({p['baseline']}) is newer than what it is compared with ({p['other']})."
    ),
    "change.notice.columns": lambda p: (
        f"{p['table']}: columns only on one side ({', '.join(p['columns'])}) are compared as empty there."
    ),
    "change.notice.table_missing": lambda p: f"{p['table']} is missing on the {p['side']} side.",
    "change.notice.unrelated": lambda p: (
        f"{p['baseline']} and {p['other']} share "
        + ("no rows" if not p["shared"] else f"only {p['shared']} rows")
        + f" ({p['baseline_rows']} and {p['other_rows']} facts, skills, notes, events and tasks): they may be "
        "the memories of different agents, and then every row shows as a change."
    ),
    "change.notice.backup_time": lambda p: (
        f"{p['path']}: the name carries no time; the file's modification time is used."
    ),
}

#: Every code a change set can carry.
CODES: tuple[str, ...] = tuple(_EN)


def render(code: str, params: Mapping[str, Any]) -> str:
    """The English one-line summary of ``code`` with ``params`` (the code itself when unknown)."""
    fn = _EN.get(code)
    if fn is None:
        return code
    try:
        return fn(params)
    except (KeyError, TypeError, ValueError):
        return code


def notice(code: str, **params: Any) -> Notice:
    return Notice(code, render(code, params), params)


@dataclass(frozen=True)
class Target:
    """What a change is about: ``type`` (``fact``, ``skill``, ``note``, ``conversation``, ``tool``,
    ``event``, ``schedule``, ``messages``, ``actions``), its ``id`` as the database identifies it, and a
    ``label`` for people (``namespace.key``, the skill's name, a note's first words)."""

    type: str
    id: str
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "id": self.id, "label": self.label}


@dataclass
class ChangeItem:
    """One change. ``params`` feed the one-line summary; ``details`` carry more evidence (a ladder's
    steps, a word diff, the actions behind a move). ``actor`` is set when the desktop app's audit trail
    shows that a person made the change."""

    layer: str
    code: str
    target: Target
    params: dict[str, Any] = field(default_factory=dict)
    before: Any = None
    after: Any = None
    at: int | None = None
    dating: str = "exact"
    actor: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    key: str = ""

    @property
    def id(self) -> str:
        """A stable identity of this change (for "reviewed" marks): the same change computed again,
        from either baseline, gets the same id; a further change of the same target gets a new one."""
        cached = self.__dict__.get("_id")
        if cached is None:
            key = self.key or (str(self.at) if self.at else "")
            basis = "\x1f".join((self.code, self.target.type, self.target.id, key))
            digest = hashlib.sha1(basis.encode("utf-8", "surrogatepass")).hexdigest()
            cached = self.__dict__["_id"] = f"{self.code.removeprefix('change.')}:{digest[:16]}"
        return cached

    @property
    def summary(self) -> str:
        return render(self.code, self.params)

    def notice(self) -> Notice:
        return Notice(self.code, self.summary, dict(self.params))

    def word_diff(self) -> dict[str, list[list[Any]]] | None:
        """The word diff of a revised recipe's action template or an edited note's text, as
        ``{"old": [[text, changed], ...], "new": [...]}`` (``None`` for other changes); computed on
        demand."""
        field_name = _DIFFED.get(self.code)
        if field_name is None or not isinstance(self.before, dict) or not isinstance(self.after, dict):
            return None
        from core.worddiff import word_diff

        left, right = word_diff(str(self.before.get(field_name) or ""), str(self.after.get(field_name) or ""))
        return {"old": [[x.text, x.changed] for x in left], "new": [[x.text, x.changed] for x in right]}

    def sort_key(self) -> tuple[int, int]:
        """Newest first; undated changes after the dated ones."""
        return (0, -self.at) if self.at is not None else (1, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "layer": self.layer,
            "code": self.code,
            "summary": self.summary,
            "params": self.params,
            "target": self.target.to_json(),
            "at": self.at,
            "dating": self.dating,
            "actor": self.actor,
            "before": self.before,
            "after": self.after,
            "details": self._details_json(),
        }

    def _details_json(self) -> dict[str, Any]:
        diff = self.word_diff()
        return self.details if diff is None else {**self.details, "diff": diff}


_DIFFED = {"change.skill.revised": "actionTemplate", "change.note.edited": "content"}


@dataclass(frozen=True)
class Baseline:
    """What "now" is compared with.

    ``kind`` is ``time`` (``since``), ``backup`` (``path``, taken at ``since`` when known) or ``backups``
    (``path`` against ``other``, taken at ``other_time``).
    """

    kind: str
    since: int | None = None
    path: str | None = None
    other: str | None = None
    other_time: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "since": self.since,
            "sinceIso": _iso(self.since),
            "path": self.path,
            "other": self.other,
            "otherTime": self.other_time,
        }


def _iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    try:
        return iso_ms(ms)
    except (ValueError, OverflowError):
        return None


@dataclass
class ChangeSet:
    """The changes between a baseline and ``until``, by layer, newest first within a layer."""

    baseline: Baseline
    until: int
    layers: tuple[str, ...]
    items: list[ChangeItem] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)

    def sort(self) -> None:
        order = {name: i for i, name in enumerate(LAYERS)}
        self.items.sort(key=lambda it: (order.get(it.layer, len(order)), *it.sort_key(), it.code))

    def by_layer(self) -> dict[str, list[ChangeItem]]:
        out: dict[str, list[ChangeItem]] = {name: [] for name in self.layers}
        for it in self.items:
            out.setdefault(it.layer, []).append(it)
        return out

    def counts(self) -> dict[str, int]:
        return {name: len(items) for name, items in self.by_layer().items()}

    def find(self, item_id: str) -> ChangeItem | None:
        return next((it for it in self.items if it.id == item_id), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "baseline": self.baseline.to_json(),
            "until": self.until,
            "untilIso": _iso(self.until),
            "layers": list(self.layers),
            "counts": self.counts(),
            "notices": [n.to_json() for n in self.notices],
            "changes": [it.to_json() for it in self.items],
        }


def add_notice(notices: list[Notice], code: str, **params: Any) -> None:
    n = notice(code, **params)
    if all(x.code != n.code or x.params != n.params for x in notices):
        notices.append(n)


def merge(items: Iterable[ChangeItem]) -> list[ChangeItem]:
    """Items with duplicate ids removed (the first wins)."""
    seen: set[str] = set()
    out: list[ChangeItem] = []
    for it in items:
        if it.id not in seen:
            seen.add(it.id)
            out.append(it)
    return out
