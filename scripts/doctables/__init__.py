"""The writers of the docs' generated tables (scripts/docs-tables.py)."""
