"""``replay``: how well the agent's own recall serves this history (:mod:`core.replay`).

Every user turn of the range is replayed as the agent had it; what it needed is an estimate from shared
rare words ("silver labels"); a miss has a cause code; the what-if strategies are compared.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from typing import Any

from core.cli.args import arg_text, optional_time, positive_int
from core.cli.command import Command, Ctx
from core.cli.output import first_line, iso, one_line

#: Misses told in words by the plain output.
WORST_MISSES = 5
#: Progress goes to stderr every this many turns (a short run says nothing).
PROGRESS_EVERY = 100


def configure_replay(p: argparse.ArgumentParser) -> None:
    from core.replay import DEFAULT_MAX_DF, STRATEGIES

    p.add_argument("--since", metavar="T", help="user turns at or after T (ISO 8601 or epoch ms)")
    p.add_argument("--until", metavar="T", help="user turns at or before T")
    p.add_argument(
        "--origin",
        metavar="ID",
        type=arg_text,
        help="only the user turns of this conversation (an origin, an older session's id, or 'global')",
    )
    p.add_argument("--limit", type=positive_int, help="only the newest N user turns of the range")
    p.add_argument(
        "--strategy",
        metavar="NAME",
        action="append",
        choices=tuple(STRATEGIES),
        help=f"what-if strategies to compare (repeatable; default: all of {', '.join(STRATEGIES)})",
    )
    p.add_argument(
        "--max-df",
        type=positive_int,
        default=DEFAULT_MAX_DF,
        help="a term in at most this many earlier messages is rare (the need estimate's threshold; "
        f"default {DEFAULT_MAX_DF})",
    )
    p.add_argument(
        "--saved",
        action="store_true",
        help="answer from the saved replay of this file (kept outside the database, as the app keeps it): "
        "only the user turns written since it was saved are replayed (every turn the first time), then "
        "the range is read from it; not with --origin",
    )


def _progress(done: int, total: int) -> None:
    if total >= PROGRESS_EVERY and (done % PROGRESS_EVERY == 0 or done == total):
        sys.stderr.write(f"replay: {done}/{total} turns\n")
        sys.stderr.flush()


def run_replay(ctx: Ctx) -> int:
    from core.replay import NeedRule, ReplayOptions, replay

    a = ctx.args
    chosen: dict[str, Any] = {}
    if a.strategy:
        chosen["strategies"] = tuple(dict.fromkeys(["agent", *a.strategy]))
    options = ReplayOptions(
        since=optional_time(a.since, "--since"),
        until=optional_time(a.until, "--until"),
        origin=a.origin,
        limit=a.limit,
        rule=NeedRule(max_df=a.max_df),
        **chosen,
    )
    if a.saved:
        return _from_saved(ctx, options)
    with ctx.open() as db:
        result = replay(db, options, progress=_progress)
    if ctx.out.as_json:
        ctx.out.json(result.to_json())
        return 0
    _print(ctx, result)
    return 0


def _from_saved(ctx: Ctx, options: Any) -> int:
    """The range read from the saved replay, brought up to date first (:mod:`core.replay.ranged`), one
    turn at a time; for ``--json`` the turns are written to a temporary file as they are read, then
    printed after the summary."""
    from core.errors import MemoryError_
    from core.replay import Replay
    from core.replay.ranged import answer
    from core.replay.run import ReplaySummary
    from core.replay.saved import SavedReplayError, turn_from_json
    from core.replay.store import ReplayStore
    from core.timeline import RawStore

    store = ReplayStore()
    out = ctx.out
    try:
        with (
            ctx.open() as db,
            answer(db, ctx.path, options, store=store, progress=_progress) as got,
            tempfile.TemporaryFile("w+", encoding="utf-8", errors="surrogatepass") as spool,
        ):
            tally = ReplaySummary(got.strategies, options.rule)
            worst: list[Any] = []
            for record in got.records():
                t = turn_from_json(record, got.strategies)
                if out.as_json:
                    spool.write((",\n" if tally.turns else "\n") + out.json_item_text(record))
                tally.add(t)
                if t.hit is False:
                    worst = _worst([*worst, t])
            if out.as_json:
                out.json_open_list({"summary": tally.to_json()}, "turns")
                spool.seek(0)
                while chunk := spool.read(1 << 20):
                    out.write_json_text(chunk)
                out.json_close_list(tally.turns)
                return 0
            messages = {m.id: m for m in RawStore(db).get_messages([t.message.id for t in worst])}
    except SavedReplayError as exc:  # a line of the saved turns (finding the range or reading it)
        store.set_aside(ctx.path, str(exc))
        raise MemoryError_(
            f"The saved replay could not be read ({exc}); it was set aside: the next run replays every turn.",
            code="replay.saved_unreadable",
            params={"error": str(exc)},
        ) from exc
    worst = [replace(t, message=messages.get(t.message.id, t.message)) for t in worst]
    _print(ctx, Replay(worst, got.strategies, options.rule, got.updated.saved.history, tally))
    return 0


def _worst(turns: list[Any]) -> list[Any]:
    """The :data:`WORST_MISSES` worst of ``turns`` (missed), in the order :meth:`Replay.misses` gives."""
    key = lambda t: (-len(t.needed), -t.message.timestamp, -t.message.id)  # noqa: E731
    return sorted(turns, key=key)[:WORST_MISSES]


def _rate(rate: float | None) -> str:
    return "n/a" if rate is None else f"{rate * 100:.1f}%"


def _print(ctx: Ctx, result: Any) -> None:
    o = ctx.out.text
    s = result.summary()
    if result.history == 0:
        o("The history is empty: there is no turn to replay.")
        return
    if not s["turns"]:
        o("No user turn in this range: nothing to replay.")
        return
    o(f"{s['turns']} user turns replayed; {s['withNeed']} referred back to an earlier message (estimate).")
    o(f"The agent's recall found a needed message in {s['hits']} of them ({_rate(s['hitRate'])}).")
    for code, n in s["byCause"].items():
        o(f"  missed, {code}: {n}")
    o("What-if strategies (hit rate, recalled tokens, tokens per hit):")
    for name, st in s["strategies"].items():
        per = "n/a" if st["tokensPerHit"] is None else f"{st['tokensPerHit']:g}"
        o(f"  {name:<14} {_rate(st['hitRate']):>7}  {st['tokens']:>8}  {per:>8}")
    o(
        f"Needed = an earlier message outside the recency window sharing a word seen in at most "
        f"{result.rule.max_df} earlier messages: an estimate, not a judgement."
    )
    misses = result.misses()[:WORST_MISSES]
    if misses:
        o("")
        o("Worst misses:")
    for t in misses:
        m = t.message
        o(f"#{m.id} {iso(m.timestamp)} [{one_line(m.session_id)}] user: {first_line(m.content)}")
        o(f"  needed {', '.join(f'#{i}' for i in t.needed[:8])} (terms: {', '.join(t.terms)})")
        o(f"  why: {t.cause.message if t.cause is not None else '?'}")
        found = [name for name, w in t.what_if.items() if w.hit]
        if found:
            o(f"  found by: {', '.join(found)}")


COMMANDS = (
    Command(
        "replay",
        "how well the agent's own recall serves this history (needed messages estimated)",
        run_replay,
        configure_replay,
    ),
)
