"""Manual curation: every edit a person makes writes and audits in ONE short transaction.

The generic machinery lives here; each layer plugs its edits in from a module of this package
(``core/curation/notes.py``, ``facts/``, ``calendar.py``, ``tools.py``, ``skills.py``). A layer whose
audit states are table rows describes them once as a :class:`core.curation.rows.RowKind` and registers
it with ``rows.register(kind, actions)``: the row engine then undoes and redoes them. Any other layer
registers its own steps::

    from core import curation

    def _update(conn, entry):            # undo: put entry.before back
        ...                              # returns (before, after) of this step, or None
    curation.register("skills.update", undo_fn=_undo_update, redo_fn=_redo_update)

    edit = curation.perform(db, actor=curation.default_actor(), action="skills.update",
                            target_type="skill", target_id=name, fn=lambda conn: (before, after))
    curation.undo(db, edit.id, actor)    # audited: action "undo", undone_of = edit.id
    curation.redo(db, edit.id, actor)    # audited: action "redo", undone_of = edit.id
    curation.check_undo(db, edit.id)     # read only: what undo() refuses before it writes

Contracts:

* ``fn(conn)`` runs inside ``db.write()`` (``BEGIN IMMEDIATE``) and returns ``(before, after)`` — JSON-able
  states of the target (``None`` for "did not exist") — or ``(before, after, target_id)`` when the id is
  only known after the change (an insert). Raise to roll back; nothing is audited then.
* ``undo_fn(conn, entry)`` puts ``entry.before`` back, ``redo_fn(conn, entry)`` re-applies
  ``entry.after``; ``entry`` is the original :class:`core.audit.AuditEntry`. Each returns the
  ``(before, after)`` of its own step, or ``None`` for "exactly the reverse / the original". Raise
  :class:`core.errors.ConflictError` when the target changed since the edit so that the step would
  overwrite somebody else's change.
* Inside any of these functions, :func:`current_db` is the :class:`core.db.MemoryDB` being written,
  so layer stores (``NotesStore(current_db())``) can be used; their own ``db.write()`` joins the
  transaction.
* Action names are ``"<layer>.<verb>"``; an action not registered yet is looked up by importing
  ``core.curation.<layer>`` once. ``undo`` and ``redo`` are reserved.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import importlib.util
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.audit import (
    REDO,
    UNDO,
    AuditEntry,
    default_actor,
    fetch_entry,
    is_undone,
    list_entries,
    record,
)
from core.errors import ConflictError, MemoryError_, NotFoundError

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

Edit = AuditEntry
State = Any
StepFn = Callable[[Any, AuditEntry], "tuple[State, State] | None"]

__all__ = [
    "REDO",
    "UNDO",
    "AuditEntry",
    "Change",
    "Changes",
    "Edit",
    "UndoUnavailableError",
    "check_redo",
    "check_undo",
    "current_db",
    "default_actor",
    "handler",
    "layer_of",
    "list_entries",
    "perform",
    "redo",
    "register",
    "registered_actions",
    "undo",
]


class UndoUnavailableError(MemoryError_):
    """No undo/redo is registered for the action of an audit entry."""

    default_code = "audit.undo_unavailable"


@dataclass(frozen=True)
class Handler:
    action: str
    undo_fn: StepFn
    redo_fn: StepFn


_REGISTRY: dict[str, Handler] = {}
_IMPORTED: set[str] = set()
_CURRENT_DB: contextvars.ContextVar[Any] = contextvars.ContextVar("philont_curation_db", default=None)


def register(action: str, undo_fn: StepFn, redo_fn: StepFn) -> None:
    """Register how to undo and redo ``action`` (a later registration replaces an earlier one)."""
    if action in (UNDO, REDO):
        raise ValueError(f"{action!r} is reserved for the audit rows of undo and redo")
    if not action or not callable(undo_fn) or not callable(redo_fn):
        raise ValueError("register() needs an action name and two callables")
    _REGISTRY[action] = Handler(action, undo_fn, redo_fn)


def unregister(action: str) -> None:
    _REGISTRY.pop(action, None)


def registered_actions() -> list[str]:
    return sorted(_REGISTRY)


def handler(action: str) -> Handler:
    """The registered handler of ``action``, importing ``core.curation.<layer>`` on first need."""
    h = _REGISTRY.get(action)
    if h is None:
        layer = action.split(".", 1)[0]
        mod = f"{__name__}.{layer}"
        if layer and layer.isidentifier() and mod not in _IMPORTED:
            _IMPORTED.add(mod)
            if importlib.util.find_spec(mod) is not None:
                importlib.import_module(mod)
            h = _REGISTRY.get(action)
    if h is None:
        raise UndoUnavailableError(
            f"Edits of type {action!r} cannot be undone or redone here.", params={"action": action}
        )
    return h


def current_db() -> Any:
    """The :class:`core.db.MemoryDB` of the curation step running on this thread (else ``None``)."""
    return _CURRENT_DB.get()


@contextlib.contextmanager
def _writing(db: MemoryDB) -> Iterator[Any]:
    token = _CURRENT_DB.set(db)
    try:
        with db.write() as conn:
            yield conn
    finally:
        _CURRENT_DB.reset(token)


def _split_result(result: Any) -> tuple[State, State, Any]:
    if not isinstance(result, tuple) or len(result) not in (2, 3):
        raise TypeError("a curation function must return (before, after) or (before, after, target_id)")
    if len(result) == 2:
        return result[0], result[1], None
    return result[0], result[1], result[2]


def _id_of(state: Any) -> Any:
    return state.get("id") if isinstance(state, dict) else None


def perform(
    db: MemoryDB,
    *,
    actor: str,
    action: str,
    target_type: str,
    target_id: str | int | None,
    fn: Callable[[Any], Any],
    note: str | None = None,
    now: int | None = None,
) -> Edit:
    """Run ``fn(conn)`` and record it in the audit trail, both in one ``db.write()`` transaction.

    ``target_id=None`` takes the id from ``fn``'s third return value or from ``after["id"]``.
    Returns the new audit entry. Raises whatever ``fn`` raises (nothing is written then) and
    :class:`core.errors.ReadOnlyError` when the database cannot be written.
    """
    if action in (UNDO, REDO):
        raise ValueError(f"{action!r} is reserved; use curation.undo() / curation.redo()")
    with _writing(db) as conn:
        before, after, returned_id = _split_result(fn(conn))
        tid = target_id if target_id is not None else returned_id
        if tid is None:
            tid = _id_of(after) if _id_of(after) is not None else _id_of(before)
        if tid is None:
            raise ValueError(f"{action}: the target id is unknown (pass target_id or return it)")
        return record(
            conn,
            actor=actor,
            action=action,
            target_type=target_type,
            target_id=tid,
            before=before,
            after=after,
            note=note,
            now=now,
        )


@dataclass(frozen=True)
class Change:
    """One curation step, ready for :func:`perform` (``ctx.curate(change)`` in the app).

    Every builder of a layer module (``notes``, ``facts``, ``skills``, ``calendar``) returns one: the
    action, the target, ``fn(conn) -> (before, after)``, a short English ``description`` (for scripts and
    logs; the app shows its own translated text), the audit ``note`` (the reason a person gave, if any)
    and ``extra`` details of the edit (e.g. the grade a skill is set to) for whoever builds a message.
    """

    action: str
    target_type: str
    target_id: str | None
    fn: Callable[[Any], tuple[Any, ...]]
    description: str = ""
    note: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def layer(self) -> str:
        """The layer the change belongs to: the action's prefix (``"notes"`` of ``"notes.update"``)."""
        return layer_of(self.action)

    def perform(
        self, db: MemoryDB, actor: str | None = None, *, note: str | None = None, now: int | None = None
    ) -> Edit:
        """Run and audit the change in one transaction (``actor`` defaults to the OS user)."""
        return perform(
            db,
            actor=actor or default_actor(),
            action=self.action,
            target_type=self.target_type,
            target_id=self.target_id,
            fn=self.fn,
            note=note if note is not None else self.note,
            now=now,
        )


def layer_of(action: str) -> str:
    """``"facts"`` of ``"facts.edit"``: the layer module of :mod:`core.curation` that owns an action."""
    return action.split(".", 1)[0]


@dataclass(frozen=True)
class Changes:
    """What one edit, undo or redo changed (after Anki's ``OpChanges``): the layer and the targets.

    ``ids`` holds every row id found in the audit states (a fact edit makes a new version; a bulk edit
    touches many rows), else the target id; ``keys`` the natural keys found there (a fact's
    ``(namespace, key)``, a skill's ``name``). A view showing rows of ``layer`` reloads what
    :meth:`touches`; the others need not reload at all.
    """

    kind: str  # "perform" | "undo" | "redo"
    layer: str
    target_type: str
    ids: frozenset[str]
    keys: frozenset[Any]
    entry: AuditEntry

    @classmethod
    def of(cls, entry: AuditEntry, kind: str = "perform") -> Changes:
        """The changes an audit entry records (an undo/redo entry names the original action)."""
        action = entry.original_action or entry.action
        ids: set[str] = set()
        keys: set[Any] = set()
        for state in _row_states(entry.before) + _row_states(entry.after):
            if state.get("id") is not None:
                ids.add(str(state["id"]))
            if state.get("namespace") is not None and state.get("key") is not None:
                keys.add((state["namespace"], state["key"]))
            elif isinstance(state.get("name"), str):
                keys.add(state["name"])
        if not ids and entry.target_id not in (None, ""):
            ids.add(str(entry.target_id))  # states without ids: the target names the row
        return cls(kind, layer_of(action), entry.target_type, frozenset(ids), frozenset(keys), entry)

    def touches(self, layer: str, ids: Iterable[Any] | None = None) -> bool:
        """Whether this changed ``layer`` (and, when ``ids`` are given, one of those rows)."""
        if layer != self.layer:
            return False
        return ids is None or any(str(i) in self.ids for i in ids)


def _row_states(state: Any) -> list[Mapping[str, Any]]:
    """The row dictionaries of an audit state: the state itself, or the rows of a bulk edit."""
    if isinstance(state, Mapping):
        rows = state.get("rows")
        if isinstance(rows, list):
            return [r for r in rows if isinstance(r, Mapping)]
        return [state]
    if isinstance(state, list):
        return [r for r in state if isinstance(r, Mapping)]
    return []


def _original(conn: Connection, audit_id: int) -> AuditEntry:
    entry = fetch_entry(conn, audit_id)
    if entry is None:
        raise NotFoundError(
            f"There is no audit entry #{audit_id}.", code="audit.not_found", params={"audit_id": audit_id}
        )
    if not entry.is_original:
        entry = fetch_entry(conn, entry.original_id)
        if entry is None:
            raise NotFoundError(
                f"The edit that audit entry #{audit_id} refers to is missing.",
                code="audit.original_missing",
                params={"audit_id": audit_id},
            )
    return entry


def _checked(conn: Connection, audit_id: int, kind: str) -> AuditEntry:
    """The original edit of ``audit_id``, once it is known that ``kind`` (undo or redo) may run."""
    orig = _original(conn, audit_id)
    undone = is_undone(conn, orig.id)
    if kind == UNDO and undone:
        raise ConflictError(
            f"Edit #{orig.id} ({orig.action}) is already undone.",
            code="audit.already_undone",
            params={"audit_id": orig.id, "action": orig.action},
        )
    if kind == REDO and not undone:
        raise ConflictError(
            f"Edit #{orig.id} ({orig.action}) is not undone, so there is nothing to redo.",
            code="audit.not_undone",
            params={"audit_id": orig.id, "action": orig.action},
        )
    handler(orig.action)
    return orig


def check_undo(db: MemoryDB, audit_id: int) -> Edit:
    """Refuse now, reading only (a read-only connection will do), what :func:`undo` would refuse before
    it touches a row: returns the original edit of ``audit_id`` (an ``undo``/``redo`` row names it).

    Raises :class:`~core.errors.NotFoundError` (``audit.not_found``, ``audit.original_missing``),
    :class:`~core.errors.ConflictError` (``audit.already_undone``) and :class:`UndoUnavailableError`.
    Whether the rows still hold what the edit left is known only inside the write (see :func:`undo`).
    """
    with db.lock:
        return _checked(db.conn, audit_id, UNDO)


def check_redo(db: MemoryDB, audit_id: int) -> Edit:
    """As :func:`check_undo`, for :func:`redo`: ``audit.not_undone`` instead of ``audit.already_undone``."""
    with db.lock:
        return _checked(db.conn, audit_id, REDO)


def _step(db: MemoryDB, audit_id: int, actor: str, kind: str, note: str | None, now: int | None) -> Edit:
    with _writing(db) as conn:
        orig = _checked(conn, audit_id, kind)
        h = handler(orig.action)
        fn = h.undo_fn if kind == UNDO else h.redo_fn
        result = fn(conn, orig)
        if result is None:
            before, after = (orig.after, orig.before) if kind == UNDO else (orig.before, orig.after)
        else:
            before, after, _ = _split_result(result)
        return record(
            conn,
            actor=actor,
            action=kind,
            target_type=orig.target_type,
            target_id=orig.target_id,
            before=before,
            after=after,
            undone_of=orig.id,
            note=note,
            now=now,
        )


def undo(db: MemoryDB, audit_id: int, actor: str, *, note: str | None = None, now: int | None = None) -> Edit:
    """Undo the edit ``audit_id`` (audited as ``undo`` with ``undone_of=audit_id``)."""
    return _step(db, audit_id, actor, UNDO, note, now)


def redo(db: MemoryDB, audit_id: int, actor: str, *, note: str | None = None, now: int | None = None) -> Edit:
    """Re-apply the undone edit ``audit_id`` (audited as ``redo`` with ``undone_of=audit_id``)."""
    return _step(db, audit_id, actor, REDO, note, now)
