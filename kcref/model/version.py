"""The version of kcref, kept here alone: ``kcref.__version__``, ``kcref --version``, the SARIF
output and the package's metadata (``pyproject.toml`` reads it as setuptools' dynamic version)
all take it from this line."""

VERSION = "0.1.0"


def build() -> str:
    """How the running kcref was built: ``compiled with mypyc`` when its engine is an extension
    module (an install with ``KCREF_MYPYC=1``), else ``pure Python``. Asked of the files beside
    the package, so that nothing of the engine is imported to tell."""
    import os
    from importlib.machinery import EXTENSION_SUFFIXES

    engine = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "engine")
    compiled = any(os.path.exists(os.path.join(engine, "turns" + suffix)) for suffix in EXTENSION_SUFFIXES)
    return "compiled with mypyc" if compiled else "pure Python"
