"""Results: referees enter, confirm, reject and correct a table's games
(double entry), and a series' results for everybody. `adapter` checks the
games through `scoring`."""
