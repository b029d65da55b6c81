"""A task's explanation tree: its opening, each obligation, its verdict and the findings.

Read from the typed verdicts and the rules' ``task_because`` atoms (which obligations decide the
task's status); no words here (``resolver/faces/explanation/text.py`` phrases).
"""

from __future__ import annotations

from resolver.language.model import Task
from resolver.verdicts.explanation.expectation import standpoint_node
from resolver.verdicts.explanation.instance import instance_nodes
from resolver.verdicts.explanation.view import Node, View


def task_tree(view: View, task: Task) -> Node:
    """The whole tree of one task."""
    verdict = view.task(task.id)
    deciding = set(view.task_because(view.number(task.id)))
    obligations = []
    for ident in task.obligations:
        ov = view.expectation(ident)
        obligations.append(
            Node(
                "obligation",
                code=ov.status.lower(),
                data={"id": ident, "status": ov.status, "decides": ident in deciding},
                say={"verdict": ov, "decides": ident in deciding},
            )
        )
    findings = [
        Node(
            "finding",
            code=finding.kind.lower(),
            event=finding.event,
            data={"target": finding.target, "outstanding": list(finding.outstanding)},
            say={"finding": finding, "claim": view.project.event(finding.event)},
        )
        for finding in verdict.findings
    ]
    children = [
        standpoint_node(view.resolution.standpoint),
        Node("opening", code="task_opening", say={"as": "task_opening", "task": task}),
        *instance_nodes(view, verdict),
        Node("obligations", children=tuple(obligations), say={"count": len(task.obligations)}),
        Node(
            "verdict",
            code=verdict.status.lower(),
            say={"as": "task_verdict", "task": task, "verdict": verdict, "deciding": deciding},
        ),
    ]
    if findings:
        children.append(Node("findings", children=tuple(findings), say={"count": len(findings)}))
    data = {
        "id": task.id,
        "title": task.title,
        "status": verdict.status,
        "outstanding": list(verdict.outstanding),
        "location": str(task.location),
    }
    return Node(
        "task",
        code=verdict.status.lower(),
        data=data,
        children=tuple(children),
        say={"project": view.project, "task": task, "verdict": verdict},
    )


def task_key_node(view: View, task: Task) -> Node:
    """Why a task has its status, in one step: the obligations that decide it."""
    deciding = [
        (ident, view.expectation(ident).status) for ident in view.task_because(view.number(task.id))
    ]
    say = {"project": view.project, "task": task, "verdict": view.task(task.id)}
    return Node("key_reason", code="task", say={**say, "as": "task_key", "deciding": deciding})
