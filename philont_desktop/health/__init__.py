"""The Health tab: what is wrong with this memory, in pages (:mod:`.pages` declares them in order).

Each page is a :class:`~philont_desktop.health.page.HealthPage` in a module of its own (its widgets beside
it); the tab (:mod:`.view`) shows the pages as inner tabs, builds a page the first time it is shown and
passes the window's hooks (refresh, editing, language, idle) to the pages built so far. Pages run their
reads and edits through the tab's controller, so the tab is busy, and ``wait_idle`` waits, while any
page works.
"""
