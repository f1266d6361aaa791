"""Standings: overall, ladies, teams, a player's page, tie decisions
(`tiebreaks`: a playoff or a lot), and the read-only JSON API."""
