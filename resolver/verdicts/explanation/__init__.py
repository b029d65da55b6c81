"""Explanations: the derivation behind one verdict, as a typed tree read from the rules' atoms.

One concern in several modules, so they share a folder: ``tree.py`` holds the query and the
entry points (re-exported here, so ``resolver.verdicts.explanation`` is the one name callers
import), ``view.py`` the ``Node`` and the atom view, ``expectation.py`` and ``sections.py`` an
expectation's tree, ``task.py`` a task's and ``instance.py`` a policy instance's step.
"""

from resolver.verdicts.explanation.tree import (
    WHY_NOT_STATUSES,
    Node,
    View,
    explain,
    explain_at,
    explained,
    item_number,
    key_reason_of,
    query_facts,
    walk,
    why_not_word,
)

__all__ = [
    "WHY_NOT_STATUSES",
    "Node",
    "View",
    "explain",
    "explain_at",
    "explained",
    "item_number",
    "key_reason_of",
    "query_facts",
    "walk",
    "why_not_word",
]
