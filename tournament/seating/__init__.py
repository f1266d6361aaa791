"""Seating: each series' tables by lot, swaps, release, and the public
seating pages. `engine/` is the pure optimiser (stdlib only); `adapter`
converts rows for it."""
