"""The widgets of the Audit tab: the bar (filter, "N new", undo / redo) and the entry's detail."""
