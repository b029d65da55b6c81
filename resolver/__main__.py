"""``python -m resolver`` runs the ``openloop`` command."""

import sys

from resolver.cli.main import main

sys.exit(main())
