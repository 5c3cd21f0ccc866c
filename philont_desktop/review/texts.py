"""The Review tab's words: each change code's one-line summary, layer names and how a time is known,
in the application's language.

The core gives every change a code and parameters (:mod:`core.changes.model`); this module maps the code
to a translated template (context ``ReviewText``) and fills it with the parameters, formatted here
(numbers, τ in days, grade names). An unknown code falls back to the core's English summary. Stored text
in the parameters (values, names, note previews) is shown as it is: every view of these strings is plain
text.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from core.changes import ChangeItem
from core.readable import readable_line
from core.repair import parse_repair_reason
from philont_desktop import field_names, messages
from philont_desktop.qt import QCoreApplication
from philont_desktop.task_words import action_words

__all__ = ["dating_text", "layer_name", "summary"]


def _num(x: Any) -> str:
    if x is None:
        return "—"
    if isinstance(x, bool) or not isinstance(x, int | float):
        return str(x)
    if isinstance(x, float) and not math.isfinite(x):
        return "∞" if x > 0 else ("-∞" if x < 0 else "NaN")
    return f"{x:.3g}" if isinstance(x, float) else str(x)


def _tau(x: Any) -> str:
    if x is None:
        return QCoreApplication.translate("ReviewText", "the namespace's default")
    return QCoreApplication.translate("ReviewText", "{0} days").format(_num(x))


def grade(m: Any) -> str:
    names = {
        "playbook": QCoreApplication.translate("ReviewText", "playbook"),
        "draft": QCoreApplication.translate("ReviewText", "draft"),
        "confirmed": QCoreApplication.translate("ReviewText", "confirmed"),
        "stable": QCoreApplication.translate("ReviewText", "stable"),
        "deprecated": QCoreApplication.translate("ReviewText", "deprecated"),
    }
    return names.get(str(m), str(m))


def _fields(p: Mapping[str, Any]) -> str:
    return field_names.fields_text(p.get("fields") or ())


def _path(p: Mapping[str, Any]) -> str:
    steps = p.get("path") or [p.get("from"), p.get("to")]
    return " → ".join(grade(s) for s in steps)


Fmt = Callable[[Mapping[str, Any]], str]

_TEMPLATES: dict[str, Fmt] = {
    "change.fact.new": lambda p: QCoreApplication.translate("ReviewText", "new fact {name} = {value}").format(
        **p
    ),
    "change.fact.replaced": lambda p: QCoreApplication.translate(
        "ReviewText", "{name}: {old} → {new} (confidence {c0} → {c1})"
    ).format(c0=_num(p.get("old_confidence")), c1=_num(p.get("new_confidence")), **p),
    "change.fact.forgotten": lambda p: QCoreApplication.translate(
        "ReviewText", "forgot {name} = {value}"
    ).format(**p),
    "change.fact.unforgotten": lambda p: QCoreApplication.translate(
        "ReviewText", "unforgot {name} = {value}"
    ).format(**p),
    "change.fact.pinned": lambda p: QCoreApplication.translate("ReviewText", "pinned {name}").format(**p),
    "change.fact.unpinned": lambda p: QCoreApplication.translate("ReviewText", "unpinned {name}").format(**p),
    "change.fact.tau": lambda p: QCoreApplication.translate(
        "ReviewText", "{name}: decay τ {t0} → {t1}"
    ).format(t0=_tau(p.get("old_tau")), t1=_tau(p.get("new_tau")), **p),
    "change.fact.decayed": lambda p: QCoreApplication.translate(
        "ReviewText", "{name} fell below the forget threshold {threshold} by decay"
    ).format(**{**p, "threshold": _num(p.get("threshold"))}),
    "change.fact.edited": lambda p: QCoreApplication.translate(
        "ReviewText", "{name}: {fields} changed in place"
    ).format(**{**p, "fields": _fields(p)}),
    "change.fact.removed": lambda p: QCoreApplication.translate(
        "ReviewText", "{name} = {value}: this version is gone"
    ).format(**p),
    "change.skill.new": lambda p: QCoreApplication.translate(
        "ReviewText", "new skill {name} ({grade})"
    ).format(grade=grade(p.get("maturity")), **p),
    "change.skill.maturity": lambda p: QCoreApplication.translate("ReviewText", "{name}: {path}").format(
        **{**p, "path": _path(p)}
    ),
    "change.skill.deprecated": lambda p: QCoreApplication.translate(
        "ReviewText", "{name} became deprecated (was {grade})"
    ).format(grade=grade(p.get("from")), **p),
    "change.skill.revised": lambda p: QCoreApplication.translate(
        "ReviewText", "{name}: recipe revised ({reason})"
    ).format(**{**p, "reason": _reason(p.get("reason"))}),
    "change.skill.counters": lambda p: QCoreApplication.translate(
        "ReviewText", "{name}: successes +{successes}, failures +{failures}"
    ).format(**p),
    "change.skill.repair_exhausted": lambda p: QCoreApplication.translate(
        "ReviewText", "{name} used up its repair attempts ({attempts} of {limit})"
    ).format(**p),
    "change.skill.edited": lambda p: QCoreApplication.translate(
        "ReviewText", "{name}: {fields} changed"
    ).format(**{**p, "fields": _fields(p)}),
    "change.skill.removed": lambda p: QCoreApplication.translate("ReviewText", "skill {name} is gone").format(
        **p
    ),
    "change.note.new": lambda p: QCoreApplication.translate("ReviewText", "new note: {preview}").format(**p),
    "change.note.edited": lambda p: QCoreApplication.translate(
        "ReviewText", "note edited ({fields}): {preview}"
    ).format(**{**p, "fields": _fields(p)}),
    "change.note.forgotten": lambda p: QCoreApplication.translate(
        "ReviewText", "forgot note: {preview}"
    ).format(**p),
    "change.note.unforgotten": lambda p: QCoreApplication.translate(
        "ReviewText", "unforgot note: {preview}"
    ).format(**p),
    "change.note.removed": lambda p: QCoreApplication.translate(
        "ReviewText", "note is gone: {preview}"
    ).format(**p),
    "change.timeline.conversation": lambda p: QCoreApplication.translate(
        "ReviewText", "{conversation}: %n message(s), {user} from the user", None, int(p["messages"])
    ).format(**p),
    "change.timeline.altered": lambda p: QCoreApplication.translate(
        "ReviewText", "{changed} messages of the baseline changed and {missing} are gone"
    ).format(**p),
    "change.actions.tool": lambda p: QCoreApplication.translate(
        "ReviewText", "{tool}: %n call(s), {failures} failed", None, int(p["calls"])
    ).format(**p),
    "change.actions.started_failing": lambda p: QCoreApplication.translate(
        "ReviewText",
        "{tool} started failing: {failures} of {calls} calls failed (none of {previous_calls} before)",
    ).format(**p),
    "change.actions.altered": lambda p: QCoreApplication.translate(
        "ReviewText", "{changed} actions of the baseline changed and {missing} are gone"
    ).format(**p),
    "change.calendar.new": lambda p: QCoreApplication.translate("ReviewText", "new event {title}").format(
        **p
    ),
    "change.calendar.changed": lambda p: QCoreApplication.translate(
        "ReviewText", "event {title}: {fields} changed"
    ).format(**{**p, "fields": _fields(p)}),
    "change.calendar.removed": lambda p: QCoreApplication.translate(
        "ReviewText", "event {title} is gone"
    ).format(**p),
    "change.schedule.new": lambda p: QCoreApplication.translate(
        "ReviewText", "new task {name} ({action_type})"
    ).format(**{**p, "action_type": action_words(p.get("action_type"))}),
    "change.schedule.changed": lambda p: QCoreApplication.translate(
        "ReviewText", "task {name}: {fields} changed"
    ).format(**{**p, "fields": _fields(p)}),
    "change.schedule.paused": lambda p: QCoreApplication.translate(
        "ReviewText", "task {name} paused after {failures} failures in a row"
    ).format(**p),
    "change.schedule.removed": lambda p: QCoreApplication.translate(
        "ReviewText", "task {name} is gone"
    ).format(**p),
}


def _shown_params(item: ChangeItem) -> Mapping[str, Any]:
    """The parameters with a fact's object or list value on one line in readable form
    (``content: My recipe "night"``) instead of the core's JSON preview with its escapes."""
    if item.target.type != "fact":
        return item.params
    p = dict(item.params)
    for key, side in (("value", item.after if item.after is not None else item.before), ("old", item.before),
                      ("new", item.after)):  # fmt: skip
        row = side if isinstance(side, dict) else {}
        if isinstance(p.get(key), str) and isinstance(row.get("value"), dict | list):
            p[key] = readable_line(row["value"])
    return p


def _reason(reason: Any) -> str:
    """A revision's reason; the agent's repairs (``skill_repair:<initiative>: <diagnosis>``) in words."""
    if not reason:
        return QCoreApplication.translate("ReviewText", "no reason given")
    parsed = parse_repair_reason(reason)
    if parsed is None:
        return str(reason)
    initiative, diagnosis = parsed
    head = QCoreApplication.translate("ReviewText", "the agent's repair after failures")
    if initiative:
        head += f" ({initiative})"
    return f"{head}: {diagnosis}" if diagnosis else head


def summary(item: ChangeItem) -> str:
    """The change's one-line summary in the current language (the core's English when unknown)."""
    fn = _TEMPLATES.get(item.code)
    if fn is None:
        return item.summary
    try:
        return fn(_shown_params(item))
    except (KeyError, IndexError, ValueError, TypeError):
        return item.summary


def notice_text(code: str, params: Mapping[str, Any], english: str) -> str:
    """A change set's notice in the current language."""
    texts = {
        "change.notice.time_blind": lambda: QCoreApplication.translate(
            "ReviewText",
            "A time baseline sees only changes the data dates: pin and τ changes, unforgetting, edited "
            "notes, events and tasks show only when made in this app. Compare with a backup to see every "
            "change.",
        ),
        "change.notice.reversed": lambda: QCoreApplication.translate(
            "ReviewText", "The baseline is newer than what it is compared with."
        ),
        "change.notice.columns": lambda: QCoreApplication.translate(
            "ReviewText", "{table}: columns only on one side are compared as empty there."
        ).format(table=params.get("table", "")),
        "change.notice.table_missing": lambda: QCoreApplication.translate(
            "ReviewText", "{table} is missing on one side."
        ).format(table=params.get("table", "")),
        "change.notice.backup_time": lambda: QCoreApplication.translate(
            "ReviewText", "The backup's name carries no time; its file's modification time is used."
        ),
        "change.notice.unrelated": lambda: _unrelated(params),
    }
    fn = texts.get(code)
    return fn() if fn is not None else english


def _unrelated(params: Mapping[str, Any]) -> str:
    shared = params.get("shared") or 0
    if shared:
        first = QCoreApplication.translate(
            "ReviewText", "The two files share only {shared} of their facts, skills, notes, events and tasks"
        ).format(shared=shared)
    else:
        first = QCoreApplication.translate(
            "ReviewText", "The two files share none of their facts, skills, notes, events and tasks"
        )
    return first + QCoreApplication.translate(
        "ReviewText",
        " ({before} and {after} rows): they may be the memories of different agents, and then every row "
        "shows as a change.",
    ).format(before=params.get("baseline_rows", "?"), after=params.get("other_rows", "?"))


_NOTICE_CODES = (
    "change.notice.time_blind",
    "change.notice.reversed",
    "change.notice.columns",
    "change.notice.table_missing",
    "change.notice.backup_time",
    "change.notice.unrelated",
)


def codes() -> frozenset[str]:
    """The codes with a template here (:func:`philont_desktop.messages.codes` gathers them)."""
    return frozenset(_TEMPLATES) | frozenset(_NOTICE_CODES)


def code_text(code: str, params: Mapping[str, Any], english: str = "") -> str | None:
    """A change's summary or a change set's notice by code (``None`` for another code)."""
    if code in _NOTICE_CODES:
        return notice_text(code, params, english)
    fn = _TEMPLATES.get(code)
    if fn is None:
        return None
    try:
        return fn(params)
    except (KeyError, IndexError, ValueError, TypeError):
        return None


def layer_name(layer: str) -> str:
    names = {
        "facts": QCoreApplication.translate("ReviewText", "Facts"),
        "skills": QCoreApplication.translate("ReviewText", "Skills"),
        "notes": QCoreApplication.translate("ReviewText", "Notes"),
        "timeline": QCoreApplication.translate("ReviewText", "Conversations"),
        "actions": QCoreApplication.translate("ReviewText", "Tools"),
        "calendar": QCoreApplication.translate("ReviewText", "Calendar"),
        "schedules": QCoreApplication.translate("ReviewText", "Scheduled tasks"),
    }
    return names.get(layer, layer)


def dating_text(item: ChangeItem) -> str:
    """How the change's time is known, for the detail pane and tooltips."""
    if item.dating == "derived":
        return QCoreApplication.translate(
            "ReviewText", "time derived from other data (the action log, the decay model)"
        )
    if item.dating == "unknown":
        return QCoreApplication.translate("ReviewText", "changed at an unknown time after the baseline")
    return QCoreApplication.translate("ReviewText", "time recorded with the change")


messages.register_templates(("change",), code_text, codes)
