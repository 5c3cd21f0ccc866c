"""Philont memory core: the five-layer memory system, Qt-free.

Everything here uses the standard library, pydantic and the one SQLite engine of
:mod:`core.engine`. Nothing in this package may import Qt (a test enforces it).
"""

__version__ = "0.1.0"
SCHEMA_VERSION = 31
"""The version stamped on a database created here (the reference's v31 layout plus the additive columns)."""
MIN_KNOWN_SCHEMA_VERSION = 31
MAX_KNOWN_SCHEMA_VERSION = 50
"""Versions 31 to 50 are known: their memory layers are the v31 tables plus the additive columns, so such
a file can be curated (rows and, where missing, the additive columns are written; nothing else)."""
