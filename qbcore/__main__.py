"""``python -m qbcore`` is the ``qbcore`` command."""

import sys

from .cli import main

sys.exit(main())
