"""Faces for coding agents: the Claude Code hook, the MCP server, ``ready`` and ``brief``.

Each reads verdicts the rules derived (``rules/query/ready.lp`` for what is ready) and formats
them for an agent's loop; none decides a status itself.
"""
