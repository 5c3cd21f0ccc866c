"""The shell of the window: the parts :class:`~philont_desktop.main_window.MainWindow` composes.

* :mod:`.start_page`: what shows when no database is open (and why opening failed, with what to do);
* :mod:`.session`: opening a database, generating a demo or an empty one, the open ``AppContext``;
* :mod:`.tab_host`: the registered tabs, each built when first needed;
* :mod:`.menus`: File, Edit, View, Help and what they enable;
* :mod:`.banners`: editing mode, why the file is read-only, warnings (``Banners.add`` for more);
* :mod:`.status`: path, schema, mode, live state, counts, integrity, long jobs (``add_badge`` for more).
"""
