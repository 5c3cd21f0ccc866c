"""Layer 2: structured facts with supersede chains, time semantics and decay (spec Part A §2).

A fact is a JSON value under ``(namespace, key)``. Writing a key again never overwrites: the new row
``supersedes`` the old one and the old row's ``superseded_by`` points to the new one, so every version
stays readable through :meth:`FactStore.history`. The active version of a key is the row whose
``superseded_by`` is NULL; for that lookup a forgotten row still counts (the reference does the same).

Reads never write, except :meth:`FactStore.get_fact`, which refreshes ``last_accessed_at`` on a hit the
way the reference's ``getFact`` does; on a read-only database that refresh is skipped. Every write is one
short ``BEGIN IMMEDIATE`` transaction through :meth:`core.db.MemoryDB.write`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from core import ids
from core.decay import PIN_SENTINEL, score_memory
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.fact_checks import (
    MAX_SAFE_INTEGER,
    TIME_FIELDS,
    check_epoch_ms,
    check_exact_json,
    check_name,
    window_error,
)
from core.jsutil import js_stringify, now_ms
from core.models import Fact

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

SELF_NAMESPACE = "self"


class SelfDescriptionWriteForbiddenError(ValidationError_):
    """The ``self`` namespace is written only through :meth:`FactStore.update_self_fact`."""

    default_code = "fact.self_kernel_only"

    def __init__(self, key: str, caller: str = "storeFact"):
        super().__init__(
            "memory_facts namespace='self' is kernel-only. "
            f"To update 'self.{key}' use MemoryStore.updateSelfFact with caller='self-reflector'. "
            f"Caller was: {caller}",
            params={"key": key, "caller": caller},
        )
        self.key = key
        self.caller = caller


class _Unset:
    """Marks a keyword argument that was not given (``None`` is a value: it clears a column)."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()


def _can_write(db: MemoryDB) -> bool:
    report = db.report
    return not report.read_only and report.read_only_reason is None


def _norm_kind(kind: Any) -> str:
    return "event" if kind == "event" else "state"


def _locked_chain(
    conn: Connection, old_id: str, expected_head: Any, allow_self: bool
) -> tuple[Any, Fact, Fact | None]:
    """Inside the write: the row ``old_id`` (raw and read), and the current head of its chain, which
    must be ``expected_head`` unless that is ``None``."""
    old_row = conn.execute("SELECT * FROM memory_facts WHERE id = ?", (old_id,)).fetchone()
    if old_row is None:
        raise NotFoundError(f"No fact with id {old_id}.", code="fact.not_found", params={"id": old_id})
    old = Fact.from_row(old_row)
    if old.namespace == SELF_NAMESPACE and not allow_self:
        raise SelfDescriptionWriteForbiddenError(old.key, "supersede_with")
    head_row = conn.execute(
        "SELECT * FROM memory_facts WHERE namespace = ? AND key = ? AND superseded_by IS NULL "
        "ORDER BY rowid DESC LIMIT 1",
        (old.namespace, old.key),
    ).fetchone()
    head = Fact.from_row(head_row) if head_row is not None else None
    if expected_head is not None and (head is None or head.id != expected_head):
        raise ConflictError(
            f"{old.namespace}.{old.key} was changed meanwhile: its current version is "
            f"{head.id if head else 'missing'}, not {expected_head}.",
            head,
            code="fact.changed_meanwhile",
            params={"fact": f"{old.namespace}.{old.key}", "current": head.id if head else None},
        )
    return old_row, old, head


def _edited_values(old_row: Any, old: Fact, edits: dict[str, Any]) -> tuple[Any, ...]:
    """``(value_json, confidence, kind, occurred_at, valid_from, valid_until, tau)`` of an edited
    version: each edit checked, each field left ``UNSET`` copied from ``old``."""
    valid_from, valid_until = edits["valid_from"], edits["valid_until"]
    vf = old.valid_from if valid_from is UNSET else check_epoch_ms("valid_from", valid_from)
    vu = old.valid_until if valid_until is UNSET else check_epoch_ms("valid_until", valid_until)
    err = window_error(vf, vu)
    if err:
        raise ValidationError_(err, code="fact.window_invalid", params={"valid_from": vf, "valid_until": vu})
    value, confidence, fact_kind = edits["value"], edits["confidence"], edits["fact_kind"]
    value_json = old_row["value_json"] if value is UNSET else check_exact_json(value)
    conf = old_row["confidence"] if confidence is UNSET else confidence
    kind = old.fact_kind if fact_kind is UNSET else _norm_kind(fact_kind)
    occurred_at, tau = edits["occurred_at"], edits["decay_tau_days"]
    occ = old.occurred_at if occurred_at is UNSET else check_epoch_ms("occurred_at", occurred_at)
    tau = old.decay_tau_days if tau is UNSET else tau
    if tau is not None and isinstance(tau, float) and math.isnan(tau):
        raise ValidationError_("decay_tau_days must be a number or null, not NaN", code="fact.tau_invalid")
    return value_json, conf, kind, occ, vf, vu, tau


def _insert_version(conn: Connection, columns: tuple[Any, ...]) -> Any:
    """Insert a fact version (``columns`` in the order of the INSERT below), link the version it
    supersedes to it, and return the new row."""
    new_id, supersedes = columns[0], columns[5]
    conn.execute(
        "INSERT INTO memory_facts (id, namespace, key, value_json, confidence, supersedes, "
        "created_at, occurred_at, valid_from, valid_until, last_accessed_at, decay_tau_days, "
        "fact_kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        columns,
    )
    if supersedes is not None:
        conn.execute("UPDATE memory_facts SET superseded_by = ? WHERE id = ?", (new_id, supersedes))
    return conn.execute("SELECT * FROM memory_facts WHERE id = ?", (new_id,)).fetchone()


class FactStore:
    """Facts of one memory database (``memory_facts``)."""

    def __init__(self, db: MemoryDB):
        self.db = db

    # -- reading helpers ---------------------------------------------------------------------------
    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Fact]:
        with self.db.lock:
            rows = self.db.conn.execute(sql, params).fetchall()
        return [Fact.from_row(r) for r in rows]

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Fact | None:
        with self.db.lock:
            row = self.db.conn.execute(sql, params).fetchone()
        return Fact.from_row(row) if row is not None else None

    # -- writing -----------------------------------------------------------------------------------
    def store_fact(
        self,
        namespace: str,
        key: str,
        value: Any,
        confidence: float = 1.0,
        fact_kind: str = "state",
        occurred_at: float | None = None,
        valid_from: float | None = None,
        valid_until: float | None = None,
        decay_tau_days: float | None = None,
        now: int | None = None,
    ) -> Fact:
        """Store a new version of ``namespace.key``, superseding the current one (Part A §2).

        Raises :class:`SelfDescriptionWriteForbiddenError` for namespace ``self`` and
        :class:`~core.errors.ValidationError_` for an inverted validity window.
        """
        if namespace == SELF_NAMESPACE:
            raise SelfDescriptionWriteForbiddenError(key, "storeFact")
        return self._store(
            namespace,
            key,
            js_stringify(value),
            confidence,
            fact_kind,
            occurred_at,
            valid_from,
            valid_until,
            decay_tau_days,
            now,
        )

    def _store(
        self,
        namespace: str,
        key: str,
        value_json: str,
        confidence: float | None,
        fact_kind: str,
        occurred_at: float | None,
        valid_from: float | None,
        valid_until: float | None,
        decay_tau_days: float | None,
        now: int | None,
    ) -> Fact:
        err = window_error(valid_from, valid_until)
        if err:
            raise ValidationError_(
                err, code="fact.window_invalid", params={"valid_from": valid_from, "valid_until": valid_until}
            )
        created_at = now_ms() if now is None else int(now)
        new_id = ids.new_id()
        conf = 1.0 if confidence is None else confidence
        with self.db.write() as conn:
            old = conn.execute(
                "SELECT id FROM memory_facts WHERE namespace = ? AND key = ? AND superseded_by IS NULL "
                "ORDER BY rowid DESC LIMIT 1",
                (namespace, key),
            ).fetchone()
            supersedes = old["id"] if old is not None else None
            columns = (
                new_id,
                namespace,
                key,
                value_json,
                conf,
                supersedes,
                created_at,
                occurred_at,
                valid_from,
                valid_until,
                created_at,
                decay_tau_days,
                _norm_kind(fact_kind),
            )
            row = _insert_version(conn, columns)
        return Fact.from_row(row)

    def update_self_fact(
        self, key: str, content: str | list[str], source_refs: list[str], now: int | None = None
    ) -> Fact:
        """The only way into namespace ``self``: stores ``{content, sourceRefs, updatedAt}``, confidence 1."""
        t = now_ms() if now is None else int(now)
        value = {"content": content, "sourceRefs": list(source_refs), "updatedAt": t}
        return self._store(SELF_NAMESPACE, key, js_stringify(value), 1.0, "state", None, None, None, None, t)

    def supersede_with(
        self,
        old_id: str,
        *,
        value: Any = UNSET,
        confidence: Any = UNSET,
        fact_kind: Any = UNSET,
        occurred_at: Any = UNSET,
        valid_from: Any = UNSET,
        valid_until: Any = UNSET,
        decay_tau_days: Any = UNSET,
        expected_head: Any = UNSET,
        allow_self: bool = False,
        now: int | None = None,
    ) -> Fact:
        """A manual edit of fact ``old_id``: a new version at the head of its chain.

        Every field not given is copied from ``old_id`` (``value_json`` byte for byte, the pin /
        custom tau included); ``None`` clears a time field or the tau. The new row supersedes the
        current head of the ``(namespace, key)`` chain, which must be ``expected_head`` (default:
        ``old_id`` itself; pass ``expected_head=None`` to skip the check). Otherwise
        :class:`~core.errors.ConflictError` is raised with ``current`` set to the head as it is now.
        The new version is not forgotten. Namespace ``self`` is refused unless ``allow_self``.
        """
        if expected_head is UNSET:
            expected_head = old_id
        t = now_ms() if now is None else int(now)
        new_id = ids.new_id()
        with self.db.write() as conn:
            old_row, old, head = _locked_chain(conn, old_id, expected_head, allow_self)
            edits = {
                "value": value,
                "confidence": confidence,
                "fact_kind": fact_kind,
                "occurred_at": occurred_at,
                "valid_from": valid_from,
                "valid_until": valid_until,
                "decay_tau_days": decay_tau_days,
            }
            value_json, conf, kind, occ, vf, vu, tau = _edited_values(old_row, old, edits)
            supersedes = head.id if head is not None else None
            columns = (
                new_id,
                old.namespace,
                old.key,
                value_json,
                conf,
                supersedes,
                t,
                occ,
                vf,
                vu,
                t,
                tau,
                kind,
            )
            row = _insert_version(conn, columns)
        return Fact.from_row(row)

    # -- reading -----------------------------------------------------------------------------------
    def get_fact(self, namespace: str, key: str, now: int | None = None, bump: bool = True) -> Fact | None:
        """The active, not forgotten version; a hit refreshes ``last_accessed_at`` to ``now``.

        The refresh is skipped with ``bump=False`` and on a database that cannot be written.
        """
        sql = (
            "SELECT * FROM memory_facts WHERE namespace = ? AND key = ? "
            "AND superseded_by IS NULL AND forgotten_at IS NULL LIMIT 1"
        )
        fact = self._one(sql, (namespace, key))
        if fact is None or not (bump and _can_write(self.db)):
            return fact  # a miss touches nothing
        t = now_ms() if now is None else int(now)
        with self.db.write() as conn:
            conn.execute("UPDATE memory_facts SET last_accessed_at = ? WHERE id = ?", (t, fact.id))
        fact.last_accessed_at = t
        return fact

    def list_facts(self, namespace: str | None = None, include_inactive: bool = False) -> list[Fact]:
        """Facts of one namespace (exact match) or of all; active only unless ``include_inactive``.

        Ordered by key (BINARY), as the reference's ``listFacts``; without a namespace by namespace then
        key. With ``include_inactive`` the versions of one key come newest first.
        """
        where: list[str] = []
        params: tuple[Any, ...] = ()
        if namespace is not None:
            where.append("namespace = ?")
            params = (namespace,)
        if not include_inactive:
            where.append("superseded_by IS NULL AND forgotten_at IS NULL")
        sql = "SELECT * FROM memory_facts"
        if where:
            sql += " WHERE " + " AND ".join(where)
        order = "key" if namespace is not None else "namespace, key"
        sql += f" ORDER BY {order}, " + ("rowid DESC" if include_inactive else "rowid")
        return self._all(sql, params)

    def list_namespaces(self, include_inactive: bool = False) -> list[tuple[str, int]]:
        """``[(namespace, count)]`` ordered by namespace; counts active facts unless ``include_inactive``."""
        where = "" if include_inactive else " WHERE superseded_by IS NULL AND forgotten_at IS NULL"
        with self.db.lock:
            rows = self.db.conn.execute(
                f"SELECT namespace, COUNT(*) FROM memory_facts{where} GROUP BY namespace ORDER BY namespace"
            ).fetchall()
        return [(r[0], int(r[1])) for r in rows]

    def count(self) -> int:
        """Active (not superseded, not forgotten) facts."""
        with self.db.lock:
            row = self.db.conn.execute(
                "SELECT COUNT(*) FROM memory_facts WHERE superseded_by IS NULL AND forgotten_at IS NULL"
            ).fetchone()
        return int(row[0])

    def history(self, namespace: str, key: str) -> list[Fact]:
        """Every version of a key: rows with ``superseded_by`` NULL first, then newest rowid first."""
        return self._all(
            "SELECT * FROM memory_facts WHERE namespace = ? AND key = ? "
            "ORDER BY (superseded_by IS NULL) DESC, rowid DESC",
            (namespace, key),
        )

    def get_by_id(self, fact_id: str, include_forgotten: bool = True) -> Fact | None:
        sql = "SELECT * FROM memory_facts WHERE id = ?"
        if not include_forgotten:
            sql += " AND forgotten_at IS NULL"
        return self._one(sql + " LIMIT 1", (fact_id,))

    def active_at(self, namespace: str, key: str, at: int) -> Fact | None:
        """The version valid at ``at`` (validity window only; supersession ignored), newest created."""
        return self._one(
            "SELECT * FROM memory_facts WHERE namespace = ? AND key = ? "
            "AND (valid_from IS NULL OR valid_from <= ?) AND (valid_until IS NULL OR valid_until >= ?) "
            "AND forgotten_at IS NULL ORDER BY created_at DESC, rowid DESC LIMIT 1",
            (namespace, key, at, at),
        )

    def all_rows(self) -> list[Fact]:
        """Every row, superseded and forgotten ones included (for the GUI), chain by chain."""
        return self._all(
            "SELECT * FROM memory_facts ORDER BY namespace, key, (superseded_by IS NULL) DESC, rowid DESC"
        )

    # -- decay, pinning, forgetting --------------------------------------------------------------------
    def _update(self, sql: str, params: tuple[Any, ...]) -> bool:
        with self.db.write() as conn:
            cur = conn.execute(sql, params)
            return cur.rowcount > 0

    def pin(self, fact_id: str) -> bool:
        """``decay_tau_days = -1``. True when the row exists (the reference's ``changes > 0``)."""
        return self._update(
            "UPDATE memory_facts SET decay_tau_days = ? WHERE id = ?", (PIN_SENTINEL, fact_id)
        )

    def unpin(self, fact_id: str) -> bool:
        """``decay_tau_days = NULL`` (namespace default again). True when the row exists."""
        return self._update("UPDATE memory_facts SET decay_tau_days = NULL WHERE id = ?", (fact_id,))

    def set_tau(self, fact_id: str, tau: float | None) -> bool:
        """A custom e-folding time in days (negative pins, ``None`` = namespace default)."""
        if tau is not None and (isinstance(tau, bool) or not isinstance(tau, int | float) or math.isnan(tau)):
            raise ValidationError_("decay_tau_days must be a number or null", code="fact.tau_invalid")
        return self._update("UPDATE memory_facts SET decay_tau_days = ? WHERE id = ?", (tau, fact_id))

    def soft_forget(self, fact_id: str, at: int | None = None) -> bool:
        """Set ``forgotten_at`` if it is still NULL; True when that happened."""
        t = now_ms() if at is None else int(at)
        return self._update(
            "UPDATE memory_facts SET forgotten_at = ? WHERE id = ? AND forgotten_at IS NULL", (t, fact_id)
        )

    def unforget(self, fact_id: str) -> bool:
        """``forgotten_at = NULL``. True when the row exists (the reference's ``changes > 0``)."""
        return self._update("UPDATE memory_facts SET forgotten_at = NULL WHERE id = ?", (fact_id,))

    def mark_accessed(self, fact_id: str, at: int | None = None) -> bool:
        t = now_ms() if at is None else int(at)
        return self._update("UPDATE memory_facts SET last_accessed_at = ? WHERE id = ?", (t, fact_id))

    def score(self, fact: Fact, now: int | None = None) -> float:
        """The decay score of one fact (Part A §2)."""
        return score_memory(
            namespace=fact.namespace,
            confidence=fact.confidence,
            created_at=fact.created_at,
            last_accessed_at=fact.last_accessed_at,
            decay_tau_days=fact.decay_tau_days,
            now=now_ms() if now is None else now,
        )

    def forget_candidates(
        self,
        threshold: float = 0.05,
        limit: int = 50,
        namespace: str | None = None,
        now: int | None = None,
    ) -> list[tuple[Fact, float]]:
        """Active, unpinned facts scoring below ``threshold``, lowest score first (Part A §2, Part C h).

        Ties keep the order the reference's SQL yields: ``valid_until`` ascending (NULL first) then
        rowid; with a namespace, key then rowid. A NaN score is never a candidate.
        """
        t = now_ms() if now is None else int(now)
        sql = (
            "SELECT * FROM memory_facts WHERE superseded_by IS NULL AND forgotten_at IS NULL "
            "AND (decay_tau_days IS NULL OR decay_tau_days >= 0)"
        )
        params: tuple[Any, ...] = ()
        if namespace:
            sql += " AND namespace = ? ORDER BY key, rowid"
            params = (namespace,)
        else:
            sql += " ORDER BY valid_until, rowid"
        out: list[tuple[Fact, float]] = []
        for fact in self._all(sql, params):
            s = self.score(fact, t)
            if s < threshold:  # NaN < x is False: never a candidate
                out.append((fact, s))
        out.sort(key=lambda fs: fs[1])
        return out[:limit]  # JS slice(0, limit)


__all__ = [
    "MAX_SAFE_INTEGER",
    "TIME_FIELDS",
    "UNSET",
    "FactStore",
    "SelfDescriptionWriteForbiddenError",
    "check_epoch_ms",
    "check_exact_json",
    "check_name",
]
