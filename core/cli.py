"""``philont-memory``: the memory database from the command line.

Usage: ``philont-memory [--db PATH] [--json] [--now T] COMMAND ...`` (the three global options may also
follow the command). ``T`` and every ``--since``/``--until`` is an ISO 8601 time (read as the reference
reads it: a date alone is UTC midnight, a date-time without an offset is local time) or epoch
milliseconds. ``--now`` sets the time every time-dependent result is computed at (decay scores, skill
ranking, upcoming events, the demo's time span).

Every command but ``demo``, ``backup``, ``restore`` and the editing commands opens the database
**read-only**: the file and its ``-wal`` keep their bytes. ``export`` writes only its output file;
``backups`` reads only the files in ``backups/`` (it never opens the database, so it also works when
the database cannot be opened). ``backup`` reads the database and writes only the new file in
``backups/``. The editing commands (``tool NAME ARGS --write``, ``undo``, ``redo``, ``task``, ``event``)
open it writable; a backup is taken in ``backups/`` before the first write unless this project backed the
same database up less than 10 minutes ago (one backup per run of edits; :mod:`core.backups`). Backups this
project writes are ``backups/philont-desktop-<database>-<time>.sqlite``: the agent's ``memory-*.sqlite``
backups are never counted in this project's rotation, nor deleted. ``undo``, ``redo``, ``task``
and ``event`` are the desktop app's audited edits (each change and its audit row in one transaction,
actor ``<user>@philont-desktop``); they check what they would change on a read-only connection first,
so that an unknown id or a change already made is refused before anything (even the backup) is
written; a conflict found only inside the transaction (another writer changed the row meanwhile)
leaves the database as it was, with the backup already taken. ``restore`` replaces the database with a
backup: a sound file is backed up first; a damaged one (not a database, empty, truncated, corrupt, a
stale ``-wal``) is moved unchanged, with its ``-wal``/``-shm``, into ``backups/damaged-<time>-<name>``;
a missing one is created. The restored file passes ``check``, opens writable and its audit trail records
the restore. ``tool NAME ARGS --write`` is audited as well (action
``facts.store_fact``, ``calendar.<tool>``), so ``undo`` reverts it.

``mcp [--write] [--http HOST:PORT]`` serves the memory to MCP clients (:mod:`core.mcp_server`) until
the client closes stdin or the process is stopped: the database is open read-only unless ``--write``
is given; writes through it are audited with actor ``<user>@philont-memory-mcp``.

On an error the exit status is non-zero (2 for a usage error, 3 when ``restore`` finds the database in
use by another program, probably the agent, 1 otherwise), stderr gets exactly one line
``philont-memory: error: ...`` and nothing is written.

JSON output (``--json``), one object per command. Row objects use the reference's camelCase field names
(the models' JSON form); the wrapping keys are snake_case. Numbers that are not finite (a tau of
infinity, a NaN score) are written as ``null``. Message ids (integers), note ids and skill names
identify rows as the database does. Every row object has ``damaged`` (``{}``, or ``{<field>: {column,
problem, message, bytes?, hex?, stored?}}`` for each value that is not what its column holds, see
:mod:`core.damage`; such a value is ``null`` where nothing readable was stored). Plain output prints
stored text with its control characters and direction overrides spelled as escapes
(:func:`core.visible.visible`) and ``⚠ unreadable: ...`` after a damaged row.

================== ================================================================================
command            ``--json`` shape
================== ================================================================================
info               ``{path, engine, sqlite_version, schema_version, schema_version_raw, schema_status,
                   journal_mode, read_only, writable, read_only_reason, read_only_code,
                   read_only_params, immutable, quick_check, complete, missing: {tables,
                   peripheral_tables, fts, triggers, indexes, additive_columns}, row_counts: {<core
                   table>: n | null}, tables: {memory|agent|project|search|sqlite|unknown: [{name,
                   rows, virtual}]}, warnings, notices: [{code, message, params}]}``
search             ``{layer, query, count, results}``; results are messages ``{id, sessionId, role,
                   content, timestamp, originSessionId}``, notes ``{id, content, importance, sessionId,
                   createdAt, lastAccessedAt, forgottenAt, rootPursuitId}`` or skills (as ``skills``)
facts              ``{now, namespace, include_inactive, facts: [FACT]}``
forget-candidates  ``{now, threshold, limit, namespace, candidates: [{fact: FACT, score}]}``
history            ``{namespace, key, versions: [FACT]}`` (active version first, then newest first)
skills             ``{now, skills: [SKILL]}``
conversations      ``{conversations: [{id, kind, channel, detail, messageCount, firstAt, lastAt}]}``
check              ``{path, quick_check, integrity_check, fts, ok}`` (``integrity_check`` is null with
                   ``--quick``; ``fts`` lists FTS/content inconsistencies)
backup             ``{path, backup, bytes}``
demo               ``{path, seed, now, span_days, messages, sessions, actions, notes, facts, skills,
                   calendar_events, schedules, seconds, phases}``
context            ``{prefix, sections: [{name, text, chars, tokens}], recall_trigger: {hit, snippet,
                   pattern} | null, timeline: {messages: [{id, role, content, timestamp, section}],
                   totalTokens, recencyCount, recallCount, excluded: [{id, reason}]}, recall: RECALL,
                   damaged_rows: [{code, message, params}]}`` (``RECALL``: why the recall section holds what
                   it holds, see README; ``damaged_rows``: what the agent makes of each damaged row it
                   would be given)
recall-trigger     ``{hit, snippet, pattern}`` or ``null``
tool               ``{success, output?, error?, data?}`` (the tool result; absent fields left out)
tools              ``[{name, description, capability}]``; with ``--schema`` (JSON with or without
                   ``--json``): ``[{type: "function", function: {name, description, parameters}}]``
upcoming           ``{now, window_days, items: [UPCOMING]}`` (``window_days`` clamped to 1..90 as the
                   ``list_upcoming`` tool does; text mode prints the tool's lines with each
                   repetition in words, ``--agent`` exactly what the tool prints)
export             ``{path, layer, format, rows, bytes, columns, damaged_rows}``
backups            ``{path, backups_dir, now, checked, backups: [{name, path, owner, createdAt, age, size,
                   kind, quickCheck}]}`` (newest first; ``owner`` is ``agent`` (``memory-…``) or
                   ``philont-desktop`` (this project's); ``age`` is ms before ``--now``; ``kind`` is
                   ``wal`` (copied by the agent) or ``rollback`` (self-contained), ``null`` when
                   unreadable; ``quickCheck`` is ``null`` with ``--no-check``)
restore            ``{path, restored_from, safety_backup, problem, damaged, pages, audit_id}``
                   (``safety_backup`` is the backup of a sound file's replaced content, else ``null``;
                   ``problem`` says what was wrong with a damaged or missing file, ``damaged`` lists the
                   files moved aside unchanged into ``backups/``; ``audit_id`` is the restore's audit row)
audit              ``{limit, target_type, target_id, entries: [AUDIT]}`` (newest first; ``entries`` is
                   empty when the database has no audit table)
undo, redo         ``{entry: AUDIT, backup, backup_reused}`` (the new ``undo``/``redo`` row; ``backup`` is
                   the pre-write backup, ``null`` when none was needed; ``backup_reused`` is true when it
                   is this project's backup taken earlier in the same run of edits, not a new one)
task, event        ``{entry: AUDIT, backup, backup_reused}`` (as ``undo``)
changes            ``{path, baseline, until, untilIso, layers, counts, notices, changes: [CHANGE]}``
                   (see :mod:`core.changes.cli` and the README)
================== ================================================================================

``FACT`` is the fact's JSON form (``id, namespace, key, value, valueJson, confidence, supersededBy,
supersedes, createdAt, occurredAt, validFrom, validUntil, lastAccessedAt, decayTauDays, forgottenAt,
factKind, rootPursuitId, jsonErrors, damaged``) plus ``status`` (``active``, ``superseded`` or ``forgotten``),
``pinned``, ``tauDays`` (the effective tau; ``null`` when it never decays), ``tauSource`` (``pinned``,
``custom`` or ``namespace``) and ``score`` (the decay score at ``--now``).

``SKILL`` is ``{name, id, kind, maturity, source, description, triggerKeywords, whenToUse, useCount,
successCount, failureCount, consecutiveFailures, lastUsedAt, lastSuccessAt, lastFailureAt, offeredCount,
matchedCount, createdAt, callable, isRecipe, verification, toolPolicy, revisionCount, repairAttempts,
fromDisk, score, jsonErrors, damaged}``: ``repairAttempts`` counts the revisions whose reason starts with
``skill_repair:`` (the agent stops repairing at 3); ``fromDisk`` is true for a skill the agent installed
from disk.

``UPCOMING`` is ``{kind, title, at, atIso, timezone, rrule, actionType, overdue, sourceId, endsAt,
cronExpr, project, message, payloadError}``: ``kind`` is ``event`` (``at`` is the occurrence start) or
``task`` (``at`` is its next run; ``overdue`` when that is before ``--now``); ``payloadError`` says why
a task's ``payload_json`` does not parse (the tool fails as a whole then; here the task is listed).

``AUDIT`` is ``{id, at, actor, action, targetType, targetId, before, after, undoneOf, note, undone,
originalAction, summary, jsonErrors}``: ``before``/``after`` are the target's states (``null`` for "did
not exist"); ``undoneOf`` and ``originalAction`` name the edit an ``undo``/``redo`` row refers to;
``undone`` is true for an edit that is currently undone; ``summary`` is ``created``, ``deleted`` or the
changed fields.

Commands in short (``T`` as above)::

    upcoming [--days N] [--agent]         events and tasks of the next N days (default 7), repetitions
                                          in words; --agent: exactly what list_upcoming prints
    export LAYER OUT [--format json|jsonl|csv] [--bom] [--since T] [--until T] [--session ID]...
           [--force]                      one layer to a 0600 file (LAYER: messages, actions, notes,
                                          facts, skills, calendar, schedules; the format defaults to
                                          OUT's extension, else jsonl; an existing OUT is kept unless
                                          --force; progress on stderr when it is a terminal)
    backups [--no-check]                  the files in backups/: owner, age, size, kind, quick_check
    restore BACKUP --yes                  BACKUP is a path or a file name in backups/
    audit [--limit N] [--target TYPE[:ID]]  the trail of manual edits
    undo AUDIT_ID / redo AUDIT_ID         undo or redo one audited edit
    task enable|disable|delete ID         a scheduled task (memory_schedules.id)
    event delete ID                       a calendar event with all its occurrences
    changes [--since T | --against BACKUP [--to OTHER]] [--layer L]... [--threshold X]
                                          what changed, layer by layer (default: since the review mark,
                                          else the last 7 days)
    conversations                         the timeline's conversations: origin, channel, count, span
    search QUERY --origin ID...           only the messages of these conversations (an origin such as
                                          web-ui:abc, an older session's id, or global: unknown origin)
    mcp [--write] [--http HOST:PORT]      the memory as an MCP server (stdio by default)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from core import MAX_KNOWN_SCHEMA_VERSION, MIN_KNOWN_SCHEMA_VERSION, __version__, sidefiles
from core.db import MemoryDB, quick_check
from core.engine import sqlite3
from core.errors import MemoryError_, Notice, ValidationError_
from core.export import FORMATS as EXPORT_FORMATS
from core.export import LAYERS as _EXPORT_LAYER_SPECS
from core.jsutil import date_parse, iso_ms, json_safe, now_ms
from core.paths import expand_user, inspect_path, real_path, replaceable_target, resolve_db_path
from core.visible import visible

PROG = "philont-memory"
LAYERS = ("messages", "notes", "skills")
HOST_OSES = ("linux", "windows", "darwin")
EXPORT_LAYERS = tuple(_EXPORT_LAYER_SPECS)


class _UsageError(Exception):
    """A bad command line: exit status 2."""


class _Exit(Exception):
    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class _CommandError(Exception):
    """A command that ran and failed (its output may already be printed): exit status 1 by default."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _Exit(status)


# --------------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------------

_INT_RE = re.compile(r"[+-]?\d+")


def parse_time(text: str, what: str = "time") -> int:
    """An ISO 8601 time (reference ``Date.parse`` rules) or epoch milliseconds, as epoch ms; a time
    outside the years 0000 to 9999 is a usage error."""
    s = text.strip()
    if _INT_RE.fullmatch(s):
        value: Any = int(s)
    else:
        value = date_parse(s)
        if value is None or not isinstance(value, int | float) or not math.isfinite(value):
            raise _UsageError(f"{what}: not an ISO 8601 time or epoch milliseconds: {text!r}")
    if not TIME_MIN <= value <= TIME_MAX:
        raise _UsageError(
            f"{what}: {text!r} is outside the years 0000 to 9999 "
            f"(epoch milliseconds from {TIME_MIN} to {TIME_MAX})"
        )
    return int(value)


#: The largest count a limit, budget or size takes on the command line (beyond it: a usage error).
MAX_COUNT = 1_000_000_000
#: The largest number of messages ``demo`` generates (the benchmark uses a million).
MAX_DEMO_MESSAGES = 10_000_000
#: Times given on the command line: years 0000 to 9999 (epoch ms).
TIME_MIN = -62_167_219_200_000  # 0000-01-01T00:00:00.000Z
TIME_MAX = 253_402_300_799_999  # 9999-12-31T23:59:59.999Z


def _int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``lo`` to ``hi`` (``not an integer`` / ``must be ...``)."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if n < lo:
            raise argparse.ArgumentTypeError(
                f"must be at least {lo}: {text!r}" if lo > 0 else f"must not be negative: {text!r}"
            )
        if n > hi:
            raise argparse.ArgumentTypeError(f"must be at most {hi}: {text!r}")
        return n

    return parse


_positive_int = _int_in(1, MAX_COUNT)
_non_negative_int = _int_in(0, MAX_COUNT)
_audit_id = _int_in(1, 2**63 - 1)
_demo_messages = _int_in(0, MAX_DEMO_MESSAGES)
_seed = _int_in(-(2**63), 2**63 - 1)


def _finite_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return x


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def arg_text(text: str) -> str:
    """A text argument (a query, a message, a namespace) as it was typed.

    Where the locale's encoding cannot decode the argument's bytes (``LANG=C`` with UTF-8 mode off),
    Python hands them over as lone surrogates (``surrogateescape``): ``数据库`` arrives as nine of them
    and would match nothing. Bytes that are UTF-8 are decoded back as UTF-8; other bytes stay lone
    surrogates (searched as they are, never an error). Paths are never passed through this: the file
    system wants their bytes.
    """
    if not _LONE_SURROGATE.search(text):
        return text
    try:
        return os.fsencode(text).decode("utf-8")
    except UnicodeError:
        return text


def _one_line(text: str) -> str:
    return " ".join(str(text).split()) or "unknown error"


def _damage_note(row: dict[str, Any]) -> str:
    """`` ⚠ <what is unreadable>`` for a row's JSON form with ``damaged`` entries, else ``''``."""
    damaged = row.get("damaged") or {}
    if not damaged:
        return ""
    parts = []
    for d in damaged.values():
        part = d["message"]
        if d.get("hex") is not None:
            hx = d["hex"]
            part += f" [hex {hx[:64]}{'…' if len(hx) > 64 or d.get('hexTruncated') else ''}]"
        parts.append(part)
    return "  ⚠ unreadable: " + "; ".join(parts)


def _iso(ms: int | float | None) -> str:
    if ms is None:
        return "-"
    try:
        return iso_ms(ms)
    except (ValueError, OverflowError):
        return str(ms)


def _fmt_num(x: float | None) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and math.isnan(x):
        return "NaN"
    if isinstance(x, float) and math.isinf(x):
        return "∞"
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def _fmt_score(x: float | None) -> str:
    """A decay score for people: three decimals (``0.781``), ``<0.001`` for a tiny positive one (never
    ``3.593e-13``); ``--json`` keeps the exact value."""
    if x is None or not isinstance(x, int | float) or not math.isfinite(x):
        return _fmt_num(x)
    if 0 < abs(x) < 0.0005:
        return "<0.001" if x > 0 else ">-0.001"
    return f"{x:.3f}"


def _fmt_tau(f: dict[str, Any]) -> str:
    """``365 d (namespace)``, ``7 d (custom)``, ``∞ (pinned)``, ``∞ (namespace)`` for user.*."""
    days = "∞" if f["tauDays"] is None else f"{_fmt_num(f['tauDays'])} d"
    return f"{days} ({f['tauSource']})"


def _repeat_words(r: Any) -> str:
    """A :class:`core.repeats.Repeat` in English words: ``every day, 200 times``, ``weekly on Monday until
    2027-03-01``, ``every 6 hours``, ``once``."""
    if r.code == "once":
        return "once"
    if r.code == "unparsed":
        return f"once (rule not understood: {r.text})"
    unit = r.unit or "day"
    if unit == "week" and r.weekday is not None:
        day = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")[r.weekday - 1]
        text = f"weekly on {day}" if r.n == 1 else f"every {r.n} weeks on {day}"
    else:
        text = f"every {unit}" if r.n == 1 else f"every {r.n} {unit}s"
    if r.count is not None:
        text += f", {r.count} time{'s' if r.count != 1 else ''}"
    if r.until is not None:
        text += f" until {_iso(r.until)[:10] if r.until_date_only else _iso(r.until)}"
    return text


def _upcoming_line(i: Any) -> str:
    """An item of ``upcoming`` for people: the list_upcoming line with the repetition in words."""
    from core.repeats import event_repeat, task_repeat, zone_of

    if i.kind == "event":
        start = i.base_starts_at if i.base_starts_at is not None else i.at
        words = _repeat_words(event_repeat(i.rrule, start, zone_of(i.timezone)))
        return f"- [event] {i.title} @ {_iso(i.at)} ({i.timezone}, {words})"
    overdue = ", overdue" if i.overdue else ""
    return f"- [task] {i.title} @ {_iso(i.at)} ({i.action_type}, {_repeat_words(task_repeat(i.cron_expr))}{overdue})"


class _Out:
    """Where a command prints: JSON (``--json``) or text."""

    def __init__(self, as_json: bool):
        self.as_json = as_json
        enc = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("_", "-")
        self._ascii = enc not in ("utf-8", "utf8", "utf-16", "utf-32")

    def json(self, value: Any) -> None:
        text = json.dumps(json_safe(value), ensure_ascii=self._ascii, indent=2)
        # A lone surrogate (an argument that is not UTF-8) is written as JSON.stringify writes it.
        sys.stdout.write(_LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text) + "\n")

    def text(self, text: str = "") -> None:
        """One line (or several) of plain output: stored text in it has its control characters and
        direction overrides made visible (:func:`core.visible.visible`)."""
        text = visible(text)
        if self._ascii:
            enc = getattr(sys.stdout, "encoding", None) or "ascii"
            text = text.encode(enc, "replace").decode(enc, "replace")
        sys.stdout.write(text + "\n")


# --------------------------------------------------------------------------------------------------
# Row shapes
# --------------------------------------------------------------------------------------------------


def _fact_status(fact: Any) -> str:
    if fact.forgotten_at is not None:
        return "forgotten"
    if fact.superseded_by is not None:
        return "superseded"
    return "active"


def fact_json(fact: Any, now: int) -> dict[str, Any]:
    """A fact's CLI shape: its JSON form plus status, pin, effective tau and score at ``now``."""
    from core.decay import effective_tau, is_pinned, score_memory, tau_source

    out = fact.to_json()
    tau = effective_tau(fact.namespace, fact.decay_tau_days)
    out["status"] = _fact_status(fact)
    out["pinned"] = is_pinned(fact.decay_tau_days)
    out["tauDays"] = tau if math.isfinite(tau) else None
    out["tauSource"] = tau_source(fact.namespace, fact.decay_tau_days)
    out["score"] = score_memory(
        fact.namespace, fact.confidence, fact.created_at, fact.last_accessed_at, fact.decay_tau_days, now
    )
    return out


def skill_json(skill: Any, now: int) -> dict[str, Any]:
    """A skill's CLI shape (see the module docstring)."""
    from core.maturity import is_callable_maturity
    from core.repair import repair_attempts
    from core.skills import score_skill

    j = skill.to_json()
    out = {
        k: j[k]
        for k in (
            "name", "id", "kind", "maturity", "source", "description", "triggerKeywords", "whenToUse",
            "useCount", "successCount", "failureCount", "consecutiveFailures", "lastUsedAt",
            "lastSuccessAt", "lastFailureAt", "offeredCount", "matchedCount", "createdAt",
        )
    }  # fmt: skip
    out["callable"] = is_callable_maturity(skill.maturity)
    out["isRecipe"] = skill.is_recipe
    out["verification"] = skill.verification
    out["toolPolicy"] = skill.tool_policy
    out["revisionCount"] = len(skill.revision_history)
    out["repairAttempts"] = repair_attempts(skill.revision_history).count
    out["fromDisk"] = bool(skill.from_disk)
    out["score"] = score_skill(skill, now)
    out["jsonErrors"] = j["jsonErrors"]
    out["damaged"] = j["damaged"]
    return out


def _first_line(text: str | None, width: int = 100) -> str:
    if text is None:
        return "(missing)"
    line = text.split("\n", 1)[0]
    return line if len(line) <= width else line[: width - 1] + "…"


# --------------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------------


class _Ctx:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.out = _Out(bool(args.json))
        self.now = parse_time(args.now, "--now") if args.now is not None else now_ms()
        self.path = resolve_db_path(args.db)

    def open(self, *, writable: bool = False, check: bool = False) -> MemoryDB:
        return MemoryDB.open(self.path, writable=writable, check=check)


def cmd_info(ctx: _Ctx) -> int:
    from core import schema, tables

    with ctx.open(check=True) as db:
        r = db.report
        inventory = tables.inventory(db)
    rows = {t.name: t.rows for t in inventory}
    counts: dict[str, int | None] = {t: rows.get(t) for t in schema.CORE_TABLES}
    info: dict[str, Any] = {
        "path": str(db.path),
        "engine": r.engine,
        "sqlite_version": r.sqlite_version,
        "schema_version": r.schema_version,
        "schema_version_raw": r.schema_version_raw,
        "schema_status": r.schema_status,
        "journal_mode": r.journal_mode,
        "read_only": r.read_only,
        "writable": r.writable,
        "read_only_reason": r.read_only_reason,
        "read_only_code": r.read_only_code,
        "read_only_params": r.read_only_params,
        "immutable": r.immutable,
        "quick_check": r.quick_check,
        "complete": r.complete,
        "missing": {
            "tables": r.missing_tables,
            "peripheral_tables": r.missing_peripheral_tables,
            "fts": r.missing_fts,
            "triggers": r.missing_triggers,
            "indexes": r.missing_indexes,
            "additive_columns": r.missing_additive_columns,
        },
        "row_counts": counts,
        "tables": tables.grouped(inventory),
        "warnings": r.warnings,
        "notices": [n.to_json() for n in r.notices],
    }
    if ctx.out.as_json:
        ctx.out.json(info)
        return 0
    o = ctx.out.text
    o(f"path            {info['path']}")
    o(f"engine          {r.engine} (SQLite {r.sqlite_version})")
    version = {
        "newer": f"{r.schema_version} (newer than {MAX_KNOWN_SCHEMA_VERSION})",
        "older": f"{r.schema_version} (older than {MIN_KNOWN_SCHEMA_VERSION})",
        "invalid": f"{_one_line(repr(r.schema_version_raw))} (not a version number)",
        "missing": "none",
    }.get(r.schema_status, str(r.schema_version))
    o(f"schema version  {version}")
    o(f"journal mode    {r.journal_mode}")
    o(f"quick_check     {r.quick_check}")
    o(f"writable        {'yes' if r.writable else 'no: ' + str(r.read_only_reason)}")
    missing = [(k, v) for k, v in info["missing"].items() if v]
    o(
        "missing         "
        + ("; ".join(f"{k.replace('_', ' ')}: {', '.join(v)}" for k, v in missing) or "nothing")
    )
    for w in r.warnings:
        o(f"warning         {w}")
    o("rows")
    for table, n in counts.items():
        o(f"  {table:<22} {'(missing)' if n is None else n}")
    for group, title in (
        ("agent", "agent tables"),
        ("project", "this project's tables"),
        ("search", "full-text indexes"),
        ("sqlite", "SQLite's own tables"),
        ("unknown", "unknown tables"),
    ):
        entries = info["tables"][group]
        if entries:
            o(title)
        for t in entries:
            o(f"  {_one_line(t['name']):<32} {'(virtual)' if t['virtual'] else t['rows']}")
    return 0


def cmd_conversations(ctx: _Ctx) -> int:
    from core.conversations import list_conversations

    with ctx.open() as db:
        convs = list_conversations(db)
    if ctx.out.as_json:
        ctx.out.json({"conversations": [c.to_json() for c in convs]})
        return 0
    o = ctx.out.text
    for c in convs:
        o(
            f"{_one_line(c.id):<40} {c.channel:<10} {c.message_count:>7}  {_iso(c.first_at)} .. {_iso(c.last_at)}"
        )
    o(f"({len(convs)} conversation{'s' if len(convs) != 1 else ''})")
    return 0


def cmd_search(ctx: _Ctx) -> int:
    a = ctx.args
    since = parse_time(a.since, "--since") if a.since is not None else None
    until = parse_time(a.until, "--until") if a.until is not None else None
    if a.layer != "messages" and (a.session or a.origin or since is not None or until is not None):
        raise _UsageError("--session, --origin, --since and --until apply only to --layer messages")
    with ctx.open() as db:
        if a.layer == "messages":
            from core.timeline import RawStore

            rows = RawStore(db).search_messages(
                a.query,
                since=since,
                until=until,
                session_ids=a.session or None,
                limit=a.limit,
                conversations=a.origin,
            )
            results = [m.to_json() for m in rows]
        elif a.layer == "notes":
            from core.notes import NotesStore

            notes = NotesStore(db).search(a.query, limit=a.limit)
            results = [n.to_json() for n in notes]
        else:
            from core.skills import SkillStore

            skills = SkillStore(db).search(a.query, limit=a.limit, now=ctx.now)
            results = [skill_json(s, ctx.now) for s in skills]
    if ctx.out.as_json:
        ctx.out.json({"layer": a.layer, "query": a.query, "count": len(results), "results": results})
        return 0
    o = ctx.out.text
    for row in results:
        if a.layer == "messages":
            where = (row["sessionId"] or "?") + (
                f" ← {row['originSessionId']}" if row.get("originSessionId") else ""
            )
            o(
                f"#{row['id']}  {_iso(row['timestamp'])}  [{where}] {row['role'] or '?'}: {_first_line(row['content'])}"
                + _damage_note(row)
            )
        elif a.layer == "notes":
            flag = " (forgotten)" if row.get("forgottenAt") is not None else ""
            o(
                f"{row['id']}  importance {_fmt_num(row['importance'])}{flag}: {_first_line(row['content'])}"
                + _damage_note(row)
            )
        else:
            o(
                f"{row['name']}  [{row['maturity'] or '?'}, {row['kind'] or '?'}]  {_first_line(row['description'])}"
                + _damage_note(row)
            )
    o(f"({len(results)} result{'s' if len(results) != 1 else ''})")
    return 0


def _print_fact_line(ctx: _Ctx, f: dict[str, Any]) -> None:
    value = "(missing)" if f["valueJson"] is None else _first_line(f["valueJson"], 1 << 30)
    if len(value) > 80:
        value = value[:79] + "…"
    pin = " pinned" if f["pinned"] else ""
    ctx.out.text(
        f"{f['namespace']}.{f['key']} = {value}  [{f['status']}{pin}, tau {_fmt_tau(f)}, "
        f"score {_fmt_score(f['score'])}, created {_iso(f['createdAt'])}]" + _damage_note(f)
    )


def cmd_facts(ctx: _Ctx) -> int:
    from core.facts import FactStore

    a = ctx.args
    with ctx.open() as db:
        facts = FactStore(db).list_facts(a.namespace, include_inactive=a.include_inactive)
    rows = [fact_json(f, ctx.now) for f in facts]
    if ctx.out.as_json:
        ctx.out.json(
            {"now": ctx.now, "namespace": a.namespace, "include_inactive": a.include_inactive, "facts": rows}
        )
        return 0
    for f in rows:
        _print_fact_line(ctx, f)
    ctx.out.text(f"({len(rows)} fact{'s' if len(rows) != 1 else ''} at {_iso(ctx.now)})")
    return 0


def cmd_forget_candidates(ctx: _Ctx) -> int:
    from core.facts import FactStore

    a = ctx.args
    with ctx.open() as db:
        pairs = FactStore(db).forget_candidates(
            threshold=a.threshold, limit=a.limit, namespace=a.namespace, now=ctx.now
        )
    rows: list[dict[str, Any]] = [{"fact": fact_json(f, ctx.now), "score": s} for f, s in pairs]
    if ctx.out.as_json:
        ctx.out.json(
            {
                "now": ctx.now,
                "threshold": a.threshold,
                "limit": a.limit,
                "namespace": a.namespace,
                "candidates": rows,
            }
        )
        return 0
    for row in rows:
        _print_fact_line(ctx, row["fact"])
    ctx.out.text(
        f"({len(rows)} candidate{'s' if len(rows) != 1 else ''} below {a.threshold:g} at {_iso(ctx.now)})"
    )
    return 0


def cmd_history(ctx: _Ctx) -> int:
    from core.facts import FactStore

    a = ctx.args
    with ctx.open() as db:
        versions = FactStore(db).history(a.namespace, a.key)
    if not versions:
        raise _CommandError(f"no fact {a.namespace}.{a.key}")
    rows = [fact_json(f, ctx.now) for f in versions]
    if ctx.out.as_json:
        ctx.out.json({"namespace": a.namespace, "key": a.key, "versions": rows})
        return 0
    for f in rows:
        extra = f"  supersedes {f['supersedes']}" if f["supersedes"] else ""
        ctx.out.text(
            f"{f['id']}  {f['status']:<10} {_iso(f['createdAt'])}  {f['valueJson'] if f['valueJson'] is not None else '(missing)'}{extra}"
            + _damage_note(f)
        )
    return 0


def cmd_skills(ctx: _Ctx) -> int:
    from core.skills import SkillStore

    with ctx.open() as db:
        skills = SkillStore(db).list_every()
    rows = [skill_json(s, ctx.now) for s in skills]
    if ctx.out.as_json:
        ctx.out.json({"now": ctx.now, "skills": rows})
        return 0
    for s in rows:
        flags = [s["maturity"] or "?", s["kind"] or "?"]
        if s["callable"]:
            flags.append("callable")
        if s["isRecipe"]:
            flags.append(f"recipe r{s['revisionCount']}")
        ctx.out.text(
            f"{s['name']}  [{', '.join(flags)}]  used {s['useCount']}, "
            f"{s['successCount']} ok / {s['failureCount']} failed (consecutive {s['consecutiveFailures']}), "
            f"score {_fmt_score(s['score'])}" + _damage_note(s)
        )
    ctx.out.text(f"({len(rows)} skill{'s' if len(rows) != 1 else ''})")
    return 0


def cmd_check(ctx: _Ctx) -> int:
    from core import schema

    a = ctx.args
    with ctx.open() as db, db.lock:
        qc = quick_check(db.conn)
        integrity = None
        if not a.quick:
            rows = db.conn.execute("PRAGMA integrity_check").fetchall()
            integrity = "\n".join(str(r[0]) for r in rows) or "ok"
        with db.read_snapshot() as conn:  # the counts of index and content from one moment
            fts = schema.fts_consistency(conn)
    ok = qc == "ok" and integrity in (None, "ok") and not fts
    result = {"path": str(ctx.path), "quick_check": qc, "integrity_check": integrity, "fts": fts, "ok": ok}
    if ctx.out.as_json:
        ctx.out.json(result)
    else:
        o = ctx.out.text
        o(f"quick_check      {_one_line(qc) if qc != 'ok' else 'ok'}")
        o(f"integrity_check  {'skipped (--quick)' if integrity is None else _one_line(integrity)}")
        o(f"fts              {'consistent' if not fts else '; '.join(fts)}")
        o("ok" if ok else "PROBLEMS FOUND")
    if not ok:
        first = qc if qc != "ok" else (integrity if integrity not in (None, "ok") else fts[0])
        raise _CommandError(f"check failed: {_one_line(str(first))}")
    return 0


def cmd_backup(ctx: _Ctx) -> int:
    with ctx.open() as db:
        dest = db.backup()
    size = dest.stat().st_size
    if ctx.out.as_json:
        ctx.out.json({"path": str(ctx.path), "backup": str(dest), "bytes": size})
    else:
        ctx.out.text(f"{dest} ({size} bytes)")
    return 0


def cmd_demo(ctx: _Ctx) -> int:
    from core import demo

    a = ctx.args
    quiet = ctx.out.as_json or not sys.stderr.isatty()

    def progress(phase: str, done: int, total: int) -> None:
        if not quiet:
            sys.stderr.write(f"\r{phase}: {done}/{total}".ljust(40))
            sys.stderr.flush()

    report = demo.generate(
        a.out,
        messages=a.messages,
        seed=a.seed,
        now=ctx.now if ctx.args.now is not None else None,
        progress=progress,
    )
    if not quiet:
        sys.stderr.write("\r" + " " * 40 + "\r")
    if ctx.out.as_json:
        ctx.out.json(report.model_dump())
        return 0
    o = ctx.out.text
    o(f"wrote {report.path} in {report.seconds:.1f} s (seed {report.seed}, now {_iso(report.now)})")
    for key in (
        "messages",
        "sessions",
        "actions",
        "notes",
        "facts",
        "skills",
        "calendar_events",
        "schedules",
    ):
        o(f"  {key.replace('_', ' '):<16} {getattr(report, key)}")
    return 0


def cmd_context(ctx: _Ctx) -> int:
    from core.context import build_context

    a = ctx.args
    with ctx.open() as db:
        r = build_context(
            db,
            a.message,
            session_ids=a.session or (),
            recent_budget=a.recent_budget,
            recall_budget=a.recall_budget,
            recent_limit=a.recent_limit,
            recall_limit=a.recall_limit,
            host_os=a.host_os,
            home_session_id=a.home_session,
            now=ctx.now,
        )
    if ctx.out.as_json:
        ctx.out.json(r.to_json())
        return 0
    prefix, hit, result = r.prefix, r.trigger, r.timeline
    o = ctx.out.text
    # First what a person asks about: did the trigger fire, what was recalled and why.
    o("trigger: no hit" if hit is None else f"trigger: hit {hit.pattern} {hit.snippet!r}")
    if r.recall is not None:
        for line in r.recall.summary_lines():
            o(line)
    o("")
    o("=== memory prefix " + f"({len(prefix.sections)} sections) ===")
    o(prefix.text)
    o("")
    if hit is None:
        o("=== recall trigger: no hit ===")
    else:
        o(f"=== recall trigger: hit {hit.pattern} {hit.snippet!r} ===")
        o(hit.injected)
    o("")
    o(
        f"=== timeline: {len(result.messages)} messages, {result.total_tokens} tokens "
        f"(recent {result.recency_count}, recalled {result.recall_count}) ==="
    )
    for m in result.messages:
        ident = "" if m.id is None else f"#{m.id} "
        o(f"[{m.section}] {ident}{_iso(m.timestamp)} {m.role}: {m.content}")
    if result.excluded:
        o("left out: " + ", ".join(f"#{e.id} ({e.reason})" for e in result.excluded))
    if r.row_notices:
        o("")
        o(f"=== damaged rows in this context: {len(r.row_notices)} ===")
        for n in r.row_notices:
            o(f"⚠ [{n.params.get('section')}] {n.message}")
    return 0


def cmd_recall_trigger(ctx: _Ctx) -> int:
    from core import recall_trigger

    hit = recall_trigger.detect(ctx.args.text)
    if ctx.out.as_json:
        ctx.out.json(
            None if hit is None else {"hit": hit.hit, "snippet": hit.snippet, "pattern": hit.pattern}
        )
    elif hit is None:
        ctx.out.text("no hit")
    else:
        ctx.out.text(f"hit {hit.pattern}: {hit.snippet}")
    return 0


def cmd_tool(ctx: _Ctx) -> int:
    from core.curation.tools import run_audited
    from core.tools import TOOL_NAMES, TOOLS

    a = ctx.args
    spec = TOOLS.get(a.name)
    if spec is None:
        raise _UsageError(f"unknown tool {a.name!r} (known: {', '.join(TOOL_NAMES)})")
    if spec.capability == "write" and not a.write:
        raise _UsageError(f"{a.name} writes to the memory; run it with --write")
    with ctx.open(writable=a.write) as db:
        result = run_audited(db, a.name, a.args, note=f"{PROG} tool {a.name}", now=ctx.now).result
    if ctx.out.as_json:
        ctx.out.json(result.to_json())
    elif result.success:
        ctx.out.text(result.output or "")
    if not result.success:
        raise _CommandError(result.error or f"{a.name} failed")
    return 0


def cmd_tools(ctx: _Ctx) -> int:
    from core.tools import TOOLS, tool_schemas

    if ctx.args.schema:
        ctx.out.json(tool_schemas())
        return 0
    rows = [
        {"name": s.name, "description": s.description, "capability": s.capability} for s in TOOLS.values()
    ]
    if ctx.out.as_json:
        ctx.out.json(rows)
        return 0
    for r in rows:
        ctx.out.text(f"{r['name']:<22} {r['capability']:<6} {_first_line(r['description'], 80)}")
    return 0


def cmd_mcp(ctx: _Ctx) -> int:
    from core.mcp_server import parse_http_address, serve

    a = ctx.args
    if a.http is not None:
        try:
            parse_http_address(a.http)
        except ValidationError_ as exc:
            raise _UsageError(str(exc)) from None
    with ctx.open(writable=a.write) as db:
        return serve(db, write=a.write, http=a.http, now=ctx.now if a.now is not None else None)


def cmd_upcoming(ctx: _Ctx) -> int:
    from core.upcoming import upcoming

    with ctx.open() as db:
        result = upcoming(db, ctx.args.days, now=ctx.now)
    if ctx.out.as_json:
        items = [{**i.to_json(), "payloadError": i.payload_error} for i in result.items]
        ctx.out.json({"now": result.now, "window_days": result.days, "items": items})
    elif ctx.args.agent or not result.items:
        ctx.out.text(result.text())
    else:
        ctx.out.text("\n".join(_upcoming_line(i) for i in result.items))
    return 0


_FORMAT_OF_SUFFIX = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}


def _is_database_file(ctx: _Ctx, out: Path) -> bool:
    """Whether ``out`` names the database or one of its ``-wal``/``-shm`` files."""
    for suffix in ("", "-wal", "-shm"):
        f = Path(str(ctx.path) + suffix)
        try:
            if os.path.samefile(out, f):
                return True
        except OSError:
            if real_path(out) == real_path(f):
                return True
    return False


def cmd_export(ctx: _Ctx) -> int:
    from core.export import export_layer, layer_columns

    a = ctx.args
    out = expand_user(a.out)
    fmt = a.format or _FORMAT_OF_SUFFIX.get(out.suffix.lower(), "jsonl")
    since = parse_time(a.since, "--since") if a.since is not None else None
    until = parse_time(a.until, "--until") if a.until is not None else None
    if _is_database_file(ctx, out):
        raise _UsageError(f"{out} is the database itself; choose another file to export to")
    if inspect_path(out)[0] not in ("missing", "regular", "folder"):
        replaceable_target(out, "the export")  # a FIFO, socket, device or link loop: refused
    if os.path.lexists(out) and not out.is_dir() and not a.force:
        raise _CommandError(f"{out} already exists; it was left alone (--force replaces it)")
    quiet = ctx.out.as_json or not sys.stderr.isatty()
    shown = [False]

    def progress(done: int, total: int) -> None:
        if not quiet:
            shown[0] = True
            sys.stderr.write(f"\rexporting {a.layer}: {done}/{total}".ljust(40))
            sys.stderr.flush()

    with ctx.open() as db:
        filters = None
        if a.session:
            if "session_id" not in layer_columns(db, a.layer):
                raise _UsageError(f"--session does not apply to the {a.layer} layer (it has no sessions)")
            filters = {"session_id": list(dict.fromkeys(a.session))}
        try:
            result = export_layer(
                db, a.layer, out, fmt, filters=filters, since=since, until=until, bom=a.bom, progress=progress
            )
        finally:
            if shown[0]:
                sys.stderr.write("\r" + " " * 40 + "\r")
                sys.stderr.flush()
    data = {
        "path": str(result.path),
        "layer": a.layer,
        "format": result.format,
        "rows": result.rows,
        "bytes": result.bytes,
        "columns": result.columns,
        "damaged_rows": result.damaged_rows,
    }
    if ctx.out.as_json:
        ctx.out.json(data)
    else:
        ctx.out.text(
            f"wrote {result.rows} row{'s' if result.rows != 1 else ''} of {a.layer} to {result.path} "
            f"({result.format}, {result.bytes} bytes)"
        )
        if result.damaged_rows:
            where = (
                "their values are written as shown (U+FFFD for bytes that are not UTF-8); export JSON "
                "or JSONL to keep the stored bytes"
                if result.format == "csv"
                else "each has a _damaged member with what is unreadable and the stored bytes"
            )
            ctx.out.text(f"⚠ {result.damaged_rows} row(s) hold unreadable values: {where}")
    return 0


def _fmt_age(age: int | None) -> str:
    """``just now``, ``12 min ago``, ``5 h ago``, ``3 d ago`` (whole units, rounded down); ``in the
    future`` for a time more than a minute ahead (a backup named for a later date)."""
    if age is None:
        return "?"
    if int(age) <= -60_000:
        return "in the future"
    a = max(0, int(age))
    if a < 60_000:
        return "just now"
    if a < 3_600_000:
        return f"{a // 60_000} min ago"
    if a < 2 * 86_400_000:
        return f"{a // 3_600_000} h ago"
    return f"{a // 86_400_000} d ago"


def _fmt_size(n: int) -> str:
    x = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if x < 1024 or unit == "GiB":
            return f"{n} bytes" if unit == "bytes" else f"{x:.1f} {unit}"
        x /= 1024
    return f"{n} bytes"  # pragma: no cover


_KIND_TEXT = {"wal": "agent (WAL)", "rollback": "self-contained", None: "unreadable"}
_OWNER_TEXT = {"agent": "agent", "philont-desktop": "this app"}


def cmd_backups(ctx: _Ctx) -> int:
    from core.backups import list_backups_info
    from core.paths import backups_dir

    checked = not ctx.args.no_check
    infos = list_backups_info(ctx.path, check=checked, now=ctx.now)
    rows: list[dict[str, Any]] = [
        {
            "name": b.name,
            "path": str(b.path),
            "owner": b.owner,
            "createdAt": b.created_at,
            "age": b.age,
            "size": b.size,
            "kind": b.journal,
            "quickCheck": b.quick_check,
        }
        for b in infos
    ]
    folder = backups_dir(ctx.path)
    if ctx.out.as_json:
        data = {"path": str(ctx.path), "backups_dir": str(folder), "now": ctx.now, "checked": checked}
        ctx.out.json({**data, "backups": rows})
        return 0
    width = max((len(r["name"]) for r in rows), default=0)
    for r in rows:
        check = "not checked" if r["quickCheck"] is None else _first_line(r["quickCheck"], 80)
        ctx.out.text(
            f"{r['name']:<{width}}  {_OWNER_TEXT.get(r['owner'], '?'):<8}  {_iso(r['createdAt'])}  "
            f"{_fmt_age(r['age']):<11} "
            f"{_fmt_size(r['size']):>11}  "
            f"{_KIND_TEXT.get(r['kind'], str(r['kind'])):<14}  {check}"
        )
    ctx.out.text(f"({len(rows)} backup{'s' if len(rows) != 1 else ''} in {folder})")
    return 0


def cmd_restore(ctx: _Ctx) -> int:
    from core.backups import AgentRunningError, file_kind, restore_backup
    from core.paths import backups_dir

    a = ctx.args
    backup = Path(a.backup).expanduser()
    bare = backup.name == a.backup
    if file_kind(backup) is None and bare:  # a bare name: a file of backups/
        candidate = backups_dir(ctx.path) / a.backup
        if file_kind(candidate) is not None:
            backup = candidate
    kind = file_kind(backup)
    if kind is None:
        where = f" (nor in {backups_dir(ctx.path)})" if bare else ""
        raise _CommandError(f"the backup {backup} does not exist{where}")
    if kind != "file":
        raise _CommandError(f"the backup {backup} is a {kind}, not a file; it was not opened")
    if not a.yes:
        raise _UsageError(
            f"restore replaces {ctx.path} with {backup}. The current file is kept in {backups_dir(ctx.path)}: "
            "backed up first, or moved there unchanged when it is damaged. Stop the agent, then run it again "
            "with --yes"
        )
    try:
        result = restore_backup(ctx.path, backup)
    except AgentRunningError as e:
        raise _CommandError(str(e), status=3) from None
    if ctx.out.as_json:
        ctx.out.json(
            {
                "path": str(result.db_path),
                "restored_from": str(result.restored_from),
                "safety_backup": None if result.safety_backup is None else str(result.safety_backup),
                "problem": result.problem,
                "damaged": [str(p) for p in result.damaged],
                "pages": result.pages,
                "audit_id": result.audit_id,
            }
        )
        return 0
    ctx.out.text(f"restored {result.db_path} from {result.restored_from}")
    if result.safety_backup is not None:
        ctx.out.text(f"the replaced content is in {result.safety_backup}")
    elif result.damaged:
        others = ", ".join(p.name[len(result.damaged[0].name) :] for p in result.damaged[1:])
        also = f" (with its {others})" if others else ""
        what = "the damaged file" if result.problem != "missing" else "the orphan file"
        ctx.out.text(f"{what} ({result.problem}) was moved, unchanged, to {result.damaged[0]}{also}")
    else:
        ctx.out.text(f"there was no file at {result.db_path}: it was created from the backup")
    ctx.out.text(f"audit entry #{result.audit_id}")
    return 0


def audit_json(entry: Any) -> dict[str, Any]:
    """An audit entry's CLI shape (``AUDIT`` in the module docstring)."""
    from core.audit import summarize

    return {
        "id": entry.id,
        "at": entry.at,
        "actor": entry.actor,
        "action": entry.action,
        "targetType": entry.target_type,
        "targetId": entry.target_id,
        "before": entry.before,
        "after": entry.after,
        "undoneOf": entry.undone_of,
        "note": entry.note,
        "undone": entry.undone,
        "originalAction": entry.original_action,
        "summary": summarize(entry.before, entry.after),
        "jsonErrors": entry.json_errors,
    }


def _audit_line(e: dict[str, Any]) -> str:
    if e["undoneOf"] is not None and e["action"] in ("undo", "redo"):
        what = f"{e['action']} of #{e['undoneOf']} ({e['originalAction'] or '?'})"
    else:
        what = e["action"]
    flag = "  (undone)" if e["undone"] else ""
    return (
        f"#{e['id']}  {_iso(e['at'])}  {e['actor']}  {what}  {e['targetType']}:{e['targetId']}  "
        f"{e['summary']}{flag}"
    )


def cmd_audit(ctx: _Ctx) -> int:
    from core.audit import list_entries

    a = ctx.args
    target_type: str | None = None
    target_id: str | None = None
    if a.target is not None:
        target_type, sep, rest = a.target.partition(":")
        if not target_type or (sep and not rest):
            raise _UsageError(f"--target: expected TYPE or TYPE:ID, e.g. schedule:<id>: {a.target!r}")
        target_id = rest if sep else None
    with ctx.open() as db:
        entries = list_entries(db, limit=a.limit, target_type=target_type, target_id=target_id)
    rows = [audit_json(e) for e in entries]
    if ctx.out.as_json:
        ctx.out.json({"limit": a.limit, "target_type": target_type, "target_id": target_id, "entries": rows})
        return 0
    for e in rows:
        ctx.out.text(_audit_line(e))
    ctx.out.text(f"({len(rows)} audit entr{'ies' if len(rows) != 1 else 'y'})")
    return 0


def _report_edit(ctx: _Ctx, entry: Any, db: MemoryDB, done: str) -> int:
    """Print the outcome of an audited edit (``{entry, backup, backup_reused}``)."""
    backup, reused = db.last_backup, db.backup_reused
    if ctx.out.as_json:
        shown = None if backup is None else str(backup)
        ctx.out.json({"entry": audit_json(entry), "backup": shown, "backup_reused": reused})
        return 0
    ctx.out.text(f"{done}: audit entry #{entry.id}")
    if backup is not None and reused:
        ctx.out.text(f"no new backup: {backup}, taken less than 10 minutes ago, covers this run of edits")
    elif backup is not None:
        ctx.out.text(f"backup before the first write: {backup}")
    return 0


def _undo_or_redo(ctx: _Ctx, kind: str) -> int:
    from core import curation
    from core.audit import get_entry
    from core.errors import ConflictError, NotFoundError

    audit_id = ctx.args.audit_id
    # Refuse on a read-only connection what the transaction would refuse, before anything is written.
    with ctx.open() as db:
        entry = get_entry(db, audit_id)
        if entry is None:
            raise NotFoundError(
                f"There is no audit entry #{audit_id}.", code="audit.not_found", params={"audit_id": audit_id}
            )
        orig = entry if entry.is_original else get_entry(db, entry.original_id)
    if orig is None:
        raise NotFoundError(
            f"The edit that audit entry #{audit_id} refers to is missing.",
            code="audit.original_missing",
            params={"audit_id": audit_id},
        )
    if kind == curation.UNDO and orig.undone:
        raise ConflictError(
            f"Edit #{orig.id} ({orig.action}) is already undone.",
            code="audit.already_undone",
            params={"audit_id": orig.id, "action": orig.action},
        )
    if kind == curation.REDO and not orig.undone:
        raise ConflictError(
            f"Edit #{orig.id} ({orig.action}) is not undone, so there is nothing to redo.",
            code="audit.not_undone",
            params={"audit_id": orig.id, "action": orig.action},
        )
    curation.handler(orig.action)
    step = curation.undo if kind == curation.UNDO else curation.redo
    with ctx.open(writable=True) as db:
        new = step(db, orig.id, curation.default_actor(), now=ctx.now)
    verb = "undid" if kind == curation.UNDO else "redid"
    return _report_edit(ctx, new, db, f"{verb} edit #{orig.id} ({orig.action} of {orig.target})")


def cmd_undo(ctx: _Ctx) -> int:
    return _undo_or_redo(ctx, "undo")


def cmd_redo(ctx: _Ctx) -> int:
    return _undo_or_redo(ctx, "redo")


def cmd_task(ctx: _Ctx) -> int:
    from core.curation import calendar as curate
    from core.schedules import ScheduleStore

    a = ctx.args
    with ctx.open() as db:
        task = ScheduleStore(db).get(a.id)
    if task is None:
        raise _CommandError(f"no task {a.id!r}")
    label = f"task {task.name!r} ({task.id})"
    if a.action == "delete":
        change = curate.delete_schedule(task.id, seen=task)
        done = f"deleted {label}"
    else:
        enable = a.action == "enable"
        if task.enabled == enable:
            raise _CommandError(f"{label} is already {a.action}d; nothing to change")
        change = curate.set_schedule_enabled(task.id, enable, seen=task)
        done = f"{a.action}d {label}"
    with ctx.open(writable=True) as db:
        entry = change.perform(db, now=ctx.now)
    return _report_edit(ctx, entry, db, done)


def cmd_event(ctx: _Ctx) -> int:
    from core.calendar import CalendarStore
    from core.curation import calendar as curate

    a = ctx.args
    with ctx.open() as db:
        event = CalendarStore(db).get(a.id)
    if event is None:
        raise _CommandError(f"no calendar event {a.id!r}")
    change = curate.delete_event(event.id, seen=event)
    with ctx.open(writable=True) as db:
        entry = change.perform(db, now=ctx.now)
    return _report_edit(
        ctx, entry, db, f"deleted event {event.title!r} @ {_iso(event.starts_at)} ({event.id})"
    )


# --------------------------------------------------------------------------------------------------
# The parser
# --------------------------------------------------------------------------------------------------


def _global_options(p: argparse.ArgumentParser, *, defaults: bool) -> None:
    d = (lambda v: v) if defaults else (lambda v: argparse.SUPPRESS)
    p.add_argument(
        "--db",
        metavar="PATH",
        default=d(None),
        help="database file (default: $MEMORY_DB_PATH, then ~/.philont/memory/memory.sqlite)",
    )
    p.add_argument("--json", action="store_true", default=d(False), help="print JSON (stable shapes)")
    p.add_argument(
        "--now", metavar="T", default=d(None), help="the time results are computed at: ISO 8601 or epoch ms"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Inspect, search and check a Philont memory database. Read-only unless stated.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    _global_options(parser, defaults=True)
    common = _Parser(add_help=False)
    _global_options(common, defaults=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def add(name: str, fn: Callable[[_Ctx], int], help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=help_, parents=[common])
        p.set_defaults(fn=fn)
        return p

    add("info", cmd_info, "path, schema version, journal mode, row counts, missing pieces, writability")

    p = add("search", cmd_search, "full-text search of messages, notes or skills (the reference's search)")
    p.add_argument("query", metavar="QUERY", type=arg_text)
    p.add_argument("--layer", choices=LAYERS, default="messages")
    p.add_argument("--limit", type=_positive_int, default=20)
    p.add_argument(
        "--session", metavar="ID", action="append", type=arg_text, help="only these sessions (repeatable)"
    )
    p.add_argument(
        "--origin",
        metavar="ID",
        action="append",
        type=arg_text,
        help="only these conversations (repeatable): an origin such as web-ui:abc or wechat:x, an older "
        "session's id, or 'global' for messages of unknown origin",
    )
    p.add_argument("--since", metavar="T")
    p.add_argument("--until", metavar="T")

    add("conversations", cmd_conversations, "the conversations of the timeline, by origin, newest first")

    p = add("facts", cmd_facts, "facts with tau, pin, decay score at --now and status")
    p.add_argument("--namespace", metavar="NS", type=arg_text, help="exactly this namespace")
    p.add_argument("--include-inactive", action="store_true", help="superseded and forgotten versions too")

    p = add("forget-candidates", cmd_forget_candidates, "active unpinned facts scoring below the threshold")
    p.add_argument("--threshold", type=_finite_float, default=0.05)
    p.add_argument("--limit", type=_non_negative_int, default=50)
    p.add_argument("--namespace", metavar="NS", type=arg_text)

    p = add("history", cmd_history, "every version of one fact")
    p.add_argument("namespace", metavar="NS", type=arg_text)
    p.add_argument("key", metavar="KEY", type=arg_text)

    add("skills", cmd_skills, "every skill: maturity, kind, counters, callable, revisions")

    p = add("check", cmd_check, "integrity_check (or quick_check) and FTS/content consistency")
    p.add_argument("--quick", action="store_true", help="quick_check only (faster on big files)")

    add(
        "backup",
        cmd_backup,
        "write backups/philont-desktop-<database>-YYYYMMDDTHHmmss.sqlite (keeps the newest 28 of these; the "
        "agent's memory-*.sqlite backups are never touched)",
    )

    p = add("demo", cmd_demo, "write a new bilingual demo database (same --seed and --now: same rows)")
    p.add_argument("--out", metavar="PATH", required=True)
    p.add_argument("--messages", type=_demo_messages, default=3000)
    p.add_argument("--seed", type=_seed, default=0)

    p = add("context", cmd_context, "what the agent would be given next turn: prefix, trigger, timeline")
    p.add_argument("message", metavar="MESSAGE", type=arg_text)
    p.add_argument("--session", metavar="ID", action="append", help="restrict the timeline (repeatable)")
    p.add_argument("--home-session", metavar="ID", help="the conversation's own origin id (newer reference)")
    p.add_argument("--recent-budget", type=_non_negative_int, default=8000)
    p.add_argument("--recall-budget", type=_non_negative_int, default=4000)
    p.add_argument("--recent-limit", type=_non_negative_int, default=30)
    p.add_argument("--recall-limit", type=_non_negative_int, default=10)
    p.add_argument("--host-os", choices=HOST_OSES, default=None)

    p = add("recall-trigger", cmd_recall_trigger, "does this message refer to a past conversation?")
    p.add_argument("text", metavar="TEXT", type=arg_text)

    p = add("tool", cmd_tool, "run one of the 11 memory tools with a JSON argument object")
    p.add_argument("name", metavar="NAME")
    p.add_argument("args", metavar="JSON-ARGS", nargs="?", default="{}", type=arg_text)
    p.add_argument("--write", action="store_true", help="allow a write tool (opens the database writable)")

    p = add("mcp", cmd_mcp, "serve the memory to MCP clients (stdio; read-only unless --write)")
    p.add_argument(
        "--write", action="store_true", help="allow the writing tools (audited, undoable; backup first)"
    )
    p.add_argument(
        "--http", metavar="HOST:PORT", help="streamable HTTP instead of stdio (HOST defaults to 127.0.0.1)"
    )

    p = add("tools", cmd_tools, "list the memory tools")
    p.add_argument("--schema", action="store_true", help="every tool's JSON Schema in the function format")

    p = add("upcoming", cmd_upcoming, "events and scheduled tasks of the next days, repetitions in words")
    p.add_argument("--days", type=_finite_float, default=None, help="the window in days (1 to 90; default 7)")
    p.add_argument(
        "--agent",
        action="store_true",
        help="print exactly what list_upcoming gives the agent (rules as stored)",
    )

    p = add("export", cmd_export, "export one layer to a JSON, JSONL or CSV file (0600)")
    p.add_argument("layer", metavar="LAYER", choices=EXPORT_LAYERS, help=", ".join(EXPORT_LAYERS))
    p.add_argument("out", metavar="OUT", help="the file to write")
    p.add_argument("--format", choices=EXPORT_FORMATS, help="default: from OUT's extension, else jsonl")
    p.add_argument("--bom", action="store_true", help="start with a UTF-8 byte-order mark (Excel and CSV)")
    p.add_argument("--since", metavar="T", help="rows at or after T (the layer's time column)")
    p.add_argument("--until", metavar="T", help="rows at or before T")
    p.add_argument("--session", metavar="ID", action="append", help="only these sessions (repeatable)")
    p.add_argument("--force", action="store_true", help="replace OUT when it exists")

    p = add("backups", cmd_backups, "the files in backups/ with owner, age, size, kind and quick_check")
    p.add_argument("--no-check", action="store_true", help="skip the quick_check of every backup")

    p = add(
        "restore",
        cmd_restore,
        "replace the database with a backup (a sound file is backed up first, a damaged one moved aside)",
    )
    p.set_defaults(writes=True)
    p.add_argument("backup", metavar="BACKUP", help="a backup file, or the name of a file in backups/")
    p.add_argument("--yes", "-y", action="store_true", help="go ahead (without it, restore only explains)")

    p = add("audit", cmd_audit, "the audit trail of manual edits, newest first")
    p.add_argument("--limit", type=_positive_int, default=100)
    p.add_argument("--target", metavar="TYPE[:ID]", help="only edits of this target, e.g. schedule:<id>")

    p = add("undo", cmd_undo, "undo one audited edit (writes; backup first)")
    p.add_argument("audit_id", metavar="AUDIT_ID", type=_audit_id)
    p.set_defaults(writes=True)

    p = add("redo", cmd_redo, "redo one undone audited edit (writes; backup first)")
    p.add_argument("audit_id", metavar="AUDIT_ID", type=_audit_id)
    p.set_defaults(writes=True)

    p = add("task", cmd_task, "enable, disable or delete a scheduled task, audited (writes; backup first)")
    p.add_argument("action", choices=("enable", "disable", "delete"))
    p.set_defaults(writes=True)
    p.add_argument("id", metavar="ID")

    p = add(
        "event", cmd_event, "delete a calendar event with all its occurrences, audited (writes; backup first)"
    )
    p.set_defaults(writes=True)
    p.add_argument("action", choices=("delete",))
    p.add_argument("id", metavar="ID")

    from core.changes import cli as changes_cli

    p = add("changes", changes_cli.cmd_changes, "what changed since a time, a backup, or between two backups")
    changes_cli.configure(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
        # (The MCP server takes --now for its answers; its write tools record the current time.)
        writes = getattr(args, "writes", False) or (getattr(args, "write", False) and args.fn is not cmd_mcp)
        if args.now is not None and writes:
            raise _UsageError(
                "--now is for reading: a write records the current time (in the rows it writes and in "
                "the audit trail); leave --now out"
            )
        ctx = _Ctx(args)
        with sidefiles.reporting(_warn):  # a side file set aside (the review marks): said on stderr
            return int(args.fn(ctx))
    except _Exit as e:
        return e.status
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, like other command-line tools.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0
    except _UsageError as e:
        return _fail(str(e), 2)
    except _CommandError as e:
        return _fail(str(e), e.status)
    except (MemoryError_, ValidationError_) as e:
        return _fail(str(e), 1)
    except sqlite3.Error as e:
        return _fail(f"SQLite: {e}", 1)
    except OSError as e:
        return _fail(f"{e.strerror or e}{f': {e.filename}' if e.filename else ''}", 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except Exception as e:
        return _fail(f"{type(e).__name__}: {e}", 1)


def _warn(notice: Notice) -> None:
    sys.stderr.write(f"{PROG}: warning: {visible(_one_line(notice.message))}\n")


def _fail(message: str, status: int) -> int:
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    sys.stderr.write(f"{PROG}: error: {visible(_one_line(message))}\n")
    return status


def run() -> None:  # pragma: no cover - console entry point wrapper
    raise SystemExit(main())


__all__ = ["audit_json", "build_parser", "fact_json", "main", "parse_time", "skill_json"]

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
