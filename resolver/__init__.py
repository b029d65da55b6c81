"""openloop: what did we leave unfinished?

Expectations (obligations about a future state transition) live beside an append-only,
bitemporal event log; clingo rules in ``rules/*.lp`` derive each expectation's status at any
standpoint. The pipeline reads from the module names: ``loader`` → ``model`` → ``facts`` →
``engine`` → ``verdicts``.
"""

__version__ = "0.1.0"
