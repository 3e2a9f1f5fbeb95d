"""Let the engine tests import their helpers (helpers, logs, bot) by name."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
