"""What the test suites share besides fixtures (importable as ``tests.support``)."""

from __future__ import annotations

# The fixed "now" of time-dependent tests and of the demo databases they build: 2026-06-15T12:00:00.000Z.
FIXED_NOW = 1_781_524_800_000


def multi_data(model, index, role):
    """What ``model.multiData()`` answers for one ``role`` of ``index``: a painting delegate's one call
    for a cell's roles, asked for a single role (Qt imported here: core tests use this module too)."""
    from philont_desktop.qt import QModelRoleData, QModelRoleDataSpan

    slot = QModelRoleData(int(role))
    model.multiData(index, QModelRoleDataSpan(slot))
    return slot.data()
