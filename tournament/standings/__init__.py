"""Standings: overall, ladies, teams, a player's page, and the read-only
JSON API."""
