"""The Facts tab's controller: loads facts, the forget pool and a fact's history; runs fact curation.

Every edit is a :mod:`core.curation.facts` change run by ``ctx.curate`` (one audited transaction on the
writer, then a command on the shared undo stack), so it is in the audit trail and can be undone from any
tab. An edit carries the version it was computed against: a change computed against a version the agent
superseded meanwhile is refused by the core, and the refusal is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.curation import REDO, UNDO, Change, Changes
from core.curation import facts as cf
from core.curation.facts import BulkPlan
from core.errors import ConflictError
from core.jsutil import now_ms
from core.models import Fact
from philont_desktop.facts.data import (
    DAY_MS,
    FactRow,
    FactsData,
    load_facts,
    load_history,
    load_pool,
    load_pool_counted,
)
from philont_desktop.facts.state import MAX_OFFSET_DAYS, FactsState
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QObject, QTimer
from philont_desktop.tabs.controller import TabController
from philont_desktop.workers import Job, spin_until

Confirm = Callable[[BulkPlan], bool]
#: After a load, and while the time control moves, the forget pool is read once the tab has rested this
#: long: a worker reading every fact for the pool holds the interpreter the GUI thread paints with, so
#: the rows and plots of a load are painted first, and a drag's steps only rescore the loaded rows.
POOL_SETTLE_MS = 150


class FactsController(TabController):
    layers = ("facts",)

    def __init__(self, ctx: Any, state: FactsState, name: str, parent: QObject | None = None):
        super().__init__(ctx, state, name, parent)
        self.state: FactsState = state
        self.now_fn: Callable[[], int] = now_ms  # tests pin the clock
        self.select_after_load: list[str] | None = None
        self.reveal_keys: tuple[tuple[str, str], ...] = ()
        self._loading: Job | None = None  # the load in flight
        self._again = False  # a reload was asked while it runs: start one right after it
        self._pool_job: Job | None = None  # the forget pool load in flight
        self._pool_again = False  # the view time moved while it runs: load again when it is done
        self._pool_settle = QTimer(self)  # the time control moved: the pool once it rests
        self._pool_settle.setSingleShot(True)
        self._pool_settle.setInterval(POOL_SETTLE_MS)
        self._pool_settle.timeout.connect(self.load_pool)

    # -- reading --------------------------------------------------------------------------------------
    @property
    def real_now(self) -> int:
        return int(self.now_fn())

    def refresh(self) -> None:
        """Load every fact row, scored at the view time: now, or right after the load in flight.

        At most one load runs and one waits: asking again while a load runs only marks the rows as
        stale, and the next load starts when that one is done (it reuses the rows that did not change).
        """
        if self._loading is not None:
            self._again = True
            return
        self._start_load()

    def _start_load(self) -> None:
        real = self.real_now
        view = self.state.view_time_at(real)
        self._again = False
        previous = self._previous_rows()
        self.state.update(loading=True)
        op = ReadOp(load_facts, (view, real, previous), key="load", label=self.tr("Loading facts"))
        self._loading = self.submit(op, on_result=self._on_loaded, on_error=self._on_load_failed)
        self._loading.done.connect(self._load_ended)

    def _previous_rows(self) -> dict[str, FactRow] | None:
        data = self.state.data
        return {r.fid: r for r in data.rows} if data is not None else None

    def _load_ended(self) -> None:
        """The load is done (finished, failed or cancelled): start what was asked meanwhile."""
        self._loading = None
        if self._again:
            self._start_load()
        elif self.state.loading:
            self.state.update(loading=False)

    def changes_applied(self, changes: Changes) -> None:
        if changes.kind in (UNDO, REDO):  # what was undone or redone is selected and shown once loaded
            self.reveal_keys = tuple(k for k in changes.keys if isinstance(k, tuple))
        self.refresh()

    def take_reveal(self) -> list[str] | None:
        """The heads of the facts an undo or redo just changed (to select after the reload), once."""
        keys, self.reveal_keys = self.reveal_keys, ()
        ids = [h for ns, key in keys if (h := self.head_id(ns, key)) is not None]
        return ids or None

    def _on_loaded(self, data: FactsData) -> None:
        offset = self.state.offset_days
        if (
            data.scored_at is not None
            and data.real_now is not None
            and data.scored_at - data.real_now == offset * DAY_MS
        ):
            real, view = data.real_now, data.scored_at  # scored on the worker: "now" is the load time
        else:
            real = self.real_now
            view = self.state.view_time_at(real)
        self.state.update(
            data=data, real_now=real, view_time=view, loaded=len(data.rows), complete=True, loading=False
        )
        self._settle_pool()  # the pool once the rows and the plots are painted

    def _on_load_failed(self, exc: BaseException) -> None:
        self.state.update(loading=False)
        self.ctx.show_error(self.tr("Facts could not be read"), exc)

    def load_pool(self) -> None:
        """The forget candidates at the view time, exactly as the core computes them.

        One load at a time; a load of the facts or a move of the time control asks for the pool once
        the tab has rested :data:`POOL_SETTLE_MS`, and a load asked while one runs follows it.
        """
        self._pool_settle.stop()
        if self._pool_job is not None:
            self._pool_again = True
            return
        self._pool_again = False
        at, real = self.state.view_time, self.state.real_now or self.real_now
        op = ReadOp(
            load_pool_counted, (self.state.threshold, at, real), key="pool", label=self.tr("Forget pool")
        )

        def loaded(result: tuple[list[tuple[Fact, float]], int]) -> None:
            if not self._pool_again:  # else a newer pool follows right away
                cands, now_count = result
                self.state.update(pool=tuple(cands), pool_at=at, pool_now=now_count)

        self._pool_job = self.submit(op, on_result=loaded)
        self._pool_job.done.connect(self._pool_ended)

    def _pool_ended(self) -> None:
        self._pool_job = None
        if self._pool_again:
            self.load_pool()

    def load_history(self, row: FactRow | None) -> None:
        """The versions of ``row``'s key (``None``: no history shown)."""
        if row is None:
            self.state.update(history=(), history_of=None)
            return
        f = row.fact
        op = ReadOp(load_history, (f.namespace, f.key), key="history", label=self.tr("Fact history"))
        self.submit(op, on_result=lambda hist: self.state.update(history=tuple(hist), history_of=f.id))

    # -- time -----------------------------------------------------------------------------------------
    def set_offset_days(self, days: int, *, force: bool = False) -> None:
        """Look at the scores ``days`` ahead (0: now); the forget pool follows."""
        days = max(0, min(MAX_OFFSET_DAYS, int(days)))
        real = self.real_now
        view = self.state.view_time_at(real, days)
        if not force and days == self.state.offset_days and view == self.state.view_time:
            return
        self.state.update(offset_days=days, real_now=real, view_time=view)
        if self.state.data is not None:
            self._settle_pool()  # (again: a drag's next step waits for the one after it)

    def _settle_pool(self) -> None:
        """Read the pool once the tab has rested :data:`POOL_SETTLE_MS` (busy until it is read)."""
        was = self.busy
        self._pool_settle.start()
        if not was:
            self.busyChanged.emit(True)

    # -- waiting ----------------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return super().busy or self._pool_settle.isActive()

    def _untrack(self, job: Job) -> None:
        # not idle when the last job ends while the pool waits to be read: the live pacer and the
        # first-read veil go by busyChanged, and the pool's own job says False when it is done
        if job in self._pending:
            self._pending.discard(job)
            if not self.busy:
                self.busyChanged.emit(False)

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """The jobs done, and the forget pool read for where the time control rests."""
        return spin_until(lambda: not self.busy, timeout_ms)

    def tick(self) -> None:
        """The clock moved (every second): the "now" line follows."""
        self.state.update(real_now=self.real_now)

    # -- selection ------------------------------------------------------------------------------------
    def select(self, ids: tuple[str, ...], current: str | None) -> None:
        self.state.update(selection=ids, selected=current)

    def set_namespace(self, ns: str | None) -> None:
        self.state.update(namespace=ns)

    def set_editing(self, on: bool) -> None:
        self.state.update(editing=bool(on))

    def rows(self) -> list[FactRow]:
        return self.state.data.rows if self.state.data is not None else []

    def namespaces(self) -> list[str]:
        return sorted({r.fact.namespace for r in self.rows()})

    def head_id(self, namespace: str, key: str) -> str | None:
        """The head (active version) of ``namespace.key`` as loaded."""
        heads = [
            r.fact.id
            for r in self.rows()
            if r.fact.namespace == namespace and r.fact.key == key and r.fact.superseded_by is None
        ]
        return heads[0] if heads else None

    def _head_of(self, f: Fact) -> str | None:
        """The head of ``f``'s chain as loaded (``f`` itself when it is the head)."""
        return f.id if f.superseded_by is None else self.head_id(f.namespace, f.key)

    # -- curation -------------------------------------------------------------------------------------
    def _curate(self, text: str, change: Change, *, follow: bool = False) -> None:
        def done(changes: Changes) -> None:
            edit = changes.entry
            if follow and edit.target_type == cf.TARGET:
                self.select_after_load = [edit.target_id]
            self.ctx.statusMessage.emit(self.tr("Done: {0}").format(text))
            self.refresh()

        self.curate(change, text, on_result=done, on_error=self.failed)

    def _build(self, build: Callable[[], Change]) -> Change | None:
        try:
            return build()
        except Exception as exc:
            self.failed(exc)
            return None

    def failed(self, exc: BaseException) -> None:
        if isinstance(exc, ConflictError):
            title = self.tr("Not applied: the fact changed meanwhile")
        else:
            title = self.tr("The change was not made")
        self.ctx.show_error(title, exc)
        self.refresh()

    def add(self, fields: dict[str, Any]) -> None:
        """Store a new fact (``namespace``, ``key``, ``value`` and the other fields of ``cf.add``)."""
        kw = dict(fields)
        ns, key = kw.pop("namespace"), kw.pop("key")
        value = kw.pop("value")
        change = self._build(lambda: cf.add(ns, key, value, expected_head=self.head_id(ns, key), **kw))
        if change is not None:
            self._curate(self.tr("Add {0}").format(f"{ns}.{key}"), change, follow=True)

    def edit(self, row: FactRow, changes: dict[str, Any]) -> None:
        """Store a new version of ``row`` with ``changes`` (keyword arguments of ``cf.edit``)."""
        f = row.fact
        if not changes and f.superseded_by is None:
            return
        change = self._build(lambda: cf.edit(f.id, expected_head=self._head_of(f), **changes))
        if change is not None:
            self._curate(self.tr("Edit {0}").format(row.name), change, follow=True)

    def pin(self, row: FactRow, pin: bool) -> None:
        f = row.fact
        change = cf.pin(f.id, seen=f) if pin else cf.unpin(f.id, seen=f)
        self._curate((self.tr("Pin {0}") if pin else self.tr("Unpin {0}")).format(row.name), change)

    def pin_fact(self, f: Fact) -> None:
        self._curate(self.tr("Pin {0}").format(f"{f.namespace}.{f.key}"), cf.pin(f.id, seen=f))

    def set_tau(self, row: FactRow, tau: float | None) -> None:
        f = row.fact
        if tau == f.decay_tau_days or (tau is not None and tau < 0 and f.pinned):
            return
        change = self._build(lambda: cf.set_tau(f.id, tau, seen=f))
        if change is not None:
            self._curate(self.tr("Set tau of {0}").format(row.name), change)

    def apply_whatif(self, row: FactRow, changes: dict[str, Any]) -> None:
        """Store what the what-if box tried: a new confidence (a new version) or a tau."""
        f = row.fact
        if "confidence" in changes:
            change = self._build(lambda: cf.edit(f.id, expected_head=self._head_of(f), **changes))
            text = self.tr("Change confidence of {0}").format(row.name)
        else:
            change = self._build(lambda: cf.set_tau(f.id, changes["decay_tau_days"], seen=f))
            text = self.tr("Set tau of {0}").format(row.name)
        if change is not None:
            self._curate(text, change, follow=True)

    def forget(self, row: FactRow) -> None:
        f = row.fact
        if f.forgotten_at is None:
            self._curate(self.tr("Forget {0}").format(row.name), cf.forget(f.id, seen=f, now=self.real_now))

    def unforget(self, row: FactRow) -> None:
        f = row.fact
        if f.forgotten_at is not None:
            self._curate(self.tr("Unforget {0}").format(row.name), cf.unforget(f.id, seen=f))

    # -- bulk -----------------------------------------------------------------------------------------
    def forget_pool_candidates(self, confirm: Confirm) -> None:
        """Forget every candidate as of now (not the view time): forgetting is about the present."""
        op = ReadOp(
            load_pool, (self.state.threshold, self.real_now), key="poolnow", label=self.tr("Forget pool")
        )
        self.submit(
            op,
            on_result=lambda c: self.start_bulk(
                "forget", [f.id for f, _s in c], confirm, candidates_only=True
            ),
        )

    def start_bulk(
        self,
        op: str,
        ids: list[str],
        confirm: Confirm,
        *,
        new_namespace: str | None = None,
        candidates_only: bool = False,
    ) -> None:
        """Plan the bulk change on a worker, ask ``confirm(plan)``, then apply it as one edit."""
        if not ids:
            self.ctx.statusMessage.emit(self.tr("Nothing to change."))
            return
        now, threshold = self.real_now, self.state.threshold

        def plan(db: Any) -> BulkPlan:
            return cf.plan_bulk(
                db,
                op,
                ids,
                new_namespace=new_namespace,
                candidates_only=candidates_only,
                threshold=threshold,
                now=now,
            )

        def planned(p: BulkPlan) -> None:
            if confirm(p) and p.items:
                self.apply_bulk(p, ids, candidates_only)

        self.submit(
            ReadOp(plan, key="plan", label=self.tr("Preparing the change")),
            on_result=planned,
            on_error=self.failed,
        )

    def apply_bulk(self, plan: BulkPlan, ids: list[str], candidates_only: bool) -> None:
        change = cf.bulk(
            plan.op,
            ids,
            new_namespace=plan.namespace,
            candidates_only=candidates_only,
            threshold=plan.threshold,
            expected=plan.signature,
            now=self.real_now,
            score_at=plan.now,
        )
        texts = {
            "forget": self.tr("Forget %n fact(s)", None, len(plan.items)),
            "pin": self.tr("Pin %n fact(s)", None, len(plan.items)),
            "unpin": self.tr("Unpin %n fact(s)", None, len(plan.items)),
            "move": self.tr("Move %n fact(s) to {0}", None, len(plan.items)),
        }
        self._curate(texts[plan.op].format(plan.namespace), change)
