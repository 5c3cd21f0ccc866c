"""Bad input, table-driven: damaged, foreign and odd files give a clear message, no crash and no write.

For every case the command line (``info``, a search of each layer, ``facts``, ``skills``) and the app
(the main window opening the file and visiting every tab with its self-test; ``--self-test`` itself for
the files that cannot be opened) are run. Each must:

* end normally: exit status 0, or 1 with exactly one line ``philont-memory: error: ...`` on stderr
  (the app: an error on the start page or a message in a tab), never a traceback, never the name of
  a Python exception standing in for an explanation;
* say what is wrong where something is (the open problem, the missing tables, the read-only reason);
* write nothing: the file and its -wal keep their bytes, nothing but the readers' -shm appears.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from core import cli
from core.db import MemoryDB
from core.errors import DatabaseOpenError
from philont_desktop import app as app_mod
from philont_desktop.main_window import MainWindow
from philont_desktop.selftest import check_tab
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until
from tests.reliability import badfiles
from tests.reliability.helpers import REPO, child_env, fingerprint, python, settle

IDLE_MS = 30_000
# "KeyError: 'x'", "TypeError: ..." in a message means an exception escaped its explanation.
LEAKED = re.compile(r"\b(Traceback|[A-Z][A-Za-z]*(Error|Exception)\b:)")
# A sentence that ends twice ("...database.. Nothing was changed."), not an ellipsis.
DOUBLE_PERIOD = re.compile(r"(?<!\.)\.\.(?!\.)")
# Messages the generic fallbacks produce for exceptions nobody anticipated.
UNANTICIPATED = (
    "Something went wrong",
    "not supported between instances",
    "object has no attribute",
    "unsupported operand",
    "is not subscriptable",
    "invalid literal",
    "must be real number",
    "codec can't",
    "out of range",
    "too large to convert",
    "NoneType",
)


@dataclass(frozen=True)
class Case:
    name: str
    build: badfiles.Builder
    problem: tuple[str, ...] = ()  # DatabaseOpenError.problem values accepted; () = the file opens
    read_only_reason: str | None = None  # a piece of the reason shown when the file opens read-only
    clean: bool = True  # the app and the CLI show it with no error at all
    mentions: tuple[str, ...] = field(default_factory=tuple)  # where not clean: what every error names


MISSING = (
    "no such table",
    "missing",
    "memory_facts",
    "memory_skills",
    "memory_actions",
    "memory_raw_messages",
)

CASES = [
    Case("zero-byte", badfiles.zero_byte, ("empty",)),
    Case("truncated", badfiles.truncated, ("truncated", "corrupt")),
    Case("truncated-header", badfiles.truncated_header, ("truncated",)),
    Case("random-bytes", badfiles.random_bytes, ("not-sqlite",)),
    Case("text-file", badfiles.text_file, ("not-sqlite",)),
    Case("png-file", badfiles.png_file, ("not-sqlite",)),
    Case("sqlite-magic-then-garbage", badfiles.sqlite_header_garbage, ("truncated", "corrupt", "not-sqlite")),
    Case("foreign-sqlite", badfiles.foreign_sqlite, (), "core tables are missing", False, MISSING),
    Case("newer-schema", badfiles.newer_schema, (), "schema version 99"),
    Case("missing-core-tables", badfiles.missing_core_tables, (), "core tables are missing", False, MISSING),
    Case(
        "missing-messages-table",
        badfiles.missing_messages_table,
        (),
        "core tables are missing",
        False,
        MISSING,
    ),
    Case("missing-fts", badfiles.missing_fts, (), "full-text tables are missing"),
    Case("fts-out-of-sync", badfiles.fts_out_of_sync),
    Case("invalid-json", badfiles.invalid_json),
    Case("bad-confidence", badfiles.bad_confidence),
    Case("unknown-enums", badfiles.unknown_enums),
    Case("future-timestamps", badfiles.future_timestamps),
    Case("ten-mb-message", badfiles.huge_message),
    Case("wrong-types", badfiles.wrong_types),
]


def _dir_state(path: Path) -> dict[str, object]:
    """What a look may not change: the file and -wal bytes, and which other files exist."""
    others = sorted(p.name for p in path.parent.iterdir() if p.name not in (path.name, path.name + "-shm"))
    others = [n for n in others if not (n == path.name + "-wal" and (path.parent / n).stat().st_size == 0)]
    return {"bytes": fingerprint(path), "files": others}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """Each case's file, built once for the module (the tests work on copies)."""
    return {"_root": tmp_path_factory.mktemp("bad-input")}


@pytest.fixture(params=CASES, ids=[c.name for c in CASES])
def case_file(request, built, tmp_path) -> tuple[Case, Path]:
    case: Case = request.param
    if case.name not in built:
        original = built["_root"] / case.name / "memory.sqlite"
        original.parent.mkdir()
        case.build(original)
        built[case.name] = original
    path = tmp_path / "memory" / "memory.sqlite"
    path.parent.mkdir(mode=0o700)
    shutil.copy2(built[case.name], path)
    return case, path


def _assert_clear(text: str, where: str, case: Case | None = None) -> None:
    """No escaped exception, no generic "something went wrong"; where tables are missing, a message
    that names what is missing is clear enough (SQLite's own "no such table: X" included)."""
    if case is not None and not case.clean:
        assert "Traceback" not in text, f"{where}: a traceback: {text!r}"
        assert any(m in text for m in case.mentions), f"{where}: does not say what is missing: {text!r}"
        return
    assert not LEAKED.search(text), f"{where}: an exception leaked: {text!r}"
    for marker in UNANTICIPATED:
        assert marker not in text, f"{where}: an unanticipated failure: {text!r}"
    assert not DOUBLE_PERIOD.search(text), f"{where}: a sentence ends twice: {text!r}"
    # No case has a backup: a hint about the backups that were looked at is beside the point.
    assert "passes quick_check" not in text, (
        f"{where}: a hint about backups that were not looked at: {text!r}"
    )


# -- the command line -------------------------------------------------------------------------------------

CLI_COMMANDS = (
    ["info"],
    ["info", "--json"],
    ["search", "deploy"],
    ["search", "数据库", "--layer", "notes"],
    ["search", "deploy", "--layer", "skills"],
    ["facts", "--include-inactive"],
    ["skills"],
)


def _run_cli(capsys, path: Path, args: list[str]) -> tuple[int, str, str]:
    rc = cli.main(["--db", str(path), "--now", str(badfiles.NOW), *args])
    out, err = capsys.readouterr()
    return rc, out, err


def test_command_line(case_file, capsys):
    case, path = case_file
    before = _dir_state(path)
    for args in CLI_COMMANDS:
        where = f"philont-memory {' '.join(args)}"
        rc, out, err = _run_cli(capsys, path, args)
        assert rc in (0, 1), f"{where}: exit status {rc}"
        if rc == 1:
            lines = err.splitlines()
            assert len(lines) == 1 and lines[0].startswith("philont-memory: error: "), f"{where}: {err!r}"
            _assert_clear(lines[0], where, case)
            if case.problem:
                assert str(path) in lines[0]
            else:
                assert not case.clean, f"{where} failed on a database it must show: {lines[0]}"
        else:
            assert not case.problem, f"{where} succeeded on a file that cannot be opened"
            assert err == "", f"{where} wrote to stderr: {err[:500]!r}"
            _assert_clear(out if args[0] != "search" else "", where)
        if args == ["info", "--json"] and rc == 0:
            info = json.loads(out)
            if case.read_only_reason:
                assert case.read_only_reason in (info["read_only_reason"] or "")
                assert info["writable"] is False
        assert _dir_state(path) == before, f"{where} changed the files"


def test_command_line_search_with_bytes_that_are_not_utf8(tmp_path, capsys):
    """A shell hands over argument bytes that are not UTF-8 as lone surrogates (``\\udcff``,
    Python's surrogateescape): every search layer answers normally (decision 6), never with
    ``UnicodeEncodeError``."""
    path = tmp_path / "memory.sqlite"
    badfiles.base(path)
    problems = []
    for layer in ("messages", "notes", "skills"):
        rc, _out, err = _run_cli(capsys, path, ["search", "dep\udcffloy", "--layer", layer])
        if rc != 0:
            problems.append(f"--layer {layer}: exit {rc}: {err.strip()}")
    assert not problems, "\n".join(problems)


# -- the app ----------------------------------------------------------------------------------------------


def _visit_every_tab(qtbot, window: MainWindow) -> list[str]:
    """Open each tab, let it load, run its self-test; the problems and error messages found."""
    found = [f"tab {e}" for e in window.tab_errors]
    for name in list(window.tabs_by_name):
        tab = window.show_tab(name)
        tab.ensure_activated()
        if not settle(tab, IDLE_MS):
            found.append(f"{name}: still loading after {IDLE_MS // 1000} s")
            continue
        found += [f"{name}: {p}" for p in check_tab(tab)]
        settle(tab, IDLE_MS)
    qtbot.wait(50)
    return found + [f"error shown: {e}" for e in window.ctx.errors]


def test_app(case_file, qtbot, capfd):
    case, path = case_file
    before = _dir_state(path)
    if case.problem:
        # The batch self-test: exit status 1 and the reason, nothing else.
        code = app_mod.main(["--db", str(path), "--self-test"])
        out, err = capfd.readouterr()
        assert code == 1
        report = [ln for ln in out.splitlines() if ln.startswith("database: ")]
        assert len(report) == 1 and str(path) in report[0], out
        _assert_clear(out + err, "--self-test")
    window = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=200)
    qtbot.addWidget(window)
    window.show()
    window.open_database(path)
    assert spin_until(lambda: window.ctx is not None or window.open_error is not None, IDLE_MS)
    if case.problem:
        err = window.open_error
        assert isinstance(err, DatabaseOpenError) and err.problem in case.problem, repr(err)
        assert window.ctx is None and window.pages.currentWidget() is window.start_page
        shown = window.start_page.problem.text()
        assert "cannot be opened" in shown and err.detail.split("(")[0].strip()[:40] in shown, shown
        _assert_clear(shown, "start page")
    else:
        assert window.ctx is not None, window.open_error
        ctx = window.ctx
        if case.read_only_reason:
            assert case.read_only_reason in (ctx.report.read_only_reason or "")
            assert window.banner.kind == "readonly" and window.banner.isVisible()
            assert case.read_only_reason in window.banner.text()
            assert not window.action_editing.isEnabled()
        problems = _visit_every_tab(qtbot, window)
        for p in problems:
            _assert_clear(p, "app", case)
        if case.clean:
            assert problems == []
        assert spin_until(lambda: ctx.report.quick_check is not None, IDLE_MS)
    window.close()
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err, (out + err)[-3000:]
    assert _dir_state(path) == before


# -- unreadable file permissions ---------------------------------------------------------------------------

_UNREADABLE_CHILD = r"""
import contextlib, io, json, sys
from core import cli
from philont_desktop import app
path = sys.argv[1]
result = {}
for name, args in (("info", ["info"]), ("search", ["search", "deploy"])):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(["--db", path, *args])
    result[name] = {"rc": rc, "out": out.getvalue(), "err": err.getvalue()}
out = io.StringIO()
with contextlib.redirect_stdout(out):
    rc = app.main(["--db", path, "--self-test"])
result["app"] = {"rc": rc, "out": out.getvalue()}
print("RESULT " + json.dumps(result))
"""


def _denied_here(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            fh.read(1)
    except PermissionError:
        return True
    return False


def test_unreadable_file(tmp_path):
    """chmod 000: a clear "permission denied", no write. As root, permission bits do not stop reading,
    so the check runs in a child without the capabilities that bypass them (``setpriv``)."""
    work = Path(tempfile.mkdtemp(prefix="philont-unreadable-"))
    try:
        path = work / "memory.sqlite"
        badfiles.base(path)
        os.chmod(path, 0o000)
        before = _dir_state(path)
        prefix: list[str] = []
        if not _denied_here(path):
            setpriv = shutil.which("setpriv")
            if setpriv is None:
                pytest.skip(
                    "running as root, where chmod 000 does not prevent reading, and setpriv is missing"
                )
            prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--"]
            probe = subprocess.run(
                [*prefix, python(), "-c", f"open({str(path)!r}, 'rb')"], capture_output=True, timeout=60
            )
            if probe.returncode == 0:
                pytest.skip("cannot drop the capabilities that bypass file permissions here")
        settings = Path(tempfile.mkdtemp(prefix="philont-unreadable-settings-"))
        env = child_env(PHILONT_DESKTOP_SETTINGS_DIR=str(settings))
        proc = subprocess.run(
            [*prefix, python(), "-c", _UNREADABLE_CHILD, str(path)],
            capture_output=True,
            text=True,
            timeout=180,
            cwd=REPO,
            env=env,
        )
        assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr[-3000:]
        line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
        assert line is not None, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
        result = json.loads(line[len("RESULT ") :])
        for name in ("info", "search"):
            r = result[name]
            assert r["rc"] == 1, r
            lines = r["err"].splitlines()
            assert len(lines) == 1 and lines[0].startswith("philont-memory: error: "), r
            assert "permission denied" in lines[0].lower(), lines[0]
            _assert_clear(lines[0], name)
        assert result["app"]["rc"] == 1
        assert "permission denied" in result["app"]["out"].lower(), result["app"]["out"]
        _assert_clear(result["app"]["out"], "--self-test")
        os.chmod(path, 0o600)
        assert _dir_state(path) == before
        db = MemoryDB.open(path)
        db.close()
    finally:
        with_perm = work / "memory.sqlite"
        if with_perm.exists():
            os.chmod(with_perm, 0o600)
        shutil.rmtree(work, ignore_errors=True)
        if "settings" in locals():
            shutil.rmtree(settings, ignore_errors=True)


# -- rows whose number columns hold text ---------------------------------------------------------------------


def test_number_columns_holding_text_are_read_as_numbers(tmp_path):
    """SQLite keeps text it cannot read as a number in a REAL/INTEGER column ('NaN', 'high', 'many').
    The row models read confidence, tau and importance as NaN then, and skill counters as 0, so
    that decay scores and skill ranking never meet a string."""
    import math

    from core.decay import effective_tau, is_pinned
    from core.facts import FactStore
    from core.notes import NotesStore
    from core.skills import SkillStore, score_skill

    path = tmp_path / "memory.sqlite"
    badfiles.bad_confidence(path)
    badfiles._sql(
        path, "UPDATE memory_skills SET use_count = 'many', success_count = '3' WHERE name = 'skill-3'"
    )
    db = MemoryDB.open(path)
    try:
        facts = {f.key: f for f in FactStore(db).list_facts()}
        assert math.isnan(facts["pref_0"].confidence)  # 'NaN'
        assert math.isnan(facts["pref_3"].confidence)  # 'high'
        assert facts["pref_1"].confidence == -0.5 and facts["pref_2"].confidence == 1.5
        assert not facts["pref_0"].confidence_valid and not facts["pref_2"].confidence_valid
        tau = facts["deadline"].decay_tau_days
        assert isinstance(tau, float) and math.isnan(tau)
        assert not is_pinned(tau)
        effective_tau("project", tau)
        for f in facts.values():
            FactStore(db).score(f, badfiles.NOW)
        notes = {n.id: n for n in NotesStore(db).list(limit=10)}
        assert math.isnan(notes["note-0"].importance) and notes["note-1"].importance == -3
        skill = SkillStore(db).get_by_name("skill-3")
        assert skill.use_count == 0 and skill.success_count == 3
        assert isinstance(score_skill(skill, badfiles.NOW), float)
    finally:
        db.close()


def test_command_line_search_in_a_c_locale_finds_chinese(tmp_path, capsys):
    """Under ``LANG=C`` with UTF-8 mode off, Python hands a Chinese argument over as lone surrogates
    (its UTF-8 bytes, undecoded): the search decodes them back and finds what a UTF-8 terminal finds,
    never a silent 0 results."""
    path = tmp_path / "memory.sqlite"
    badfiles.base(path)
    rc, out, _err = _run_cli(capsys, path, ["--json", "search", "数据库"])
    assert rc == 0
    expected = json.loads(out)["count"]
    assert expected > 0
    env = child_env(LANG="C", LC_ALL="C", PYTHONUTF8="0")
    env.pop("PYTHONIOENCODING", None)
    env.pop("PYTHONCOERCECLOCALE", None)
    probe = subprocess.run(
        [python(), "-c", "import sys; print(sys.flags.utf8_mode, ascii(sys.argv[1]))", "数据库"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert probe.stdout.startswith("0 '\\udce6"), probe.stdout  # the child sees the bytes undecoded
    proc = subprocess.run(
        [python(), "-m", "core", "--db", str(path), "--now", str(badfiles.NOW), "--json", "search", "数据库"],
        capture_output=True,
        timeout=120,
        cwd=REPO,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    found = json.loads(proc.stdout)
    assert (found["query"], found["count"]) == ("数据库", expected)
