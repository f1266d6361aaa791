"""The demo championship: players, logins, and series played by bots."""
