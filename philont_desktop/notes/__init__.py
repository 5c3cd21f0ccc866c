"""The Notes tab: search, importance, forgotten state; audited edits in editing mode."""
