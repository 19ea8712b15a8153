"""python3 bench/aggregate DIR (bench/run, make bench): see __init__.py."""
import os
import sys

if not __package__:
    # run as a folder: the package is imported from bench/
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from aggregate.report import main  # noqa: E402

sys.exit(main())
