"""`python -m site_builder` runs the command-line interface."""

import sys

from site_builder.cli import main

sys.exit(main())
