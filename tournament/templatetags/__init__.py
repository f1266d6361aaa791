"""Template tags of the app."""
