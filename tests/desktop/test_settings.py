"""Typed settings over QSettings, stored only where PHILONT_DESKTOP_SETTINGS_DIR says."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from philont_desktop import settings as settings_mod
from philont_desktop.qt import QApplication, QByteArray
from philont_desktop.settings import MAX_RECENT, THEME, Settings


@pytest.fixture
def settings_dir(tmp_path, monkeypatch):
    d = tmp_path / "settings"
    monkeypatch.setenv(settings_mod.ENV_DIR, str(d))
    return d


def test_tests_never_use_the_real_settings(qapp):
    # tests/conftest.py points the settings into the test sandbox for the whole run.
    s = Settings()
    sandbox = Path(settings_mod.settings_location())
    assert Path(s.file_name).parent == sandbox
    assert "philont-tests-" in str(sandbox)


def test_file_lives_in_the_directory_of_the_environment_variable(qapp, settings_dir):
    s = Settings()
    s.theme = "dark"
    s.sync()
    assert Path(s.file_name) == settings_dir / "philont-desktop.ini"
    assert (settings_dir / "philont-desktop.ini").read_text().count("dark") == 1


def test_defaults(qapp, settings_dir):
    s = Settings()
    assert s.theme == "system"
    assert s.language == ""
    assert s.recent_files == []
    assert s.last_database == ""
    assert s.geometry == b""
    assert s.window_state == b""
    assert s.splitter_state("timeline/main") == b""


def test_values_survive_a_new_settings_object(qapp, settings_dir):
    s = Settings()
    s.theme = "light"
    s.language = "zh_CN"
    s.last_database = "/data/memory.sqlite"
    s.geometry = QByteArray(b"\x01\x02geometry")
    s.window_state = b"\x00state"
    s.set_splitter_state("notes/main", b"\x00\xffsplit")
    s.set_header_state("audit/table", b"hdr")
    s.current_tab = "audit"
    s.sync()
    t = Settings()
    assert t.theme == "light"
    assert t.language == "zh_CN"
    assert t.last_database == "/data/memory.sqlite"
    assert t.geometry == b"\x01\x02geometry"
    assert t.window_state == b"\x00state"
    assert t.splitter_state("notes/main") == b"\x00\xffsplit"
    assert t.header_state("audit/table") == b"hdr"
    assert t.current_tab == "audit"


def test_recent_files_most_recent_first_without_duplicates_at_most_ten(qapp, settings_dir, tmp_path):
    s = Settings()
    paths = [tmp_path / f"db{i}.sqlite" for i in range(12)]
    for p in paths:
        s.add_recent_file(p)
    s.add_recent_file(paths[5])
    s.sync()
    files = Settings().recent_files
    assert len(files) == MAX_RECENT
    assert files[0] == str(paths[5])
    assert files[1:] == [str(p) for p in reversed(paths) if p != paths[5]][: MAX_RECENT - 1]
    s.remove_recent_file(paths[5])
    assert str(paths[5]) not in s.recent_files
    s.clear_recent_files()
    assert s.recent_files == []


def test_a_single_recent_file_is_still_a_list(qapp, settings_dir, tmp_path):
    s = Settings()
    s.add_recent_file(tmp_path / "only.sqlite")
    s.sync()
    assert Settings().recent_files == [str(tmp_path / "only.sqlite")]


def test_invalid_values_are_refused_and_bad_stored_values_read_as_default(qapp, settings_dir):
    s = Settings()
    with pytest.raises(ValueError):
        s.theme = "purple"
    s.q.setValue(THEME.name, "purple")
    s.q.setValue(settings_mod.RECENT_FILES.name, "{not json")
    assert s.theme == "system"
    assert s.recent_files == []


def test_registry_lists_every_key_once(qapp):
    names = [k.name for k in settings_mod.KEYS]
    assert len(names) == len(set(names))
    assert {"window/geometry", "files/recent", "files/last_database", "appearance/theme"} <= set(names)


def test_a_deeply_nested_recent_files_value_reads_as_no_recent_files(qapp, settings_dir):
    settings_dir.mkdir(parents=True)
    deep = "[" * 100_000 + "]" * 100_000
    (settings_dir / "philont-desktop.ini").write_text(f'[files]\nrecent="{deep}"\n[appearance]\ntheme=dark\n')
    s = Settings()
    assert s.recent_files == [] and s.theme == "dark"
    (settings_dir / "philont-desktop.ini").write_text('[files]\nrecent="[[\\"/a\\"], \\"/b\\", 3]"\n')
    assert Settings().recent_files == ["/b"]  # the shape is checked: only paths are recent files


@pytest.mark.skipif(os.name != "posix", reason="FIFOs are POSIX")
def test_a_fifo_as_the_settings_file_is_set_aside_and_said_once_in_the_status_bar(qapp, settings_dir, qtbot):
    from philont_desktop.main_window import MainWindow
    from philont_desktop.theme import Theme
    from philont_desktop.workers import spin_until

    settings_dir.mkdir(parents=True)
    window = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=60_000)
    qtbot.addWidget(window)
    QApplication.processEvents()
    window.side_files.shown.clear()  # what earlier tests set aside is not this test's
    os.mkfifo(settings_dir / "philont-desktop.ini")
    s = Settings()  # never opened for reading: it would wait for a writer forever
    moved = [p for p in settings_dir.iterdir() if p.name.startswith("philont-desktop.ini.bad-")]
    assert len(moved) == 1 and moved[0].is_fifo() and s.theme == "system"
    s.theme = "dark"
    s.sync()
    assert Settings().theme == "dark"  # a new file in its place
    assert spin_until(lambda: bool(window.side_files.shown), 5000)
    shown = window.side_files.shown
    assert len(shown) == 1 and shown[0].endswith("(sidefile.set_aside)"), shown
    assert "FIFO" in shown[0] and moved[0].name in shown[0]
    assert window.statusBar().currentMessage() == shown[0]
