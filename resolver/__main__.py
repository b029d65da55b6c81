"""``python -m resolver`` runs the ``openloop`` command."""

import sys

from resolver.cli import main

sys.exit(main())
