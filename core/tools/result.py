"""What every memory tool handler shares: the result it returns, its context (database, clock,
writability) and the reference's rendering of an exception."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from core.engine import sqlite3
from core.errors import MemoryError_
from core.jsutil import now_ms

if TYPE_CHECKING:
    from core.db import MemoryDB

#: What a tool may do: ``write`` tools are refused on a database that cannot be written.
Capability = Literal["read", "write"]


class ToolResult(BaseModel):
    """``{success, output?, error?, data?}`` as the reference returns it; ``data`` is plain JSON."""

    success: bool
    output: str | None = None
    error: str | None = None
    data: Any = None

    def to_json(self) -> dict[str, Any]:
        """The reference's shape: absent fields are left out."""
        out: dict[str, Any] = {"success": self.success}
        if self.output is not None:
            out["output"] = self.output
        if self.error is not None:
            out["error"] = self.error
        if self.data is not None:
            out["data"] = self.data
        return out


def ok(output: str, data: Any = None) -> ToolResult:
    """A successful result."""
    return ToolResult(success=True, output=output, data=data)


def fail(error: str, data: Any = None) -> ToolResult:
    """A failed result (the agent sees ``error``)."""
    return ToolResult(success=False, error=error, data=data)


def js_error_string(exc: BaseException) -> str:
    """What the reference's ``String(e)`` would show for a comparable error."""
    if isinstance(exc, MemoryError_):
        return f"Error: {exc}"
    if isinstance(exc, sqlite3.Error):
        return f"SqliteError: {exc}"
    return f"{type(exc).__name__}: {exc}"


def sql_int_ok(x: Any) -> bool:
    """Whether SQLite accepts ``x`` as a LIMIT (an integral finite number)."""
    return isinstance(x, int) or (isinstance(x, float) and math.isfinite(x) and x.is_integer())


class Ctx:
    """What a handler runs against: the database and the clock (``now`` fixed by the caller or live)."""

    def __init__(self, db: MemoryDB, now: int | None):
        self.db = db
        self._now = now

    @property
    def now(self) -> int:
        return now_ms() if self._now is None else int(self._now)

    @property
    def writable(self) -> bool:
        return is_writable(self.db)


def is_writable(db: MemoryDB) -> bool:
    """Whether the database accepts writes (not opened read-only, no refusal reason)."""
    report = db.report
    return not report.read_only and report.read_only_reason is None
