"""Results: referees enter, confirm, reject and correct a table's games
(double entry); tie decisions; a series' results for everybody. `adapter`
checks the games through `scoring`."""
