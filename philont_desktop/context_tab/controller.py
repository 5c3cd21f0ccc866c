"""The Context tab's controller: computes the preview off the GUI thread and keeps the state up to date.

* Inputs change through :meth:`ContextController.edit`; typing is debounced (:data:`DEBOUNCE_MS`), then
  :meth:`compute_now` submits :func:`~philont_desktop.context_tab.model.job_build_context` as a read op
  keyed ``preview``: a newer computation cancels the one still running (its result is dropped).
* The memory prefix, which does not depend on the message, is reused between keystrokes until the
  database, the session, the host OS or the moment changes.
* While the recall search runs (the agent's substring fallback can scan every message), the rest of the
  preview (prefix, trigger, recent messages) is computed alongside without recall and shown when the
  full result has not arrived :data:`PROVISIONAL_AFTER_MS` after the computation began.
* The preview is built without the recall explanation's details; :func:`job_explain` adds the word
  counts and the keyword query after it is shown (keyed ``explain``, cancelled by the next preview).
* Pinning keeps a preview; every new preview is compared with it on the ``task`` lane.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.context import DEFAULTS, ContextCancelledError, ContextResult
from core.errors import NotFoundError
from core.models import Message
from core.substring import SearchCancelledError
from philont_desktop.context_tab.diff import compute_diff
from philont_desktop.context_tab.model import (
    ContextInputs,
    job_build_context,
    job_explain,
    job_export,
    job_message,
    job_sessions,
)
from philont_desktop.context_tab.state import Budgets, ContextState, Pinned, TimePoint
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QDateTime, QObject, QTimer, Signal
from philont_desktop.settings import Key
from philont_desktop.tabs.controller import TabController
from philont_desktop.widgets.conversations import ConversationsModel, conversation_index
from philont_desktop.workers import Job

DEBOUNCE_MS = 250
#: The rest of the preview is shown first when the full one takes longer than this (ms).
PROVISIONAL_AFTER_MS = 150
SESSIONS_REFRESH_MIN_MS = 10_000
#: Messages are compared up to this many characters (the preview shows fewer).
DIFF_CLIP_CHARS = 4000

K_RECENT_BUDGET: Key[int] = Key("context/recent_budget", int, DEFAULTS["recent_budget"])
K_RECALL_BUDGET: Key[int] = Key("context/recall_budget", int, DEFAULTS["recall_budget"])
K_RECENT_LIMIT: Key[int] = Key("context/recent_limit", int, DEFAULTS["recent_limit"])
K_RECALL_LIMIT: Key[int] = Key("context/recall_limit", int, DEFAULTS["recall_limit"])
K_HOST_OS: Key[str] = Key("context/host_os", str, "", ("", "linux", "windows", "darwin"))

#: Inputs whose change starts a new computation (after the debounce).
INPUTS = frozenset({"message", "session_ids", "budgets", "home", "host_os", "as_of", "fixed_now"})
#: Inputs the memory prefix depends on (a change drops the kept prefix).
PREFIX_INPUTS = frozenset({"as_of", "fixed_now"})


def comparable_text(r: ContextResult, clip: int = DIFF_CLIP_CHARS) -> str:
    """The preview as text for the comparison, each message cut to ``clip`` characters as on screen (a
    10 MB message would make the line diff take minutes)."""
    if len(r.message) <= clip and all(len(m.content) <= clip for m in r.timeline.messages):
        return r.to_text()

    def cut(text: str) -> str:
        return text if len(text) <= clip else text[:clip] + "…"

    messages = [m.model_copy(update={"content": cut(m.content)}) for m in r.timeline.messages]
    timeline = r.timeline.model_copy(update={"messages": messages})
    return r.model_copy(update={"timeline": timeline, "message": cut(r.message)}).to_text()


def task_diff(old: ContextResult, new: ContextResult, context: int) -> Any:
    return compute_diff(comparable_text(old), comparable_text(new), context)


class ContextController(TabController):
    #: A preview was put on screen (the full one, not the provisional): ``ContextResult``.
    resultShown = Signal(object)
    exported = Signal(object)  # Path

    def __init__(self, ctx: Any, state: ContextState, name: str, parent: QObject | None = None):
        super().__init__(ctx, state, name, parent)
        self.state: ContextState = state
        self.job_fn = job_build_context  # replaceable in tests (a slow search)
        # The conversations the home conversation is picked from: the model every tab lists them with.
        self.conversations = ConversationsModel(
            self.submit, conversation_index(ctx), self, all_label=self.tr("No home conversation")
        )
        self.diff_context = 3
        self._prefix_cache: dict[tuple[Any, ...], tuple[int, Any]] = {}
        self._generation = 0
        self._seq = 0
        self._input_at: float | None = None
        self._first_paint_done = False
        self._last_lists_reload = 0
        self._pending_provisional: tuple[int, float | None, ContextResult] | None = None
        # measurements (tests, benchmark)
        self.computations_started = 0
        self.results_shown = 0
        self.last_compute_ms: float | None = None  # submit -> shown
        self.last_input_to_shown_ms: float | None = None  # last input change -> shown (with the debounce)
        self.last_render_ms: float | None = None
        self.last_input_to_first_paint_ms: float | None = None  # provisional or full, the first shown
        self.last_export: Path | None = None
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self.compute_now)
        self._provisional_timer = QTimer(self)
        self._provisional_timer.setSingleShot(True)
        self._provisional_timer.timeout.connect(self._show_provisional)
        self._load_settings()

    def _load_settings(self) -> None:
        s = self.ctx.settings
        budgets = Budgets(
            *(
                max(0, int(s.get(k)))
                for k in (K_RECENT_BUDGET, K_RECALL_BUDGET, K_RECENT_LIMIT, K_RECALL_LIMIT)
            )
        )
        self.state.update(budgets=budgets, host_os=s.get(K_HOST_OS) or None)

    # -- hooks ----------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.load_lists()
        self.compute_now()

    def refresh(self) -> None:
        """The database changed: the kept prefix is stale; recompute (a pinned preview stays)."""
        self._generation += 1
        self._prefix_cache.clear()
        if not self.active:
            return
        self.compute_now()
        if QDateTime.currentMSecsSinceEpoch() - self._last_lists_reload >= SESSIONS_REFRESH_MIN_MS:
            self.load_lists()

    @property
    def debouncing(self) -> bool:
        """Input arrived and its computation waits for a pause in typing."""
        return self._debounce.isActive()

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Until the pending computation (a debounced one is started now), its explanation and the
        comparison are done."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            if self._debounce.isActive():
                self.compute_now()
            left = int((deadline - time.monotonic()) * 1000)
            ok = super().wait_idle(max(0, left))
            if ok and not self._debounce.isActive():
                return True
            if left <= 0:
                return False

    # -- inputs ---------------------------------------------------------------------------------------
    def edit(self, **inputs: Any) -> frozenset[str]:
        """Change inputs (``message``, ``session_ids``, ``budgets``, ``home``, ``host_os``, ``as_of``,
        ``fixed_now``); a change starts a computation after the debounce. Returns what changed."""
        unknown = set(inputs) - INPUTS
        if unknown:
            raise AttributeError(f"not an input of the context preview: {', '.join(sorted(unknown))}")
        changed = self.state.update(**inputs)
        if not changed:
            return changed
        if changed & PREFIX_INPUTS:
            self._prefix_cache.clear()
        self._save(changed)
        self._input_at = time.perf_counter()
        if self.active:
            self._debounce.start()
        return changed

    def _save(self, changed: frozenset[str]) -> None:
        s, b = self.ctx.settings, self.state.budgets
        if "budgets" in changed:
            s.set(K_RECENT_BUDGET, b.recent_budget)
            s.set(K_RECALL_BUDGET, b.recall_budget)
            s.set(K_RECENT_LIMIT, b.recent_limit)
            s.set(K_RECALL_LIMIT, b.recall_limit)
        if "host_os" in changed:
            s.set(K_HOST_OS, self.state.host_os or "")

    def reset_defaults(self) -> None:
        self.edit(budgets=Budgets())

    def pick(self, m: Message) -> None:
        """Show what the agent saw when ``m`` arrived: only what existed before it. A scheduled task's
        message restricts the timeline to its session (as the agent does); a message with a
        conversation makes it the home conversation."""
        st = self.state
        scheduled = m.session_id.startswith("system:scheduled:") and tuple(st.session_ids) != (m.session_id,)
        home = bool(m.origin_session_id) and (st.home or "") != m.origin_session_id
        self.edit(
            as_of=TimePoint(m, set_sessions=scheduled, set_home=home),
            message=m.content,
            session_ids=(m.session_id,) if scheduled else st.session_ids,
            home=m.origin_session_id if home else st.home,
        )
        self.compute_now()

    def pick_id(self, message_id: int) -> Job:
        """:meth:`pick` the message ``message_id``, read off the GUI thread (nothing when it is gone)."""
        return self.submit(
            ReadOp(job_message, (message_id,), key="pick"),
            on_result=lambda m: None if m is None else self.pick(m),
            on_error=_ignore,
        )

    def back_to_now(self) -> None:
        self.edit(as_of=None)
        self.compute_now()

    # -- lists for the pickers --------------------------------------------------------------------------
    def load_lists(self) -> None:
        """The sessions (restriction) and the conversations (home conversation), off the GUI thread."""
        self._last_lists_reload = QDateTime.currentMSecsSinceEpoch()
        self.submit(
            ReadOp(job_sessions, key="sessions"),
            on_result=lambda sessions: self.state.update(sessions=tuple(sessions)),
            on_error=_ignore,
        )
        if self.conversations.loaded_once:
            self.conversations.refresh()  # the shared index reads only what was appended since
        else:
            self.conversations.load_first_page()

    # -- computing ------------------------------------------------------------------------------------
    def compute_now(self) -> Job:
        """Compute the preview for the current inputs now (cancels one still running); returns the job."""
        self._debounce.stop()
        inputs = self.state.inputs()
        pkey = inputs.prefix_key(QDateTime.currentMSecsSinceEpoch() // 60_000)
        cached = self._prefix_cache.get(pkey)
        prefix = cached[1] if cached is not None and cached[0] == self._generation else None
        self._seq += 1
        seq, gen, submitted, input_at = self._seq, self._generation, time.perf_counter(), self._input_at
        self.computations_started += 1
        self._provisional_timer.stop()
        self._pending_provisional = None
        self._first_paint_done = False
        self.state.update(phase="computing", explaining=False)
        job = self.submit(
            ReadOp(
                self.job_fn, (inputs, prefix), key="preview", label=self.tr("Computing the context preview")
            ),
            on_result=lambda r: self._on_result(seq, gen, pkey, submitted, input_at, r),
            on_error=lambda e: self._on_error(seq, e),
        )
        if inputs.recall_budget > 0 and len(inputs.message.strip()) >= 2:
            fast = replace(inputs, recall_budget=0)  # no recall search: the rest of the preview at once
            self.submit(
                ReadOp(self.job_fn, (fast, prefix), key="preview-fast"),
                on_result=lambda r: self._on_fast(seq, submitted, input_at, r),
                on_error=_ignore,
            )
        return job

    def _on_fast(self, seq: int, submitted: float, input_at: float | None, r: ContextResult) -> None:
        if seq != self._seq or self._first_paint_done:
            return
        self._pending_provisional = (seq, input_at, r)
        wait = PROVISIONAL_AFTER_MS - (time.perf_counter() - submitted) * 1000
        self._provisional_timer.start(max(0, int(wait)))

    def _show_provisional(self) -> None:
        pending, self._pending_provisional = self._pending_provisional, None
        if pending is None or pending[0] != self._seq or self._first_paint_done:
            return
        _seq, input_at, r = pending
        self._first_paint_done = True
        self.state.update(provisional=r, phase="searching")
        if input_at is not None:
            self.last_input_to_first_paint_ms = (time.perf_counter() - input_at) * 1000

    def _on_result(
        self, seq: int, gen: int, pkey: tuple[Any, ...], submitted: float, input_at: float | None, r: Any
    ) -> None:
        if seq != self._seq:
            return  # a newer computation was started after this one
        if gen == self._generation:
            self._prefix_cache = {pkey: (gen, r.prefix)}
        self._provisional_timer.stop()
        self._pending_provisional = None
        first = not self._first_paint_done
        self._first_paint_done = True
        t = time.perf_counter()
        explain = r.recall is not None and not r.recall.detailed
        self.state.update(result=r, provisional=None, error=None, phase="shown", explaining=explain)
        shown = time.perf_counter()
        self.last_render_ms = (shown - t) * 1000
        self.last_compute_ms = (shown - submitted) * 1000
        self.last_input_to_shown_ms = (shown - input_at) * 1000 if input_at is not None else None
        if first:
            self.last_input_to_first_paint_ms = self.last_input_to_shown_ms
        self.results_shown += 1
        self.update_diff()
        self.resultShown.emit(r)
        if explain:
            self._explain(seq, r)

    def _explain(self, seq: int, r: ContextResult) -> None:
        def done(full: ContextResult) -> None:
            if seq == self._seq and self.state.result is r:
                self.state.update(result=full, explaining=False)

        def failed(_exc: BaseException) -> None:
            if seq == self._seq:
                self.state.update(explaining=False)

        self.submit(ReadOp(job_explain, (r,), key="explain"), on_result=done, on_error=failed)

    def _on_error(self, seq: int, exc: BaseException) -> None:
        if seq != self._seq or isinstance(exc, ContextCancelledError | SearchCancelledError):
            return
        self._provisional_timer.stop()
        self._pending_provisional = None
        if isinstance(exc, NotFoundError) and self.state.as_of is not None:
            self.state.update(provisional=None, phase="gone", error=f"{type(exc).__name__}: {exc}")
            self.back_to_now()
            return
        self.state.update(provisional=None, phase="failed", error=f"{type(exc).__name__}: {exc}")
        self.ctx.show_error(self.tr("The context could not be computed"), exc)

    # -- sections -------------------------------------------------------------------------------------
    def expand_all(self, on: bool = True) -> None:
        r = self.state.result
        names = {s.name for s in r.prefix.sections} if (on and r is not None) else set()
        self.state.update(expanded=frozenset(names))

    def toggle_section(self, name: str) -> None:
        self.state.update(expanded=self.state.expanded ^ {name})

    # -- export ---------------------------------------------------------------------------------------
    def export_to(self, path: str | Path) -> Job | None:
        """Write the preview's JSON (the command line's shape) to ``path``, mode 0600, off the GUI thread."""
        r = self.state.result
        if r is None:
            return None

        def done(p: Path) -> None:
            self.last_export = Path(p)
            self.exported.emit(Path(p))

        return self.submit(
            ReadOp(job_export, (r, str(path)), label=self.tr("Exporting the context")),
            on_result=done,
            on_error=lambda e: self.ctx.show_error(self.tr("The JSON could not be written"), e),
        )

    # -- compare --------------------------------------------------------------------------------------
    def pin(self) -> None:
        """Pin the current preview; every new preview is then compared with it."""
        if self.state.result is not None:
            self.state.update(pinned=Pinned(self.state.result, QDateTime.currentMSecsSinceEpoch()))
            self.update_diff()

    def unpin(self) -> None:
        self.state.update(pinned=None, diff=None)

    def set_diff_context(self, lines: int) -> None:
        self.diff_context = int(lines)
        self.update_diff()

    def update_diff(self) -> None:
        pinned, r = self.state.pinned, self.state.result
        if pinned is None or r is None:
            return
        self.submit(
            ReadOp(task_diff, (pinned.result, r, self.diff_context), key="diff", lane="task"),
            on_result=lambda d: self.state.update(diff=d) if self.state.pinned is pinned else None,
        )


def _ignore(_exc: BaseException) -> None:
    """A list for a picker that could not be read stays as it was (the preview says what failed)."""


__all__ = ["DEBOUNCE_MS", "PROVISIONAL_AFTER_MS", "ContextController", "ContextInputs"]
