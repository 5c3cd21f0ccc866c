"""A replay read back from its JSON (:meth:`core.replay.Replay.to_json`): the saved results of
:mod:`core.replay.store`.

The JSON of a turn holds the message's id and time, not its text: a turn read back carries a
:class:`~core.models.Message` with that id and time, the role ``user`` and no session or content (a
viewer reads the message from the database when it shows it). The rest is read as written.

A file written by an older version lacks the members added since (``recency``, ``path``, ``terms``,
``correction``, ``damaged``, ``relearned``): they read as empty. Members this version does not know are
ignored. A value that is not what its member holds (a turn without an integer ``messageId``, a ``hit``
that is no boolean, a what-if strategy missing from a turn) makes the whole result unreadable:
:class:`SavedReplayError`, never a half-read result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.damage import JS_TIME_MAX
from core.errors import Notice
from core.models import Message
from core.replay.causes import cause_notice
from core.replay.need import DEFAULT_MAX_DF, NeedRule
from core.replay.run import Replay, TurnReport, WhatIf

__all__ = ["SavedReplayError", "merge_summary", "replay_from_json", "turn_from_json", "what_if_from_json"]


class SavedReplayError(ValueError):
    """The JSON is not a replay's: ``what`` says which member is wrong."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


def _int(v: Any, what: str) -> int:
    if type(v) is not int:
        raise SavedReplayError(f"{what} is not an integer")
    return v


def _ids(v: Any, what: str) -> list[int]:
    if v is None:
        return []
    if not isinstance(v, list) or not all(type(i) is int for i in v):
        raise SavedReplayError(f"{what} is not a list of ids")
    return list(v)


def _hit(v: Any, what: str) -> bool | None:
    if v is not None and type(v) is not bool:
        raise SavedReplayError(f"{what} is not true, false or null")
    return v


def _str_or_none(v: Any, what: str) -> str | None:
    if v is not None and not isinstance(v, str):
        raise SavedReplayError(f"{what} is not text")
    return v


def _strings(v: Any, what: str) -> list[str]:
    if v is None:
        return []
    if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
        raise SavedReplayError(f"{what} is not a list of texts")
    return list(v)


def what_if_from_json(data: Any) -> WhatIf:
    """A what-if strategy's result (``{"recalled", "hit", "tokens"}``)."""
    if not isinstance(data, Mapping):
        raise SavedReplayError("a what-if result is not an object")
    tokens = data.get("tokens", 0)
    return WhatIf(
        _ids(data.get("recalled"), "whatIf.recalled"),
        _hit(data.get("hit"), "whatIf.hit"),
        _int(tokens, "whatIf.tokens"),
    )


def _cause(data: Any) -> Notice | None:
    if data is None:
        return None
    if not isinstance(data, Mapping) or not isinstance(data.get("code"), str):
        raise SavedReplayError("cause is not a coded notice")
    params = data.get("params") or {}
    if not isinstance(params, Mapping):
        raise SavedReplayError("cause.params is not an object")
    message = data.get("message")
    if not isinstance(message, str):
        return cause_notice(data["code"], dict(params))
    return Notice(data["code"], message, dict(params))


def turn_from_json(data: Any, strategies: tuple[str, ...] = ()) -> TurnReport:
    """One turn (:meth:`TurnReport.to_json`); every name of ``strategies`` must be in its ``whatIf``."""
    if not isinstance(data, Mapping):
        raise SavedReplayError("a turn is not an object")
    mid = _int(data.get("messageId"), "messageId")
    ts = _int(data.get("timestamp"), "timestamp")
    if not -JS_TIME_MAX <= ts <= JS_TIME_MAX:
        raise SavedReplayError("timestamp is no time")
    what_if_data = data.get("whatIf") or {}
    if not isinstance(what_if_data, Mapping) or any(s not in what_if_data for s in strategies):
        raise SavedReplayError("whatIf lacks a strategy of the summary")
    hit = _hit(data.get("hit"), "hit")
    return TurnReport(
        message=Message.model_construct(id=mid, session_id="", role="user", content="", timestamp=ts),
        trigger=_str_or_none(data.get("trigger"), "trigger"),
        recalled=_ids(data.get("recalled"), "recalled"),
        recency=_ids(data.get("recency"), "recency"),
        needed=_ids(data.get("needed"), "needed"),
        terms=_strings(data.get("terms"), "terms"),
        correction=_str_or_none(data.get("correction"), "correction"),
        hit=hit,
        cause=_cause(data.get("cause")),
        tokens=_int(data.get("tokens", 0), "tokens"),
        path=_str_or_none(data.get("path"), "path") or "",
        what_if={str(k): what_if_from_json(v) for k, v in what_if_data.items()},
        damaged=_ids(data.get("damaged"), "damaged"),
        relearned=_strings(data.get("relearned"), "relearned"),
    )


def replay_from_json(data: Any, *, history: int = 0) -> Replay:
    """A replay (:meth:`Replay.to_json`): the strategies and the rule from its summary, its turns.
    ``history`` is the number of messages the file held (not part of the JSON)."""
    if not isinstance(data, Mapping):
        raise SavedReplayError("the replay is not an object")
    summary = data.get("summary")
    turns = data.get("turns")
    if not isinstance(summary, Mapping) or not isinstance(turns, list):
        raise SavedReplayError("the replay lacks its summary or its turns")
    named = summary.get("strategies") or {}
    if not isinstance(named, Mapping):
        raise SavedReplayError("summary.strategies is not an object")
    strategies = tuple(str(s) for s in named)
    estimate = summary.get("estimate")
    max_df = estimate.get("maxDf", DEFAULT_MAX_DF) if isinstance(estimate, Mapping) else DEFAULT_MAX_DF
    return Replay(
        [turn_from_json(t, strategies) for t in turns],
        strategies,
        NeedRule(max_df=_int(max_df, "summary.estimate.maxDf")),
        history,
    )


def _rate(hits: int, n: int) -> float | None:
    return None if n == 0 else round(hits / n, 4)


def _add(a: Any, b: Any) -> Any:
    """Counts added up: numbers, and objects of counts key by key (``b`` wins for anything else)."""
    if type(a) is int and type(b) is int:
        return a + b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return {k: _add(a[k], b[k]) if k in a and k in b else (b[k] if k in b else a[k]) for k in {**a, **b}}
    return b


def merge_summary(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The summary (:meth:`Replay.summary`) of two runs of turns one after the other: the counts added
    up, the rates computed again from them."""
    out = _add(dict(old), dict(new))
    with_need = out.get("withNeed", 0)
    out["hitRate"] = _rate(out.get("hits", 0), with_need)
    out["byCause"] = dict(sorted((out.get("byCause") or {}).items()))
    strategies = {}
    for name in old.get("strategies") or new.get("strategies") or {}:
        s = dict(out["strategies"][name])
        s["hitRate"] = _rate(s["hits"], with_need)
        s["tokensPerHit"] = None if s["hits"] == 0 else round(s["tokens"] / s["hits"], 1)
        strategies[name] = s
    out["strategies"] = strategies
    out["estimate"] = dict(new.get("estimate") or old.get("estimate") or {})
    order = [*new, *(k for k in out if k not in new)]
    return {k: out[k] for k in order}
