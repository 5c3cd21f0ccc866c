"""The Health tab's Recall page: the saved recall replay of the file, kept up to date as the agent writes
(:mod:`.page`), its numbers (:mod:`.data`), its words (:mod:`.texts`) and its widgets (``widgets/``)."""
