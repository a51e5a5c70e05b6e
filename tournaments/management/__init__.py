"""Management commands of the tournaments app (the demo and operations)."""
