"""Curation of facts: each manual change of ``memory_facts`` is ONE short audited transaction.

Every function here returns a :class:`Change` (what :func:`core.curation.perform` needs: action,
target, and ``fn(conn)``); ``change.perform(db)`` runs it, and the desktop app hands the same pieces
to its undo stack. Undo and redo are registered for every action below.

Actions and what they write
---------------------------

* ``facts.edit`` (:func:`edit`): a new version through the supersede chain
  (:meth:`core.facts.FactStore.supersede_with`); the old version stays in the history.
  Undo removes the new version and makes the old one the head again; redo puts the same row back.
* ``facts.add`` (:func:`add`): :meth:`~core.facts.FactStore.store_fact` with the core's validation
  (namespace ``self`` refused, inverted validity window refused) plus non-empty namespace and key and a
  confidence in [0, 1]. When the key already has a version, the new one supersedes it (undo as edit).

``add`` and ``edit`` refuse (:class:`~core.errors.ValidationError_`, nothing written) what would be
stored as something else than was typed, where the agent's ``store_fact`` tool keeps the reference's
behaviour: a value JSON cannot carry exactly (NaN, ±Infinity, integers beyond ±2^53; see
:func:`core.facts.check_exact_json`), a confidence that is not a finite number in [0, 1], a time field
that is not epoch milliseconds in SQLite's 64-bit INTEGER range (text, a fraction, a bool; see
:func:`core.facts.check_epoch_ms`) and a namespace or key with a lone surrogate
(:func:`core.facts.check_name`).
* ``facts.pin`` / ``facts.unpin`` / ``facts.set_tau``: ``decay_tau_days`` of one row (-1 / NULL / a
  custom value); ``facts.forget`` / ``facts.unforget``: ``forgotten_at`` of one row.
* ``facts.merge`` / ``facts.repair_chain`` / ``facts.bulk_set_tau``: several rows of the supersede chain
  or several taus in one edit (see :mod:`core.curation.facts.chains`).
* ``facts.bulk_forget`` / ``facts.bulk_pin`` / ``facts.bulk_unpin`` / ``facts.move_namespace``: one
  audit entry and one undo for a whole selection (see :func:`plan_bulk` for the confirmation list).

"Move namespace" precisely: for every selected active fact ``ns.key`` a new row is stored under
``new_ns.key`` with the same ``value_json`` (byte for byte), confidence, kind, occurred / valid times,
custom tau or pin and ``root_pursuit_id``; its ``created_at`` is the time of the move and its
``last_accessed_at`` is the old fact's decay anchor (``last_accessed_at ?? created_at``), so its age
is not reset by the move (the score then follows the new namespace's tau unless the fact has its own
tau or pin, which is kept). If ``new_ns.key`` already has a version, the moved row supersedes it
(the confirmation lists it). The old row is then soft-forgotten (``forgotten_at`` = time of the move),
so its history stays readable. Facts already in ``new_ns`` and facts of ``self`` are left out; two
selected facts with the same key are refused (a namespace holds one version per key).

Concurrent writers
------------------

The agent may write while a person curates. A change computed against a version the agent has
superseded meanwhile raises :class:`~core.errors.ConflictError` and writes nothing: edits carry the head
they were computed against (``expected_head``), single-row actions may carry the row as it was shown
(``seen``), bulk actions the plan that was confirmed (``expected``). Undo and redo check that every
column they put back still holds the value the edit left (a deleted version must still be the head and
unchanged), so they never overwrite a newer change either. ``last_accessed_at`` (refreshed by the
agent's reads) is never compared and never put back.

Audit entries (JSON): single-row actions store the row before and after (all columns); ``edit`` and
``add`` store the replaced head (or ``null``) as *before* and the new row as *after*; bulk actions store
``{"op", "count", "namespace"?, "rows": [...]}`` with the rows before and after, ``null`` for a row
that did not exist.
"""

from __future__ import annotations

from core.curation import Change, rows
from core.curation.facts.bulk import BulkPlan, PlanItem, bulk, move_namespace, plan_bulk
from core.curation.facts.common import (
    ACTION_ADD,
    ACTION_EDIT,
    ACTION_FORGET,
    ACTION_PIN,
    ACTION_SET_TAU,
    ACTION_UNFORGET,
    ACTION_UNPIN,
    ACTIONS,
    BULK_OPS,
    BULK_TARGET,
    TARGET,
)
from core.curation.facts.single import add, edit, forget, pin, set_tau, unforget, unpin
from core.curation.facts.undo import FactRows

__all__ = [
    "ACTIONS",
    "ACTION_ADD",
    "ACTION_EDIT",
    "ACTION_FORGET",
    "ACTION_PIN",
    "ACTION_SET_TAU",
    "ACTION_UNFORGET",
    "ACTION_UNPIN",
    "BULK_OPS",
    "BULK_TARGET",
    "TARGET",
    "BulkPlan",
    "Change",
    "PlanItem",
    "add",
    "bulk",
    "edit",
    "forget",
    "move_namespace",
    "pin",
    "plan_bulk",
    "set_tau",
    "unforget",
    "unpin",
]

rows.register(FactRows(), ACTIONS)

# The multi-row edits of the supersede chain (merge, repair) register their own undo and redo.
# The memory tools' writes to this layer (through `tool --write` and the MCP server) are undone by
# core.curation.tools; importing it here lets the handler lookup of their actions find it.
from core.curation import tools as _tool_writes  # noqa: E402, F401
from core.curation.facts import chains as _chains  # noqa: E402, F401
