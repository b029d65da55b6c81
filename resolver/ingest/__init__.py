"""Getting history in (SPEC §6): importers for git, GitHub and JUnit, and the one write path.

Each importer turns a source the project already has into ordinary JSON-lines events (§2.2),
written deterministically so that a re-run over the same source is byte-identical; ``record``
appends single events safely while other writers and readers run.
"""
