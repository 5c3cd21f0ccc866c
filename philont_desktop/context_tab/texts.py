"""The Context tab's names for what the core reports by key: prefix sections, sections only the agent's
server fills, reasons a message was left out, roles, what time travel cannot rewind. Each key has a
translated text (context ``ContextText``); an unknown key is shown as it is."""

from __future__ import annotations

from philont_desktop.qt import QCoreApplication


def _t(text: str) -> str:
    return QCoreApplication.translate("ContextText", text)


def section_title(name: str) -> str:
    return {
        "runtime": _t("Runtime environment"),
        "project_plan": _t("Project plan.md"),
        "active_plan": _t("Active project plan"),
        "task_mode": _t("Task mode (fast)"),
        "user_facts": _t("Known user information"),
        "project_facts": _t("Known project information"),
        "extended_capabilities": _t("Extended capabilities"),
        "skill_index": _t("Skill index"),
        "failure_patterns": _t("Past failure patterns"),
        "lessons": _t("Lessons learned"),
        "negative_skills": _t("Corrected behaviours (negative skills)"),
        "self_knowledge": _t("Who I am now"),
    }.get(name, name)


def omitted_title(key: str) -> str:
    return {
        "schedule_outcomes": _t("Recent runs of this schedule"),
        "recent_uploads": _t("Recently uploaded files"),
        "fetched_resources": _t("Resources fetched earlier"),
        "signals": _t("Signals and interrupts"),
        "autonomous_review": _t("Autonomous self-correction review"),
        "autonomous_progress": _t("Autonomous research progress"),
        "research_approvals": _t("Pending research approvals"),
        "reasoning_progress": _t("Deep-reasoning progress"),
        "user_patterns": _t("User-pattern observations"),
    }.get(key, key)


def reason_text(reason: str) -> str:
    return {
        "over_budget": _t("over the token budget"),
        "already_recent": _t("already among the recent messages"),
        "system_message": _t("system message (counted, not shown)"),
        "candidate_limit": _t("beyond the candidate limit"),
    }.get(reason, reason)


def reason_short(reason: str) -> str:
    return {
        "over_budget": _t("over budget"),
        "already_recent": _t("already recent"),
        "system_message": _t("system message"),
        "candidate_limit": _t("candidate limit"),
    }.get(reason, reason)


def role_name(role: str) -> str:
    return {
        "user": _t("User"),
        "assistant": _t("Assistant"),
        "tool": _t("Tool"),
        "system": _t("System"),
    }.get(role, role)


def section_name(section: str) -> str:
    return {"recent": _t("recent"), "recall": _t("recall")}.get(section, section)


def limit_text(code: str, fallback: str) -> str:
    return {
        "skill_state": _t(
            "Skills are shown with today's counters, maturity and descriptions; only skills created "
            "later are left out, and deleted skills are missing."
        ),
        "fact_access": _t(
            "Facts read after that moment are ordered by their creation time (their last access then "
            "is not recorded)."
        ),
        "restored_rows": _t(
            "A fact forgotten and restored since, or a row edited in place, shows its current state."
        ),
        "schedules": _t("Scheduled tasks are read as they are now."),
    }.get(code, fallback)


def budget_title(name: str) -> tuple[str, str]:
    """``(title, unit)`` of a budget bar."""
    return {
        "recent_tokens": (_t("Recent messages: tokens"), _t("tokens")),
        "recall_tokens": (_t("Recalled messages: tokens"), _t("tokens")),
        "recent_messages": (_t("Recent messages: count"), _t("messages")),
        "recall_candidates": (_t("Recall candidates"), _t("candidates")),
        "prefix_chars": (_t("Memory prefix: characters (cap)"), _t("chars")),
    }.get(name, (name, ""))


def budget_part(name: str) -> str:
    return {
        "shown": _t("shown"),
        "system": _t("system messages (counted, not shown)"),
        "chosen": _t("recalled"),
        "skipped": _t("skipped (already recent or over budget)"),
    }.get(name, name)
