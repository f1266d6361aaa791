"""Backups: a tournament written by start numbers and user names, restored
into any database."""
