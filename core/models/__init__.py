"""Pydantic models of the rows of every layer, one module per layer (:mod:`~core.models.timeline`,
:mod:`~core.models.facts`, :mod:`~core.models.skills`, :mod:`~core.models.planning`); what they share is
in :mod:`~core.models.base`, the damage of a raw stored row in :mod:`~core.models.tables`.

Attributes are snake_case; the JSON form (``model_dump(by_alias=True)``, ``to_json()``) uses the
reference's camelCase names (``createdAt``, ``supersededBy``, ...), so that tool ``data`` and the
CLI's ``--json`` output look like what the reference agent produces. Times are epoch milliseconds.

Rows are built with ``from_row`` from ``sqlite3.Row`` objects, every column through
:class:`core.damage.RowReader`: reading never fails on bad data. A value that is not what its column
holds (text that is not UTF-8, a BLOB, NULL in a NOT NULL column, text in a time or number column,
JSON that does not parse or nests too deep) is read as a usable value of the column's kind and
recorded in the row's ``damaged`` (column → :class:`core.damage.Damage`); the JSON form reports it in
``damaged`` and says ``null`` where nothing readable was stored. Invalid JSON is also kept verbatim in
the ``*_json`` field and reported in ``json_errors``, as before. An unknown enumeration value is kept as
read (``kind``/``maturity`` are normalised the way the reference normalises them, see each field).
"""

from core.models.base import (
    MATURITIES,
    ROLES,
    FactKind,
    Maturity,
    RowModel,
    SkillKind,
    parse_json_lenient,
    to_camel,
)
from core.models.facts import Fact, Note
from core.models.planning import CalendarEvent, Schedule
from core.models.skills import RevisionSnapshot, Skill, parse_revision_history
from core.models.tables import MODEL_OF_TABLE, row_damage
from core.models.timeline import Action, Message, Session

__all__ = [
    "MATURITIES",
    "MODEL_OF_TABLE",
    "ROLES",
    "Action",
    "CalendarEvent",
    "Fact",
    "FactKind",
    "Maturity",
    "Message",
    "Note",
    "RevisionSnapshot",
    "RowModel",
    "Schedule",
    "Session",
    "Skill",
    "SkillKind",
    "parse_json_lenient",
    "parse_revision_history",
    "row_damage",
    "to_camel",
]
