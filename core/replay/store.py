"""Saved replay results: kept outside the database, keyed to the file, extended with the new turns only.

A replay of every user turn of a long history takes minutes; its result is kept so that the next look
starts from it. Like the review marks (:mod:`core.changes.marks`), nothing is written to the agent's
file: each database has one JSON file in ``replays/`` of the user's data directory
(:func:`core.changes.marks.user_data_dir`; ``$PHILONT_REPLAY_STORE`` names another folder), named after
a digest of the database's real path::

    {"version": 1, "database": "/home/u/.philont/memory/memory.sqlite", "identity": [2049, 1234567],
     "options": {"since": null, "until": null, "origin": null, "limit": null,
                 "strategies": ["agent", "terms-or", "terms-or-wide"], "maxDf": 5},
     "savedAt": 1781525000000, "lastId": 48213, "history": 96422, "replay": {"summary": …, "turns": […]}}

``replay`` is :meth:`core.replay.Replay.to_json` (read back by :mod:`core.replay.saved`), ``lastId``
the greatest id of a user turn replayed, ``identity`` the file's ``(device, inode)``
(:func:`core.files.file_identity`).

:meth:`ReplayStore.update` replays only the user turns written since (``ReplayOptions(after_id=lastId)``)
and appends them: a turn's replay depends only on the messages before it, so the old turns stay what
they were. The saved result is not extended but recomputed (``Updated.reason``) when it was made with
other options or another rule of need (``options``), for another file under the same name (``replaced``:
another identity), when its last turn is no longer in the file as it was (``changed``: a restore put an
older file in place), or when a new turn comes before it in time (``changed``).

A file that cannot be read (not a regular file, too large, not JSON, not a saved replay's shape) is set
aside and reported (:func:`core.sidefiles.set_aside`), never trusted: the next update recomputes.
Writing is atomic (a private temporary file renamed into place, mode 0600).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import sidefiles
from core.changes.marks import database_key, user_data_dir
from core.files import FileIdentity, file_identity
from core.jsutil import now_ms
from core.paths import chmod_private, ensure_private_dir, fsync_dir
from core.replay.need import NeedRule
from core.replay.run import Replay, ReplayOptions, replay
from core.replay.saved import SavedReplayError, replay_from_json
from core.timeline import RawStore

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = [
    "ENV_VAR",
    "ReplayStore",
    "SavedReplay",
    "Updated",
    "default_store_dir",
    "load",
    "save",
    "update",
]

ENV_VAR = "PHILONT_REPLAY_STORE"
FOLDER = "replays"
VERSION = 1
#: The largest saved result read (about 2,000,000 turns).
MAX_BYTES = 512 * 1024 * 1024
_LOCK = threading.Lock()


def default_store_dir() -> Path:
    """``$PHILONT_REPLAY_STORE``, else ``replays/`` in the user's data directory."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return user_data_dir() / FOLDER


def options_json(o: ReplayOptions) -> dict[str, Any]:
    """The options a saved result was made with (``after_id`` is how it was made, not what it covers)."""
    return {
        "since": o.since,
        "until": o.until,
        "origin": o.origin,
        "limit": o.limit,
        "strategies": list(o.strategies),
        "maxDf": o.rule.max_df,
    }


def options_from_json(data: Any) -> ReplayOptions:
    if not isinstance(data, dict):
        raise SavedReplayError("options is not an object")
    ints = {k: data.get(k) for k in ("since", "until", "limit", "maxDf")}
    if any(v is not None and type(v) is not int for v in ints.values()):
        raise SavedReplayError("an option is not an integer")
    strategies = data.get("strategies")
    origin = data.get("origin")
    if not isinstance(strategies, list) or not all(isinstance(s, str) for s in strategies):
        raise SavedReplayError("options.strategies is not a list of names")
    if origin is not None and not isinstance(origin, str):
        raise SavedReplayError("options.origin is not text")
    rule = NeedRule() if ints["maxDf"] is None else NeedRule(max_df=ints["maxDf"])
    return ReplayOptions(
        since=ints["since"],
        until=ints["until"],
        origin=origin,
        limit=ints["limit"],
        strategies=tuple(strategies),
        rule=rule,
    )


@dataclass(frozen=True)
class SavedReplay:
    """A saved result: the replay, the options it was made with, the file it was made for (``identity``),
    when it was saved and the greatest user turn id it covers (``None``: no turn yet)."""

    replay: Replay
    options: ReplayOptions
    identity: FileIdentity | None
    saved_at: int
    last_id: int | None


@dataclass(frozen=True)
class Updated:
    """What :meth:`ReplayStore.update` did: ``how`` is ``new`` (nothing was saved), ``extended`` (the new
    turns appended; ``replayed`` may be 0) or ``recomputed`` (``reason``: ``options``, ``replaced`` or
    ``changed``)."""

    saved: SavedReplay
    replayed: int
    how: str
    reason: str | None = None


class ReplayStore:
    """The saved results in ``folder`` (:func:`default_store_dir` unless given)."""

    def __init__(self, folder: str | os.PathLike[str] | None = None):
        self.folder = Path(folder) if folder is not None else default_store_dir()

    def path(self, db_path: str | os.PathLike[str]) -> Path:
        """The file of a database's saved result."""
        digest = hashlib.sha256(database_key(db_path).encode("utf-8", "surrogatepass")).hexdigest()
        return self.folder / f"{digest[:32]}.json"

    # -- reading --------------------------------------------------------------------------------------
    def load(self, db_path: str | os.PathLike[str]) -> SavedReplay | None:
        """The saved result of a database, or ``None`` (none saved, saved for another path, or the file
        unreadable: then it is set aside and reported)."""
        path = self.path(db_path)
        data, problem = sidefiles.read_json(path, MAX_BYTES)
        if problem is None and data is not None:
            try:
                saved = _saved_from_json(data)
            except SavedReplayError as exc:
                problem = sidefiles.SideFileProblem("wrong_shape", {"error": exc.what})
            else:
                return saved if data.get("database") == database_key(db_path) else None
        if problem is not None:
            sidefiles.set_aside(path, problem)
        return None

    # -- writing --------------------------------------------------------------------------------------
    def save(
        self,
        db_path: str | os.PathLike[str],
        result: Replay,
        options: ReplayOptions,
        *,
        identity: FileIdentity | None = None,
        last_id: int | None = None,
    ) -> SavedReplay:
        """Keep ``result`` (made with ``options``) for the database at ``db_path``; ``identity`` defaults
        to the file's now, ``last_id`` to the greatest id of its turns."""
        ids = [t.message.id for t in result.turns]
        last = max([*ids, *([] if last_id is None else [last_id])], default=None)
        saved = SavedReplay(
            replay=result,
            options=replace(options, after_id=None),
            identity=file_identity(db_path) if identity is None else identity,
            saved_at=now_ms(),
            last_id=last,
        )
        data = {
            "version": VERSION,
            "database": database_key(db_path),
            "identity": None if saved.identity is None else list(saved.identity),
            "options": options_json(saved.options),
            "savedAt": saved.saved_at,
            "lastId": saved.last_id,
            "history": result.history,
            "replay": result.to_json(),
        }
        with _LOCK:
            self._write(self.path(db_path), data)
        return saved

    def forget(self, db_path: str | os.PathLike[str]) -> None:
        """Remove a database's saved result."""
        with contextlib.suppress(FileNotFoundError):
            self.path(db_path).unlink()

    def _write(self, path: Path, data: dict[str, Any]) -> None:
        ensure_private_dir(path.parent)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, ensure_ascii=False, separators=(",", ":"))
                fh.flush()
                os.fsync(fh.fileno())
            chmod_private(tmp)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        fsync_dir(path.parent)

    # -- updating -------------------------------------------------------------------------------------
    def update(
        self,
        db: MemoryDB,
        db_path: str | os.PathLike[str],
        options: ReplayOptions | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
    ) -> Updated:
        """Bring the saved result of ``db`` (opened from ``db_path``) up to date and save it: only the
        user turns written since are replayed when the saved one can be extended, else every turn.
        ``progress(done, total)`` counts the turns replayed now. Reads the database only."""
        o = replace(options or ReplayOptions(), after_id=None)
        identity = getattr(db, "identity", None) or file_identity(db_path)
        saved = self.load(db_path)
        reason = None if saved is None else _why_not_extend(db, saved, o, identity)
        if saved is not None and reason is None:
            new = replay(db, replace(o, after_id=saved.last_id), progress=progress)
            old = saved.replay.turns
            if new.turns and old and _key(new.turns[0]) < _key(old[-1]):
                reason = "changed"  # a new turn comes before a saved one: their histories differ
            else:
                merged = Replay([*old, *new.turns], saved.replay.strategies, saved.replay.rule, new.history)
                kept = self.save(db_path, merged, o, identity=identity, last_id=saved.last_id)
                return Updated(kept, len(new.turns), "extended")
        fresh = replay(db, o, progress=progress)
        kept = self.save(db_path, fresh, o, identity=identity)
        return Updated(kept, len(fresh.turns), "new" if saved is None else "recomputed", reason)


def _key(t: Any) -> tuple[int, int]:
    return (t.message.timestamp, t.message.id)


def _why_not_extend(
    db: MemoryDB, saved: SavedReplay, o: ReplayOptions, identity: FileIdentity | None
) -> str | None:
    """Why ``saved`` cannot be extended for ``db`` with options ``o`` (``None``: it can)."""
    if saved.identity != identity:
        return "replaced"
    if options_json(saved.options) != options_json(o) or o.limit is not None:
        return "options"  # the newest N turns are another range once a turn is added
    if saved.replay.turns:
        last = saved.replay.turns[-1].message
        rows = RawStore(db).get_messages([last.id])
        if not rows or rows[0].timestamp != last.timestamp or rows[0].role != "user":
            return "changed"
    return None


def _saved_from_json(data: Any) -> SavedReplay:
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise SavedReplayError("not a saved replay of this version")
    identity = data.get("identity")
    if identity is not None and (
        not isinstance(identity, list) or len(identity) != 2 or not all(type(i) is int for i in identity)
    ):
        raise SavedReplayError("identity is not a (device, inode) pair")
    last_id, saved_at, history = data.get("lastId"), data.get("savedAt"), data.get("history", 0)
    if (last_id is not None and type(last_id) is not int) or type(saved_at) is not int:
        raise SavedReplayError("lastId or savedAt is not an integer")
    if type(history) is not int:
        raise SavedReplayError("history is not an integer")
    return SavedReplay(
        replay=replay_from_json(data.get("replay"), history=history),
        options=options_from_json(data.get("options")),
        identity=None if identity is None else (identity[0], identity[1]),
        saved_at=saved_at,
        last_id=last_id,
    )


def load(db_path: str | os.PathLike[str]) -> SavedReplay | None:
    """:meth:`ReplayStore.load` in the default folder."""
    return ReplayStore().load(db_path)


def save(db_path: str | os.PathLike[str], result: Replay, options: ReplayOptions) -> SavedReplay:
    """:meth:`ReplayStore.save` in the default folder."""
    return ReplayStore().save(db_path, result, options)


def update(
    db: MemoryDB,
    db_path: str | os.PathLike[str],
    options: ReplayOptions | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Updated:
    """:meth:`ReplayStore.update` in the default folder."""
    return ReplayStore().update(db, db_path, options, progress=progress)
