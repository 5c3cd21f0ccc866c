"""The core's errors and notices in the interface's language: one translated template per code.

The core (no Qt) gives every error a person can meet and every warning or explanation a ``code`` and
``params`` (:mod:`core.errors`). This module is where the GUI turns them into text: :func:`text` takes a
:class:`~core.errors.Notice` or a :class:`~core.errors.MemoryError_` (or ``code, params, english``) and
fills the template of its code with the parameters. The core's English sentence is never parsed; in
English it is shown as the core wrote it, and in another language it is shown only for a code this
version does not know (a newer core), so a reworded English message never turns the Chinese UI English.

Codes of a few areas keep their templates beside the views that show them, and are reached through
here too: each area registers its renderer with :func:`register_templates`. A tab's area is registered
by the tab's text module when it is imported (the recall explanation, ``recall.*`` and ``substring.*``,
and damaged rows of the context, ``context.row.*``, by the Context tab; change sets, ``change.*``, by
the Review tab); the tab names those modules in its registry entry (``messages=``,
:mod:`philont_desktop.tabs`), and they are imported the first time a code of no known area is shown,
so this module never imports a tab. Backups and restores (``backup.*``, ``restore.*``,
:mod:`.backup_texts`) are the window's. :func:`codes` lists every code with a template; the tests check
that it covers every code the core can produce.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import DatabaseOpenError, MemoryError_, Notice
from philont_desktop import backup_texts, field_names, humanize, i18n
from philont_desktop.message_templates import TEMPLATES
from philont_desktop.qt import QCoreApplication
from philont_desktop.tabs import registry as tab_registry

__all__ = [
    "codes",
    "error_text",
    "explanation",
    "grade_name",
    "notice_text",
    "read_only_reason",
    "register_templates",
    "text",
]

#: ``render(code, params, english)``: a code's text, ``None`` for a code the area has no template for
Render = Callable[[str, Mapping[str, Any], str], str | None]


@dataclass(frozen=True)
class TemplateArea:
    """Codes whose templates live outside this module: those beginning with one of ``prefixes``."""

    prefixes: tuple[str, ...]
    render: Render
    codes: Callable[[], frozenset[str]]


_AREAS: dict[tuple[str, ...], TemplateArea] = {}
_TABS_LOADED = False


def register_templates(
    prefixes: tuple[str, ...], render: Render, codes: Callable[[], frozenset[str]]
) -> TemplateArea:
    """Render the codes beginning with one of ``prefixes`` with ``render``; ``codes()`` lists those it has
    a template for. Registering the same prefixes again replaces the area (a module imported again)."""
    area = TemplateArea(tuple(prefixes), render, codes)
    _AREAS[area.prefixes] = area
    return area


def _load_tab_templates() -> None:
    """Import the text modules the tabs declare (``messages=`` in the tab registry) once: each registers
    its templates when imported."""
    global _TABS_LOADED
    if _TABS_LOADED:
        return
    _TABS_LOADED = True
    for entry in tab_registry():
        for module in entry.messages:
            importlib.import_module(module)


def _tr(text: str) -> str:
    return QCoreApplication.translate("CoreMessages", text)


def _own_codes() -> frozenset[str]:
    return frozenset(TEMPLATES)


# --------------------------------------------------------------------------------------------------
# Values inside templates
# --------------------------------------------------------------------------------------------------


def grade_name(maturity: str) -> str:
    """The lower-case grade word used in sentences (``draft``, ``confirmed``...)."""
    names = {
        "draft": _tr("draft"),
        "confirmed": _tr("confirmed"),
        "stable": _tr("stable"),
        "playbook": _tr("playbook"),
        "deprecated": _tr("deprecated"),
    }
    return names.get(maturity, maturity)


def kind_phrase(kind: str, detail: str = "") -> str:
    """What a path names (:func:`core.paths.inspect_path`'s kinds), as the end of "This path names …"."""
    names = {
        "regular": _tr("a file"),
        "folder": _tr("a folder"),
        "missing": _tr("nothing: no file exists there"),
        "symlink-loop": _tr("a loop of symbolic links (a link that leads back to itself), not a file"),
        "not-a-folder": _tr("nothing: a part of the path is a file, not a folder"),
        "fifo": _tr("a FIFO (named pipe)"),
        "socket": _tr("a socket"),
        "char-device": _tr("a character device"),
        "block-device": _tr("a block device"),
    }
    if kind == "dangling-symlink":
        return _tr("a symbolic link to {0}, which does not exist").format(detail or _tr("a missing file"))
    if kind == "unreachable":
        return _tr("a place that cannot be reached ({0})").format(detail)
    return names.get(kind, _tr("a special file"))


def _join(items: Any) -> str:
    return _tr(", ").join(str(x) for x in items)


def _counts(p: Mapping[str, Any]) -> str:
    """``2 successes and 1 failure (the last one)`` in the current language."""
    s, f, c = (int(p.get(k) or 0) for k in ("successes", "failures", "consecutive"))
    succ = _tr("no success") if s == 0 else _tr("{0} success(es)").format(s)
    fail = _tr("no failure") if f == 0 else _tr("{0} failure(s)").format(f)
    out = _tr("{0} and {1}").format(succ, fail)
    if c == 1:
        out += _tr(" (the last one)")
    elif c > 1:
        out += _tr(" (the last {0} in a row)").format(c)
    return out


def _row_problem(p: Mapping[str, Any]) -> str:
    """What happened to a row an undo of the agent's tools would touch (``tools.undo_conflict``)."""
    fields = field_names.fields_text(p.get("fields") or ())
    problems = {
        "exists": lambda: _tr("exists again"),
        "gone": lambda: _tr("no longer exists"),
        "changed": lambda: _tr("was changed since ({0})").format(fields),
        "columns_lost": lambda: _tr("has columns the table no longer has: {0}").format(fields),
    }
    fn = problems.get(str(p.get("problem")))
    return fn() if fn is not None else str(p.get("problem"))


def _plan_changes(changes: Any) -> str:
    """The lines of ``fact.bulk_plan_changed``: each fact with its own notice, in the current language."""
    if not isinstance(changes, list | tuple):
        return str(changes)
    lines = []
    for c in changes:
        if not isinstance(c, Mapping):
            lines.append(str(c))
            continue
        inner = c.get("params")
        why = text(str(c.get("code") or ""), inner if isinstance(inner, Mapping) else {}, "")
        lines.append(_tr("{0}: {1}").format(c["fact"], why) if c.get("fact") else why)
    return "\n".join(lines)


def _value_list(items: Any) -> str:
    """The ``values`` of a conflict: each column as people name it, with its value now (and the value the
    step expected, where the core gives it)."""
    if not isinstance(items, list | tuple):
        return str(items)
    parts = []
    for item in items:
        if not isinstance(item, Mapping):
            parts.append(str(item))
            continue
        f = item.get("field")
        label, now = field_names.field_label(f), field_names.field_value(f, item.get("now"))
        if "expected" in item:
            expected = field_names.field_value(f, item.get("expected"))
            parts.append(_tr("{0} is now {1} (expected {2})").format(label, now, expected))
        else:
            parts.append(_tr("{0} is now {1}").format(label, now))
    return _tr("; ").join(parts)


def _fields(code: str, params: Mapping[str, Any], out: dict[str, Any]) -> None:
    """Columns and tables named as people know them (``decay_tau_days`` → ``τ (days)``), stored values of
    a column as that column's values read (a time as a date)."""
    if "field" in params:
        out["field"] = field_names.field_label(params["field"])
    if "fields" in params:
        out["fields"] = field_names.fields_text(params["fields"] or ())
    if "values" in params:
        out["values"] = _value_list(params["values"])
    if code.startswith("fact.name_") and "label" in params:
        out["label"] = field_names.field_label(params["label"])
    if code in ("calendar.columns_lost", "tools.undo_conflict"):
        out["table"] = field_names.table_label(params.get("table"))
        if "columns" in params:
            out["columns"] = field_names.fields_text(params["columns"] or ())
    if code.endswith("changed_since_shown"):
        for key in ("now", "was"):
            if key in params:
                out[key] = field_names.field_value(params.get("field"), params[key])
    if code == "fact.window_invalid":
        for key in ("valid_from", "valid_until"):
            out[key] = field_names.field_value(key, params.get(key))


def _derived(code: str, params: Mapping[str, Any], out: dict[str, Any]) -> None:
    """Values of a few codes that the GUI formats itself: stored values, times, nested notices."""
    _fields(code, params, out)
    if code == "tools.undo_conflict":
        out["problem"] = _row_problem(params)
    elif code == "fact.bulk_plan_changed":
        out["changes"] = _plan_changes(params.get("changes"))
    elif code in ("fact.skip.not_candidate", "fact.plan.new_version"):
        out["at"] = humanize.abs_time(params.get("at"))
        if "score" in params:
            out["score"] = humanize.score_text(params.get("score"))
    elif code == "skill.reason_required":
        actions = {"revise_recipe": _tr("revise a recipe"), "set_grade": _tr("set a grade by hand")}
        out["action"] = actions.get(str(params.get("action")), _tr("make this change"))


def _values(code: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters as the template shows them."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        if isinstance(v, list | tuple | set | frozenset):
            out[k] = _join(v)
        elif v is None:
            out[k] = ""
        else:
            out[k] = v
    if "kind" in params:
        out["kind"] = kind_phrase(str(params.get("kind") or ""), str(params.get("kind_detail") or ""))
    if code.startswith("maturity."):
        if code.startswith("maturity.why."):
            out["counts"] = _counts(params)
        if code != "maturity.why.unrecognised" and isinstance(params.get("grade"), str):
            out["grade"] = grade_name(params["grade"])
    steps = {"undo": _tr("undo"), "redo": _tr("redo")}
    if params.get("step") in steps:
        out["step"] = steps[params["step"]]
    kinds = {
        "task": _tr("task"),
        "event": _tr("event"),
        "positive": _tr("positive"),
        "negative": _tr("avoid"),
    }
    for key in ("row_kind", "kind_of_skill"):
        if params.get(key) in kinds:
            out[key] = kinds[params[key]]
    if code.startswith("skill.") and isinstance(params.get("grade"), str):
        out["grade"] = grade_name(params["grade"])
    if code.startswith("fact.newer_version."):
        preview = params.get("preview")
        out["newer"] = _tr(" (now: {0})").format(preview) if preview else ""
    if code == "db.read_only.schema_invalid":
        out["value"] = repr(params.get("value"))
    if code == "sidefile.set_aside":
        out["reason"] = text(str(params.get("reason") or ""), params, str(params.get("detail") or ""))
    if code == "db.write_refused":
        inner = params.get("reason_params")
        out["reason"] = text(str(params.get("reason") or ""), inner if isinstance(inner, Mapping) else {}, "")
    _derived(code, params, out)
    return out


# --------------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------------


def _english() -> bool:
    return i18n.current_language() == i18n.SOURCE_LANGUAGE


def _area(code: str) -> TemplateArea | None:
    return next((a for a in _AREAS.values() if code.startswith(a.prefixes)), None)


def _elsewhere(code: str) -> Render | None:
    """The renderer of an area whose templates live beside its views, for ``code`` (else ``None``)."""
    area = _area(code)
    if area is None and not _TABS_LOADED:
        _load_tab_templates()
        area = _area(code)
    return area.render if area is not None else None


def _own(code: str, params: Mapping[str, Any]) -> str | None:
    template = TEMPLATES.get(code)
    if template is None:
        return None
    try:
        source, values = template(), _values(code, params)
        begins = source.startswith("{step}") or ". {step}" in source  # the step begins a sentence
        if begins and isinstance(values.get("step"), str):
            values["step"] = values["step"][:1].upper() + values["step"][1:]
        return source.format_map(values)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None


#: Codes whose core English names database columns (``decay_tau_days is 45``): the English interface
#: words them from their templates too, so that a person reads the fields' names (``τ (days) is now 45``).
NAMES_FIELDS = frozenset(
    {
        "fact.changed_after_edit",
        "fact.changed_since_shown",
        "fact.time_invalid",
        "fact.time_out_of_range",
        "fact.window_invalid",
        "note.changed_after_edit",
        "note.changed_since_shown",
        "calendar.changed_since_shown",
        "calendar.step_conflict",
        "calendar.columns_lost",
        "skill.step_conflict",
        "skill.redelete_conflict",
        "tools.undo_conflict",
    }
)


def text(code: str, params: Mapping[str, Any] | None = None, english: str = "") -> str:
    """The message of ``code`` with ``params`` in the interface's language; ``english`` is the core's
    own text, shown in English (but for :data:`NAMES_FIELDS`) and for a code without a template."""
    params = params or {}
    if _english() and english and code not in NAMES_FIELDS:
        return english
    found = _own(code, params)
    if found is None:
        other = _elsewhere(code)
        found = other(code, params, english) if other is not None else None
    return found if found is not None else (english or code)


def notice_text(notice: Notice) -> str:
    """A :class:`~core.errors.Notice` (a warning, a reason, an explanation) in the interface's language."""
    return text(notice.code, notice.params, notice.message)


def _open_error_text(exc: DatabaseOpenError) -> str:
    p = exc.params
    detail = text(str(p.get("reason") or ""), p, exc.detail)
    out = f"{exc.path}: {detail}"
    if exc.backup is not None:
        which = "db.open.backup_agent" if p.get("backup_owner") == "agent" else "db.open.backup"
        out += text(which, {"backup": str(exc.backup)})
    elif p.get("searched"):
        out += text("db.open.no_backup")
    return out


def error_text(exc: BaseException) -> str:
    """A core error (:class:`~core.errors.MemoryError_`) in the interface's language; other exceptions
    as their text."""
    if not isinstance(exc, MemoryError_):
        return str(exc)
    if _english() and exc.code not in NAMES_FIELDS:
        return exc.message or str(exc)
    if isinstance(exc, DatabaseOpenError):
        return _open_error_text(exc)
    return text(exc.code, exc.params, exc.message or str(exc))


def read_only_reason(notice: Notice | None) -> str | None:
    """Why a database is read-only (:meth:`core.db.OpenReport.read_only_notice`), ``None`` if it is not."""
    return None if notice is None else notice_text(notice)


def explanation(notices: tuple[Notice, ...] | list[Notice]) -> str:
    """``Explanation.why_notices`` or ``next_notices`` as one sentence in the interface's language."""
    return _tr("; ").join(notice_text(n) for n in notices)


def codes() -> frozenset[str]:
    """Every code with a template, here or beside its views."""
    _load_tab_templates()
    found = set(_own_codes())
    for area in _AREAS.values():
        found |= area.codes()
    return frozenset(found)


register_templates(("backup.", "restore."), backup_texts.code_text, backup_texts.codes)
