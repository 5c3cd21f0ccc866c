"""The memory prefix: what the reference agent puts at the top of a turn (spec Part A §6, Part C f).

:func:`build_memory_prefix` reproduces ``buildMemoryPrefix()`` of the reference server to the character
for every section that the memory database (and the project's ``plan.md`` files) feed, plus the two
unconditional ones:

1. runtime environment (``host_os``: the host that runs the agent; this machine by default);
2. the project plan: a scheduled session (``system:scheduled:<name>``) whose task has a project gets
   that project's ``plan.md`` (capped at 20 000 units); any other session whose newest plan in
   ``memory_plans`` has ``persisted_to`` gets the ``## Active project plan`` link block;
3. task mode, in **fast** mode (the agent keeps the mode in process memory and starts in fast mode);
4. known user / project information (namespaces exactly ``user`` and ``project``; caps 100 / 20;
   values capped at 1 000 units each);
5. extended capabilities (when a skill ``clawhub`` or ``github-skills`` exists);
6. the skill index, failure patterns, lessons and the negative list;
7. "Who I am now" from ``self.summary`` / ``self.strengths`` / ``self.growth_edges``.

Sections fed only by the running server (uploads, fetched resources, signals, autonomous review and
progress, research approvals, reasoning progress, user patterns, and schedule outcomes) are not
reproduced; :attr:`PrefixResult.omitted` names them (decision 8).

The whole text is wrapped and capped at 40 000 UTF-16 units exactly like the reference. Reading is
side-effect free unless ``bump_self=True``: the reference reads the ``self.*`` facts through
``getFact``, which refreshes their ``last_accessed_at``; that refresh happens here only on request
(and never on a read-only database). It does not change the text.
"""

from __future__ import annotations

import os
import re
import sys
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from core import sidefiles
from core.damage import row_notice
from core.engine import sqlite3
from core.errors import Notice
from core.facts import FactStore
from core.jsutil import estimate_tokens, js_join, js_slice, js_stringify, js_trim, utf16_len
from core.models import Fact, Skill, parse_json_lenient
from core.schedules import ScheduleStore
from core.skills import SkillStore

if TYPE_CHECKING:
    from core.db import MemoryDB

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
_KEBAB_RE = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?")
_BSD_LIKE = ("freebsd", "openbsd", "netbsd", "aix", "sunos", "linux")


class PrefixSection(BaseModel):
    """One section of the prefix: its name, its exact text (its lines joined with ``\\n``, blank lines
    included) and its size in UTF-16 units and estimated tokens."""

    name: str
    text: str
    chars: int
    tokens: int


class PrefixResult(BaseModel):
    """The prefix text and its sections. ``row_notices`` say, for each damaged row that reaches the
    prefix, what the agent makes of it (:func:`core.damage.row_notice`)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    text: str
    sections: list[PrefixSection] = Field(default_factory=list)
    omitted: list[str] = Field(default_factory=list)
    truncated: bool = False
    raw_chars: int = 0
    warnings: list[str] = Field(default_factory=list)
    notices: list[Notice] = Field(default_factory=list)  # the warnings with codes and parameters
    row_notices: list[Notice] = Field(default_factory=list)

    @property
    def chars(self) -> int:
        return utf16_len(self.text)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


# ---------------------------------------------------------------------------------------------------
# Pure helpers (tested on their own)
# ---------------------------------------------------------------------------------------------------


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


def _indent(body: str) -> str:
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


def _fact_sort_key(f: Fact) -> Any:
    return f.last_accessed_at if f.last_accessed_at is not None else f.created_at


# ---------------------------------------------------------------------------------------------------
# Facts at a past moment (``as_of``)
# ---------------------------------------------------------------------------------------------------

_FACT_AS_OF = (
    "created_at < :t AND (forgotten_at IS NULL OR forgotten_at >= :t) AND (superseded_by IS NULL OR "
    "EXISTS (SELECT 1 FROM memory_facts AS nx WHERE nx.id = memory_facts.superseded_by AND nx.created_at >= :t))"
)


class _FactsAsOf(FactStore):
    """Facts as they were at ``t``: created before it, not forgotten before it and not superseded by a
    version created before it. A ``last_accessed_at`` at or after ``t`` is unknown then and is cleared
    (the facts sections fall back to ``created_at``). Reading never bumps."""

    def __init__(self, db: MemoryDB, t: int):
        super().__init__(db)
        self.t = int(t)

    def _rewind(self, facts: list[Fact]) -> list[Fact]:
        for f in facts:
            if f.last_accessed_at is not None and not (
                isinstance(f.last_accessed_at, int | float) and f.last_accessed_at < self.t
            ):
                f.last_accessed_at = None  # read after t: its access time at t is not recorded
            if f.forgotten_at is not None:
                f.forgotten_at = None  # forgotten at or after t (the query kept only those)
            if f.superseded_by is not None:
                f.superseded_by = None  # its successor was created at or after t
        return facts

    def list_facts(self, namespace: str | None = None, include_inactive: bool = False) -> list[Fact]:
        if include_inactive:
            return super().list_facts(namespace, include_inactive)
        where = _FACT_AS_OF
        params: dict[str, Any] = {"t": self.t}
        if namespace is not None:
            where = "namespace = :ns AND " + where
            params["ns"] = namespace
        order = "key" if namespace is not None else "namespace, key"
        with self.db.lock:
            rows = self.db.conn.execute(
                f"SELECT * FROM memory_facts WHERE {where} ORDER BY {order}, rowid", params
            ).fetchall()
        return self._rewind([Fact.from_row(r) for r in rows])

    def get_fact(self, namespace: str, key: str, now: int | None = None, bump: bool = True) -> Fact | None:
        with self.db.lock:
            row = self.db.conn.execute(
                f"SELECT * FROM memory_facts WHERE namespace = :ns AND key = :k AND {_FACT_AS_OF} "
                "ORDER BY rowid DESC LIMIT 1",
                {"ns": namespace, "k": key, "t": self.t},
            ).fetchone()
        return None if row is None else self._rewind([Fact.from_row(row)])[0]


# ---------------------------------------------------------------------------------------------------
# Section builders: each returns the section's elements (possibly empty)
# ---------------------------------------------------------------------------------------------------


class _Builder:
    def __init__(
        self, db: MemoryDB, session_id: str, bump_self: bool, now: int | None, as_of: int | None = None
    ):
        self.db = db
        self.session_id = session_id
        self.bump_self = bump_self
        self.now = now
        self.as_of = None if as_of is None else int(as_of)
        self.facts = FactStore(db) if self.as_of is None else _FactsAsOf(db, self.as_of)
        self.skills = SkillStore(db, created_before=self.as_of)
        self.warnings: list[str] = []
        self.notices: list[Notice] = []  # the warnings with their codes
        self.row_notices: list[Notice] = []
        self._noted: set[tuple[str, Any, str]] = set()

    def warn(self, code: str, message: str, **params: Any) -> None:
        self.warnings.append(message)
        self.notices.append(Notice(code, message, params))

    def note(self, section: str, row: Fact | Skill) -> None:
        """A row notice for a damaged fact or skill that this section shows the agent."""
        if not row.damaged:
            return
        if isinstance(row, Fact):
            layer, label = "facts", f"{row.namespace}.{row.key}"
        else:
            layer, label = "skills", f"skill {row.name!r}"
        key = (layer, row.id, section)
        if key not in self._noted:
            self._noted.add(key)
            self.row_notices.append(row_notice(layer, row.id, label, section, row.damaged))

    # -- project plan --------------------------------------------------------------------------------
    def _latest_plan_project(self) -> str | None:
        """``persisted_to`` of the session's newest plan (``None`` when absent or unreadable); with
        ``as_of``, of its newest plan created before then."""
        sql = "SELECT * FROM memory_plans WHERE session_id = ?"
        params: tuple[Any, ...] = (self.session_id,)
        if self.as_of is not None:
            sql += " AND created_at < ?"
            params += (self.as_of,)
        try:
            with self.db.lock:
                row = self.db.conn.execute(sql + " ORDER BY created_at DESC LIMIT 1", params).fetchone()
        except sqlite3.Error:
            return None  # no plans table in this database
        if row is None:
            return None
        keys = row.keys()
        # The reference parses steps and review history when it reads a plan; a malformed one fails.
        steps, err1 = parse_json_lenient(row["steps_json"]) if "steps_json" in keys else ([], None)
        _, err2 = (
            parse_json_lenient(row["review_history_json"]) if "review_history_json" in keys else (None, None)
        )
        if err1 or err2 or not isinstance(steps, list) or any(s is None for s in steps):
            self.warn(
                "prefix.plan_unreadable",
                f"The newest plan of session {self.session_id!r} cannot be read by the agent "
                "(malformed steps or review history); its project plan section is skipped.",
                session=self.session_id,
            )
            return None
        persisted = row["persisted_to"] if "persisted_to" in keys else None
        return persisted if isinstance(persisted, str) and persisted else None

    def project_plan(self) -> tuple[str, list[str]]:
        sid = self.session_id
        if not sid:
            return "active_plan", []
        sched_name = sid[len(SCHEDULED_SESSION_PREFIX) :] if sid.startswith(SCHEDULED_SESSION_PREFIX) else ""
        project: str | None = None
        if sched_name:
            try:
                sched = ScheduleStore(self.db).find_by_name(sched_name)
            except sqlite3.Error:
                sched = None
            if sched is not None and sched.json_errors:
                self.warn(
                    "prefix.schedule_payload",
                    f"Schedule {sched_name!r} has a malformed payload; plan injection skipped.",
                    schedule=sched_name,
                )
                return "project_plan", []
            if sched is not None and sched.project:
                project = sched.project
        if not project:
            project = self._latest_plan_project()
        if not project:
            return ("project_plan" if sched_name else "active_plan"), []
        if not sched_name:
            return "active_plan", [
                "## Active project plan",
                f"project: `{project}`",
                f"plan.md: `{plan_md_path(project)}`",
                "Lessons / Operational Knowledge / Recent Runs are all in the file. Use `readFile` when needed. "
                "Details are not repeated in the prefix to save tokens / preserve cache hit.",
                "",
            ]
        if not _KEBAB_RE.fullmatch(project):
            return "project_plan", []
        path = plan_md_path(project)
        # The agent's file: read only when it is a regular file of a sane size (a FIFO would hang the
        # preview), never moved; otherwise left out as when it is missing.
        data, _problem = sidefiles.read_bytes(path, PLAN_MD_MAX_BYTES)
        if data is None:
            return "project_plan", []
        md = data.decode("utf-8", "replace")
        if not md:
            return "project_plan", []
        n = utf16_len(md)
        truncated = n > PLAN_MD_INJECT_CAP
        inject = (
            js_slice(md, 0, PLAN_MD_INJECT_CAP)
            + f'\n\n[... plan.md remaining {n - PLAN_MD_INJECT_CAP} chars truncated — readFile("{path}") for '
            "full content]\n"
            if truncated
            else md
        )
        reminder = (
            "↑ This is the project's accumulated work notes. Lessons / Operational Knowledge persist across fires;"
            " repeated failures mean you **did not read Lessons** — re-read before starting."
        )
        if truncated:
            reminder += f' This section is truncated; for full Recent Runs use `readFile("{path}")`.'
        heading = f"## Project plan.md ({project}, auto-inject{', truncated' if truncated else ''})"
        return "project_plan", [heading, "", inject, "", reminder, ""]

    # -- facts -----------------------------------------------------------------------------------------
    def facts_section(self, ns: str, heading: str, cap: int) -> list[str]:
        all_facts = self.facts.list_facts(ns)
        if not all_facts:
            return []
        top = sorted(all_facts, key=_fact_sort_key, reverse=True)[:cap]
        out = [f"## {heading}"]
        for f in top:
            self.note(f"{ns}_facts", f)
            if f.json_errors:
                self.warn(
                    "prefix.fact_invalid_json",
                    f"{ns}.{f.key} holds invalid JSON; the agent cannot read it (shown here as a string).",
                    fact=f"{ns}.{f.key}",
                )
            out.append(
                f"  {ns}.{f.key} = {truncate_for_injection(js_stringify(f.value), FACT_VALUE_INJECT_CAP, f'{ns}.{f.key}')}"
            )
        if len(all_facts) > cap:
            out.append(
                f"  ... ({len(all_facts) - cap} older facts not injected — use "
                f'`listFacts({{namespace:"{ns}"}})` to retrieve all when needed)'
            )
        out.append("")
        return out

    # -- skills ----------------------------------------------------------------------------------------
    def extended_capabilities(self) -> list[str]:
        claw = self.skills.get_by_name("clawhub")
        gh = self.skills.get_by_name("github-skills")
        if claw is None and gh is None:
            return []
        out = [
            "## Extended capabilities — use these when local skills are insufficient",
            "",
            "Entry points (call directly, do NOT search_skills first):",
        ]
        if claw is not None:
            out.append(
                "  - `use_skill('clawhub')` → install a new skill from the ClawHub public skill library"
            )
        if gh is not None:
            out.append("  - `use_skill('github-skills')` → install SKILL.md from a GitHub repository")
        out += [
            "",
            "When to use (any match triggers, **no user prompt needed**):",
            "  - search_skills returns empty, or results are unsuitable / failed when tried",
            "  - User asks about an unfamiliar domain not covered by the local skill library",
            "  - A tool call fails and a different approach is needed (network blocked / no permission / unsupported)",
            "  - You are about to say \"I can't / can't find / unfamiliar with / temporarily unable / no ready-made X\"",
            '  - User hints "is there another way / look at others / try X"',
            "",
            'Mental model: these two are meta-skills for "learning new capabilities externally". **Invoke with '
            "use_skill**",
            "(not ordinary skills in the search_skills index). Takes effect immediately after loading, no user "
            "consent required.",
            "This is the standard way to extend your capabilities — not overstepping, not a burden.",
            "",
        ]
        return out

    def skill_index(self) -> list[str]:
        positives = [
            s
            for s in self.skills.list_all(40, now=self.now)
            if s.kind != "negative" and s.name not in META_SKILL_NAMES and s.maturity != "playbook"
        ][:SKILL_INDEX_MAX_LINES]
        if not positives:
            return []
        out = ["Available skills (use use_skill(name) to get details):"]
        for s in positives:
            self.note("skill_index", s)
            tag = f" [{s.source.split(':')[0]}]" if isinstance(s.source, str) and s.source else ""
            out.append(f"  - {s.name}{tag}: {s.description}")
            w = js_trim(s.when_to_use or "")
            if w:
                display = (
                    js_slice(w, 0, SKILL_WHEN_TO_USE_TRUNC) + "…"
                    if utf16_len(w) > SKILL_WHEN_TO_USE_TRUNC
                    else w
                )
                out.append(f"    When to use: {display}")
        return out

    def failure_playbooks(self) -> list[Skill]:
        pool = self.skills.list_by_maturity("playbook", 30)
        return [p for p in pool if isinstance(p.source, str) and p.source.startswith("plan-failure:")][
            :FAILURE_MODE_TOP_N
        ]

    def failure_section(self, failures: list[Skill]) -> list[str]:
        if not failures:
            return []
        out = [
            "",
            "## ❌ My past failure patterns",
            "(Failure patterns distilled from past plan_close(failure) turns. If the current task matches a "
            "task_signature below, **read this section first** to avoid repeating the same mistakes.)",
        ]
        for fb in failures:
            self.note("failure_patterns", fb)
            sig = failure_signature(fb.name)
            out.append(f"· {fb.name}{f' [{sig}]' if sig is not None else ''}")
            out.append(_indent(js_trim(fb.description)))
        out.append("")
        return out

    def lessons_section(self, failures: list[Skill]) -> list[str]:
        names = {f.name for f in failures}
        playbooks = [
            p
            for p in self.skills.list_by_maturity("playbook", PLAYBOOK_TOP_N + len(failures))
            if p.name not in names
        ][:PLAYBOOK_TOP_N]
        if not playbooks:
            return []
        out = [
            "",
            "## Lessons I have learned",
            "(These are lessons distilled from past reflections, not callable skills. When you see a matching "
            '"when" situation, remember to follow the "next time" action.)',
        ]
        for pb in playbooks:
            self.note("lessons", pb)
            sig = lesson_signature(pb.name)
            out.append(f"· {pb.name}{f' [{sig}]' if sig is not None else ''}")
            out.append(_indent(js_trim(pb.description)))
        out.append("")
        return out

    def negatives(self) -> list[str]:
        negs = self.skills.list_negative(20, now=self.now)
        if not negs:
            return []
        out = [
            "⚠️ The user has previously corrected these behaviors — avoid repeating them in the following situations:"
        ]
        for s in negs:
            self.note("negative_skills", s)
            out.append(f"  - {s.name}: {s.description}")
            tpl = js_trim(s.action_template or "")
            if tpl:
                out.append(_indent(tpl))
        return out

    # -- self-knowledge ----------------------------------------------------------------------------------
    def _self_fact(self, key: str) -> Fact | None:
        f = self.facts.get_fact("self", key, now=self.now, bump=self.bump_self)
        if f is not None:
            self.note("self_knowledge", f)
        return f

    def self_knowledge(self) -> list[str]:
        summary = self._self_fact("summary")
        if summary is None:
            return []
        if summary.value is None:
            self.warn(
                "prefix.self_null",
                "self.summary holds null: the agent fails to build its prefix on it.",
                fact="self.summary",
            )
            return []
        content = summary.value.get("content") if isinstance(summary.value, dict) else None
        if not (isinstance(content, str) and js_trim(content)):
            return []
        out = ["## Who I am now (self-knowledge from past experience)", content]
        for key, label in (("strengths", "My strengths: "), ("growth_edges", "Still learning: ")):
            f = self._self_fact(key)
            if f is None:
                continue
            if f.value is None:
                self.warn(
                    "prefix.self_null",
                    f"self.{key} holds null: the agent fails to build its prefix on it.",
                    fact=f"self.{key}",
                )
                continue
            items = f.value.get("content") if isinstance(f.value, dict) else None
            if isinstance(items, list) and items:
                out.append(label + js_join(items, ", "))
        return out


def _section(name: str, elements: list[str]) -> PrefixSection:
    text = "\n".join(elements)
    return PrefixSection(name=name, text=text, chars=utf16_len(text), tokens=estimate_tokens(text))


def build_memory_prefix(
    db: MemoryDB,
    *,
    host_os: str | None = None,
    session_id: str = "global",
    bump_self: bool = False,
    now: int | None = None,
    as_of: int | None = None,
) -> PrefixResult:
    """The memory prefix the agent would build for ``session_id`` (see the module docstring).

    ``host_os`` is the agent host's platform (``None``: this machine; ``linux``, ``darwin``, ``windows``,
    ``win32`` and other ``sys.platform`` values are accepted). ``now`` only affects skill ranking (and the
    access time written when ``bump_self`` is set).

    ``as_of`` (epoch ms) rebuilds the prefix from what the database can tell about that moment: facts
    created before it, not forgotten before it and not superseded by a version created before it (an
    access time at or after it is unknown and falls back to ``created_at``); skills and plans created
    before it (skills with today's counters and maturity); schedules as they are now. Nothing is bumped
    then. Looking from after every row gives exactly the live prefix.
    """
    b = _Builder(db, session_id, bump_self, now, as_of)
    parts: list[tuple[str, list[str]]] = [("runtime", [runtime_line(host_os), ""])]
    parts.append(b.project_plan())
    parts.append(("task_mode", [*TASK_MODE_FAST, ""]))
    parts.append(("user_facts", b.facts_section("user", "Known user information", USER_FACTS_SAFETY_CAP)))
    parts.append(
        ("project_facts", b.facts_section("project", "Known project information", PROJECT_FACTS_TOP_N))
    )
    parts.append(("extended_capabilities", b.extended_capabilities()))
    parts.append(("skill_index", b.skill_index()))
    failures = b.failure_playbooks()
    parts.append(("failure_patterns", b.failure_section(failures)))
    parts.append(("lessons", b.lessons_section(failures)))
    parts.append(("negative_skills", b.negatives()))
    parts.append(("self_knowledge", b.self_knowledge()))

    lines: list[str] = []
    sections: list[PrefixSection] = []
    for name, elements in parts:
        if elements:
            lines.extend(elements)
            sections.append(_section(name, elements))
    raw = WRAPPER_OPEN + "\n".join(lines) + WRAPPER_CLOSE
    n = utf16_len(raw)
    truncated = n > MEMORY_PREFIX_TOTAL_CAP
    text = (
        js_slice(raw, 0, MEMORY_PREFIX_TOTAL_CAP)
        + f"\n...[memory prefix too long, truncated. Original {n} chars]\n[End of memory layer]"
        if truncated
        else raw
    )
    scheduled = session_id.startswith(SCHEDULED_SESSION_PREFIX) and len(session_id) > len(
        SCHEDULED_SESSION_PREFIX
    )
    omitted = [k for k in SERVER_ONLY_SECTIONS if k != "schedule_outcomes" or scheduled]
    return PrefixResult(
        text=text,
        sections=sections,
        omitted=omitted,
        truncated=truncated,
        raw_chars=n,
        warnings=b.warnings,
        notices=b.notices,
        row_notices=b.row_notices,
    )
