"""Facts and rules to atoms: the prepared history that answers standpoints."""
