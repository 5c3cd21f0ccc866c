from philont_desktop.app import settle
from philont_desktop.tabs import tab_names


def test_dbg(open_window, demo_db_path):
    w = open_window(demo_db_path, size=(1024, 640))
    for n in tab_names():
        t = w.show_tab(n)
        settle(w, t, 20000)
        print("MIN", n, w.minimumSizeHint(), w.minimumSize(), w.size(), t.minimumSizeHint())
