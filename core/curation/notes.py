"""Curation of notes: each manual change of ``memory_notes`` is ONE short audited transaction.

Every function returns a :class:`Change` (what :func:`core.curation.perform` needs: action, target and
``fn(conn)``); ``change.perform(db)`` runs it, and the desktop app hands the same pieces to its undo
stack (``ctx.curate``). Undo and redo are registered for every action.

Actions
-------

* ``notes.update`` (:func:`update`): new ``content`` and/or ``importance`` (a number in [0, 1]).
* ``notes.forget`` (:func:`forget`): ``forgotten_at`` = the time of the change (a soft delete; the
  reference's search still finds the note, the agent's prefix does not list it).
* ``notes.unforget`` (:func:`unforget`): ``forgotten_at = NULL``.
* ``notes.add`` (:func:`add`): a new note with a new UUID (content must not be blank).
* ``notes.merge`` / ``notes.bulk_forget`` (:func:`forget_many`): several notes forgotten in one edit (a
  merge keeps the one the person picked); the states list the rows (``{"op", "count", "rows"}``).

Audit entries store the whole row before and after (``null`` for "did not exist").

Concurrent writers
------------------

The agent may write while a person curates. A change may carry the note as it was shown (``seen``):
if the agent changed the fields the change touches meanwhile, it raises
:class:`~core.errors.ConflictError` and writes nothing. Undo and redo check that every column they put
back still holds the value the edit left, so they never overwrite somebody else's later change;
``last_accessed_at`` is never compared and never put back.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from core.audit import AuditEntry
from core.curation import Change, rows
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.jsutil import js_trim, now_ms
from core.models import Note

if TYPE_CHECKING:
    from core.engine import Connection

__all__ = [
    "ACTIONS",
    "ACTION_ADD",
    "ACTION_FORGET",
    "ACTION_UNFORGET",
    "ACTION_UPDATE",
    "Change",
    "add",
    "forget",
    "unforget",
    "update",
]

TARGET = "note"
TABLE = "memory_notes"
ACTION_UPDATE = "notes.update"
ACTION_FORGET = "notes.forget"
ACTION_UNFORGET = "notes.unforget"
ACTION_ADD = "notes.add"
ACTIONS = (ACTION_UPDATE, ACTION_FORGET, ACTION_UNFORGET, ACTION_ADD)
_IGNORED = frozenset({"last_accessed_at"})


# -- helpers ----------------------------------------------------------------------------------------------


def _state(row: Any) -> dict[str, Any] | None:
    return None if row is None else dict(zip(row.keys(), tuple(row), strict=True))


def _get(conn: Connection, note_id: str) -> dict[str, Any] | None:
    return _state(conn.execute(f"SELECT * FROM {TABLE} WHERE id = ?", (note_id,)).fetchone())


def _require(conn: Connection, note_id: str) -> dict[str, Any]:
    row = _get(conn, note_id)
    if row is None:
        raise NotFoundError(
            f"No note {note_id!r}: it may have been deleted meanwhile.",
            code="note.gone",
            params={"id": note_id},
        )
    return row


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if a is None or b is None:
        return a is None and b is None
    return a == b


def _seen_get(seen: Note | Mapping[str, Any], name: str) -> Any:
    return getattr(seen, name) if isinstance(seen, Note) else seen.get(name)


def _ref(row: Mapping[str, Any]) -> dict[str, Any]:
    """A note as the parameters of a message name it: its id and its first words."""
    text = " ".join(str(row.get("content") or "").split())
    return {"id": str(row.get("id")), "preview": text if len(text) <= 40 else text[:39] + "…"}


def _label(row: Mapping[str, Any]) -> str:
    text = " ".join(str(row.get("content") or "").split())
    if len(text) > 40:
        text = text[:39] + "…"
    return f"note {row.get('id')!s} ({text!r})" if text else f"note {row.get('id')!s}"


def _check_seen(
    cur: Mapping[str, Any], seen: Note | Mapping[str, Any] | None, fields: tuple[str, ...]
) -> None:
    if seen is None:
        return
    for f in fields:
        if not _same(cur.get(f), _seen_get(seen, f)):
            raise ConflictError(
                f"The {_label(cur)} changed since it was shown ({f} is now {_fmt(cur.get(f))}). "
                "Nothing was changed; look at it again.",
                cur,
                code="note.changed_since_shown",
                params={**_ref(cur), "field": f, "now": cur.get(f)},
            )


def _fmt(v: Any) -> str:
    if v is None:
        return "empty"
    if isinstance(v, str):
        s = " ".join(v.split())
        return repr(s if len(s) <= 40 else s[:39] + "…")
    return str(v)


def _importance(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValidationError_("Importance must be a number between 0 and 1.", code="note.importance_range")
    x = float(value)
    if not math.isfinite(x) or x < 0 or x > 1:
        raise ValidationError_("Importance must be a number between 0 and 1.", code="note.importance_range")
    return x


def _content(value: Any) -> str:
    if not isinstance(value, str):
        raise ValidationError_("The note's text must be a string.", code="note.text_not_text")
    if not js_trim(value):
        raise ValidationError_("A note cannot be empty.", code="note.empty")
    return value


# -- actions ----------------------------------------------------------------------------------------------


def update(
    note_id: str,
    *,
    content: str | None = None,
    importance: float | None = None,
    seen: Note | Mapping[str, Any] | None = None,
) -> Change:
    """Change the text and/or the importance of a note."""
    new: dict[str, Any] = {}
    if content is not None:
        new["content"] = _content(content)
    if importance is not None:
        new["importance"] = _importance(importance)
    if not new:
        raise ValidationError_(
            "Nothing to change: give a new text or a new importance.", code="note.edit_empty"
        )

    def fn(conn: Connection) -> tuple[Any, Any]:
        cur = _require(conn, note_id)
        _check_seen(cur, seen, tuple(new))
        fields = [k for k, v in new.items() if not _same(cur.get(k), v)]
        if not fields:
            raise ValidationError_(
                f"The {_label(cur)} already says that; nothing to change.",
                code="note.unchanged",
                params=_ref(cur),
            )
        sets = ", ".join(f"{f} = ?" for f in fields)
        conn.execute(f"UPDATE {TABLE} SET {sets} WHERE id = ?", (*(new[f] for f in fields), note_id))
        return cur, _get(conn, note_id)

    what = " and ".join(k if k != "content" else "text" for k in new)
    return Change(ACTION_UPDATE, TARGET, note_id, fn, f"edit {what}")


def forget(note_id: str, *, seen: Note | Mapping[str, Any] | None = None, now: int | None = None) -> Change:
    """Soft-forget a note (``forgotten_at`` = ``now``)."""

    def fn(conn: Connection) -> tuple[Any, Any]:
        cur = _require(conn, note_id)
        _check_seen(cur, seen, ("forgotten_at",))
        if cur["forgotten_at"] is not None:
            raise ValidationError_(
                f"The {_label(cur)} is already forgotten; nothing to change.",
                code="note.unchanged.forget",
                params=_ref(cur),
            )
        t = now_ms() if now is None else int(now)
        conn.execute(f"UPDATE {TABLE} SET forgotten_at = ? WHERE id = ?", (t, note_id))
        return cur, _get(conn, note_id)

    return Change(ACTION_FORGET, TARGET, note_id, fn, "forget")


def unforget(note_id: str, *, seen: Note | Mapping[str, Any] | None = None) -> Change:
    """Bring a forgotten note back (``forgotten_at = NULL``)."""

    def fn(conn: Connection) -> tuple[Any, Any]:
        cur = _require(conn, note_id)
        _check_seen(cur, seen, ("forgotten_at",))
        if cur["forgotten_at"] is None:
            raise ValidationError_(
                f"The {_label(cur)} is not forgotten; nothing to change.",
                code="note.unchanged.unforget",
                params=_ref(cur),
            )
        conn.execute(f"UPDATE {TABLE} SET forgotten_at = NULL WHERE id = ?", (note_id,))
        return cur, _get(conn, note_id)

    return Change(ACTION_UNFORGET, TARGET, note_id, fn, "unforget")


def add(
    content: str,
    importance: float = 0.5,
    *,
    session_id: str | None = None,
    note_id: str | None = None,
    now: int | None = None,
) -> Change:
    """A new note (a new UUID unless ``note_id`` is given; an existing id is refused)."""
    text = _content(content)
    imp = _importance(importance)
    nid = note_id if note_id is not None else str(uuid.uuid4())
    if not isinstance(nid, str) or not nid:
        raise ValidationError_("A note id must be a non-empty string.", code="note.id_invalid")

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        existing = _get(conn, nid)
        if existing is not None:
            raise ConflictError(
                f"A note with id {nid!r} already exists.", existing, code="note.exists", params={"id": nid}
            )
        t = now_ms() if now is None else int(now)
        conn.execute(
            f"INSERT INTO {TABLE} (id, content, importance, session_id, created_at) VALUES (?, ?, ?, ?, ?)",
            (nid, text, imp, session_id, t),
        )
        return None, _get(conn, nid), nid

    return Change(ACTION_ADD, TARGET, nid, fn, "add")


# -- undo / redo ------------------------------------------------------------------------------------------


class _NoteRows(rows.RowKind):
    """Notes for the row engine: every column but ``last_accessed_at`` compared and put back."""

    ignored = _IGNORED

    def table(self, entry: AuditEntry) -> str:
        return TABLE

    def same(self, column: str, a: Any, b: Any) -> bool:
        return _same(a, b)

    def exists(self, what: str, table: str, row: Mapping[str, Any], current: Any) -> ConflictError:
        return ConflictError(
            f"{what}: a note with id {row['id']!r} exists again; nothing was changed.",
            code="note.step_exists",
            params={"id": str(row["id"]), "step": rows.step_of(what)},
        )

    def gone(self, what: str, table: str, src: Mapping[str, Any]) -> ConflictError:
        return ConflictError(
            f"{what}: the {_label(src)} no longer exists; nothing was changed.",
            code="note.step_gone",
            params={**_ref(src), "step": rows.step_of(what)},
        )

    def changed(
        self, what: str, table: str, cur: Any, fields: list[str], want: Any, *, deleting: bool
    ) -> ConflictError:
        changed = ", ".join(f"{f} is now {_fmt(cur.get(f))}" for f in fields)
        return ConflictError(
            f"{what} would overwrite a later change of the {_label(cur)} ({changed}). Nothing was changed.",
            cur,
            code="note.changed_after_edit",
            params={**_ref(cur), **rows.changed_params(cur, fields, what)},
        )


rows.register(_NoteRows(), ACTIONS)


# -- several notes in one edit: merge duplicates, forget a selection -------------------------------------

ACTION_MERGE = "notes.merge"
ACTION_BULK_FORGET = "notes.bulk_forget"
MANY_ACTIONS = (ACTION_MERGE, ACTION_BULK_FORGET)


def forget_many(ids: Sequence[str], *, keep: str | None = None, now: int | None = None) -> Change:
    """Forget the notes ``ids`` in one edit; with ``keep`` (one of them), a merge of duplicates: the note
    kept stays, every other one is forgotten. Audit states ``{"op", "count", "rows": [...]}``."""
    id_list = list(dict.fromkeys(str(i) for i in ids))
    if keep is not None and (keep not in id_list or len(id_list) < 2):
        raise ValidationError_(
            "A merge needs two notes or more, the one kept among them.",
            code="note.merge_choice",
            params={"keep": str(keep), "ids": id_list},
        )

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        t = now_ms() if now is None else int(now)
        befores: list[Any] = []
        afters: list[Any] = []
        for nid in id_list:
            cur = _require(conn, nid)
            if nid == keep or cur["forgotten_at"] is not None:
                if nid == keep and cur["forgotten_at"] is not None:
                    raise ConflictError(
                        f"The {_label(cur)} to keep was forgotten meanwhile; nothing was changed.",
                        cur,
                        code="note.merge_kept_forgotten",
                        params=_ref(cur),
                    )
                continue
            conn.execute(f"UPDATE {TABLE} SET forgotten_at = ? WHERE id = ?", (t, nid))
            befores.append(cur)
            afters.append(_get(conn, nid))
        if not befores:
            raise ValidationError_(
                "Every note is forgotten already; nothing to change.", code="note.bulk_nothing"
            )
        meta: dict[str, Any] = {"op": "merge" if keep else "forget", "count": len(befores)}
        if keep is not None:
            meta["keep"] = keep
        target = keep or (befores[0]["id"] if len(befores) == 1 else f"{len(befores)} notes")
        return {**meta, "rows": befores}, {**meta, "rows": afters}, target

    action = ACTION_MERGE if keep is not None else ACTION_BULK_FORGET
    return Change(action, "notes", None, fn, "merge duplicates" if keep else "forget")


class _ManyNoteRows(_NoteRows):
    def pairs(self, entry: AuditEntry) -> list[tuple[Any, Any]]:
        return rows.listed_pairs(entry)


rows.register(_ManyNoteRows(), MANY_ACTIONS)
