"""Word pools for synthetic histories: what titles are made of, and what everything else says.

The pools are kept apart on purpose. Titles are built from a verb, a component and an object
(plus the wanted value); background texts are mostly filler words that share no stem with those
pools, and name a component, an object or a verb only now and then. That keeps the number of
weak text links per expectation proportional to the share of events that talk about its
component, as in a real project, instead of linking every expectation to every event through a
common word (the linker links on any shared content word).
"""

from __future__ import annotations

import random

from resolver.facts.linker import DONE_CUES, STOP_WORDS, stem


def words(text: str) -> tuple[str, ...]:
    """The whitespace-separated words of ``text``, in order (pools are written as prose)."""
    return tuple(text.split())


VERBS = words(
    """migrate move port rotate upgrade replace retire split archive harden encrypt shard
    automate deprecate consolidate decommission provision backfill throttle partition rebalance
    containerize vendor pin audit parallelize relocate reindex compress"""
)

OBJECTS = words(
    """backups certificates schema dashboards alerts tokens webhooks secrets snapshots indexes
    replicas queues workers cronjobs migrations endpoints exports invoices receipts thumbnails
    uploads sitemaps feeds quotas permissions roles credentials keys manifests images artifacts
    runbooks playbooks reports ledgers journals tables buckets volumes clusters nodes shards
    topics subscriptions consumers producers listeners sockets tunnels proxies mirrors caches
    registries templates locales glossaries catalogs archives vaults checkpoints baselines
    budgets forecasts statements payouts refunds coupons vouchers"""
)

REAL_COMPONENTS = words(
    """billing ledger gateway scheduler importer exporter notifier mailer storefront checkout
    inventory payroll analytics identity onboarding recommender crawler indexer renderer
    uploader transcoder geocoder pricing shipping warehouse loyalty telemetry auditor
    dispatcher courier tracker planner sequencer harvester compactor reconciler"""
)

FILLER = words(
    """refactor bump dependency lint typo cleanup handler config logging retry timeout metrics
    flaky pipeline coverage readme changelog formatting helper utils parser serializer
    validation middleware router controller stylesheet layout button modal spinner tooltip
    pagination sorting filter translation timezone rounding overflow memory leak deadlock race
    mutex thread pool connection header payload response request status error warning
    exception traceback assertion mock stub profile trace latency throughput batch chunk stream
    buffer encoding unicode regex glob path symlink ownership docker layer variable constant
    function method class module package import typing annotation docstring comment naming
    rename extract inline simplify flatten guard branch condition loop counter offset cursor
    iterator generator callback promise future await async sync lock semaphore signal handler
    shutdown startup healthcheck readiness liveness probe flag toggle experiment rollout canary
    percentage threshold limit window jitter backoff circuit breaker fallback default override
    environment staging production preview sandbox fixture seed random deterministic snapshot
    golden sample dataset column row cell widget chart graph legend axis label tick scale
    palette theme font icon logo banner footer sidebar navbar breadcrumb dropdown checkbox
    slider toggle input textarea form submit cancel confirm dialog toast badge avatar
    review feedback nit question proposal draft outline sketch plan estimate followup"""
)

#: Words that make a done-style claim (their stems are in the linker's DONE_CUES).
DONE_WORDS = words("done fixed finished completed resolved merged landed shipped closed delivered")

#: Settings a key may name, with the values it takes (strings, integers or booleans).
SETTINGS: dict[str, tuple[str | int | bool, ...]] = {
    "backend": ("PostgreSQL", "MySQL", "SQLite", "Redis", "Cassandra", "DynamoDB"),
    "store": ("S3", "GCS", "Azure", "Ceph"),
    "mode": ("strict", "lenient", "readonly", "maintenance"),
    "region": ("eu-west", "us-east", "ap-south", "sa-east"),
    "version": ("v2", "v3", "v4", "v5", "v6"),
    "replicas": (1, 2, 3, 4, 6, 8, 12),
    "enabled": (True, False),
}

#: ``alias`` lines of the generated project (the first word is canonical).
ALIASES = (
    ("postgresql", "postgres", "pg"),
    ("deploy", "deployment", "rollout"),
    ("runbook", "runbooks", "playbook", "playbooks"),
    ("certificate", "certificates", "cert", "certs"),
)

_ONSETS = words("b d f g k l m n p r s t v z br dr kr st tr gl pl sk th ch")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "io")
_CODAS = ("", "n", "r", "l", "x", "s", "m", "th", "k")


#: Words the title templates of ``generate`` use besides the pools.
TEMPLATE_WORDS = words("scale enable disable replicas checklist")


def _title_stems() -> frozenset[str]:
    pools = VERBS + OBJECTS + REAL_COMPONENTS + TEMPLATE_WORDS
    values = [str(v).casefold() for vs in SETTINGS.values() for v in vs if isinstance(v, str)]
    return frozenset(stem(w) for w in (*pools, *values)) | DONE_CUES


def filler_words() -> tuple[str, ...]:
    """Filler words whose stems are neither title words nor done cues (so they link nothing)."""
    banned = _title_stems()
    seen: set[str] = set()
    kept = []
    for word in FILLER:
        token = stem(word)
        if word in STOP_WORDS or token in banned or token in seen:
            continue
        seen.add(token)
        kept.append(word)
    return tuple(kept)


def components(count: int) -> tuple[str, ...]:
    """``count`` component names: the real-sounding ones first, then invented codenames.

    Codenames come from a fixed-seed generator, so a project's component names depend only on
    ``count``; each is one word with a stem of its own, so it links only to texts naming it.
    """
    names = list(REAL_COMPONENTS[:count])
    banned = _title_stems() | {stem(w) for w in FILLER} | STOP_WORDS
    taken = {stem(n) for n in names}
    rng = random.Random(7)
    while len(names) < count:
        word = "".join(
            rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(rng.choice((2, 2, 3)))
        ) + rng.choice(_CODAS)
        token = stem(word)
        if token in banned or token in taken or len(word) < 5:
            continue
        taken.add(token)
        names.append(word)
    return tuple(names)
