"""``skills``: every skill with its maturity, counters and ranking score at ``--now``."""

from __future__ import annotations

from core.cli.command import Command, Ctx
from core.cli.output import damage_note, fmt_score


def run_skills(ctx: Ctx) -> int:
    from core.shapes import skill_json
    from core.skills import SkillStore

    with ctx.open() as db:
        skills = SkillStore(db).list_every()
    rows = [skill_json(s, ctx.now) for s in skills]
    if ctx.out.as_json:
        ctx.out.json({"now": ctx.now, "skills": rows})
        return 0
    for s in rows:
        flags = [s["maturity"] or "?", s["kind"] or "?"]
        if s["callable"]:
            flags.append("callable")
        if s["isRecipe"]:
            flags.append(f"recipe r{s['revisionCount']}")
        ctx.out.text(
            f"{s['name']}  [{', '.join(flags)}]  used {s['useCount']}, "
            f"{s['successCount']} ok / {s['failureCount']} failed (consecutive {s['consecutiveFailures']}), "
            f"score {fmt_score(s['score'])}" + damage_note(s)
        )
    ctx.out.text(f"({len(rows)} skill{'s' if len(rows) != 1 else ''})")
    return 0


COMMANDS = (Command("skills", "every skill: maturity, kind, counters, callable, revisions", run_skills),)
