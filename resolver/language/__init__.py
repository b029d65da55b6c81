"""Text to model: the `.ol` parser, the JSON-lines reader, and the loader that joins them."""
