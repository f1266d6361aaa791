"""The command line: ``python -m tournament.seating --players N``."""

from tournament.seating.engine.cli import main

raise SystemExit(main())
