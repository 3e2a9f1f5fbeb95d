"""Regular expressions compiled on first use.

Compiling a mid-size pattern costs a process 1-2 M instructions; most runs of kcref (a clean
log, nothing printed that needs escaping) use few of the patterns its modules define.
"""

import functools
import re
from collections.abc import Callable


def lazy_pattern(source: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A function that compiles ``source`` (with ``flags``) on its first call and gives that
    same pattern on every call after."""
    return functools.cache(functools.partial(re.compile, source, flags))
