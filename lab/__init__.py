"""The laboratory beside the product: the benchmarks, the accuracy study and the seeds' experiments.

Nothing here ships in the wheel (``pyproject.toml`` packages ``resolver`` alone; the sdist carries
``lab/``), and nothing in ``resolver/`` imports it (``tests/test_layout.py``); the lab may import
anything of ``resolver``. Run from a checkout as ``python -m lab bench|eval|study ...``
(:mod:`lab.__main__`):

* :mod:`lab.bench`: synthetic histories of any size and what reading, preparing and answering
  them costs (the floor, cold, warm, the store's rows, the ingest, policies and ledger rows), the
  sequence-gaps history, and the real-history rows of git bundles;
* :mod:`lab.study`: the accuracy study on a real git history, against ground truth read from
  git alone;
* :mod:`lab.evaluation`: the seeds' experiments (the open-loops study's tables and the
  commitment-graph simulation), each beside the figure it reproduces.

The product's own ``openloop bench PATH`` (:mod:`resolver.benchmark`) times a user's history.
"""
