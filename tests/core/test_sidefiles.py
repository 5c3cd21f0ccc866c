"""core.sidefiles: a side file is read only when it is a regular file of a sane size, JSON is parsed
guarded, a bad file is set aside beside itself and reported once."""

from __future__ import annotations

import os

import pytest

from core import sidefiles

posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev/zero are POSIX")


@pytest.fixture
def notices():
    got = []
    with sidefiles.reporting(got.append):
        got.clear()  # what earlier tests set aside while nobody listened
        yield got


@posix_only
def test_special_files_are_never_read(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    for path, kind in ((fifo, "fifo"), (link, "char-device"), (tmp_path, "folder")):
        data, problem = sidefiles.read_bytes(path)
        assert data is None and problem is not None and problem.what == "not_regular", path
        assert problem.params["kind"] == kind and problem.code == "sidefile.why.not_regular"


def test_a_missing_file_is_no_problem_and_size_is_capped(tmp_path):
    assert sidefiles.read_json(tmp_path / "none.json") == (None, None)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2000 + b"{}")
    assert sidefiles.read_json(big, max_bytes=1000)[1].what == "too_large"
    assert sidefiles.read_json(big, max_bytes=5000) == ({}, None)


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "too_deep"),
        (b'{"a": 1e999999}', "out_of_range"),
        (b'{"a": NaN}', "invalid_json"),
        (b"{not json", "invalid_json"),
        (b"1" * 5000, "invalid_json"),  # beyond Python's digits limit
        (b'"\xff"', "not_utf8"),
    ],
)
def test_json_that_no_reader_should_trust_is_a_problem_never_an_exception(tmp_path, content, what):
    path = tmp_path / "side.json"
    path.write_bytes(content)
    value, problem = sidefiles.read_json(path)
    assert value is None and problem is not None and problem.what == what


def test_set_aside_moves_the_file_beside_itself_and_reports_it_once(tmp_path, notices, monkeypatch):
    monkeypatch.setattr(sidefiles, "_stamp", lambda: "20260615T120000")  # both in the same second
    path = tmp_path / "review-marks.json"
    problem = sidefiles.SideFileProblem("too_deep", {})
    moved = []
    for _ in range(2):
        path.write_text("[[[")
        moved.append(sidefiles.set_aside(path, problem))
    assert moved[0] != moved[1] and all(m is not None and m.read_text() == "[[[" for m in moved)
    assert moved[0].name == "review-marks.json.bad-20260615T120000" and moved[1].name.endswith("-2")
    assert not path.exists()
    assert [n.code for n in notices] == ["sidefile.set_aside"] * 2
    assert notices[0].params["reason"] == "sidefile.why.too_deep" and notices[0].params["moved_to"] == str(
        moved[0]
    )
    assert sidefiles.set_aside(path, problem) is None and len(notices) == 2  # nothing there: nothing said


def test_a_notice_waits_for_the_next_listener(tmp_path):
    with sidefiles.reporting(lambda _n: None):
        pass
    path = tmp_path / "settings.ini"
    path.write_text("x")
    sidefiles.set_aside(path, sidefiles.SideFileProblem("too_large", {"max_bytes": 0}))
    got = []
    with sidefiles.reporting(got.append):
        assert [n.params["path"] for n in got] == [str(path)]
