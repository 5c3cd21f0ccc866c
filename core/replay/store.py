"""Saved replay results: kept outside the database, keyed to the file, extended with the new turns only.

A replay of every user turn of a long history takes minutes; its result is kept so that the next look
starts from it. Like the review marks (:mod:`core.changes.marks`), nothing is written to the agent's
file: each database has its files in ``replays/`` of the user's data directory
(:func:`core.changes.marks.user_data_dir`; ``$PHILONT_REPLAY_STORE`` names another folder), named after
a digest of the database's real path. ``<digest>.json`` is the header::

    {"version": 2, "database": "/home/u/.philont/memory/memory.sqlite", "identity": [2049, 1234567],
     "options": {"since": null, "until": null, "origin": null, "limit": null,
                 "strategies": ["agent", "terms-or", "terms-or-wide"], "maxDf": 5},
     "savedAt": 1781525000000, "lastId": 48213, "last": {"messageId": 48213, "timestamp": 1781524000000},
     "history": 96422, "summary": {…}, "turns": 24107, "bytes": 16734210}

and ``<digest>.turns.jsonl`` holds the turns, one :meth:`core.replay.TurnReport.to_json` a line, oldest
first (read back by :mod:`core.replay.saved`); only its first ``bytes`` bytes, ``turns`` lines, are the
saved result. ``<digest>.windows.json`` keeps the substring step's window counts and the need's frequent
words for the next update (:mod:`core.replay.windows`: a cache, read only when the result is extended).
``summary`` is :meth:`core.replay.Replay.summary` of those turns, ``lastId`` the greatest id of a user
turn replayed, ``identity`` the file's ``(device, inode)`` (:func:`core.files.file_identity`).
Turns are read one line at a time (:meth:`ReplayStore.turns`): a viewer never holds a long history's
turns all at once, and the interpreter is never held by one long parse.

:meth:`ReplayStore.update` replays only the user turns written since (``ReplayOptions(after_id=lastId)``),
appends them to the turns file and writes the header with the summaries added up: a turn's replay depends
only on the messages before it, so the old turns stay what they were. The saved result is not extended
but recomputed (``Updated.reason``) when it was made with other options or another rule of need
(``options``), for another file under the same name (``replaced``: another identity), when its last turn
is no longer in the file as it was (``changed``: a restore put an older file in place), or when a new
turn comes before it in time (``changed``).

A file that cannot be read (not a regular file, too large, not JSON, not a saved replay's shape, a turns
file shorter than its header says) is set aside and reported (:func:`core.sidefiles.set_aside`), never
trusted: the next update recomputes. The turns are written as they are replayed, never all held at
once (:meth:`ReplayStore.update` hands each to its ``on_turn``): appended to the turns file when the
result is extended, else written to a temporary file renamed into place once the replay is done. The
header is written atomically (a private temporary file renamed into place, mode 0600) after the
turns it counts, so a run stopped between the two leaves the previous result; appended lines it does
not count are cut off by the next append.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import sidefiles
from core.changes.marks import database_digest, database_key, user_data_dir
from core.files import FileIdentity, file_identity
from core.jsutil import now_ms
from core.paths import chmod_private, ensure_private_dir, fsync_dir
from core.replay.need import NeedRule
from core.replay.run import Replay, ReplayOptions, TurnReport, replay
from core.replay.saved import SavedReplayError, merge_summary, turn_from_json
from core.replay.turnfile import Changed, TurnWriter, file_lock, replayed, tee
from core.replay.windows import WindowCounts
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
VERSION = 2
#: The largest turns file read (about 2,000,000 turns).
MAX_BYTES = 2 * 1024 * 1024 * 1024
#: The longest line of a turn read.
MAX_LINE = 4 * 1024 * 1024


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
    """A saved result: the options it was made with, the file it was made for (``identity``), when it
    was saved, the greatest user turn id it covers (``None``: no turn yet) and the time of that turn,
    the messages the file held, the summary of its turns and how many there are. ``replay`` holds the
    turns when they were read (:meth:`ReplayStore.load`), else ``None`` (:meth:`ReplayStore.header`;
    :meth:`ReplayStore.turns` reads them one at a time)."""

    options: ReplayOptions
    identity: FileIdentity | None
    saved_at: int
    last_id: int | None
    last: tuple[int, int] | None  # (message id, timestamp) of the last turn
    history: int
    summary: dict[str, Any]
    count: int
    size: int  # bytes of the turns file that hold the turns
    replay: Replay | None = None


@dataclass(frozen=True)
class Updated:
    """What :meth:`ReplayStore.update` did: ``how`` is ``new`` (nothing was saved), ``extended`` (the new
    turns appended; ``replayed`` may be 0) or ``recomputed`` (``reason``: ``options``, ``replaced`` or
    ``changed``). The turns replayed now (every turn unless ``extended``) are not kept: the update
    hands them to its ``on_turn`` one at a time."""

    saved: SavedReplay
    replayed: int
    how: str
    reason: str | None = None


def saved_files(db_path: str | os.PathLike[str]) -> list[Path]:
    """The files of a database's saved replay (header, turns, window counts): they hold the rare words,
    trigger snippets and 3-character windows of its messages, so the privacy purge deletes them
    (:data:`core.privacy.purge_plan.DERIVED`); the next visit of the Recall page replays again. Also a
    temporary file of a replay being written (or left by a crash) beside them."""
    store = ReplayStore()
    files = [store.path(db_path), store.turns_path(db_path), store.windows_path(db_path)]
    return files + [t for f in files for t in sidefiles.partial_files(f)]


class ReplayStore:
    """The saved results in ``folder`` (:func:`default_store_dir` unless given)."""

    def __init__(self, folder: str | os.PathLike[str] | None = None):
        self.folder = Path(folder) if folder is not None else default_store_dir()

    def path(self, db_path: str | os.PathLike[str]) -> Path:
        """The header file of a database's saved result."""
        return self.folder / f"{database_digest(db_path)}.json"

    def turns_path(self, db_path: str | os.PathLike[str]) -> Path:
        """The turns file of a database's saved result."""
        return self._beside(db_path, ".turns.jsonl")

    def windows_path(self, db_path: str | os.PathLike[str]) -> Path:
        """The window counts kept with a database's saved result (:mod:`core.replay.windows`)."""
        return self._beside(db_path, ".windows.json")

    def _beside(self, db_path: str | os.PathLike[str], suffix: str) -> Path:
        head = self.path(db_path)
        return head.with_name(head.stem + suffix)

    # -- reading --------------------------------------------------------------------------------------
    def header(self, db_path: str | os.PathLike[str]) -> SavedReplay | None:
        """The saved result of a database without its turns, or ``None`` (none saved, saved for another
        path, or unreadable: then its files are set aside and reported)."""
        path = self.path(db_path)
        data, problem = sidefiles.read_json(path)
        if problem is None and data is not None:
            try:
                saved = _header_from_json(data)
            except SavedReplayError as exc:
                problem = sidefiles.SideFileProblem("wrong_shape", {"error": exc.what})
            else:
                if data.get("database") != database_key(db_path):
                    return None
                size = _size(self.turns_path(db_path))
                if size is not None and size >= saved.size:
                    return saved
                problem = sidefiles.SideFileProblem("wrong_shape", {"error": "the turns file is short"})
        if problem is not None:
            self._set_aside(db_path, problem)
        return None

    def records(
        self, db_path: str | os.PathLike[str], saved: SavedReplay | None = None
    ) -> Generator[dict[str, Any], None, None]:
        """The saved turns as their JSON objects (:meth:`core.replay.TurnReport.to_json`), oldest first,
        read one line at a time (``saved``: the header, read if not given): for a reader that makes only
        some of them whole (:func:`core.replay.saved.turn_from_json`). A line that cannot be read sets
        the files aside and raises :class:`SavedReplayError`."""
        saved = saved if saved is not None else self.header(db_path)
        if saved is None or saved.count == 0:
            return
        n = 0
        try:
            for line in _lines(self.turns_path(db_path), saved.size):
                yield turn_record(line)
                n += 1
            if n != saved.count:
                raise SavedReplayError(f"{n} turns where the header counts {saved.count}")
        except (SavedReplayError, UnicodeDecodeError, OSError) as exc:
            self.set_aside(db_path, str(exc))
            raise SavedReplayError(str(exc)) from exc

    def turns(
        self, db_path: str | os.PathLike[str], saved: SavedReplay | None = None
    ) -> Iterator[TurnReport]:
        """The saved turns, read one line at a time (see :meth:`records`)."""
        saved = saved if saved is not None else self.header(db_path)
        if saved is None:
            return
        strategies = tuple(saved.summary.get("strategies") or ())
        records = self.records(db_path, saved)
        for value in records:
            try:
                turn = turn_from_json(value, strategies)
            except SavedReplayError as exc:
                records.close()
                self.set_aside(db_path, exc.what)
                raise
            yield turn

    def load(self, db_path: str | os.PathLike[str]) -> SavedReplay | None:
        """The saved result of a database with every turn, or ``None`` (see :meth:`header`)."""
        saved = self.header(db_path)
        if saved is None:
            return None
        try:
            turns = list(self.turns(db_path, saved))
        except SavedReplayError:
            return None
        rule = saved.options.rule
        return replace(
            saved, replay=Replay(turns, tuple(saved.summary.get("strategies") or ()), rule, saved.history)
        )

    def set_aside(self, db_path: str | os.PathLike[str], error: str) -> None:
        """Set a database's saved result aside (reported): it is not what it should be (``error``)."""
        self._set_aside(db_path, sidefiles.SideFileProblem("wrong_shape", {"error": error[:200]}))

    def _set_aside(self, db_path: str | os.PathLike[str], problem: sidefiles.SideFileProblem) -> None:
        if os.path.lexists(self.path(db_path)):
            sidefiles.set_aside(self.path(db_path), problem)
        turns = self.turns_path(db_path)
        if os.path.lexists(turns):
            sidefiles.set_aside(turns, problem)

    # -- writing --------------------------------------------------------------------------------------
    def save(
        self,
        db_path: str | os.PathLike[str],
        result: Replay,
        options: ReplayOptions,
        *,
        identity: FileIdentity | None = None,
    ) -> SavedReplay:
        """Keep ``result`` (made with ``options``) for the database at ``db_path`` in place of what was
        saved; ``identity`` defaults to the file's now."""
        with file_lock(self.turns_path(db_path)):
            saved = self._recompute(db_path, lambda sink: replayed(result, sink), options, identity)
        return replace(saved, replay=result)

    def _recompute(
        self,
        db_path: str | os.PathLike[str],
        run: Callable[[Callable[[TurnReport], None]], Replay],
        options: ReplayOptions,
        identity: FileIdentity | None,
    ) -> SavedReplay:
        """The turns ``run(sink)`` gives written to a temporary file as they come, renamed into place
        when the run is done, then the header: in place of what was saved."""
        ensure_private_dir(self.folder)
        turns = self.turns_path(db_path)
        writer = TurnWriter(sidefiles.temp_path(turns), 0)
        try:
            result = run(writer)
            size = writer.finish()
            os.replace(writer.path, turns)
        except BaseException:
            writer.discard()
            raise
        saved = _saved(writer, result.summary(), result.history, options, identity, db_path, size, None)
        self._write_header(db_path, saved)
        return saved

    def _extend(
        self,
        db_path: str | os.PathLike[str],
        old: SavedReplay,
        run: Callable[[Callable[[TurnReport], None]], Replay],
        identity: FileIdentity | None,
    ) -> SavedReplay:
        """The turns ``run(sink)`` gives appended to ``old``'s as they come, then the header with the
        summaries added up; until it is written, the appended lines are not the saved result (the next
        append cuts them off). :class:`Changed` when the first new turn comes before ``old``'s last."""
        writer = TurnWriter(self.turns_path(db_path), old.size, None if old.last is None else old.last)
        try:
            new = run(writer)
            size = writer.finish() if writer.count else old.size
        finally:
            writer.close()
        summary = merge_summary(old.summary, new.summary())
        saved = _saved(writer, summary, new.history, old.options, identity, db_path, size, old)
        self._write_header(db_path, saved)
        return saved

    def _write_header(self, db_path: str | os.PathLike[str], saved: SavedReplay) -> None:
        data = {
            "version": VERSION,
            "database": database_key(db_path),
            "identity": None if saved.identity is None else list(saved.identity),
            "options": options_json(saved.options),
            "savedAt": saved.saved_at,
            "lastId": saved.last_id,
            "last": None if saved.last is None else {"messageId": saved.last[0], "timestamp": saved.last[1]},
            "history": saved.history,
            "summary": saved.summary,
            "turns": saved.count,
            "bytes": saved.size,
        }
        path = self.path(db_path)
        tmp = sidefiles.temp_path(path)
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
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

    def forget(self, db_path: str | os.PathLike[str]) -> None:
        """Remove a database's saved result."""
        for p in (self.path(db_path), self.turns_path(db_path), self.windows_path(db_path)):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()

    # -- updating -------------------------------------------------------------------------------------
    def update(
        self,
        db: MemoryDB,
        db_path: str | os.PathLike[str],
        options: ReplayOptions | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        on_turn: Callable[[TurnReport], None] | None = None,
    ) -> Updated:
        """Bring the saved result of ``db`` (opened from ``db_path``) up to date and save it: only the
        user turns written since are replayed when the saved one can be extended, else every turn.
        ``progress(done, total)`` counts the turns replayed now; ``cancelled()`` stops the replay
        (:func:`core.replay.replay`), and then nothing is saved. Reads the database only.

        The turns replayed now are written as they come and not kept: ``on_turn(turn)`` is given each
        of them, oldest first (those of the replay that is saved only: none of an extension found to
        come before the saved turns, which is then recomputed)."""
        o = replace(options or ReplayOptions(), after_id=None)
        identity = getattr(db, "identity", None) or file_identity(db_path)

        windows = WindowCounts()  # those of the saved replay when it is extended (core.replay.windows)

        def run(options: ReplayOptions) -> Callable[[Callable[[TurnReport], None]], Replay]:
            def sink(writer: Callable[[TurnReport], None]) -> Replay:
                return replay(
                    db,
                    options,
                    progress=progress,
                    cancelled=cancelled,
                    sink=tee(writer, on_turn),
                    windows=windows,
                )

            return sink

        with file_lock(self.turns_path(db_path)):
            saved = self.header(db_path)
            reason = None if saved is None else _why_not_extend(db, saved, o, identity)
            if saved is not None and reason is None:
                windows = WindowCounts.read(self.windows_path(db_path))
                try:
                    kept = self._extend(db_path, saved, run(replace(o, after_id=saved.last_id)), identity)
                    self._keep_windows(db_path, windows)
                    return Updated(kept, kept.count - saved.count, "extended", None)
                except Changed:
                    reason = "changed"  # a new turn comes before a saved one: their histories differ
                    windows = WindowCounts()
            kept = self._recompute(db_path, run(o), o, identity)
            self._keep_windows(db_path, windows)
        return Updated(kept, kept.count, "new" if saved is None else "recomputed", reason)

    def _keep_windows(self, db_path: str | os.PathLike[str], windows: WindowCounts) -> None:
        with contextlib.suppress(OSError):  # a cache: the next update counts again
            windows.write(self.windows_path(db_path))


def turn_record(line: str | bytes) -> dict[str, Any]:
    """One line of a turns file as its JSON object (:class:`SavedReplayError` when it is not one)."""
    try:
        value = json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise SavedReplayError(f"a turn is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise SavedReplayError("a turn is not an object")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _size(path: Path) -> int | None:
    """The size of a regular file at ``path`` (``None``: none, or not a regular file)."""
    if sidefiles.check(path, MAX_BYTES) is not None:
        return None
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def _lines(path: Path, size: int) -> Iterator[str]:
    """The lines of the first ``size`` bytes of the regular file at ``path`` (never a FIFO or a device)."""
    problem = sidefiles.check(path, MAX_BYTES)
    if problem is not None:
        raise SavedReplayError(problem.detail)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise SavedReplayError("not a regular file")
        left = size
        while left > 0:
            line = fh.readline(min(left, MAX_LINE))
            if not line:
                raise SavedReplayError("the turns file is short")
            left -= len(line)
            if not line.endswith(b"\n"):
                raise SavedReplayError("a turn is cut")
            yield line.decode("utf-8")


def _saved(
    written: TurnWriter,
    summary: dict[str, Any],
    history: int,
    options: ReplayOptions,
    identity: FileIdentity | None,
    db_path: str | os.PathLike[str],
    size: int,
    old: SavedReplay | None,
) -> SavedReplay:
    last = written.last if written.count else (old.last if old else None)
    ids = [i for i in (written.last_id, None if old is None else old.last_id) if i is not None]
    return SavedReplay(
        options=replace(options, after_id=None),
        identity=file_identity(db_path) if identity is None else identity,
        saved_at=now_ms(),
        last_id=max(ids, default=None),
        last=last,
        history=history,
        summary=summary,
        count=written.count + (old.count if old is not None else 0),
        size=size,
    )


def _why_not_extend(
    db: MemoryDB, saved: SavedReplay, o: ReplayOptions, identity: FileIdentity | None
) -> str | None:
    """Why ``saved`` cannot be extended for ``db`` with options ``o`` (``None``: it can)."""
    if saved.identity != identity:
        return "replaced"
    if options_json(saved.options) != options_json(o) or o.limit is not None:
        return "options"  # the newest N turns are another range once a turn is added
    if saved.last is not None:
        rows = RawStore(db).get_messages([saved.last[0]])
        if not rows or rows[0].timestamp != saved.last[1] or rows[0].role != "user":
            return "changed"
    return None


def _header_from_json(data: Any) -> SavedReplay:
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise SavedReplayError("not a saved replay of this version")
    identity = data.get("identity")
    if identity is not None and (
        not isinstance(identity, list) or len(identity) != 2 or not all(type(i) is int for i in identity)
    ):
        raise SavedReplayError("identity is not a (device, inode) pair")
    ints: dict[str, int] = {}
    for k in ("savedAt", "history", "turns", "bytes"):
        v = data.get(k)
        if type(v) is not int or v < 0:
            raise SavedReplayError(f"{k} is not a count")
        ints[k] = v
    last_id, last, summary = data.get("lastId"), data.get("last"), data.get("summary")
    if last_id is not None and type(last_id) is not int:
        raise SavedReplayError("lastId is not an id")
    if last is not None and not (
        isinstance(last, dict) and type(last.get("messageId")) is int and type(last.get("timestamp")) is int
    ):
        raise SavedReplayError("last is not a turn's id and time")
    if not isinstance(summary, dict) or not isinstance(summary.get("strategies"), dict):
        raise SavedReplayError("summary is not a replay's summary")
    return SavedReplay(
        options=options_from_json(data.get("options")),
        identity=None if identity is None else (identity[0], identity[1]),
        saved_at=ints["savedAt"],
        last_id=last_id,
        last=None if last is None else (last["messageId"], last["timestamp"]),
        history=ints["history"],
        summary=summary,
        count=ints["turns"],
        size=ints["bytes"],
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
    cancelled: Callable[[], bool] | None = None,
    on_turn: Callable[[TurnReport], None] | None = None,
) -> Updated:
    """:meth:`ReplayStore.update` in the default folder."""
    return ReplayStore().update(db, db_path, options, progress=progress, cancelled=cancelled, on_turn=on_turn)
