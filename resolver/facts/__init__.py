"""Model to integer facts: interning, times, the text linker's measurements, the fact writer."""
