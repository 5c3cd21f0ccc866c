"""The core's errors and notices in the interface's language: one translated template per code.

The core (no Qt) gives every error a person can meet and every warning or explanation a ``code`` and
``params`` (:mod:`core.errors`). This module is where the GUI turns them into text: :func:`text` takes a
:class:`~core.errors.Notice` or a :class:`~core.errors.MemoryError_` (or ``code, params, english``) and
fills the template of its code with the parameters. The core's English sentence is never parsed; in
English it is shown as the core wrote it, and in another language it is shown only for a code this
version does not know (a newer core), so a reworded English message never turns the Chinese UI English.

Codes of a few areas keep their templates beside the views that show them, and are reached through
here too: the recall explanation (``recall.*``, ``substring.*``, :mod:`.context_tab.recall_text`),
damaged rows of the context (``context.row.*``, :mod:`.context_tab.row_notes`), backups and restores
(``backup.*``, ``restore.*``, :mod:`.backups.recovery`) and change sets (``change.*``,
:mod:`.review.texts`). :func:`codes` lists every code with a template; the tests check that it covers
every code the core can produce.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from core.errors import DatabaseOpenError, MemoryError_, Notice
from philont_desktop import i18n
from philont_desktop.qt import QCoreApplication

__all__ = ["codes", "error_text", "explanation", "grade_name", "notice_text", "read_only_reason", "text"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("CoreMessages", text)


Template = Callable[[], str]

# The templates. Placeholders are the notice's parameter names; the values are formatted by
# :func:`_value` (lists joined, grades and kinds of file named in the interface's language).
_TEMPLATES: dict[str, Template] = {
    # -- opening a file: why it cannot be opened (DatabaseOpenError's ``reason``) -------------------
    "db.open.why.folder": lambda: _tr("This path is a directory, not a database file."),
    "db.open.why.path_names": lambda: _tr("This path names {kind}."),
    "db.open.why.missing": lambda: _tr("No database file exists at this path."),
    "db.open.why.missing_tilde": lambda: _tr(
        "No database file exists at this path. It starts with '~{user}', which names no user or home "
        "folder on this machine, so it was taken as written."
    ),
    "db.open.why.special_file": lambda: _tr("This is {kind}, not a database file; it was not opened."),
    "db.open.why.not_regular": lambda: _tr("This is not a regular file; it was not read."),
    "db.open.why.permission": lambda: _tr("The file cannot be read: permission denied."),
    "db.open.why.os_error": lambda: _tr("The file cannot be read: {error}."),
    "db.open.why.empty": lambda: _tr("The file is empty (0 bytes): it holds no database."),
    "db.open.why.no_header": lambda: _tr(
        "This is not an SQLite database (the file does not start with the SQLite header)."
    ),
    "db.open.why.short_header": lambda: _tr("The file is truncated: its SQLite header is incomplete."),
    "db.open.why.truncated": lambda: _tr(
        "The file is truncated: the header declares {pages} pages of {page_size} bytes ({expected} bytes) "
        "but the file has {size} bytes."
    ),
    "db.open.why.exists": lambda: _tr("A file already exists at this path; it was left alone."),
    "db.open.why.cannot_create": lambda: _tr(
        "A new database cannot be created here: this path names {kind}."
    ),
    "db.open.why.orphan_files": lambda: _tr(
        "{names} exist(s) without a database: left by a database that was moved or deleted, and SQLite "
        "would merge them into a new one. Move them away first; nothing was written."
    ),
    "db.open.why.replaced": lambda: _tr(
        "This is no longer the file that was opened: another file has taken its place (it was replaced, "
        "or deleted and created again). Nothing was read from or written to it; open it again to see it."
    ),
    "db.open.why.not_sqlite": lambda: _tr("This is not an SQLite database ({error})."),
    "db.open.why.damaged": lambda: _tr("The database is damaged ({error})."),
    "db.open.why.cannot_open": lambda: _tr("The database cannot be opened ({error})."),
    "db.open.why.cannot_read": lambda: _tr("The database cannot be read ({error})."),
    "db.open.backup": lambda: _tr(" The newest backup that passes quick_check is {backup}."),
    "db.open.no_backup": lambda: _tr(" No backup that passes quick_check was found in backups/."),
    # -- why a database is shown read-only (OpenReport.read_only_notice) ------------------------------
    "db.read_only.schema_newer": lambda: _tr(
        "the database has schema version {version}, newer than {max_known}, which this version understands; "
        "it is shown read-only and never re-stamped"
    ),
    "db.read_only.schema_older": lambda: _tr(
        "the database has schema version {version}, older than {min_known}; this version does not migrate "
        "it, so it is shown read-only"
    ),
    "db.read_only.schema_invalid": lambda: _tr(
        "the database's schema version {value} is not a version number; it is shown read-only and never "
        "re-stamped"
    ),
    "db.read_only.schema_missing": lambda: _tr(
        "the database has no schema version; it is shown read-only and never stamped"
    ),
    "db.read_only.missing_tables": lambda: _tr("core tables are missing: {names}"),
    "db.read_only.missing_columns": lambda: _tr("core columns are missing: {names}"),
    "db.read_only.missing_fts": lambda: _tr("full-text tables are missing: {names}"),
    "db.read_only.damaged": lambda: _tr("the database is damaged (quick_check: {quick_check})"),
    "db.read_only.immutable": lambda: _tr("the database directory cannot be written"),
    "db.read_only.file_not_writable": lambda: _tr("the file is not writable"),
    "db.read_only.dir_not_writable": lambda: _tr("the directory is not writable"),
    # -- writing refused, a closed database ------------------------------------------------------------
    "db.read_only": lambda: _tr("The database is open read-only."),
    "db.write_refused": lambda: _tr("Writing is refused: {reason}."),
    "db.write_refused.file_not_writable": lambda: _tr(
        "{path}: writing is refused: the file is not writable."
    ),
    "db.write_refused.dir_not_writable": lambda: _tr(
        "{path}: writing is refused: its directory is not writable."
    ),
    "db.closed": lambda: _tr("{path}: the database has been closed; open it again to use it."),
    "path.not_replaceable": lambda: _tr(
        "{path}: nothing can be written there: this path names {kind}; only a regular file is ever replaced."
    ),
    # -- backups, comparisons, exports (the rest of backup.* and restore.* is in backups.recovery) -------
    "backup.in_memory": lambda: _tr("An in-memory database has no backups."),
    "backup.cancelled": lambda: _tr("The copy was cancelled."),
    "backup.no_free_name": lambda: _tr("No free backup name in {dir}."),
    "changes.compare_what": lambda: _tr(
        "Compare a backup with the database or with another backup, not both or neither."
    ),
    "changes.layer_unknown": lambda: _tr("Unknown layer {layer} (one of {layers})."),
    "changes.cancelled": lambda: _tr("The comparison was cancelled."),
    "export.folder": lambda: _tr("{path} is a folder; choose a file name to export to."),
    "fact.time_out_of_range": lambda: _tr(
        "The {field} must be between -8.64e15 and 8.64e15 (what a date holds); {value} is out of range."
    ),
    # -- undoing an edit of the agent's tools -----------------------------------------------------------
    "tools.audit_unreadable": lambda: _tr(
        "Audit entry #{audit_id} does not list the rows it changed; it cannot be undone."
    ),
    "tools.undo_conflict": lambda: _tr(
        "The row {id} of {table} changed since this edit ({detail}); nothing was changed."
    ),
    # -- the MCP server (its clients read the English; the app starts it) ------------------------------
    "mcp.sdk_missing": lambda: _tr(
        "The MCP server needs the mcp package, which is not installed. Install it with: {install}"
    ),
    "mcp.bad_address": lambda: _tr("Not an address: {address} (expected HOST:PORT)."),
    "mcp.bad_uri": lambda: _tr("Unknown resource {uri}."),
    "mcp.resource_not_found": lambda: _tr("No resource {uri}."),
    "mcp.conversation_not_found": lambda: _tr("No conversation {conversation}."),
    "mcp.skill_not_found": lambda: _tr("No skill {name}."),
    "mcp.prompt_not_found": lambda: _tr("No prompt {name}."),
    "mcp.prompt_argument_missing": lambda: _tr("The prompt needs the argument {argument}."),
    # -- warnings of an open file ---------------------------------------------------------------------
    "db.warning.immutable": lambda: _tr(
        "The directory cannot be written and has no -shm file: the database is opened with immutable=1, so "
        "changes made by the agent while the app runs will not be seen."
    ),
    # -- warnings of the memory prefix (the prefix itself is the reference's text) ---------------------
    "prefix.plan_unreadable": lambda: _tr(
        "The newest plan of session {session} cannot be read by the agent (malformed steps or review "
        "history); its project plan section is skipped."
    ),
    "prefix.schedule_payload": lambda: _tr(
        "Schedule {schedule} has a malformed payload; plan injection skipped."
    ),
    "prefix.fact_invalid_json": lambda: _tr(
        "{fact} holds invalid JSON; the agent cannot read it (shown here as a string)."
    ),
    "prefix.self_null": lambda: _tr("{fact} holds null: the agent fails to build its prefix on it."),
    # -- a skill's grade: why it has it (the counts first) ---------------------------------------------
    "maturity.why.unrecognised": lambda: _tr("unrecognised grade {grade}, read as draft"),
    "maturity.why.draft_failed": lambda: _tr("{counts}: draft (a recorded failure rules out confirmation)"),
    "maturity.why.draft_reset": lambda: _tr(
        "{counts}: draft (reset to draft with its counters kept; the next success confirms it)"
    ),
    "maturity.why.draft_new": lambda: _tr(
        "{counts}: draft (not yet validated; confirmation needs 2 successes and no failure)"
    ),
    "maturity.why.confirmed_ready": lambda: _tr("{counts}: confirmed (the next success makes it stable)"),
    "maturity.why.confirmed": lambda: _tr(
        "{counts}: confirmed (stable needs 5 successes and failures under 10% of them)"
    ),
    "maturity.why.stable": lambda: _tr("{counts}: stable (the highest grade successes can reach)"),
    "maturity.why.playbook": lambda: _tr(
        "{counts}: playbook, a lesson shown as a hint that use_skill does not run"
    ),
    "maturity.why.deprecated_run": lambda: _tr("{counts}: deprecated ({n} failures in a row)"),
    "maturity.why.deprecated_ratio": lambda: _tr(
        "{counts}: deprecated (failures above 30% of its successes)"
    ),
    "maturity.why.deprecated_manual": lambda: _tr(
        "{counts}: deprecated (set by hand, or by failures its counters no longer show)"
    ),
    # -- ... and what would move it next (clauses) -----------------------------------------------------
    "maturity.next.no_promotion": lambda: _tr(
        "no run of successes can promote it, as confirmation needs zero failures"
    ),
    "maturity.next.confirm": lambda: _tr(
        "{n} more success(es) with no failure: confirmed (a failure rules confirmation out)"
    ),
    "maturity.next.stable": lambda: _tr("{n} more success(es): stable"),
    "maturity.next.stable_run": lambda: _tr("{n} more successes in a row: stable"),
    "maturity.next.keeps_stable": lambda: _tr("successes keep it stable"),
    "maturity.next.fail_deprecates": lambda: _tr("the next failure deprecates it"),
    "maturity.next.fail_back": lambda: _tr("1 failure: back to {grade}"),
    "maturity.next.deprecate": lambda: _tr("{n} failure(s): deprecated"),
    "maturity.next.deprecate_run": lambda: _tr("{n} failures in a row: deprecated"),
    "maturity.next.playbook_fixed": lambda: _tr(
        "set by hand or by reflection, and successes never change it"
    ),
    "maturity.next.playbook_deprecate": lambda: _tr("{n} more failure(s) deprecate it"),
    "maturity.next.playbook_deprecate_run": lambda: _tr("{n} more failures in a row deprecate it"),
    "maturity.next.final": lambda: _tr("final for outcomes: no success or failure changes it"),
    "maturity.next.final_back": lambda: _tr(
        "only setting the grade by hand or revising the recipe (which restarts it as draft) brings it back"
    ),
}


def _own_codes() -> frozenset[str]:
    return frozenset(_TEMPLATES)


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
    if code == "db.read_only.schema_invalid":
        out["value"] = repr(params.get("value"))
    if code == "db.write_refused":
        inner = params.get("reason_params")
        out["reason"] = text(str(params.get("reason") or ""), inner if isinstance(inner, Mapping) else {}, "")
    return out


# --------------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------------


def _english() -> bool:
    return i18n.current_language() == i18n.SOURCE_LANGUAGE


def _elsewhere(code: str) -> Callable[[str, Mapping[str, Any], str], str | None] | None:
    """The renderer of an area whose templates live beside its views, for ``code`` (else ``None``)."""
    if code.startswith(("recall.", "substring.", "index.", "token.", "words.")):
        from philont_desktop.context_tab import recall_text

        if code in recall_text.codes():
            return lambda c, p, e: recall_text.notice_text(Notice(c, e, p))
    if code.startswith("context.row."):
        from philont_desktop.context_tab import row_notes

        return lambda c, p, e: row_notes.note_text(Notice(c, e, p))
    if code.startswith(("backup.", "restore.")):
        from philont_desktop.backups import recovery

        return recovery.code_text
    if code.startswith("change"):
        from philont_desktop.review import texts

        return texts.code_text
    return None


def _own(code: str, params: Mapping[str, Any]) -> str | None:
    template = _TEMPLATES.get(code)
    if template is None:
        return None
    try:
        return template().format_map(_values(code, params))
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None


def text(code: str, params: Mapping[str, Any] | None = None, english: str = "") -> str:
    """The message of ``code`` with ``params`` in the interface's language; ``english`` is the core's
    own text, shown in English and for a code without a template."""
    params = params or {}
    if _english() and english:
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
        out += text("db.open.backup", {"backup": str(exc.backup)})
    elif exc.problem not in ("missing", "exists", "special-file", "symlink-loop", "orphan-files", "replaced"):
        out += text("db.open.no_backup")
    return out


def error_text(exc: BaseException) -> str:
    """A core error (:class:`~core.errors.MemoryError_`) in the interface's language; other exceptions
    as their text."""
    if not isinstance(exc, MemoryError_):
        return str(exc)
    if _english():
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
    from philont_desktop.backups import recovery
    from philont_desktop.context_tab import recall_text, row_notes
    from philont_desktop.review import texts

    return _own_codes() | recall_text.codes() | row_notes.codes() | recovery.codes() | texts.codes()
