"""Exceptions and notices of the core: each carries a stable code, parameters and an English message.

The code (dotted, lower case: ``db.not_sqlite``, ``fact.conflict``) and the parameters are the contract
with every caller that shows a message to a person: the GUI maps the code to a translated template and
fills it with the parameters; it never parses the English text. The message is the English rendering,
for the CLI, logs and the tool outputs (where it is the reference's exact text)::

    raise ValidationError_(
        "CalendarEvent: timezone is required (IANA string)", code="calendar.timezone_required"
    )
    raise NotFoundError(f"No action {action_id}.", code="action.not_found", params={"id": action_id})

Warnings that are not exceptions (an open report's, a preview's) are :class:`Notice` values with the
same three parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Notice:
    """A warning or explanation for a person: ``code`` + ``params``, rendered in English as ``message``."""

    code: str
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "params": dict(self.params)}


class MemoryError_(Exception):  # trailing underscore: the builtin MemoryError is taken
    """Base class of every error the core raises on purpose.

    ``code`` defaults to the class's :attr:`default_code`; ``params`` are the values a translated
    template needs (paths, names, ids, counts), never sentences.
    """

    default_code = "error"

    def __init__(
        self, message: str = "", *, code: str | None = None, params: Mapping[str, Any] | None = None
    ):
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.params: dict[str, Any] = dict(params or {})

    def notice(self) -> Notice:
        return Notice(self.code, self.message, self.params)


class DatabaseOpenError(MemoryError_):
    """The file cannot be opened as a Philont memory database.

    ``problem`` is a short machine-readable reason (``missing``, ``empty``, ``not-sqlite``,
    ``corrupt``, ``unreadable``, ``truncated``, ``special-file`` (a FIFO, socket or device: never
    opened), ``symlink-loop``, ``exists`` and ``orphan-files`` (a new database refused), ``replaced`` (not
    the file that was opened before)); ``backup`` is the newest file in ``backups/``
    that passes ``quick_check``, when there is one; ``searched`` says whether there were backups to look
    at (only then does the message say that none passes ``quick_check``). Nothing has been moved or
    written. The code is ``db.open.<problem>``; the parameters are ``path``, ``problem``, ``detail`` (the
    English sentence), ``backup``, ``backup_owner`` (``agent`` for the agent's ``memory-…`` backups,
    ``app`` for this project's, ``None`` without a backup), ``searched``, ``reason`` (the code of the
    detail sentence, ``db.open.why.<what>``) and the reason's own parameters (``kind``, ``error``,
    sizes...).
    """

    default_code = "db.open"

    def __init__(
        self,
        path: Path | str,
        problem: str,
        detail: str,
        backup: Path | None = None,
        *,
        reason: str = "",
        reason_params: Mapping[str, Any] | None = None,
        searched: bool = False,
    ):
        self.path = Path(path)
        self.problem = problem
        self.detail = detail
        self.backup = backup
        msg = f"{self.path}: {detail}"
        owner = None if backup is None else ("agent" if Path(backup).name.startswith("memory-") else "app")
        if backup is not None:
            whose = "the agent's" if owner == "agent" else "written by this app"
            msg += f" The newest backup that passes quick_check is {backup} ({whose})."
        elif searched:
            msg += " No backup that passes quick_check was found in backups/."
        super().__init__(
            msg,
            code=f"db.open.{problem}",
            params={
                **dict(reason_params or {}),
                "path": str(self.path),
                "problem": problem,
                "detail": detail,
                "backup": None if backup is None else str(backup),
                "backup_owner": owner,
                "reason": reason or f"db.open.why.{problem}",
                "searched": searched,
            },
        )


class DatabaseClosedError(MemoryError_):
    """A :class:`core.db.MemoryDB` was used after :meth:`~core.db.MemoryDB.close` (``db.closed``, ``{path}``)."""

    default_code = "db.closed"


class ReadOnlyError(MemoryError_):
    """A write was attempted on a database opened read-only, or writing is refused."""

    default_code = "db.read_only"


class ValidationError_(MemoryError_):
    """Input rejected by the core's validation (the message is the reference's text)."""

    default_code = "invalid"


class NotFoundError(MemoryError_):
    """A row that the operation needs does not exist."""

    default_code = "not_found"


class ConflictError(MemoryError_):
    """The row changed since the caller read it (another writer got there first)."""

    default_code = "conflict"

    def __init__(
        self,
        message: str,
        current: object | None = None,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ):
        super().__init__(message, code=code, params=params)
        self.current = current
