"""Review marks: where a person's last review of each database ended, kept outside the database file.

Reviewing never needs write access to the agent's file: the marks live in one small JSON file in the
user's data directory (the same directory the desktop app uses for its own data), keyed by the
database's real path::

    {"version": 1, "databases": {"/home/u/.philont/memory/memory.sqlite":
        {"mark": 1781524800000, "markedAt": 1781525000000, "reviewed": {"fact.new:…": 1781525100000}}}}

``mark`` is the time the last "Mark all reviewed" covered (the next review starts there); ``reviewed``
holds the ids of single changes marked as looking right since then (:attr:`core.changes.ChangeItem.id`),
cleared by the next mark. ``$PHILONT_REVIEW_MARKS`` names another file (tests, portable setups).

The file is written atomically (a private temporary file renamed into place, mode 0600). It is read only
when it is a regular file of a sane size (:mod:`core.sidefiles`: a FIFO or a link to ``/dev/zero`` is
never opened for reading); one that cannot be read (not a regular file, too large, not JSON, nested too
deep, not the marks' shape) is set aside as ``review-marks.json.bad-YYYYMMDDTHHmmss`` and reported, never
silently overwritten. A value that is no time (``10**20``) reads as absent.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core import sidefiles
from core.damage import JS_TIME_MAX
from core.jsutil import now_ms

__all__ = [
    "ENV_VAR",
    "ReviewMark",
    "ReviewMarks",
    "database_key",
    "default_marks_path",
    "user_data_dir",
]

ENV_VAR = "PHILONT_REVIEW_MARKS"
FILE_NAME = "review-marks.json"
ORG, APP = "Philont", "philont-desktop"
MAX_REVIEWED = 20_000
_LOCK = threading.Lock()


def default_marks_path() -> Path:
    """``$PHILONT_REVIEW_MARKS``, else ``review-marks.json`` in the platform's per-user data directory
    for Philont/philont-desktop (where Qt's ``AppDataLocation`` points: ``$XDG_DATA_HOME`` or
    ``~/.local/share`` on Linux, ``~/Library/Application Support`` on macOS, ``%APPDATA%`` on Windows)."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return user_data_dir() / FILE_NAME


def user_data_dir() -> Path:
    """The platform's per-user data directory for Philont/philont-desktop (Qt's ``AppDataLocation``):
    where the files this project keeps outside the database live (review marks, saved replays)."""
    home = Path(os.environ.get("HOME") or Path.home())
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / ORG / APP


def database_key(db_path: str | os.PathLike[str]) -> str:
    """The database's real path (symbolic links resolved; case-folded where the file system ignores case)."""
    return os.path.normcase(os.path.realpath(os.path.expanduser(os.fspath(db_path))))


def database_digest(db_path: str | os.PathLike[str]) -> str:
    """32 hexadecimal digits of the SHA-256 of :func:`database_key`: the name of a file kept per database."""
    return hashlib.sha256(database_key(db_path).encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass
class ReviewMark:
    """The review state of one database: ``at`` (``None``: never reviewed), when it was set, and the
    changes marked reviewed since."""

    at: int | None = None
    marked_at: int | None = None
    reviewed: dict[str, int] = field(default_factory=dict)

    def is_reviewed(self, item_id: str) -> bool:
        return item_id in self.reviewed

    def to_json(self) -> dict[str, Any]:
        return {"mark": self.at, "markedAt": self.marked_at, "reviewed": dict(self.reviewed)}

    @classmethod
    def from_json(cls, data: Any) -> ReviewMark:
        """A database's entry as read; a value that is no time (a time is an integer a date can hold:
        ``10**20`` is not) reads as absent, so the next mark replaces it."""
        if not isinstance(data, dict):
            return cls()
        reviewed = data.get("reviewed")
        return cls(
            at=_time(data.get("mark")),
            marked_at=_time(data.get("markedAt")),
            reviewed={
                str(k): v
                for k, v in (reviewed.items() if isinstance(reviewed, dict) else ())
                if _time(v) is not None
            },
        )


def _time(v: Any) -> int | None:
    return v if type(v) is int and -JS_TIME_MAX <= v <= JS_TIME_MAX else None


class ReviewMarks:
    """The marks file (:func:`default_marks_path` unless ``path`` is given)."""

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path = Path(path) if path is not None else default_marks_path()

    # -- reading --------------------------------------------------------------------------------------
    def _load(self) -> tuple[dict[str, Any], bool]:
        """``(databases, readable)``; a missing file is readable and empty. A file that is no regular
        file, too large, or not the marks' JSON is set aside (:func:`core.sidefiles.set_aside`) and
        reads as empty; ``readable`` is false only when it could not be moved."""
        data, problem = sidefiles.read_json(self.path)
        dbs = data.get("databases") if isinstance(data, dict) else None
        if problem is None and data is not None and not isinstance(dbs, dict):
            problem = sidefiles.SideFileProblem("wrong_shape", {"error": "no databases member"})
        if problem is not None:
            moved = sidefiles.set_aside(self.path, problem)
            return {}, moved is not None or not os.path.lexists(self.path)
        return (dbs if isinstance(dbs, dict) else {}), True

    def get(self, db_path: str | os.PathLike[str]) -> ReviewMark:
        """The mark of a database (an empty mark when there is none)."""
        dbs, _ok = self._load()
        return ReviewMark.from_json(dbs.get(database_key(db_path)))

    def databases(self) -> list[str]:
        return sorted(self._load()[0])

    # -- writing --------------------------------------------------------------------------------------
    def _update(self, db_path: str | os.PathLike[str], fn: Any) -> ReviewMark:
        with _LOCK:
            dbs, _ok = self._load()  # a bad file was set aside (or, when it could not be, is replaced)
            key = database_key(db_path)
            mark = ReviewMark.from_json(dbs.get(key))
            fn(mark)
            if len(mark.reviewed) > MAX_REVIEWED:
                newest = sorted(mark.reviewed.items(), key=lambda kv: kv[1])[-MAX_REVIEWED:]
                mark.reviewed = dict(newest)
            dbs[key] = mark.to_json()
            self._write({"version": 1, "databases": dbs})
            return mark

    def mark_all(self, db_path: str | os.PathLike[str], at: int, *, now: int | None = None) -> ReviewMark:
        """Everything up to ``at`` is reviewed: the next review starts there."""
        return self.mark_all_keeping(db_path, at, now=now)[1]

    def mark_all_keeping(
        self, db_path: str | os.PathLike[str], at: int, *, now: int | None = None
    ) -> tuple[ReviewMark, ReviewMark]:
        """:meth:`mark_all`, returning ``(previous, new)``: the previous mark is what :meth:`restore`
        puts back to undo it."""
        kept: list[ReviewMark] = []

        def fn(m: ReviewMark) -> None:
            kept.append(ReviewMark(m.at, m.marked_at, dict(m.reviewed)))
            m.at, m.marked_at, m.reviewed = int(at), now_ms() if now is None else int(now), {}

        new = self._update(db_path, fn)
        return kept[0], new

    def restore(self, db_path: str | os.PathLike[str], previous: ReviewMark) -> ReviewMark:
        """Put back a mark as it was (undoing a "Mark all reviewed"); an empty mark means never reviewed.
        Changes marked reviewed one by one since stay reviewed."""

        def fn(m: ReviewMark) -> None:
            m.at, m.marked_at = previous.at, previous.marked_at
            m.reviewed = {**previous.reviewed, **m.reviewed}

        return self._update(db_path, fn)

    def mark_items(
        self, db_path: str | os.PathLike[str], item_ids: Iterable[str], *, now: int | None = None
    ) -> ReviewMark:
        """Single changes look right (they stay listed, marked reviewed, until the next mark)."""
        t = now_ms() if now is None else int(now)
        ids = [str(i) for i in item_ids]
        return self._update(db_path, lambda m: m.reviewed.update(dict.fromkeys(ids, t)))

    def unmark_items(self, db_path: str | os.PathLike[str], item_ids: Iterable[str]) -> ReviewMark:
        ids = [str(i) for i in item_ids]

        def fn(m: ReviewMark) -> None:
            for i in ids:
                m.reviewed.pop(i, None)

        return self._update(db_path, fn)

    def forget(self, db_path: str | os.PathLike[str]) -> None:
        """Remove the database's mark (its next review starts from the default again)."""
        with _LOCK:
            dbs, ok = self._load()
            if ok and dbs.pop(database_key(db_path), None) is not None:
                self._write({"version": 1, "databases": dbs})

    def _write(self, data: dict[str, Any]) -> None:
        sidefiles.write_json(self.path, data, indent=1)
