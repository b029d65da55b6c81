"""Renderers: typed results (a :class:`~resolver.verdicts.resolution.Resolution`, ...) as text."""
