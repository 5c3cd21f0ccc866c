"""The one SQLite engine of the project.

Every module reaches SQLite through ``from core.engine import sqlite3``. The engine is
``sqlean.py`` (SQLite 3.50, identical on every platform and inside the bundle): it fixes the
3.40 bug where a short CJK ``LIKE`` on an FTS5 trigram column returns nothing, and supports
``remove_diacritics``. The standard library module is a fallback for environments where the
wheel is unavailable; :data:`ENGINE` says which one is in use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # sqlean ships no type information; its API is the standard module's
    import sqlite3

    ENGINE: str
else:
    try:  # pragma: no cover - exercised by whichever engine is installed
        import sqlean as sqlite3

        ENGINE = "sqlean"
    except ImportError:  # pragma: no cover
        import sqlite3

        ENGINE = "sqlite3"

SQLITE_VERSION: str = sqlite3.sqlite_version
Connection = sqlite3.Connection
Row = sqlite3.Row
Error = sqlite3.Error
DatabaseError = sqlite3.DatabaseError
OperationalError = sqlite3.OperationalError
IntegrityError = sqlite3.IntegrityError

__all__ = [
    "ENGINE",
    "SQLITE_VERSION",
    "Connection",
    "DatabaseError",
    "Error",
    "IntegrityError",
    "OperationalError",
    "Row",
    "sqlite3",
]
