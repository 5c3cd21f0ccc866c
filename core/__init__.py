"""Philont memory core: the five-layer memory system, Qt-free.

Everything here uses the standard library, pydantic and the one SQLite engine of
:mod:`core.engine`. Nothing in this package may import Qt (a test enforces it).
"""

__version__ = "0.1.0"
SCHEMA_VERSION = 31
