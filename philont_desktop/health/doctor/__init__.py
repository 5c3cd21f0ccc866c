"""The doctor: the Health tab's first page (what is wrong in every layer, and the one-step fixes)."""
