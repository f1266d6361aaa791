"""The registration desk: players and entries, check-in, withdrawals, teams,
the player import and the player list's export."""
