"""The grammar and rules are found from a checkout and from an installed wheel; the wheel is the
product alone, and the lab (``lab/``) travels in the sdist."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from resolver import resources

ROOT = Path(__file__).resolve().parent.parent


def test_found_from_the_checkout():
    assert (resources.data_dir("rules") / "standpoint" / "timeline.lp").is_file()
    assert (Path(resources.__file__).parent / "faces" / "templates" / "report.html.j2").is_file()
    assert "expectation" in resources.grammar_text()
    assert len(resources.rule_files()) >= 10


def test_the_lab_is_in_the_sdist_and_not_in_the_wheel():
    """What the build reads (the wheel itself is checked by the slow test below)."""
    hatch = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"]
    targets = hatch["build"]["targets"]
    assert targets["wheel"]["packages"] == ["resolver"]
    assert {"resolver", "lab", "tests", "fixtures"} <= set(targets["sdist"]["include"])
    assert (ROOT / "lab" / "__main__.py").is_file()


@pytest.mark.slow
def test_wheel_carries_grammar_and_rules(tmp_path):
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if build.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {build.stderr.strip()[-300:]}")
    (wheel,) = tmp_path.glob("openloop_resolver-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "resolver/_data/grammar/openloop.lark" in names
    assert "resolver/_data/rules/standpoint/timeline.lp" in names
    assert "resolver/faces/templates/report.html.j2" in names  # the HTML report's template
    assert "resolver/language/tables/openloop.json" in names  # the parser's shipped tables
    # The product alone: the lab (benchmarks, studies, the seeds' experiments) stays out.
    assert "resolver/benchmark/timing.py" in names  # the product's `openloop bench PATH`
    outside = ("lab/", "resolver/bench/", "resolver/evaluation/")
    assert not [n for n in names if n.startswith(outside)], "the lab is not in the wheel"
    assert "resolver/_data/schemas/bench_history.json" in names
    assert "resolver/_data/schemas/eval.json" not in names  # the lab's schemas stay in lab/
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        timeout=300,
    )
    script = (
        "import resolver.resources as r, sys; "
        "d = r.data_dir('rules'); g = r.data_dir('grammar'); "
        "print(d); assert str(d).startswith(sys.argv[1]) and str(g).startswith(sys.argv[1])"
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    subprocess.run(
        [sys.executable, "-c", script, str(target)], check=True, env=env, cwd=tmp_path, timeout=120
    )
    release = ROOT / "fixtures" / "release"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "resolver",
            "status",
            str(release),
            "--at",
            "2024-08-28",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert '"commit-118"' in run.stdout
