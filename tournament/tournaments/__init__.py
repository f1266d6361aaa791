"""Tournaments as a whole: the list, one tournament's public page, and its
settings (create, edit, the organizer's overview)."""
