"""Tool calls as the action log records them and as a ``tool`` message shows them."""

from __future__ import annotations

import json
import random
from typing import Any

from core.demo.data import CallTemplate, pick
from core.jsutil import iso_ms

#: ``(params, result, success)`` of one call.
CallResult = tuple[dict[str, Any], str, bool]
RESULT_CAP = 500  # the server truncates results to 500 characters


def _param(value: Any, slots: dict[str, Any]) -> Any:
    if isinstance(value, str):
        if value.startswith("{") and value.endswith("}") and value[1:-1] in slots:
            return slots[value[1:-1]]  # a whole-value placeholder keeps the slot's type (a number)
        return value.format_map(slots)
    if isinstance(value, dict):
        return {k: _param(v, slots) for k, v in value.items()}
    if isinstance(value, list):
        return [_param(v, slots) for v in value]
    return value


def render_call(
    rng: random.Random, tmpl: CallTemplate, slots: dict[str, Any], ok: bool | None = None
) -> CallResult:
    """A call of ``tmpl`` (``ok`` forces the outcome). A failure puts its reason in ``why``/``why_zh``."""
    if ok is None:
        ok = not tmpl.fail or rng.random() < tmpl.ok_rate
    params = {k: _param(v, slots) for k, v in tmpl.params}
    if ok or not tmpl.fail:
        result = pick(rng, tmpl.ok).format_map(slots)
        ok = True
    else:
        failure = pick(rng, tmpl.fail)
        slots["why"] = failure.why.format_map(slots)
        slots["why_zh"] = failure.why_zh.format_map(slots)
        result = failure.result.format_map(slots)
    return params, result[:RESULT_CAP], ok


def tool_message(tool: str, ok: bool, result: str) -> str:
    """The ``tool`` message the agent writes to its timeline after a call."""
    return json.dumps(
        {"tool": tool, "success": ok, "result": result}, ensure_ascii=False, separators=(",", ":")
    )


def fact_params(ns: str, key: str, value: Any, kw: dict[str, Any], iso: dict[str, str]) -> dict[str, Any]:
    """``store_fact`` parameters of a fact version (times as the agent writes them, ISO with offset)."""
    params: dict[str, Any] = {"namespace": ns, "key": key, "value": value}
    if "confidence" in kw:
        params["confidence"] = kw["confidence"]
    if kw.get("fact_kind") == "event":
        params["fact_kind"] = "event"
    for name in ("occurred_at", "valid_from", "valid_until"):
        if name in iso:
            params[name] = iso[name]
    return params


def fact_result(ns: str, key: str, kw: dict[str, Any], created: int) -> str:
    """The ``store_fact`` output: ``Stored ns.key [state from → until | recorded T]``."""
    if kw.get("fact_kind") == "event":
        occ = kw.get("occurred_at")
        first = f"event@{iso_ms(occ) if occ is not None else '?'}"
    else:
        frm = kw.get("valid_from")
        until = kw.get("valid_until")
        first = (
            f"state {iso_ms(frm) if frm is not None else '?'} → {iso_ms(until) if until is not None else '∞'}"
        )
    return f"Stored {ns}.{key} [{first} | recorded {iso_ms(created)}]"
