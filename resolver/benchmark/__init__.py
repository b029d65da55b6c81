"""``openloop bench PATH...``: what a user waits for on their own history.

:mod:`~resolver.benchmark.timing` runs ``status`` (with an empty cache, then on the store),
``explain`` of one expectation and ``check`` as a user runs them, each in a fresh interpreter,
and times a warm standpoint through :mod:`resolver.api`; :mod:`~resolver.benchmark.own_peak`
reads each command's own peak RSS. The synthetic histories, the targets and the studies are the
lab's (``python -m lab bench`` in a checkout), not the product's.
"""
