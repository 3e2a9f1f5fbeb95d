"""The version of kcref, kept here alone: ``kcref.__version__``, ``kcref --version``, the SARIF
output and the package's metadata (``pyproject.toml`` reads it as setuptools' dynamic version)
all take it from this line."""

VERSION = "0.1.0"
