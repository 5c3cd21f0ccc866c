"""The one module of the application that imports PySide6.

Everything Qt the application uses is re-exported from here, so the binding is named in one place::

    from philont_desktop.qt import QtCore, QtWidgets, Qt, Signal, Slot, QObject

pyqtgraph is imported only by :mod:`philont_desktop.widgets.plots`.
"""

# ruff: noqa: F401
from __future__ import annotations

from pathlib import Path
from typing import Any

import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import Property, QObject, Qt, Signal, Slot, qVersion

# PySide6 6.12 on CPython 3.11 over-releases None/True/False (item views, QTimer.singleShot); pin them
# before any Qt object exists (see the module's docstring).
from philont_desktop.widgets import pyside_compat

# Every other name of QtCore, QtGui and QtWidgets is looked up when it is first asked for (PEP 562):
# ``from PySide6.QtWidgets import *`` would create every class of the three modules at start-up (a
# good part of the time to the first paint); a name is found in the last module that has it, as
# those star imports did. QtTest (tests only) is imported when first used.
_STAR = (QtWidgets, QtGui, QtCore)


def __getattr__(name: str) -> Any:
    if name == "QtTest":
        try:  # pytest-qt's model tester and QTest live in QtTest (part of PySide6-Essentials)
            from PySide6 import QtTest as value
        except ImportError:  # pragma: no cover - QtTest is always shipped with the Essentials wheel
            value = None
    elif name.startswith("_"):
        raise AttributeError(name)
    else:
        for module in _STAR:
            value = getattr(module, name, _STAR)
            if value is not _STAR:
                break
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


QT_VERSION: str = qVersion()
PYSIDE_VERSION: str = __import__("PySide6").__version__
# Where PySide6 is installed (its Qt tools such as lrelease live there).
PYSIDE_DIR: Path = Path(QtCore.__file__).resolve().parent


def is_valid(obj: object) -> bool:
    """``True`` while the C++ object behind a Qt wrapper still exists."""
    return shiboken6.isValid(obj)
