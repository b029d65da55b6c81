"""Renderers: turning a :class:`~resolver.verdicts.Resolution` into text for people and tools."""
