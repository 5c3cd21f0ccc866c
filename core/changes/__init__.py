"""What changed in a memory database since a baseline, layer by layer (issue "Review").

The baseline is a time (:func:`changes_since`), a backup (:func:`changes_against` with ``db_path``) or a
backup compared with another (``other``). The result is a :class:`ChangeSet`: :class:`ChangeItem` values
grouped by layer (facts, skills, notes, timeline, actions, calendar, schedules), each identified by its
target, summarised by a code and parameters, with its before/after values and its time (see
:mod:`core.changes.model` for how times are known). :mod:`core.changes.marks` keeps the review mark of
each database outside the database file.

Qt-free; reading only.
"""

from core.changes.compute import backup_time, changes_against, changes_since, check_layers
from core.changes.context import Cancelled
from core.changes.model import CODES, LAYERS, Baseline, ChangeItem, ChangeSet, Target, render

__all__ = [
    "CODES",
    "LAYERS",
    "Baseline",
    "Cancelled",
    "ChangeItem",
    "ChangeSet",
    "Target",
    "backup_time",
    "changes_against",
    "changes_since",
    "check_layers",
    "render",
]
