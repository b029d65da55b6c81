"""The accuracy study on a real git history (``python -m lab study BUNDLE``).

:mod:`~lab.study.run` clones the history, runs the real ``openloop init`` and ``ingest git
--todos``, and judges every TODO instance and issue expectation at standpoints along the
first-parent line; the ground truth comes from git alone (:mod:`~lab.study.truth`,
:mod:`~lab.study.issues`); :mod:`~lab.study.claims` and :mod:`~lab.study.labels` measure the
done-style claims the linker reads; :mod:`~lab.study.report` writes it up in Markdown.
"""
