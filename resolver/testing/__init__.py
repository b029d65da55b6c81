"""`.ol` test blocks: the runner, JUnit output, and the pytest plugin."""
