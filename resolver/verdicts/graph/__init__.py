"""The graph of a history: actors, events, expectations, tasks and policies, read from one solve.

One concern in several modules, so they share a folder: ``builder.py`` builds the graph from the
rules' atoms (re-exported here, so ``resolver.verdicts.graph`` is the one name callers import),
``views.py`` reads it (what an item blocks, a focus, what a picture draws) and ``caps.py``
chooses what a capped picture keeps.
"""

from resolver.verdicts.graph.builder import CLOSING_EDGES, EDGE_KINDS, NODE_KINDS, build, node_id

__all__ = ["CLOSING_EDGES", "EDGE_KINDS", "NODE_KINDS", "build", "node_id"]
