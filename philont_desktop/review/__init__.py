"""The Review tab: what the agent learned and changed since the last review."""
