"""Atoms to typed results: verdicts, explanations, receipts, graphs, lint findings (no phrasing)."""
