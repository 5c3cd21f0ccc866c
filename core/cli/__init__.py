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
                   (see :mod:`core.cli.changes` and the README)
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

from core.cli.app import build_parser, main
from core.cli.args import MAX_COUNT, MAX_DEMO_MESSAGES, TIME_MAX, TIME_MIN, arg_text, parse_time
from core.cli.context import HOST_OSES
from core.cli.export import EXPORT_LAYERS
from core.cli.output import PROG
from core.cli.search import LAYERS
from core.shapes import audit_json, fact_json, skill_json

__all__ = [
    "EXPORT_LAYERS",
    "HOST_OSES",
    "LAYERS",
    "MAX_COUNT",
    "MAX_DEMO_MESSAGES",
    "PROG",
    "TIME_MAX",
    "TIME_MIN",
    "arg_text",
    "audit_json",
    "build_parser",
    "fact_json",
    "main",
    "parse_time",
    "skill_json",
]
