"""A guard against a reference-count defect of PySide6 6.12 on CPython 3.11.

Measured on this machine (PySide6 6.12.0, CPython 3.11): each time a Python model's ``data()`` returns
``None`` to Qt, each time ``QModelIndex.data()`` returns an invalid ``QVariant`` to Python, and each
time a ``QTimer.singleShot`` callable returns, the binding releases one reference to ``None`` (and in
some paths ``True``/``False``) that it never took. From CPython 3.12 on these objects are immortal and
the extra release does nothing; on 3.11 their counts fall with every repaint of an item view until the
interpreter aborts with "Fatal Python error: none_dealloc: deallocating None".

:func:`pin_singletons` gives ``None``, ``True``, ``False``, ``Ellipsis`` and ``NotImplemented`` a
reference count so large that no session can use it up (as 3.12 does by making them immortal). These
objects are statically allocated and never freed, so the extra count changes nothing else. It does
nothing on 3.12+ or on interpreters other than CPython, and checks its own effect (through
``sys.getrefcount``) before trusting it.
"""

from __future__ import annotations

import sys

PIN = 1 << 48
_done = False


def pin_singletons() -> bool:
    """Raise the reference counts of the interpreter's singletons once; ``True`` when it was applied."""
    global _done
    if _done:
        return True
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        _done = True
        return False
    import ctypes

    for obj in (None, True, False, Ellipsis, NotImplemented):
        before = sys.getrefcount(obj)
        cell = ctypes.c_ssize_t.from_address(id(obj))
        if cell.value != before - 1 and cell.value != before:
            return False  # not the layout we expect (a debug build): leave it alone
        cell.value += PIN
        if sys.getrefcount(obj) < PIN:
            cell.value -= PIN
            return False
    _done = True
    return True


pin_singletons()
