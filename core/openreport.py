"""What opening a memory file found (:class:`OpenReport`), and the rules that keep a file read-only.

:mod:`core.db` fills the report as it opens a file; :func:`write_refusal` says why writing is refused
(the codes the GUI translates), :func:`classify_open_error` what SQLite's refusal to open a file means.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from core import MAX_KNOWN_SCHEMA_VERSION, MIN_KNOWN_SCHEMA_VERSION
from core.engine import ENGINE, SQLITE_VERSION
from core.errors import DatabaseOpenError, Notice


class OpenReport(BaseModel):
    """What opening a file found: shown by ``philont-memory info`` and the app's status bar."""

    path: str
    engine: str = ENGINE
    sqlite_version: str = SQLITE_VERSION
    schema_version: int | None = None
    schema_version_raw: str | None = None
    schema_status: str = "missing"
    journal_mode: str | None = None
    read_only: bool = True
    immutable: bool = False
    created: bool = False
    missing_tables: list[str] = Field(default_factory=list)
    missing_core_columns: list[str] = Field(default_factory=list)
    missing_peripheral_tables: list[str] = Field(default_factory=list)
    missing_fts: list[str] = Field(default_factory=list)
    missing_triggers: list[str] = Field(default_factory=list)
    missing_indexes: list[str] = Field(default_factory=list)
    missing_additive_columns: list[str] = Field(default_factory=list)
    quick_check: str | None = None
    writable: bool = False
    read_only_reason: str | None = None
    read_only_code: str | None = None
    read_only_params: dict[str, Any] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    #: :attr:`warnings` with their codes and parameters (what the GUI translates).
    notices: list[Notice] = Field(default_factory=list)

    def warn(self, notice: Notice) -> None:
        """Add a warning: its English text to :attr:`warnings`, the notice to :attr:`notices`."""
        self.warnings.append(notice.message)
        self.notices.append(notice)

    @property
    def complete(self) -> bool:
        return not (self.missing_tables or self.missing_fts or self.missing_triggers)

    def read_only_notice(self) -> Notice | None:
        """Why writing is refused, as a coded :class:`~core.errors.Notice` (``None`` when writable).

        Codes: ``db.read_only.schema_newer`` / ``schema_older`` (``version``, ``min_known``,
        ``max_known``), ``schema_invalid`` (``value``), ``schema_missing``, ``missing_tables`` /
        ``missing_columns`` / ``missing_fts`` (``names``), ``damaged`` (``quick_check``), ``immutable``,
        ``file_not_writable``, ``dir_not_writable``.
        """
        if self.read_only_reason is None:
            return None
        return Notice(self.read_only_code or "db.read_only", self.read_only_reason, self.read_only_params)


def write_refusal(r: OpenReport, path: Path | None) -> Notice | None:
    """Why the file at ``path`` with report ``r`` must not be written (``db.read_only.<why>``), or
    ``None``; the first rule that applies wins."""
    refusal = _version_refusal(r)
    return refusal if refusal is not None else _content_refusal(r, path)


def _version_refusal(r: OpenReport) -> Notice | None:
    """A refusal for the schema version or missing core tables (``db.read_only.schema_*``,
    ``missing_tables``)."""
    versions = {
        "version": r.schema_version,
        "min_known": MIN_KNOWN_SCHEMA_VERSION,
        "max_known": MAX_KNOWN_SCHEMA_VERSION,
    }
    if r.schema_status == "newer":
        return Notice(
            "db.read_only.schema_newer",
            f"the database has schema version {r.schema_version}, newer than {MAX_KNOWN_SCHEMA_VERSION}, "
            "which this version understands; it is shown read-only and never re-stamped",
            versions,
        )
    if r.missing_tables:
        return Notice(
            "db.read_only.missing_tables",
            "core tables are missing: " + ", ".join(r.missing_tables),
            {"names": r.missing_tables},
        )
    if r.schema_status == "invalid":
        return Notice(
            "db.read_only.schema_invalid",
            f"the database's schema version {r.schema_version_raw!r} is not a version number; it is "
            "shown read-only and never re-stamped",
            {"value": r.schema_version_raw},
        )
    if r.schema_status == "older":
        return Notice(
            "db.read_only.schema_older",
            f"the database has schema version {r.schema_version}, older than {MIN_KNOWN_SCHEMA_VERSION}; "
            "this version does not migrate it, so it is shown read-only",
            versions,
        )
    if r.schema_status == "missing":
        return Notice(
            "db.read_only.schema_missing",
            "the database has no schema version; it is shown read-only and never stamped",
            {},
        )
    return None


def _content_refusal(r: OpenReport, path: Path | None) -> Notice | None:
    """A refusal for missing columns or FTS tables, damage, or a file or folder that cannot be written."""
    if r.missing_core_columns:
        names = r.missing_core_columns
        return Notice(
            "db.read_only.missing_columns",
            "core columns are missing: " + ", ".join(names),
            {"names": names},
        )
    if r.missing_fts:
        names = r.missing_fts
        return Notice(
            "db.read_only.missing_fts",
            "full-text tables are missing: " + ", ".join(names),
            {"names": names},
        )
    if r.quick_check not in (None, "ok"):
        first = r.quick_check.splitlines()[0]
        return Notice(
            "db.read_only.damaged",
            "the database is damaged (quick_check: " + first + ")",
            {"quick_check": first},
        )
    if r.immutable:
        return Notice("db.read_only.immutable", "the database directory cannot be written", {})
    if path is not None and not os.access(path, os.W_OK):
        return Notice("db.read_only.file_not_writable", "the file is not writable", {"path": str(path)})
    if path is not None and not os.access(path.parent, os.W_OK):
        return Notice(
            "db.read_only.dir_not_writable",
            "the directory is not writable",
            {"path": str(path.parent)},
        )
    return None


def classify_open_error(p: Path, exc: Exception, backup: Path | None, searched: bool) -> DatabaseOpenError:
    """The :class:`DatabaseOpenError` for SQLite's ``exc`` opening ``p``; ``backup`` and ``searched`` as
    :func:`core.db.backup_search` found them."""
    msg = str(exc)
    low = msg.lower()
    e = {"error": msg}
    if "not a database" in low or "file is encrypted" in low:
        return DatabaseOpenError(
            p,
            "not-sqlite",
            f"This is not an SQLite database ({msg}).",
            backup,
            searched=searched,
            reason="db.open.why.not_sqlite",
            reason_params=e,
        )
    if "malformed" in low or "corrupt" in low:
        return DatabaseOpenError(
            p,
            "corrupt",
            f"The database is damaged ({msg}).",
            backup,
            searched=searched,
            reason="db.open.why.damaged",
            reason_params=e,
        )
    if "unable to open" in low or "readonly" in low or "permission" in low:
        return DatabaseOpenError(
            p,
            "unreadable",
            f"The database cannot be opened ({msg}).",
            backup,
            searched=searched,
            reason="db.open.why.cannot_open",
            reason_params=e,
        )
    return DatabaseOpenError(
        p,
        "corrupt",
        f"The database cannot be read ({msg}).",
        backup,
        searched=searched,
        reason="db.open.why.cannot_read",
        reason_params=e,
    )
