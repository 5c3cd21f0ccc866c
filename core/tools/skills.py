"""The skill tools: ``search_skills`` and ``use_skill`` (with its maturity refusals)."""

from __future__ import annotations

from core.jsutil import int_if_integral, js_join, js_max, js_number_str, js_to_number
from core.maturity import maturity_caveat
from core.models import Skill
from core.skills import SkillStore
from core.timeline import sanitize_query
from core.tool_params import SearchSkillsParams, UseSkillParams
from core.tools.result import Ctx, ToolResult, fail, ok, sql_int_ok


def _skill_keywords(s: Skill) -> str | ToolResult:
    for e in s.json_errors:
        if e.startswith("trigger_keywords"):
            if "not a JSON array" in e:
                return fail(f"TypeError: trigger_keywords of skill '{s.name}' is not an array")
            return fail(f"SyntaxError: trigger_keywords of skill '{s.name}' is not valid JSON")
    return js_join(s.trigger_keywords, ", ")


def search_skills(ctx: Ctx, p: SearchSkillsParams) -> ToolResult:
    limit = 5 if p.limit is None else int_if_integral(js_to_number(p.limit))
    results: list[Skill] = []
    if sanitize_query(p.query):
        if not sql_int_ok(js_max(limit * 4, 20)):
            return fail("SqliteError: datatype mismatch")
        results = SkillStore(ctx.db).search(p.query, limit, now=ctx.now)
    if p.include_negative is False:
        results = [s for s in results if s.kind != "negative"]
    if not results:
        return fail("No matching skills found")
    blocks: list[str] = []
    for s in results:
        kw = _skill_keywords(s)
        if isinstance(kw, ToolResult):
            return kw
        tag = "⚠️ [avoid] " if s.kind == "negative" else ""
        blocks.append(
            f"- {tag}**{s.name}** (used {js_number_str(s.use_count)} times): {s.description}"
            f"\n  trigger keywords: {kw}"
        )
    return ok("\n".join(blocks), [s.to_json() for s in results])


def use_skill_refusal(skill: Skill) -> str | None:
    """Why ``use_skill`` refuses this skill (decision 4), or ``None`` when it is callable."""
    if skill.maturity == "playbook":
        return (
            f"Skill '{skill.name}' is a playbook {maturity_caveat('playbook')}: it is a lesson distilled from "
            "past reflections, not a callable skill; read it as guidance instead of running it."
        )
    if skill.maturity == "deprecated":
        return (
            f"Skill '{skill.name}' is deprecated {maturity_caveat('deprecated')}: it failed too often and is "
            "no longer callable; keep it only as a counter-example of what not to do."
        )
    return None


def use_skill(ctx: Ctx, p: UseSkillParams) -> ToolResult:
    store = SkillStore(ctx.db)
    skill = store.get_by_name(p.name)
    if skill is None:
        return fail(f"Skill '{p.name}' does not exist")
    data = skill.to_json()
    refusal = use_skill_refusal(skill)
    if refusal:
        return fail(refusal, data)
    if ctx.writable:
        store.record_usage(skill.name, at=ctx.now)
    else:
        data["usageRecorded"] = False
        data["usageNote"] = "The database is open read-only: use_count and last_used_at were not updated."
    output = f"# Skill: {skill.name}\n{skill.description}\n\n## Action Template\n{skill.action_template}"
    if skill.maturity == "draft":
        output = f"{maturity_caveat('draft')}\n{output}"
    return ok(output, data)
