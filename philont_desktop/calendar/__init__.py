"""The Calendar tab: upcoming occurrences and tasks as ``list_upcoming`` sees them, all events, all tasks."""
