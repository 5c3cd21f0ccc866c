"""The fact tools: ``store_fact``, ``get_fact``, ``list_facts``."""

from __future__ import annotations

from core.credentials import auth_prefix_error, key_shape_error, secret_shape_error, secret_shape_leaf_error
from core.facts import FactStore
from core.jsutil import iso_ms, js_stringify, parse_time_field
from core.models import Fact
from core.tool_params import GetFactParams, ListFactsParams, StoreFactParams
from core.tools.result import Ctx, ToolResult, fail, ok


def format_fact_times(fact: Fact) -> str:
    """``[event@<occurred|?> | recorded <created>]`` or ``[state <from|?> → <until|∞> | recorded <created>]``."""
    if fact.fact_kind == "event":
        occ = iso_ms(fact.occurred_at) if fact.occurred_at is not None else "?"
        first = f"event@{occ}"
    else:
        frm = iso_ms(fact.valid_from) if fact.valid_from is not None else "?"
        until = iso_ms(fact.valid_until) if fact.valid_until is not None else "∞"
        first = f"state {frm} → {until}"
    return f"[{first} | recorded {iso_ms(fact.created_at)}]"


def store_fact(ctx: Ctx, p: StoreFactParams) -> ToolResult:
    ns, key, value = p.namespace, p.key, p.value
    if not isinstance(ns, str) or not ns:
        return fail("namespace must be a non-empty string")
    if not isinstance(key, str) or not key:
        return fail("key must be a non-empty string")
    err = key_shape_error(key)
    if err:
        return fail(err)
    if "value" not in p.model_fields_set:
        return fail("value is required (a string, number, boolean, object, array or null)")
    if isinstance(value, str):
        err = auth_prefix_error(value) or secret_shape_error(ns, key, value)
    elif isinstance(value, dict | list):
        err = secret_shape_leaf_error(ns, key, value)
    if err:
        return fail(err)
    fact = FactStore(ctx.db).store_fact(
        ns,
        key,
        value,
        confidence=p.confidence,
        fact_kind="event" if p.fact_kind == "event" else "state",
        occurred_at=parse_time_field(p.occurred_at),
        valid_from=parse_time_field(p.valid_from),
        valid_until=parse_time_field(p.valid_until),
        now=ctx.now,
    )
    return ok(f"Stored {ns}.{key} {format_fact_times(fact)}", fact.to_json())


def get_fact(ctx: Ctx, p: GetFactParams) -> ToolResult:
    fact = FactStore(ctx.db).get_fact(p.namespace, p.key, now=ctx.now, bump=ctx.writable)
    if fact is None:
        return fail(f"Not found: {p.namespace}.{p.key}")
    return ok(f"{js_stringify(fact.value)} {format_fact_times(fact)}", fact.to_json())


def list_facts(ctx: Ctx, p: ListFactsParams) -> ToolResult:
    facts = FactStore(ctx.db).list_facts(p.namespace)
    lines = [f"{f.namespace}.{f.key} = {js_stringify(f.value)}  {format_fact_times(f)}" for f in facts]
    return ok("\n".join(lines), [f.to_json() for f in facts])
