"""`python -m viewer` opens the 3D viewer."""
import sys

from .app import main

sys.exit(main())
