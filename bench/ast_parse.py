"""The CPython anchor of the benchmark: ast.parse of each .py file named in a list, nothing else.

    python3 bench/ast_parse.py LIST     (LIST: one path per line, "-": standard input)
"""
import ast
import sys


def main() -> int:
    src = sys.stdin if sys.argv[1] == "-" else open(sys.argv[1], encoding="utf-8")
    files = size = errors = 0
    for line in src:
        path = line.rstrip("\n")
        if not path.endswith(".py"):
            continue
        with open(path, "rb") as f:
            data = f.read()
        try:
            ast.parse(data, filename=path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            errors += 1
        files += 1
        size += len(data)
    print(f"ast.parse: {files} files, {size} bytes, {errors} with errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
