"""The status bar: path, schema, editing mode, live state, row counts, integrity, and long jobs.

:class:`StatusArea` fills the window's ``QStatusBar`` and updates it from the open
:class:`~philont_desktop.context.AppContext` (:meth:`StatusArea.update_for`); ``add_badge`` puts one
more permanent label in (a "Demo" badge, say). Row counts are estimated off the GUI thread, never by
counting the big tables, at most every :data:`COUNTS_MIN_INTERVAL_MS` while the database changes.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core import MAX_KNOWN_SCHEMA_VERSION, MIN_KNOWN_SCHEMA_VERSION
from philont_desktop.qt import (
    QHBoxLayout,
    QLabel,
    QObject,
    QProgressBar,
    QSizePolicy,
    QStatusBar,
    Qt,
    QTimer,
    QToolButton,
    QWidget,
)
from philont_desktop.theme import Theme
from philont_desktop.widgets import plain
from philont_desktop.widgets.elided import ElidedLabel
from philont_desktop.workers import Job, Workers

if TYPE_CHECKING:
    from core.db import MemoryDB

COUNTS_MIN_INTERVAL_MS = 5000


def estimate_counts(db: MemoryDB) -> dict[str, int | None]:
    """Cheap row counts for the status bar (max(rowid)-based on the big tables; never a scan of them).

    A layer whose table is missing or unreadable is left out.
    """
    from core.actions import ActionStore
    from core.facts import FactStore
    from core.notes import NotesStore
    from core.skills import SkillStore
    from core.timeline import RawStore

    probes = {
        "messages": lambda: RawStore(db).count_estimate(),
        "actions": lambda: ActionStore(db).latest_id() or 0,
        "notes": lambda: NotesStore(db).count(),
        "facts": lambda: FactStore(db).count(),
        "skills": lambda: SkillStore(db).count(),
    }
    out: dict[str, int | None] = {}
    for key, probe in probes.items():
        try:
            out[key] = int(probe())
        except Exception:  # a damaged or partial database: show what can be counted
            out[key] = None
    return out


class JobIndicator(QWidget):
    """Status-bar progress of long jobs (``progress=True``) with a cancel button."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(140)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        self.cancel = QToolButton()
        self.cancel.setText("✕")
        self.cancel.setToolTip(self.tr("Cancel"))
        self.cancel.clicked.connect(self._cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel)
        self._jobs: list[Job] = []
        self.setVisible(False)

    def attach(self, workers: Workers) -> None:
        """Follow the progress jobs of ``workers`` (connected once; jobs are passed, never captured)."""
        workers.jobStarted.connect(self.track)
        workers.jobProgress.connect(self.on_progress)
        workers.jobDone.connect(self.on_done)

    def track(self, job: Job) -> None:
        if job.is_done or job in self._jobs:
            return
        self._jobs.append(job)
        self._show()

    def on_progress(self, job: Job, done: int, total: int) -> None:
        if self._jobs and self._jobs[-1] is job and total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))

    def on_done(self, job: Job) -> None:
        if job in self._jobs:
            self._jobs.remove(job)
            self._show()

    def _show(self) -> None:
        if not self._jobs:
            self.setVisible(False)
            return
        job = self._jobs[-1]
        self.label.setText(job.label or self.tr("Working…"))
        self.bar.setRange(0, 0)
        if job.last_progress and job.last_progress[1] > 0:
            self.bar.setRange(0, job.last_progress[1])
            self.bar.setValue(job.last_progress[0])
        self.cancel.setVisible(job.lane in ("read", "task"))
        self.setVisible(True)

    def _cancel(self) -> None:
        if self._jobs:
            self._jobs[-1].cancel()


class StatusArea(QObject):
    """The labels of the status bar and how they follow the open database."""

    def __init__(self, bar: QStatusBar, theme: Theme, parent: QObject | None = None):
        super().__init__(parent)
        self.bar = bar
        self.theme = theme
        self.ctx: Any = None
        self.counts: dict[str, int | None] = {}
        self._counts_pending = False
        self._counts_timer = QTimer(self)
        self._counts_timer.setSingleShot(True)
        self._counts_timer.timeout.connect(self.load_counts)
        # Large text in a narrow window: the path loses its middle, the counts their last parts (both
        # whole in their tooltips and for a screen reader).
        self.path_label = ElidedLabel(mode=Qt.TextElideMode.ElideMiddle, min_chars=8)
        self.path_label.setObjectName("statusPath")
        self.path_label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.schema_label = QLabel()
        self.mode_label = QLabel()
        self.live_label = QLabel()
        self.counts_label = ElidedLabel(mode=Qt.TextElideMode.ElideRight, words=True, min_chars=8)
        self.counts_label.setObjectName("statusCounts")
        self.integrity_label = QLabel()
        self.jobs = JobIndicator()
        self._labels = [
            self.schema_label,
            self.mode_label,
            self.live_label,
            self.counts_label,
            self.integrity_label,
        ]
        for w in self._labels:
            w.setContentsMargins(10, 0, 2, 0)
        self._badges: list[tuple[QLabel, Callable[[Any], bool]]] = []
        bar.addWidget(self.path_label, 1)
        for w in (
            self.jobs,
            self.counts_label,
            self.schema_label,
            self.integrity_label,
            self.mode_label,
            self.live_label,
        ):
            bar.addPermanentWidget(w)
        theme.changed.connect(self.update)

    def add_badge(self, label: QLabel, shown: Callable[[Any], bool] | None = None) -> QLabel:
        """A permanent label at the left of the others, shown while a database is open (and
        ``shown(ctx)`` says so, when given)."""
        label.setContentsMargins(10, 0, 2, 0)
        self.bar.insertPermanentWidget(1, label)  # after the path (the only normal widget)
        if shown is None:
            self._labels.append(label)
        else:
            self._badges.append((label, shown))
        self.update()
        return label

    # -- following a database ---------------------------------------------------------------------------
    def attach(self, ctx: Any) -> None:
        """Follow ``ctx`` (``None``: no database): its live state, its jobs, its counts."""
        self.ctx = ctx
        self.counts = {}
        self._counts_timer.stop()
        if ctx is not None:
            ctx.live.stateChanged.connect(lambda *_: self.update())
            self.jobs.attach(ctx.workers)
        self.update()

    @property
    def counts_loaded(self) -> bool:
        return bool(self.counts) and not self._counts_pending

    def update(self) -> None:
        ctx = self.ctx
        for w in self._labels:
            w.setVisible(ctx is not None)
        for w, shown in self._badges:
            w.setVisible(ctx is not None and bool(shown(ctx)))
        if ctx is None:
            self.path_label.setText("")
            return
        plain.set_plain(self.path_label, str(ctx.db_path), one_line=True)
        self.path_label.setToolTip(plain.tooltip(str(ctx.db_path)))
        self.path_label.setAccessibleDescription(self.path_label.text())
        self._update_schema(ctx.report)
        self._update_mode(ctx)
        self._update_live(ctx.live)
        self._update_integrity(ctx.report.quick_check)
        self._update_counts_label()

    def _update_schema(self, r: Any) -> None:
        v = r.schema_version
        schema = self.tr("schema {0}").format(v if v is not None else "?")
        if r.schema_status == "newer":
            schema += " " + self.tr("(newer)")
        self.schema_label.setText(schema)
        self.schema_label.setToolTip(
            self.tr("Schema version of the file; this version understands {0}. Journal: {1}.").format(
                f"{MIN_KNOWN_SCHEMA_VERSION}–{MAX_KNOWN_SCHEMA_VERSION}", r.journal_mode or "?"
            )
        )

    def _update_mode(self, ctx: Any) -> None:
        if ctx.editing:
            c = self.theme.status_color("editing").name()
            self.mode_label.setText(f"<b style='color:{c}'>{html.escape(self.tr('EDITING'))}</b>")
            self.mode_label.setToolTip(self.tr("Changes are written to the database and audited."))
        else:
            self.mode_label.setText(self.tr("read-only"))
            self.mode_label.setToolTip(
                plain.tooltip(ctx.read_only_reason or self.tr("Turn on editing mode to make changes."))
            )

    def _update_live(self, live: Any) -> None:
        state, detail = live.state, live.detail
        text = {
            "live": self.tr("live"),
            "changed": self.tr("changed"),
            "starting": self.tr("live"),
            "paused": self.tr("paused"),
            "replaced": self.tr("not live: file replaced"),
            "static": self.tr("not live"),
            "error": self.tr("live: error"),
        }.get(state, state)
        color = self.theme.status_color(
            {"starting": "live", "static": "paused", "replaced": "error"}.get(state, state)
        ).name()
        self.live_label.setText(f"<span style='color:{color}'>●</span> {plain.html(text)}")
        self.live_label.setToolTip(plain.tooltip(detail))

    def _update_integrity(self, q: str | None) -> None:
        if q is None:
            self.integrity_label.setText(self.tr("checking…"))
            self.integrity_label.setToolTip(
                self.tr("The quick integrity check is running in the background.")
            )
        elif q == "ok":
            self.integrity_label.setText(self.tr("integrity ok"))
            self.integrity_label.setToolTip(self.tr("Quick integrity check (PRAGMA quick_check): ok"))
        else:
            c = self.theme.status_color("error").name()
            self.integrity_label.setText(f"<b style='color:{c}'>{html.escape(self.tr('damaged'))}</b>")
            self.integrity_label.setToolTip(plain.tooltip(q))

    # -- row counts -------------------------------------------------------------------------------------
    def _update_counts_label(self) -> None:
        names = {
            "messages": self.tr("messages"),
            "actions": self.tr("actions"),
            "notes": self.tr("notes"),
            "facts": self.tr("facts"),
            "skills": self.tr("skills"),
        }
        parts = [
            f"{names[k]} {'~' if k in ('messages', 'actions') else ''}{v:,}"
            for k, v in self.counts.items()
            if v is not None and k in names
        ]
        text = " · ".join(parts)
        self.counts_label.setText(text)
        self.counts_label.setAccessibleDescription(text)
        self.counts_label.setToolTip(
            text
            + "\n"
            + self.tr("Row counts (~: estimated from the highest row id, without counting the table).")
        )

    def load_counts(self) -> None:
        """Estimate the row counts now (off the GUI thread, on the monitor lane)."""
        ctx = self.ctx
        if ctx is None or self._counts_pending:
            return
        self._counts_pending = True

        def _got(counts: dict[str, int | None]) -> None:
            self._counts_pending = False
            if ctx is self.ctx:
                self.counts = counts
                self._update_counts_label()

        def _failed(_exc: BaseException) -> None:
            self._counts_pending = False

        ctx.run(estimate_counts, on_result=_got, on_error=_failed, lane="monitor", label="counts")

    def schedule_counts(self) -> None:
        """The database changed: estimate again, at most every :data:`COUNTS_MIN_INTERVAL_MS`."""
        if not self._counts_timer.isActive():
            self._counts_timer.start(COUNTS_MIN_INTERVAL_MS)
