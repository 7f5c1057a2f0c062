"""`python -m soma` is the `soma` command."""
import sys

from .cli import main

sys.exit(main())
