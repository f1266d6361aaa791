"""History across tournaments and years: a person's page, the champions
(from the tournaments marked as the championship and an imported list of
earlier years), season rankings (Wertungen), the review of uncertain person
matches, and their JSON API. Above standings: it ranks nothing itself."""
