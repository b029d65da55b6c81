"""``python -m lab eval``: the two studies' experiments, reproduced side by side with their figures.

Each module runs one family of experiments and returns :class:`~lab.evaluation.rows.Row`
objects: what the study reported, what openloop measured, and the history it ran on. Verdicts
always come from :mod:`resolver.api` (the rules); the code here only compares them with the
studies' labels and with the baselines the studies compared against.
"""
