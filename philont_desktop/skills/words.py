"""The grades in words: their names, what each means, and the caveat the agent attaches, without the
grade's own name (the board's column and the detail's chip already say it)."""

from __future__ import annotations

from philont_desktop.qt import QCoreApplication


def grade_name(maturity: str) -> str:
    return {
        "playbook": QCoreApplication.translate("SkillWords", "Playbook"),
        "draft": QCoreApplication.translate("SkillWords", "Draft"),
        "confirmed": QCoreApplication.translate("SkillWords", "Confirmed"),
        "stable": QCoreApplication.translate("SkillWords", "Stable"),
        "deprecated": QCoreApplication.translate("SkillWords", "Deprecated"),
    }.get(maturity, maturity)


def grade_help(maturity: str) -> str:
    return {
        "playbook": QCoreApplication.translate(
            "SkillWords", "A lesson shown as a hint; use_skill does not run it."
        ),
        "draft": QCoreApplication.translate(
            "SkillWords", "Not yet validated: returned with a caveat, verify before use."
        ),
        "confirmed": QCoreApplication.translate("SkillWords", "At least 2 successes without a failure."),
        "stable": QCoreApplication.translate(
            "SkillWords", "At least 5 successes with failures under 10% of them."
        ),
        "deprecated": QCoreApplication.translate(
            "SkillWords", "Verified unreliable: kept as a counter-example, no longer callable."
        ),
    }.get(maturity, "")


def grade_caveat(maturity: str) -> str:
    """The caveat the agent returns with a skill of this grade, short and without the grade's name
    (``""``: none)."""
    return {
        "playbook": QCoreApplication.translate("SkillWords", "a lesson, not run by use_skill"),
        "draft": QCoreApplication.translate("SkillWords", "verify before use"),
        "deprecated": QCoreApplication.translate("SkillWords", "unreliable: a counter-example"),
    }.get(maturity, "")
