"""``python -m scoring``: see ``scoring.cli``."""

import sys

from .cli import main

sys.exit(main())
