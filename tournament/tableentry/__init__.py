"""A player's own pages, behind his personal link: "Mein Turnier" (his table
and seat in the current series, his results, his place, what waits for him,
and the result of his table to enter or confirm) and the table page a table
card's QR code opens."""
