"""Exceptions of the core. Each carries a message fit to show a person as it is."""

from __future__ import annotations

from pathlib import Path


class MemoryError_(Exception):  # trailing underscore: the builtin MemoryError is taken
    """Base class of every error the core raises on purpose."""


class DatabaseOpenError(MemoryError_):
    """The file cannot be opened as a Philont memory database.

    ``problem`` is a short machine-readable reason (``missing``, ``empty``, ``not-sqlite``,
    ``corrupt``, ``unreadable``, ``truncated``); ``backup`` is the newest file in ``backups/``
    that passes ``quick_check``, when there is one. Nothing has been moved or written.
    """

    def __init__(self, path: Path | str, problem: str, detail: str, backup: Path | None = None):
        self.path = Path(path)
        self.problem = problem
        self.detail = detail
        self.backup = backup
        msg = f"{self.path}: {detail}"
        if backup is not None:
            msg += f" The newest backup that passes quick_check is {backup}."
        elif problem not in ("missing", "exists"):
            msg += " No backup that passes quick_check was found in backups/."
        super().__init__(msg)


class ReadOnlyError(MemoryError_):
    """A write was attempted on a database opened read-only, or writing is refused."""


class ValidationError_(MemoryError_):
    """Input rejected by the core's validation (the message is the reference's text)."""


class NotFoundError(MemoryError_):
    """A row that the operation needs does not exist."""


class ConflictError(MemoryError_):
    """The row changed since the caller read it (another writer got there first)."""

    def __init__(self, message: str, current: object | None = None):
        super().__init__(message)
        self.current = current
