"""The doctor's words in the application's language: each finding code (``health.<layer>.<what>``), each
fix (``health.fix.*``: a title and what it will do) and each refusal of the doctor (``health.*``), the
layer and severity names.

The core gives every finding a code and parameters (:mod:`core.health.messages` holds its English); this
module maps the code to a translated template (registered with
:func:`philont_desktop.messages.register_templates` for the prefix ``health.``) and fills it with the
parameters, formatted here (lists joined, numbers shortened). An unknown code falls back to the core's
English. Names in the parameters (keys, skill and task names) are stored text: every view of these
strings is plain text.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from philont_desktop import messages
from philont_desktop.qt import QCoreApplication

__all__ = ["codes", "fix_summary", "fix_title", "layer_name", "severity_name", "text"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("DoctorText", text)


Template = Callable[[], str]

FINDINGS: dict[str, Template] = {
    # facts
    "health.facts.live_conflict": lambda: _tr(
        "{namespace}.{key} has {count} live values at once; the agent reads only one."
    ),
    "health.facts.chain_missing": lambda: _tr(
        "Fact {id} ({namespace}.{key}) is superseded by {missing}, which does not exist: the chain is broken."
    ),
    "health.facts.chain_cycle": lambda: _tr(
        "The supersede chain of {namespace}.{key} loops through {count} facts."
    ),
    "health.facts.same_value": lambda: _tr(
        "The same value is stored under {count} keys of {namespace}: {keys}."
    ),
    "health.facts.expired_live": lambda: _tr(
        "{count} facts are past their valid_until and still live ({shown} of them shown in the prefix)."
    ),
    "health.facts.decayed_shown": lambda: _tr(
        "{count} facts shown in the prefix score below the forget threshold {threshold}."
    ),
    "health.facts.cut_by_limit": lambda: _tr(
        "{count} live {namespace} facts are left out of the prefix by its limit of {limit} facts."
    ),
    "health.facts.cut_by_chars": lambda: _tr(
        "The prefix is {over} characters over its cap of {cap}; {count} facts are cut off by it."
    ),
    "health.facts.unread": lambda: _tr("{count} live facts have not been read for {days} days or more."),
    "health.facts.confidence_invalid": lambda: _tr(
        "Fact {namespace}.{key} has a confidence of {value}, not a number in 0-1."
    ),
    "health.facts.invalid_json": lambda: _tr(
        "Fact {namespace}.{key} holds invalid JSON; the agent cannot read its value."
    ),
    # skills
    "health.skills.maturity_unbacked": lambda: _tr(
        "Skill {name} is {maturity}, but its {actions} linked actions back only {backed}."
    ),
    "health.skills.offered_unmatched": lambda: _tr(
        "Skill {name} was offered {offered} times and never matched."
    ),
    "health.skills.repairs_exhausted": lambda: _tr(
        "Skill {name} has used {count} of {limit} repair attempts."
    ),
    "health.skills.near_duplicate": lambda: _tr(
        "Skills {names} have near-identical recipes ({similarity} alike)."
    ),
    "health.skills.draft_unused": lambda: _tr(
        "{count} draft skills have not been used for {days} days or more."
    ),
    "health.skills.invalid_json": lambda: _tr("Skill {name} holds invalid JSON in {fields}."),
    # notes
    "health.notes.duplicate": lambda: _tr("{count} notes hold the same text."),
    "health.notes.forgotten_found": lambda: _tr(
        "{count} forgotten notes are still found by the agent's note search."
    ),
    # indexes
    "health.indexes.missing_rows": lambda: _tr(
        "{index} lacks {count} rows of {table}: search does not find them."
    ),
    "health.indexes.orphan_rows": lambda: _tr("{index} holds {count} rows that {table} no longer has."),
    "health.indexes.absent": lambda: _tr("The full-text index {index} of {table} does not exist."),
    # calendar
    "health.calendar.task_failing": lambda: _tr("Task {name} has failed {failures} times in a row."),
    "health.calendar.task_paused": lambda: _tr("Task {name} is paused until {until}."),
    "health.calendar.oneshot_overdue": lambda: _tr(
        "One-shot task {name} was due {overdue_hours} hours ago and never ran."
    ),
    # file
    "health.file.size": lambda: _tr(
        "The file holds {size_mb} MB; {month_messages} messages came in during {month}."
    ),
    "health.file.free_pages": lambda: _tr(
        "{free_mb} MB of the file ({ratio}) is free space a VACUUM would reclaim."
    ),
    "health.file.wal_size": lambda: _tr("The -wal file holds {wal_mb} MB (threshold {limit_mb} MB)."),
    "health.file.backups": lambda: _tr(
        "{count} backups take {total_mb} MB; the newest good one is {age_days} days old."
    ),
    "health.file.no_backup": lambda: _tr("No backup that passes quick_check was found."),
    "health.file.prefix_size": lambda: _tr(
        "The memory prefix takes {chars} of its {cap} characters ({tokens} tokens)."
    ),
    "health.file.messages_per_day": lambda: _tr(
        "{average} messages a day over the last {days} days (busiest day: {max})."
    ),
    # a check that could not run
    **{
        f"health.{layer}.check_failed": (lambda: _tr("The check {check} could not run: {error}"))
        for layer in ("facts", "skills", "notes", "indexes", "calendar", "file")
    },
    # refusals of the doctor and of its fixes
    "health.layer_unknown": lambda: _tr("Unknown layer {layer}; the layers are {layers}."),
    "health.option_unknown": lambda: _tr("Unknown health option {option}."),
    "health.option_invalid": lambda: _tr("The health option {option} must be a number, not {value}."),
    "health.fix_unknown": lambda: _tr("Unknown fix {fix}."),
    "health.fix_table": lambda: _tr("This fix works on facts and notes, not on {table}."),
    "health.fix_needs_survivor": lambda: _tr("Pick the one to keep."),
    "health.fix_needs_tau": lambda: _tr("Give a decay time in days above 0."),
    "health.fix_one_task": lambda: _tr("This fix acts on one task."),
}

FIX_TITLES: dict[str, Template] = {
    "health.fix.merge_duplicates": lambda: _tr("Merge the duplicates"),
    "health.fix.forget": lambda: _tr("Forget them"),
    "health.fix.pin": lambda: _tr("Pin them"),
    "health.fix.shorten_tau": lambda: _tr("Shorten their decay time"),
    "health.fix.repair_chain": lambda: _tr("Repair the chain"),
    "health.fix.demote_skill": lambda: _tr("Demote the skill"),
    "health.fix.pause_task": lambda: _tr("Pause the task"),
    "health.fix.enable_task": lambda: _tr("Enable the task"),
    "health.fix.rebuild_index": lambda: _tr("Rebuild the index"),
}

FIX_SUMMARIES: dict[str, Template] = {
    "health.fix.merge_duplicates": lambda: _tr(
        "Keep the fact you pick; the others are superseded by it and stay in the history."
    ),
    "health.fix.merge_duplicates.notes": lambda: _tr("Keep the note you pick; the others are forgotten."),
    "health.fix.merge_duplicates.skills": lambda: _tr(
        "Keep the skill you pick; the others are deprecated, with the reason in the audit trail."
    ),
    "health.fix.forget": lambda: _tr(
        "Soft-forget the rows: the agent no longer reads them; the history keeps them."
    ),
    "health.fix.pin": lambda: _tr("Pin the facts: they never decay and are never forget candidates."),
    "health.fix.shorten_tau": lambda: _tr("Give the facts a shorter decay time (τ, in days) of their own."),
    "health.fix.repair_chain": lambda: _tr(
        "Link each broken version to the current head of its key; a key without any head gets its newest "
        "version as the head again."
    ),
    "health.fix.demote_skill": lambda: _tr(
        "Set the skill's grade lower, with the reason kept in the audit trail."
    ),
    "health.fix.pause_task": lambda: _tr("Disable the task, so the scheduler stops firing it."),
    "health.fix.enable_task": lambda: _tr(
        "Enable the task again (a task paused after failures runs at its next time)."
    ),
    "health.fix.rebuild_index": lambda: _tr(
        "Rebuild the full-text index from its table. Refused while the agent writes; no row changes."
    ),
}


def _value(v: Any) -> str:
    if isinstance(v, list | tuple | set | frozenset):
        return ", ".join(_value(x) for x in v)
    if isinstance(v, float):
        if not math.isfinite(v):
            return str(v)
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:,.0f}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}" if abs(v) >= 10_000 else str(v)
    return "" if v is None else str(v)


def _fill(template: str, params: Mapping[str, Any]) -> str:
    values = {k: _value(v) for k, v in params.items()}
    return template.format_map(_Missing(values))


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def code_text(code: str, params: Mapping[str, Any], english: str = "") -> str | None:
    """A finding's message or a refusal by code (``None`` for a code with no template here)."""
    template = FINDINGS.get(code) or FIX_TITLES.get(code)
    if template is None:
        return None
    try:
        return _fill(template(), params)
    except (ValueError, IndexError):
        return english or None


def text(code: str, params: Mapping[str, Any], english: str) -> str:
    """The finding's message in the current language (the core's English for a code unknown here)."""
    return code_text(code, params, english) or english


def fix_title(code: str) -> str:
    template = FIX_TITLES.get(code)
    return template() if template is not None else code


def fix_summary(code: str, layer: str = "facts") -> str:
    """What the fix ``code`` does (a merge says it for the ``layer`` of its rows)."""
    template = FIX_SUMMARIES.get(f"{code}.{layer}") or FIX_SUMMARIES.get(code)
    return template() if template is not None else ""


def layer_name(layer: str) -> str:
    names = {
        "facts": _tr("Facts"),
        "skills": _tr("Skills"),
        "notes": _tr("Notes"),
        "indexes": _tr("Search indexes"),
        "calendar": _tr("Calendar"),
        "file": _tr("File and growth"),
    }
    return names.get(layer, layer)


def severity_name(severity: str) -> str:
    names = {"fail": _tr("failure"), "warn": _tr("warning"), "info": _tr("note")}
    return names.get(severity, severity)


def codes() -> frozenset[str]:
    """The codes with a template here (:func:`philont_desktop.messages.codes` gathers them)."""
    return frozenset(FINDINGS) | frozenset(FIX_TITLES)


messages.register_templates(("health.",), code_text, codes)
