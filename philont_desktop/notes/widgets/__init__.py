"""The widgets of the Notes tab: the filter bar, the note editor and the add dialog."""
