"""`python -m firmware` is `arcana-table`."""

import sys

from firmware.cli import main

sys.exit(main())
