"""The core's fixed English sentences, in the interface's language.

The core (no Qt) writes plain English: the grade tags the agent sees, why a skill has its grade and what
would move it next, why a database is read-only, why a file cannot be opened. The GUI shows them; this
module maps the core's fixed phrases and templates to ``tr()`` texts. In English, and for any sentence
it does not recognise (a core message added later), the core's text is returned unchanged, so the worst
case is an English sentence in a Chinese window, never a wrong one.

Every function takes the core's output (or its inputs) and returns text to show::

    core_strings.maturity_caveat("draft")        # "[草稿 · 未完全验证，使用前请核实]"
    core_strings.explanation(d.explanation.why)  # "成功 2 次，没有失败：已确认（…）"
    core_strings.message(str(exc))               # a DatabaseOpenError, a read-only reason, ...
"""

from __future__ import annotations

import re
from collections.abc import Callable

from philont_desktop import i18n
from philont_desktop.qt import QCoreApplication

__all__ = ["explanation", "grade_name", "maturity_caveat", "message", "read_only_reason"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("CoreStrings", text)


def _english() -> bool:
    return i18n.current_language() == i18n.SOURCE_LANGUAGE


# --------------------------------------------------------------------------------------------------
# Skill grades
# --------------------------------------------------------------------------------------------------


def grade_name(maturity: str) -> str:
    """The lower-case grade word the core uses in sentences (``draft``, ``confirmed``...)."""
    names = {
        "draft": _tr("draft"),
        "confirmed": _tr("confirmed"),
        "stable": _tr("stable"),
        "playbook": _tr("playbook"),
        "deprecated": _tr("deprecated"),
    }
    return names.get(maturity, maturity)


def maturity_caveat(maturity: str) -> str:
    """:func:`core.maturity.maturity_caveat` in the interface's language (the tag before a description)."""
    from core.maturity import maturity_caveat as core_caveat

    text = core_caveat(maturity)
    if _english() or not text:
        return text
    tags = {
        "playbook": _tr("[lesson-only, no use_skill]"),
        "draft": _tr("[draft · not fully validated, verify before use]"),
        "confirmed": _tr("[confirmed]"),
        "stable": _tr("[stable]"),
        "deprecated": _tr("[deprecated · verified unreliable, use as a counter-example]"),
    }
    return tags.get(maturity, text)


_GRADES = "draft|confirmed|stable|playbook|deprecated"


def _n(text: str | None) -> int:
    return int(text) if text else 0


def _counts(m: re.Match[str]) -> str:
    """``2 successes and 1 failure (the last one)`` -> the same in the current language."""
    s, f = m["succ"], m["fail"]
    succ = _tr("no success") if s == "no success" else _tr("{0} success(es)").format(_n(m["s"]) or 1)
    fail = _tr("no failure") if f == "no failure" else _tr("{0} failure(s)").format(_n(m["f"]) or 1)
    text = _tr("{0} and {1}").format(succ, fail)
    if m["last_one"]:
        text += _tr(" (the last one)")
    elif m["last_run"]:
        text += _tr(" (the last {0} in a row)").format(_n(m["last_run"]))
    return text


_COUNTS = (
    r"(?P<succ>no success|1 success|(?P<s>\d+) successes) and "
    r"(?P<fail>no failure|1 failure|(?P<f>\d+) failures)"
    r"(?: \((?P<last_one>the last one)\)| \(the last (?P<last_run>\d+) in a row\))?"
)


def _why_suffix(grade: str, rest: str) -> str | None:
    fixed = {
        " (a recorded failure rules out confirmation)": _tr(" (a recorded failure rules out confirmation)"),
        " (reset to draft with its counters kept; the next success confirms it)": _tr(
            " (reset to draft with its counters kept; the next success confirms it)"
        ),
        " (not yet validated; confirmation needs 2 successes and no failure)": _tr(
            " (not yet validated; confirmation needs 2 successes and no failure)"
        ),
        " (the next success makes it stable)": _tr(" (the next success makes it stable)"),
        " (stable needs 5 successes and failures under 10% of them)": _tr(
            " (stable needs 5 successes and failures under 10% of them)"
        ),
        " (the highest grade successes can reach)": _tr(" (the highest grade successes can reach)"),
        ", a lesson shown as a hint that use_skill does not run": _tr(
            ", a lesson shown as a hint that use_skill does not run"
        ),
    }
    if rest in fixed:
        return fixed[rest]
    if grade == "deprecated":
        m = re.fullmatch(r" \((?:(?P<run>\d+) failures in a row|(?P<other>.+))\)", rest)
        if m is None:
            return None
        if m["run"]:
            reason = _tr("{0} failures in a row").format(_n(m["run"]))
        elif m["other"] == "failures above 30% of its successes":
            reason = _tr("failures above 30% of its successes")
        elif m["other"] == "set by hand, or by failures its counters no longer show":
            reason = _tr("set by hand, or by failures its counters no longer show")
        else:
            return None
        return _tr(" ({0})").format(reason)
    return None


def _clause(text: str) -> str | None:
    """One ``;``-separated clause of ``Explanation.next`` (or of a ``why``), translated; None if unknown."""
    fixed = {
        "no run of successes can promote it, as confirmation needs zero failures": _tr(
            "no run of successes can promote it, as confirmation needs zero failures"
        ),
        "successes keep it stable": _tr("successes keep it stable"),
        "the next failure deprecates it": _tr("the next failure deprecates it"),
        "set by hand or by reflection, and successes never change it": _tr(
            "set by hand or by reflection, and successes never change it"
        ),
        "final for outcomes: no success or failure changes it": _tr(
            "final for outcomes: no success or failure changes it"
        ),
        "only setting the grade by hand or revising the recipe (which restarts it as draft) brings it back": _tr(
            "only setting the grade by hand or revising the recipe (which restarts it as draft) brings it back"
        ),
    }
    if text in fixed:
        return fixed[text]
    m = re.fullmatch(
        r"(?P<n>\d+) more success(?:es)? with no failure: confirmed \(a failure rules confirmation out\)",
        text,
    )
    if m:
        return _tr(
            "{0} more success(es) with no failure: confirmed (a failure rules confirmation out)"
        ).format(_n(m["n"]))
    m = re.fullmatch(r"(?P<n>\d+) more success(?:es)?(?P<run> in a row)?: stable", text)
    if m:
        if m["run"]:
            return _tr("{0} more successes in a row: stable").format(_n(m["n"]))
        return _tr("{0} more success(es): stable").format(_n(m["n"]))
    m = re.fullmatch(rf"1 failure: back to (?P<g>{_GRADES})", text)
    if m:
        return _tr("1 failure: back to {0}").format(grade_name(m["g"]))
    m = re.fullmatch(r"(?P<n>\d+) failures?(?P<run> in a row)?: deprecated", text)
    if m:
        if m["run"]:
            return _tr("{0} failures in a row: deprecated").format(_n(m["n"]))
        return _tr("{0} failure(s): deprecated").format(_n(m["n"]))
    m = re.fullmatch(r"(?P<n>\d+) more failures?(?P<run> in a row)? deprecates? it", text)
    if m:
        if m["run"]:
            return _tr("{0} more failures in a row deprecate it").format(_n(m["n"]))
        return _tr("{0} more failure(s) deprecate it").format(_n(m["n"]))
    return None


def explanation(text: str) -> str:
    """``Explanation.why`` or ``Explanation.next`` of :func:`core.maturity.explain_maturity`, translated."""
    if _english() or not text:
        return text
    prefix = ""
    m = re.match(r"unrecognised grade (?P<g>.+?), read as draft; ", text)
    if m:
        prefix = _tr("unrecognised grade {0}, read as draft; ").format(m["g"])
        text = text[m.end() :]
    m = re.fullmatch(rf"{_COUNTS}: (?P<grade>{_GRADES})(?P<rest>.*)", text)
    if m:
        suffix = _why_suffix(m["grade"], m["rest"])
        if suffix is None:
            return prefix + text
        return prefix + _tr("{0}: {1}{2}").format(_counts(m), grade_name(m["grade"]), suffix)
    parts = [_clause(p) for p in text.split("; ")]
    if any(p is None for p in parts):
        return prefix + text
    return prefix + _tr("; ").join(p for p in parts if p is not None)


# --------------------------------------------------------------------------------------------------
# Opening and writing: read-only reasons, open errors, report warnings
# --------------------------------------------------------------------------------------------------


def read_only_reason(text: str | None) -> str | None:
    """``OpenReport.read_only_reason`` translated (``None`` stays ``None``)."""
    if text is None or _english():
        return text
    return message(text)


def _fixed_messages() -> dict[str, str]:
    return {
        # read-only reasons (core.db)
        "the database directory cannot be written": _tr("the database directory cannot be written"),
        "the file is not writable": _tr("the file is not writable"),
        "the database has no schema version; it is shown read-only and never stamped": _tr(
            "the database has no schema version; it is shown read-only and never stamped"
        ),
        "the directory is not writable": _tr("the directory is not writable"),
        # open errors: details (core.db)
        "No database file exists at this path.": _tr("No database file exists at this path."),
        "This path is a directory, not a database file.": _tr(
            "This path is a directory, not a database file."
        ),
        "The file cannot be read: permission denied.": _tr("The file cannot be read: permission denied."),
        "The file is empty (0 bytes): it holds no database.": _tr(
            "The file is empty (0 bytes): it holds no database."
        ),
        "This is not an SQLite database (the file does not start with the SQLite header).": _tr(
            "This is not an SQLite database (the file does not start with the SQLite header)."
        ),
        "The file is truncated: its SQLite header is incomplete.": _tr(
            "The file is truncated: its SQLite header is incomplete."
        ),
        "A file already exists at this path; it was left alone.": _tr(
            "A file already exists at this path; it was left alone."
        ),
        " No backup that passes quick_check was found in backups/.": _tr(
            " No backup that passes quick_check was found in backups/."
        ),
        # report warnings
        "The directory cannot be written and has no -shm file: the database is opened with immutable=1, "
        "so changes made by the agent while the app runs will not be seen.": _tr(
            "The directory cannot be written and has no -shm file: the database is opened with "
            "immutable=1, so changes made by the agent while the app runs will not be seen."
        ),
    }


def _template_rules() -> list[tuple[str, Callable[[re.Match[str]], str]]]:
    return [
        (
            r"the database has schema version (?P<v>\d+), newer than (?P<known>\d+), which this version "
            r"understands; it is shown read-only and never re-stamped",
            lambda m: _tr(
                "the database has schema version {0}, newer than {1}, which this version understands; "
                "it is shown read-only and never re-stamped"
            ).format(m["v"], m["known"]),
        ),
        (
            r"the database's schema version (?P<v>.*) is not a version number; it is shown read-only and "
            r"never re-stamped",
            lambda m: _tr(
                "the database's schema version {0} is not a version number; it is shown read-only and never "
                "re-stamped"
            ).format(m["v"]),
        ),
        (
            r"the database has schema version (?P<v>\d+), older than (?P<known>\d+); this version does not "
            r"migrate it, so it is shown read-only",
            lambda m: _tr(
                "the database has schema version {0}, older than {1}; this version does not migrate it, so it "
                "is shown read-only"
            ).format(m["v"], m["known"]),
        ),
        (r"core tables are missing: (?P<x>.+)", lambda m: _tr("core tables are missing: {0}").format(m["x"])),
        (
            r"core columns are missing: (?P<x>.+)",
            lambda m: _tr("core columns are missing: {0}").format(m["x"]),
        ),
        (
            r"full-text tables are missing: (?P<x>.+)",
            lambda m: _tr("full-text tables are missing: {0}").format(m["x"]),
        ),
        (
            r"the database is damaged \(quick_check: (?P<x>.+)\)",
            lambda m: _tr("the database is damaged (quick_check: {0})").format(m["x"]),
        ),
        (r"quick_check failed: (?P<x>.+)", lambda m: _tr("quick_check failed: {0}").format(m["x"])),
        (
            r"The file cannot be read: (?P<x>.+)\.",
            lambda m: _tr("The file cannot be read: {0}.").format(m["x"]),
        ),
        (
            r"The file is truncated: the header declares (?P<n>\d+) pages of (?P<p>\d+) bytes "
            r"\((?P<t>\d+) bytes\) but the file has (?P<s>\d+) bytes\.",
            lambda m: _tr(
                "The file is truncated: the header declares {0} pages of {1} bytes ({2} bytes) but the "
                "file has {3} bytes."
            ).format(m["n"], m["p"], m["t"], m["s"]),
        ),
        (
            r"This is not an SQLite database \((?P<x>.+)\)\.",
            lambda m: _tr("This is not an SQLite database ({0}).").format(m["x"]),
        ),
        (
            r"The database is damaged \((?P<x>.+)\)\.",
            lambda m: _tr("The database is damaged ({0}).").format(m["x"]),
        ),
        (
            r"The database cannot be opened \((?P<x>.+)\)\.",
            lambda m: _tr("The database cannot be opened ({0}).").format(m["x"]),
        ),
        (
            r"The database cannot be read \((?P<x>.+)\)\.",
            lambda m: _tr("The database cannot be read ({0}).").format(m["x"]),
        ),
        (
            r" The newest backup that passes quick_check is (?P<x>.+)\.",
            lambda m: _tr(" The newest backup that passes quick_check is {0}.").format(m["x"]),
        ),
        (
            r"Writing is refused: (?P<x>.+)\.",
            lambda m: _tr("Writing is refused: {0}.").format(message(m["x"])),
        ),
    ]


def _sentence(text: str) -> str | None:
    fixed = _fixed_messages()
    if text in fixed:
        return fixed[text]
    for pattern, build in _template_rules():
        m = re.fullmatch(pattern, text, flags=re.DOTALL)
        if m:
            return build(m)
    return None


def message(text: str) -> str:
    """A message of the core (an error's text, a reason, a warning) in the interface's language.

    ``DatabaseOpenError`` texts (``<path>: <detail>[ <backup sentence>]``) are translated piece by piece.
    Unknown messages come back unchanged.
    """
    if _english() or not text:
        return text
    whole = _sentence(text)
    if whole is not None:
        return whole
    # "<path>: <detail>" with an optional backup sentence, as DatabaseOpenError builds it
    tail = ""
    m = re.search(
        r"( The newest backup that passes quick_check is .+\.| No backup that passes quick_check was found "
        r"in backups/\.)$",
        text,
    )
    if m:
        tail = _sentence(m.group(1)) or m.group(1)
        text = text[: m.start()]
    for i in [i for i, ch in enumerate(text) if ch == ":"]:
        head, detail = text[:i], text[i + 2 :]
        if text[i + 1 : i + 2] != " ":
            continue
        translated = _sentence(detail)
        if translated is not None:
            return f"{head}: {translated}{tail}"
    return text + tail
