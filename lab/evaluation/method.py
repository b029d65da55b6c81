"""How each figure of ``python -m lab eval`` is made: the method section of the generated page,
``docs/design/evaluation.md``.

Kept beside the code that does what it describes, so that the generated page and the code
cannot drift apart without a diff in the same folder.
"""

METHOD = """\
## How the figures are made

Every verdict comes from the rules, through `resolver.api` (`prepare`, `status`); the evaluation
code holds the studies' labels and their baselines, and compares. Regenerate this page from a
checkout with `python -m lab eval --format md -o docs/design/evaluation.md`; `python -m lab eval`
prints the same as a table and exits 1 if a figure is not reproduced; `--format json` gives every
row and rate.

### Mention baseline (`lab/evaluation/mention_baseline.py`)

A plain text heuristic, the comparator rather than openloop. A sentence is flagged when it
holds a task-like pattern: `TODO`, `FIXME`, `need(s) to`, `should`, `must`, `has/have to`,
`remember to`, `don't forget`, `before (the) release`. Two flagged sentences are one item when
they share at least half of the shorter one's content words (lower case, stop words removed,
a crude suffix stemmer). The stronger form also closes an item when a later text carries a
closure phrase (`done`, `fixed`, `resolved`, `closed`, `complete(d)`, `finished`, `shipped`,
`merged`, `cancelled`, `dropped`, `out of scope`, `won't do/fix`) and shares at least two of
the item's content words. It reads text only: no state changes, markers, channels or times
beyond order.

It runs on `fixtures/mentions`, the canonical texts of the release story (the remarks and
issues a mention reader meets), because the release fixture's own texts are written for the
rules (its decisions and commits) rather than as the study's five task-worded remarks. The
oracle labels are the expectations that fixture declares: a flagged item is a genuine find
when one of its events opens a declared expectation. *Listed open* counts, at 2024-09-02 when
every labelled obligation is settled, the items each reader still reports open.

### Canonical fixtures (`lab/evaluation/canonical.py`)

Each experiment is a list of labels, the status, closing event, tier, confidence and flags the
study reports for one expectation at one standpoint, checked against openloop's verdict on
the fixture named. The *perfect history* row runs a history-only reader (the last confirmed
value each key was set to, at five standpoints) as the reconstructive checks, plus openloop's
verdict on the event-store migration; the mention reader (with closure words) is then asked
after the work, after the release and in 2030.

### Maintained vs derived (`lab/evaluation/staleness.py`)

*Quality*: for every standpoint the canonical experiments read, a fresh ledger
(`resolver.ledger`) is refreshed there; each expectation's recorded check must equal
derivation's verdict (status, confidence, closing event, tier, flags) and the ledger's open
list must equal the expectations derivation finds `OPEN` or `UNKNOWN`.

*Staleness*: the release history is copied and its log grown cycle by cycle, each cycle's
file holding the events recorded by then, as a live log would. Cycles run on 23 and 28 August
and on 4 and 11 September 2024; the backups' closing evidence (commit-118) lands between the
first two. Two ledgers: one refreshed on the first cycle only, one refreshed at every cycle
before it is read (mandatory re-verification). A cycle after closing evidence has landed is
*stale-open* when the list still shows an expectation that derivation, on the log as it then
stands, has closed. The ledger's own provenance (`--stale-after 7d` and log growth) is
reported beside it: every stale-open entry is also marked stale by the ledger.

*Snapshot*: `fixtures/gap` resolved with and without `fixtures/gap/snapshot.json`; every status
must be unchanged and the snapshot must add its reasons.

*Cost*: a query is every expectation's verdict, with reasons, at one standpoint, on the
benchmark's synthetic histories (2,500, 5,000 and 10,000 events, seed 0). Reported as the
median of five standpoints over a prepared history, and from scratch (load, prepare, resolve).
This is a timing on the machine that ran it, reported beside the study's figure, never
reproduced or asserted; `docs/design/performance.md` explains where the time goes.

### The commitment-graph experiment (`commitments_world.py`, `commitments.py`)

A simulation of the judging step only. Tasks of three families are generated from one seeded
random generator, each with a hidden obligation list:

- *code*: reproduce, patch, tests (observed state), review (the principal's approval), deploy
  (an agent action); modes: partially met, permission revoked, unconfirmable effect,
  conflicting requirements.
- *support*: reproduce, fix (observed state), deploy and refund (agent actions), customer
  acceptance (delayed); modes: delayed acceptance, unconfirmable effect, permission revoked,
  partially met.
- *research*: sources, comparison, citations (observed state), sign-off (delayed); modes:
  conflicting requirements, partially met, delayed acceptance.

Forty per cent of tasks are clean; the rest carry one mode. *Partially met*: an observation
shows a different value than wanted. *Permission revoked*: the principal revokes the agent's
permission, and its action is rejected (`outcome failed`). *Unconfirmable effect*: the action
times out (`outcome unknown`); the effect happened in half of the cases. *Conflicting
requirements*: two obligations want different values of one key; in 60% of cases the principal
settles it (`supersedes` the losing one), otherwise one stays unmet. *Delayed acceptance*: the
reply arrives from an hour to fourteen days after the agent's claim, or never (30%).

The agent ticks the obligations it believes done and claims completion. When the task is not
complete at its claim it claims anyway with probability 0.6 (code), 0.75 (support), 0.5
(research), ticking the unmet item with a mode-specific probability (0.5 for a partially met
objective, 0.8 for a conflict, 0.9 for delayed or revoked, 1.0 for a timed-out action); when
complete, it reports pending with probability 0.08, 0.05, 0.15 and leaves one item unticked.

Every run is judged when the observation window closes (30 June 2025): the *trace* accepts the
claim; the *checklist* accepts when every hidden obligation is ticked (a superseded item counts
as ticked: a strong checklist marks it not applicable); *openloop* reads the task's status as
the rules derive it from the history (`COMPLETE` only; `UNKNOWN` is not complete). The
ablations are the same rules over a history with one component removed: *no evidence links*
(every obligation `verify textual`, so the agent's tick satisfies it), *no effect receipts*
(every outcome dropped, so it counts as confirmed), *no dependency typing* (`supersedes` and
`requires` edges dropped; `requires` only adds flags, so the loss shows in conflicts).

The false-completion rate is the share of truly incomplete runs judged complete; the
false-pending rate, the share of truly complete runs judged not complete; both with 95% Wilson
intervals, per family and pooled. A run whose delayed evidence has not arrived and whose
seven-day window is still open when observation ends is censored: counted in neither rate,
reported apart with what each judge said. The paired lines compare openloop with each judge on
the same runs (discordant pairs, two-sided exact McNemar test). The proposal's decision rule is
applied with a margin fixed in the code before any run (0.10): the graph must cut the pooled
false-completion rate below the checklist's by at least that much, with a paired exact
p below 0.05; in a simulation, "not explained by extra context or compute" has nothing to
test. As a cross-check of the rules' findings, each agent claim is also judged at its own
time (`FALSE_COMPLETION`, `FALSE_PENDING`) and compared with the truth at that moment.

What this can and cannot show: the judges differ only in the information they read, so much
of the result follows from construction (without evidence links the graph accepts exactly
the ticks a checklist accepts, and its false-completion rate equals the checklist's). It shows
that the rules, given the evidence, catch each planted false completion and where the caution
costs false pending (unconfirmable effects). It says nothing about how often real agents make
these errors, or whether a graph changes what an agent does.
"""
