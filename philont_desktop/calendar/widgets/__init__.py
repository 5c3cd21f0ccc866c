"""The Calendar tab's widgets: the toolbar, the three tables and the details pane."""
