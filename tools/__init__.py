"""Development tools: measurements and documentation screenshots of the real app (not
shipped with it). Run from the repository root: ``python -m tools.<name>``."""
