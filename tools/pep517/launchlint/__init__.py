"""launchlint: a static linter for ML training launch configurations (the wheel's wrapper of the native binary)."""
import os

__all__ = ["binary"]


def binary() -> str:
    """The path of the bundled launchlint executable."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "launchlint")
