"""``ReadOp``: one read off the GUI thread, declared once (Qt-free).

A read op says what to run and how the run is shown; it travels unchanged from whoever declares it (a
tab's controller, a paged model) through ``TabController.submit`` and ``AppContext.submit`` to
``Workers.submit``, which runs ``op.fn(db, *op.args)`` on a read-only connection::

    ops.ReadOp(job_notes, (query, 200), key="notes.page", label="Loading notes")

The callbacks (``on_result``, ``on_error``, ``on_progress``) are given to ``submit`` beside the op: the
op describes the work, the caller decides what to do with its answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

LANES = ("read", "monitor", "write", "task", "background")


@dataclass(frozen=True)
class ReadOp:
    """``fn(db, *args)`` on a read-only connection (``fn(*args)`` on the ``task`` and ``background`` lanes).

    * ``key``: a newer op with the same key cancels this one while it is unfinished (its result is
      dropped, a queued op never runs, a running read is interrupted).
    * ``label``: what the status bar's job indicator and error titles call it.
    * ``progress``: show it in the job indicator; ``fn`` may take ``job=`` and call ``job.progress()``.
    * ``lane``: ``read`` (default), ``monitor`` (cheap periodic probes), ``task`` (no database) or
      ``background`` (no database, long work nobody waits for, scheduled after the other threads).
    """

    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()
    key: str | None = None
    label: str = ""
    progress: bool = False
    lane: str = "read"

    def __post_init__(self) -> None:
        if not callable(self.fn):
            raise TypeError(f"ReadOp.fn must be callable, not {self.fn!r}")
        if self.lane not in LANES or self.lane == "write":
            raise ValueError(
                f"a read op runs on the read, monitor, task or background lane, not {self.lane!r}"
            )
        if not isinstance(self.args, tuple):
            raise TypeError("ReadOp.args must be a tuple")

    def keyed(self, prefix: str) -> ReadOp:
        """The same op with its key put under ``prefix`` (a tab's name), so tabs never cancel each other."""
        return self if self.key is None else replace(self, key=f"{prefix}:{self.key}")


def read_op(fn: Callable[..., Any], *args: Any, **fields: Any) -> ReadOp:
    """``ReadOp(fn, args, **fields)`` with the arguments written as a call."""
    return ReadOp(fn, args, **fields)
