"""The turns file of a saved replay (:mod:`core.replay.store`) written as the replay makes its turns: one
JSON a line (:meth:`core.replay.TurnReport.to_json`), never all turns held at once."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from core.paths import chmod_private
from core.replay.run import Replay, TurnReport

__all__ = ["Changed", "TurnWriter", "file_lock", "replayed", "tee", "turn_key"]

_LOCK = threading.Lock()


def turn_key(t: Any) -> tuple[int, int]:
    """A turn's place in time: ``(timestamp, id)``."""
    return (t.message.timestamp, t.message.id)


class Changed(Exception):
    """The first new turn of an extension comes before the last saved turn."""


class TurnWriter:
    """The turns of a replay written one JSON a line as they come (a sink of :func:`core.replay.replay`)
    at byte ``at`` of ``path`` (cut there first, once a turn comes); what the header needs of them is
    counted. ``after``: the saved last turn ``(id, time)`` the first turn must not come before
    (:class:`Changed`)."""

    def __init__(self, path: Path, at: int, after: tuple[int, int] | None = None):
        self.path, self.at, self.after = path, at, after
        self.fh: Any = None
        self.count = 0
        self.last: tuple[int, int] | None = None
        self.last_id: int | None = None

    def __call__(self, t: TurnReport) -> None:
        if self.fh is None:
            if self.after is not None and turn_key(t) < (self.after[1], self.after[0]):
                raise Changed()
            self._open()
        line = json.dumps(t.to_json(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self.fh.write(line + b"\n")
        self.count += 1
        self.last = (t.message.id, t.message.timestamp)
        self.last_id = t.message.id if self.last_id is None else max(self.last_id, t.message.id)

    def _open(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        self.fh = os.fdopen(fd, "r+b")
        self.fh.truncate(self.at)
        self.fh.seek(self.at)

    def finish(self) -> int:
        """Flush the lines to disk; the file's new size."""
        if self.fh is None:
            self._open()
        self.fh.flush()
        os.fsync(self.fh.fileno())
        size = int(self.fh.tell())
        self.close()
        chmod_private(self.path)
        return size

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()
            self.fh = None

    def discard(self) -> None:
        """Close and remove the file (a temporary file of a run that did not finish)."""
        self.close()
        with contextlib.suppress(OSError):
            self.path.unlink()


def tee(*sinks: Callable[[TurnReport], None] | None) -> Callable[[TurnReport], None]:
    given = [s for s in sinks if s is not None]

    def sink(t: TurnReport) -> None:
        for s in given:
            s(t)

    return sink


def replayed(result: Replay, sink: Callable[[TurnReport], None]) -> Replay:
    """A replay already made, its turns handed to ``sink``."""
    for t in result.turns:
        sink(t)
    return result


_LOCKS: dict[str, threading.Lock] = {}


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """One writer at a time of a database's saved result in this process (another may be written
    meanwhile)."""
    with _LOCK:
        lock = _LOCKS.setdefault(str(path), threading.Lock())
    with lock:
        yield
