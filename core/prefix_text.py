"""The fixed texts of the memory prefix and the pure helpers that shape its lines (spec Part A §6):
the caps, the wrapper, the runtime and task-mode sections, playbook signatures and the path of a
project's ``plan.md``. Qt-free; no database access."""

from __future__ import annotations

import os
import re
import sys

from core.jsutil import js_slice, js_trim, utf16_len

MEMORY_PREFIX_TOTAL_CAP = 40_000
FACT_VALUE_INJECT_CAP = 1_000
PLAN_MD_INJECT_CAP = 20_000
#: The largest plan.md read (a larger one, or one that is no regular file, is left out as a missing one).
PLAN_MD_MAX_BYTES = 64 * 1024 * 1024
USER_FACTS_SAFETY_CAP = 100
PROJECT_FACTS_TOP_N = 20
SKILL_INDEX_MAX_LINES = 15
SKILL_WHEN_TO_USE_TRUNC = 120
FAILURE_MODE_TOP_N = 3
PLAYBOOK_TOP_N = 5
META_SKILL_NAMES = frozenset({"clawhub", "github-skills"})
SCHEDULED_SESSION_PREFIX = "system:scheduled:"

WRAPPER_OPEN = "\n\n[Memory layer — the following is already known; no need to ask or query again]\n"
WRAPPER_CLOSE = "\n[End of memory layer]"

WINDOWS_RUNTIME = (
    "## Runtime environment\n"
    "Host OS: **Windows** (shell is cmd.exe). Write commands/scripts/paths the Windows way: `where` not "
    "`which`, no heredoc, quote `C:\\...` paths, run Python with `python`; for more power use "
    "`powershell -Command`."
)

TASK_MODE_FAST: tuple[str, ...] = (
    "## Task Mode Self-Assessment (v17 Complex Task Protocol)",
    "Current mode: **fast**",
    "",
    'If this task matches any of the criteria below, **call `task_mode_classify({ mode: "slow", reason })` '
    "as the first step** before starting work.",
    "",
    "[4 self-check questions — any yes → slow]",
    "Q1 How many **independently verifiable outputs** does this task have? ≥ 2 → slow",
    "Q2 Are there **dependencies between steps** (B must wait for A's result)? Yes → slow",
    "Q3 Does the task involve **writes to the external world** (create account / send message / deploy / "
    "modify remote data)?",
    "   Yes → lean slow, unless the write is a single one-shot action with no subsequent verification",
    "Q4 Has the user provided a **guide document / URL / multi-step instructions** (## multi-section / "
    "1./2./3. list)?",
    "   Yes → slow, must follow every item in the document",
    "",
    "Does not match → fast (single tool call / single-intent answer is sufficient).",
    "",
    "Once slow is activated, the mechanism layer enforces: plan_draft (with deliverables) → plan_update_step "
    "→ plan_close (with deliverable_status). **Skipping the protocol = tool rejected by plan_protocol_gate**.",
)

#: Sections of the agent's prefix that only its running server can fill (decision 8).
SERVER_ONLY_SECTIONS: dict[str, str] = {
    "schedule_outcomes": "Recent runs for this schedule (scheduled sessions only)",
    "recent_uploads": "Recently uploaded files (cross-channel)",
    "fetched_resources": "Resources I have previously fetched",
    "signals": "Signal and interrupt sections (critical / needs attention / intrinsic-drive observation)",
    "autonomous_review": "Autonomous self-correction review",
    "autonomous_progress": "Autonomous research progress",
    "research_approvals": "Pending background research approvals",
    "reasoning_progress": "Deep-reasoning progress",
    "user_patterns": "User-pattern observation",
}

_LINE_CHAR = "[^\n\r\u2028\u2029]"  # JavaScript '.'
_LESSON_SIG_RE = re.compile(f"playbook-({_LINE_CHAR}+?)-[a-z0-9]+")
_FAILURE_SIG_RE = re.compile(f"playbook-({_LINE_CHAR}+?)-fail-[a-z0-9]+")
#: A project name as the agent accepts it (kebab-case, 2-60 characters).
KEBAB_RE = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?")
_BSD_LIKE = ("freebsd", "openbsd", "netbsd", "aix", "sunos", "linux")


def agent_platform(host_os: str | None = None) -> str:
    """``process.platform`` of the agent host: ``'win32'`` for Windows, else e.g. ``linux``/``darwin``.

    Accepts ``sys.platform`` values (``linux``, ``darwin``, ``win32``, ``freebsd14``, ``sunos5`` ...) and
    ``windows``; ``None`` means this machine.
    """
    p = (sys.platform if host_os is None else host_os).strip().lower()
    if p in ("win32", "windows", "win64", "nt"):
        return "win32"
    for name in _BSD_LIKE:
        if p.startswith(name) and p[len(name) :].isdigit():
            return name
    return p


def runtime_line(host_os: str | None = None) -> str:
    """The runtime-environment element (two lines)."""
    platform = agent_platform(host_os)
    if platform == "win32":
        return WINDOWS_RUNTIME
    return f"## Runtime environment\nHost OS: **{platform}** (POSIX sh/bash)."


def truncate_for_injection(text: str, cap: int, label: str) -> str:
    """``text`` cut to ``cap`` units plus the reference's marker line, or ``text`` when it fits."""
    n = utf16_len(text)
    if n <= cap:
        return text
    return (
        js_slice(text, 0, cap)
        + f"\n...[{label} too long, truncated: original {n} chars → keeping first {cap}]"
    )


def lesson_signature(name: str) -> str | None:
    """``<sig>`` of a lesson playbook name ``playbook-<sig>-<hash>`` (JS ``^playbook-(.+?)-[a-z0-9]+$``)."""
    m = _LESSON_SIG_RE.fullmatch(name)
    return m.group(1) if m else None


def failure_signature(name: str) -> str | None:
    """``<sig>`` of a failure playbook name (JS ``^playbook-(.+?)-fail-[a-z0-9]+$``)."""
    m = _FAILURE_SIG_RE.fullmatch(name)
    return m.group(1) if m else None


def indent(body: str) -> str:
    """Each line of ``body`` indented by four spaces."""
    return "\n".join(f"    {line}" for line in body.split("\n"))


def projects_base_dir() -> str:
    """``$PHILONT_PROJECTS_DIR``, else ``($PHILONT_HOME or ~/.philont)/projects``, made absolute."""
    env = js_trim(os.environ.get("PHILONT_PROJECTS_DIR", ""))
    if env:
        return os.path.abspath(env)
    home = js_trim(os.environ.get("PHILONT_HOME", "")) or os.path.join(os.path.expanduser("~"), ".philont")
    return os.path.abspath(os.path.join(home, "projects"))


def plan_md_path(project: str) -> str:
    """Node's ``path.join(base, project, 'plan.md')`` (segments joined, then normalised)."""
    return os.path.normpath(os.sep.join((projects_base_dir(), project, "plan.md")))
