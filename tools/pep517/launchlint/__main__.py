"""`launchlint` console entry point and `python -m launchlint`: replaces this process with the native binary."""
import os
import sys

from launchlint import binary


def main() -> None:
    exe = binary()
    if not os.access(exe, os.X_OK):
        sys.stderr.write(f"launchlint: the bundled binary {exe} is missing or not executable\n")
        sys.exit(2)
    os.execv(exe, ["launchlint", *sys.argv[1:]])


if __name__ == "__main__":
    main()
