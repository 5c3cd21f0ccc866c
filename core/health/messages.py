"""The English texts of the doctor's findings, by code (the app translates the same codes and parameters).

A list parameter is shown quoted and comma-separated; numbers as given. :func:`notice` renders one.
"""

from __future__ import annotations

from typing import Any

from core.errors import Notice
from core.health.finding import LAYERS
from core.search.index_state import coded_notice

TEXTS: dict[str, str] = {
    # facts
    "health.facts.live_conflict": "{namespace}.{key} has {count} live values at once; the agent reads only one.",
    "health.facts.chain_missing": (
        "Fact {id} ({namespace}.{key}) is superseded by {missing}, which does not exist: the chain is broken."
    ),
    "health.facts.chain_cycle": "The supersede chain of {namespace}.{key} loops through {count} facts.",
    "health.facts.same_value": "The same value is stored under {count} keys of {namespace}: {keys}.",
    "health.facts.expired_live": (
        "{count} facts are past their valid_until and still live ({shown} of them shown in the prefix)."
    ),
    "health.facts.decayed_shown": (
        "{count} facts shown in the prefix score below the forget threshold {threshold}."
    ),
    "health.facts.cut_by_limit": (
        "{count} live {namespace} facts are left out of the prefix by its limit of {limit} facts."
    ),
    "health.facts.cut_by_chars": (
        "The prefix is {over} characters over its cap of {cap}; {count} facts are cut off by it."
    ),
    "health.facts.unread": "{count} live facts have not been read for {days} days or more.",
    "health.facts.confidence_invalid": "Fact {namespace}.{key} has a confidence of {value}, not a number in 0-1.",
    "health.facts.invalid_json": "Fact {namespace}.{key} holds invalid JSON; the agent cannot read its value.",
    # skills
    "health.skills.maturity_unbacked": (
        "Skill {name} is {maturity}, but its {actions} linked actions back only {backed}."
    ),
    "health.skills.offered_unmatched": "Skill {name} was offered {offered} times and never matched.",
    "health.skills.repairs_exhausted": "Skill {name} has used {count} of {limit} repair attempts.",
    "health.skills.near_duplicate": "Skills {names} have near-identical recipes ({similarity} alike).",
    "health.skills.draft_unused": "{count} draft skills have not been used for {days} days or more.",
    "health.skills.invalid_json": "Skill {name} holds invalid JSON in {fields}.",
    # notes
    "health.notes.duplicate": "{count} notes hold the same text.",
    "health.notes.forgotten_found": "{count} forgotten notes are still found by the agent's note search.",
    # indexes
    "health.indexes.missing_rows": "{index} lacks {count} rows of {table}: search does not find them.",
    "health.indexes.orphan_rows": "{index} holds {count} rows that {table} no longer has.",
    "health.indexes.absent": "The full-text index {index} of {table} does not exist.",
    # calendar
    "health.calendar.task_failing": "Task {name} has failed {failures} times in a row.",
    "health.calendar.task_paused": "Task {name} is paused until {until}.",
    "health.calendar.oneshot_overdue": "One-shot task {name} was due {overdue_hours} hours ago and never ran.",
    # file
    "health.file.size": "The file holds {size_mb} MB; {month_messages} messages came in during {month}.",
    "health.file.free_pages": "{free_mb} MB of the file ({ratio}) is free space a VACUUM would reclaim.",
    "health.file.wal_size": "The -wal file holds {wal_mb} MB (threshold {limit_mb} MB).",
    "health.file.backups": (
        "{count} backups take {total_mb} MB; the newest good one is {age_days} days old."
    ),
    "health.file.no_backup": "No backup that passes quick_check was found.",
    "health.file.prefix_size": "The memory prefix takes {chars} of its {cap} characters ({tokens} tokens).",
    "health.file.messages_per_day": "{average} messages a day over the last {days} days (busiest day: {max}).",
}
for _layer in LAYERS:
    TEXTS[f"health.{_layer}.check_failed"] = "The check {check} could not run: {error}"


def notice(code: str, **params: Any) -> Notice:
    """The finding ``code`` with ``params``, rendered in English."""
    return coded_notice(TEXTS, code, params)
