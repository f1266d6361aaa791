"""Services: every write, keyword-only, atomic, audited."""
