"""The Review tab's controller: computes the change set, keeps the review mark, runs the item actions.

* A time baseline (the review mark, or a chosen time) is a read op on the read lane (well under a
  second on a million messages); a backup comparison runs on the task lane with progress and cancel.
  While the agent writes, a time baseline is computed again and the changes that arrive are marked new;
  a backup comparison is extended with the dated changes since it ran (comparing again is one click).
* Review marks live outside the database (:class:`core.changes.marks.ReviewMarks`), written on the task
  lane: reviewing needs no write access to the agent's file.
* Every item action is a :mod:`core.curation` change run by ``ctx.curate``: one audited transaction,
  undoable from any tab.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from core.changes import ChangeItem, ChangeSet, changes_against, changes_since
from core.changes.marks import ReviewMark, ReviewMarks
from core.curation import Change, Changes
from core.curation import facts as fact_curation
from core.curation import notes as note_curation
from core.curation import skills as skill_curation
from core.errors import MemoryError_, ValidationError_
from core.jsutil import now_ms
from core.skills import SkillStore
from core.timeline import RawStore
from philont_desktop.qt import QObject, QTimer
from philont_desktop.review.state import BACKUP, MARK, Baseline, ReviewState
from philont_desktop.tabs.controller import TabController
from philont_desktop.widgets.error_dialog import readable_message
from philont_desktop.workers import Job

__all__ = ["DEMOTE", "ReviewController", "compare_backup", "load_messages"]

#: One grade down, for "Demote".
DEMOTE = {"stable": "confirmed", "confirmed": "draft"}
AROUND = 6
LIVE_PAUSE_MS = 1000


def compare_backup(backup: str, db_path: str, job: Any = None) -> ChangeSet:
    """The task-lane job of a backup comparison (progress and cancel through ``job``)."""
    return changes_against(
        backup,
        db_path=db_path,
        progress=job.progress if job is not None else None,
        cancel=(lambda: job.cancelled) if job is not None else None,
    )


def load_messages(db: Any, item: ChangeItem) -> list[Any]:
    """The messages around a change: a conversation's first messages of the window, else those near
    its time."""
    raw = RawStore(db)
    first = item.after.get("firstId") if isinstance(item.after, dict) else None
    if item.code == "change.timeline.conversation" and isinstance(first, int):
        return raw.messages_around(first, AROUND)
    if item.at is None:
        return []
    return raw.messages_near(item.at, AROUND)


def _load_skill(db: Any, name: str) -> Any:
    return SkillStore(db).get_by_name(name)


def _merge_tail(cs: ChangeSet, tail: ChangeSet) -> ChangeSet:
    have = {it.id for it in cs.items}
    merged = ChangeSet(
        cs.baseline, tail.until, cs.layers, cs.items + [it for it in tail.items if it.id not in have]
    )
    merged.notices, merged.stats = cs.notices, cs.stats
    merged.sort()
    return merged


class ReviewController(TabController):
    layers = ("facts", "skills", "notes", "calendar")

    def __init__(
        self,
        ctx: Any,
        state: ReviewState,
        name: str,
        parent: QObject | None = None,
        marks: ReviewMarks | None = None,
    ):
        super().__init__(ctx, state, name, parent)
        self.state: ReviewState = state
        self.marks = marks if marks is not None else ReviewMarks()
        self.compare_job: Job | None = None
        self.job: Job | None = None  # the computation under way (at most one; live refreshes wait for it)
        self._again = False

    # -- computing ------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.load_mark()
        self.compute()

    def refresh(self) -> None:
        """The database changed: compute again, once the computation under way (if any) is done, so
        that an agent writing every second never keeps the list from arriving."""
        if self.job is not None and not self.job.is_done:
            self._again = True
            return
        self.compute(live=True)

    def changes_applied(self, changes: Changes) -> None:
        self.refresh()

    def _track_job(self, job: Job) -> Job:
        self.job = job
        job.done.connect(lambda j=job: self._job_done(j))
        return job

    def _job_done(self, job: Job) -> None:
        if job is self.job and self._again:
            self._again = False
            QTimer.singleShot(LIVE_PAUSE_MS, self.refresh)

    def load_mark(self) -> None:
        mark = self.marks.get(self.ctx.db_path)
        self.state.update(mark=mark.at, reviewed=frozenset(mark.reviewed))

    def set_baseline(self, baseline: Baseline) -> None:
        self.state.update(baseline=baseline, error="", new_ids=frozenset())
        self.compute()

    def compute(self, *, live: bool = False) -> None:
        b, cs = self.state.baseline, self.state.changes
        if b.kind == BACKUP:
            if not b.backup:
                return
            if live and cs is not None and cs.baseline.kind == "backup" and cs.baseline.path == b.backup:
                self._tail(cs)
            elif not live:
                self._compare(b.backup)
            return
        since = b.since_for(self.state.mark, now_ms())
        self.state.update(loading=True)
        self._run(
            changes_since,
            since,
            key="changes",
            label=self.tr("Finding changes"),
            on_result=lambda got: self._got(got, live),
            on_error=self._failed,
        )

    def _compare(self, backup: str) -> None:
        self.cancel()
        self.state.update(loading=True, progress=(0, 1))
        self.compare_job = self._run(
            compare_backup,
            backup,
            str(self.ctx.db_path),
            lane="task",
            key="compare",
            progress=True,
            label=self.tr("Comparing with a backup"),
            on_result=lambda got: self._got(got, False),
            on_error=self._failed,
            on_progress=lambda done, total: self.state.update(progress=(done, total)),
        )
        self.compare_job.done.connect(lambda: self.state.update(progress=None, loading=False))

    def _tail(self, cs: ChangeSet) -> None:
        def merge(tail: ChangeSet) -> None:
            if self.state.changes is cs:
                self._got(_merge_tail(cs, tail), True)

        self._run(changes_since, cs.until, key="tail", on_result=merge, on_error=self._failed)

    def _run(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Job:
        return self._track_job(self.run(fn, *args, **kw))

    def cancel(self) -> None:
        """Stop a backup comparison under way."""
        job, self.compare_job = self.compare_job, None
        if job is not None and not job.is_done:
            job.cancel()
        self.state.update(progress=None, loading=False)

    def _got(self, cs: ChangeSet, live: bool) -> None:
        old = self.state.changes
        ids = {it.id for it in cs.items}
        new = frozenset()
        if live and old is not None:
            new = (self.state.new_ids | (ids - {it.id for it in old.items})) & ids
        self.state.update(changes=cs, new_ids=new, loading=False, error="", loaded=len(cs.items))

    def _failed(self, exc: BaseException) -> None:
        self.state.update(loading=False, progress=None, error=readable_message(exc))

    # -- the review mark -------------------------------------------------------------------------------
    def mark_reviewed(self, ids: Iterable[str], reviewed: bool = True) -> None:
        """ "Looks right": these changes stay listed, marked reviewed, until the next mark."""
        wanted = [str(i) for i in ids]
        if not wanted:
            return
        now = set(self.state.reviewed)
        now = now | set(wanted) if reviewed else now - set(wanted)
        self.state.update(reviewed=frozenset(now))  # at once; the file follows on the task lane
        fn = self.marks.mark_items if reviewed else self.marks.unmark_items
        self.run(
            fn, self.ctx.db_path, wanted, lane="task", on_result=self._mark_saved, on_error=self._mark_failed
        )

    def mark_all_reviewed(self) -> None:
        """Everything up to the change set's end is reviewed; the next review starts there. The mark
        before is kept in the state so that :meth:`undo_mark_all` can put it back."""
        cs = self.state.changes
        if cs is None:
            return
        count = len(cs.items)
        self.run(
            self.marks.mark_all_keeping,
            self.ctx.db_path,
            cs.until,
            lane="task",
            on_result=lambda got: self._marked_all(got, count),
            on_error=self._mark_failed,
        )

    def _marked_all(self, got: tuple[ReviewMark, ReviewMark], count: int) -> None:
        previous, mark = got
        self.state.update(
            mark=mark.at,
            reviewed=frozenset(mark.reviewed),
            baseline=Baseline(MARK),
            undo_mark=previous,
            undo_count=count,
        )
        self.ctx.statusMessage.emit(
            self.tr("Marked %n change(s) reviewed (Undo in the review bar brings them back)", None, count)
        )
        self.compute()

    def undo_mark_all(self) -> None:
        """Put back the review mark as it was before the last "Mark all reviewed"."""
        previous = self.state.undo_mark
        if previous is None:
            return
        count = self.state.undo_count
        self.state.update(undo_mark=None, undo_count=0)
        self.run(
            self.marks.restore,
            self.ctx.db_path,
            previous,
            lane="task",
            on_result=lambda mark: self._mark_restored(mark, count),
            on_error=self._mark_failed,
        )

    def _mark_restored(self, mark: ReviewMark, count: int) -> None:
        self.state.update(mark=mark.at, reviewed=frozenset(mark.reviewed), baseline=Baseline(MARK))
        self.ctx.statusMessage.emit(self.tr("Undone: marked %n change(s) reviewed", None, count))
        self.compute()

    def _mark_saved(self, mark: ReviewMark) -> None:
        self.state.update(reviewed=frozenset(mark.reviewed))

    def _mark_failed(self, exc: BaseException) -> None:
        self.ctx.show_error(self.tr("The review mark could not be saved"), exc)
        self.load_mark()

    # -- item actions (editing mode) -------------------------------------------------------------------
    def set_editing(self, on: bool) -> None:
        self.state.update(editing=bool(on))

    def _curate(self, build: Callable[[], Change], text: str) -> None:
        try:
            change = build()
        except (ValidationError_, MemoryError_, KeyError, TypeError, ValueError) as exc:
            self.ctx.show_error(self.tr("This change cannot be made"), exc)
            return
        self.curate(
            change, text, on_error=lambda exc: self.ctx.show_error(self.tr("Nothing was changed"), exc)
        )

    def revert_fact(self, item: ChangeItem) -> None:
        """A new version of the fact with its value and confidence before the change."""
        before, after = item.before or {}, item.after or {}
        if before.get("jsonErrors"):
            self.ctx.show_error(
                self.tr("This change cannot be made"), self.tr("The old value is not valid JSON.")
            )
            return
        value = json.loads(before["valueJson"])
        self._curate(
            lambda: fact_curation.edit(after["id"], value=value, confidence=before.get("confidence")),
            self.tr("Revert fact"),
        )

    def correct_fact(self, item: ChangeItem, value: Any) -> None:
        self._curate(lambda: fact_curation.edit(item.target.id, value=value), self.tr("Correct fact"))

    def pin_fact(self, item: ChangeItem, pin: bool = True) -> None:
        fid = item.target.id
        build = (lambda: fact_curation.pin(fid)) if pin else (lambda: fact_curation.unpin(fid))
        self._curate(build, self.tr("Pin fact") if pin else self.tr("Unpin fact"))

    def forget_fact(self, item: ChangeItem, forget: bool = True) -> None:
        fid = item.target.id
        build = (lambda: fact_curation.forget(fid)) if forget else (lambda: fact_curation.unforget(fid))
        self._curate(build, self.tr("Forget fact") if forget else self.tr("Unforget fact"))

    def forget_note(self, item: ChangeItem, forget: bool = True) -> None:
        nid = item.target.id
        build = (lambda: note_curation.forget(nid)) if forget else (lambda: note_curation.unforget(nid))
        self._curate(build, self.tr("Forget note") if forget else self.tr("Unforget note"))

    def set_grade(self, item: ChangeItem, grade: str, reason: str) -> None:
        """Demote or deprecate a skill (a grade set by hand, with its reason in the audit trail)."""

        def got(skill: Any) -> None:
            if skill is None:
                self.ctx.show_error(self.tr("This change cannot be made"), self.tr("The skill is gone."))
                return
            self._curate(
                lambda: skill_curation.set_maturity(skill, grade, reason=reason), self.tr("Set skill grade")
            )

        self.run(_load_skill, item.target.id, on_result=got, on_error=self._failed)

    def revert_revision(self, item: ChangeItem, reason: str) -> None:
        """Restore the recipe as it was before this revision (a new revision; the history keeps all)."""
        index = int(item.params.get("revision", 0)) - 2

        def got(skill: Any) -> None:
            if skill is None:
                self.ctx.show_error(self.tr("This change cannot be made"), self.tr("The skill is gone."))
                return
            self._curate(
                lambda: skill_curation.revert(skill, index, reason), self.tr("Revert recipe revision")
            )

        self.run(_load_skill, item.target.id, on_result=got, on_error=self._failed)
