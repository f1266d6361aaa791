"""Entry at the table and a player's own pages, behind his personal link:
the games of his table entered, confirmed or disputed from his phone (its
rules and writes), "Mein Turnier" (his table and seat in the current series,
his results, his place, what waits for him, and the result of his table to
enter or confirm) and the table page a table card's QR code opens."""
