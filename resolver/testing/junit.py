"""JUnit XML for ``openloop test --junit FILE``: CI servers show each test block as a test case.

One ``<testsuite>`` per ``.ol`` file, one ``<testcase>`` per test block (``classname`` is the
file, ``name`` the block's name), and one ``<failure>`` per failed block whose text lists every
failed assertion with its expected and actual value and the reason.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from resolver.faces.safe_text import xml_document
from resolver.testing.runner import TestReport, assertion_text, format_failure


def to_xml(report: TestReport, name: str = "openloop") -> bytes:
    """The report as a UTF-8 JUnit XML document."""
    root = ET.Element(
        "testsuites",
        name=name,
        tests=str(len(report.blocks)),
        failures=str(sum(1 for b in report.blocks if not b.passed)),
        errors="0",
    )
    suites: dict[str, ET.Element] = {}
    for result in report.blocks:
        block = result.block
        file = block.location.file
        suite = suites.get(file)
        if suite is None:
            suite = ET.SubElement(
                root, "testsuite", name=file, tests="0", failures="0", errors="0", skipped="0"
            )
            suites[file] = suite
        suite.set("tests", str(int(suite.get("tests", "0")) + 1))
        case = ET.SubElement(
            suite,
            "testcase",
            classname=file,
            name=block.name,
            file=file,
            line=str(block.location.line),
            assertions=str(len(result.results)),
        )
        if not result.passed:
            suite.set("failures", str(int(suite.get("failures", "0")) + 1))
            first = result.failures[0]
            message = (
                f"{assertion_text(first.assertion)}: expected {first.expected}, got {first.actual}"
            )
            failure = ET.SubElement(case, "failure", message=message, type="AssertionFailed")
            failure.text = "\n\n".join(format_failure(f) for f in result.failures) + "\n"
    ET.indent(root)
    document = ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
    return xml_document(document).encode("utf-8")
