"""KeptRowsProxy: the rows its subclass lists, in the source's order, following the source's changes."""

from __future__ import annotations

from philont_desktop.qt import QPersistentModelIndex, QStringListModel
from philont_desktop.widgets.kept_rows import KeptRowsProxy


class Evens(KeptRowsProxy):
    """The words of even length; a word is its own key."""

    def __init__(self, source: QStringListModel):
        super().__init__()
        self.asked = 0
        self.setSourceModel(source)

    def words(self) -> list[str]:
        return self.sourceModel().stringList()

    def shown_rows(self) -> list[int]:
        self.asked += 1
        return [i for i, w in enumerate(self.words()) if len(w) % 2 == 0]

    def row_key(self, source_row: int) -> str:
        return self.words()[source_row]

    def source_row_of(self, key) -> int:
        words = self.words()
        return words.index(key) if key in words else -1

    def membership_changed(self, first: int, last: int) -> bool:
        return any((len(self.words()[r]) % 2 == 0) != self.is_shown(r) for r in range(first, last + 1))


def shown(proxy) -> list[str]:
    return [proxy.index(r, 0).data() for r in range(proxy.rowCount())]


def test_follows_the_source_and_passes_the_model_tester(qtmodeltester):
    source = QStringListModel(["ab", "abc", "abcd", "x", "wxyz"])
    proxy = Evens(source)
    qtmodeltester.check(proxy, force_py=True)
    assert shown(proxy) == ["ab", "abcd", "wxyz"]
    assert proxy.mapFromSource(source.index(1, 0)).isValid() is False
    assert proxy.mapToSource(proxy.index(2, 0)).row() == 4
    kept = QPersistentModelIndex(proxy.index(1, 0))  # "abcd"
    source.removeRows(0, 2)  # "ab", "abc" go
    assert shown(proxy) == ["abcd", "wxyz"] and kept.row() == 0
    source.insertRows(0, 1)
    source.setData(source.index(0, 0), "zz")  # a new word of even length: it enters the list
    assert shown(proxy) == ["zz", "abcd", "wxyz"] and kept.row() == 1
    source.setData(source.index(1, 0), "abcde")  # its word becomes odd: it leaves, the index with it
    assert shown(proxy) == ["zz", "wxyz"] and not kept.isValid()
    source.setStringList(["no", "yes"])  # a reset
    assert shown(proxy) == ["no"]


def test_a_change_that_keeps_the_membership_asks_nothing_and_tells_the_row(qtbot):
    source = QStringListModel(["ab", "cd", "efg"])
    proxy = Evens(source)
    asked = proxy.asked
    with qtbot.waitSignal(proxy.dataChanged) as changed:
        source.setData(source.index(1, 0), "CD")
    assert proxy.asked == asked  # no new pass over the rows
    assert changed.args[0].row() == 1 and changed.args[1].row() == 1
    with qtbot.assertNotEmitted(proxy.dataChanged):
        source.setData(source.index(2, 0), "EFG")  # not shown: nothing to tell
    assert shown(proxy) == ["ab", "CD"]
