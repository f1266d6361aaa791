"""Persons across tournaments: which registrations (players) are the same
person. Matching a new registration (registration and its import call it),
the organizer's review of uncertain matches, merging and splitting. Below
registration: it knows names and clubs, not standings (`history` shows
what a person played)."""
