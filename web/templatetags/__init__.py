"""Template tags and filters for the pages."""
