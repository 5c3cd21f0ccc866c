"""The Timeline tab: sessions, the lazily loaded conversation, activity chart and search."""
