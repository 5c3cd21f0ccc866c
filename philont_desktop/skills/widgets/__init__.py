"""The widgets of the Skills tab: the board (filter bar, columns, cards) and the detail (overview,
ladder history, revisions)."""
