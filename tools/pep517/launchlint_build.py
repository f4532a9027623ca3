"""The in-tree PEP 517 build backend (pyproject.toml: backend-path = ["tools/pep517"]) and the wheel writer.

`pip install .` (or `pip install git+URL`) calls build_wheel: it configures and builds the `launchlint` target with
CMake and packs the binary into a wheel whose `launchlint` console entry point runs it. Nothing is downloaded:
the backend needs only the Python standard library, CMake and the build's own dependencies (tools/setup).

tools/release uses the same writer from the command line on the portable release binary:
    python3 tools/pep517/launchlint_build.py wheel --binary dist/launchlint --tag manylinux_2_36_x86_64 --out dist
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NAME = "launchlint"
SUMMARY = "A static linter for ML training launch configurations (accelerate, Trainer, DeepSpeed, torchtitan)"
# Fixed timestamp for reproducible archives (zip cannot store dates before 1980).
EPOCH = (1980, 1, 1, 0, 0, 0)


def version(root: str = ROOT) -> str:
    """The version of `project(launchlint VERSION x.y.z)` in CMakeLists.txt (the one the binary prints)."""
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(\s*launchlint\s+VERSION\s+([0-9][0-9.]*)", f.read())
    if not m:
        raise RuntimeError("CMakeLists.txt: no project(launchlint VERSION ...)")
    return m.group(1)


def _metadata(ver: str) -> str:
    readme = ""
    path = os.path.join(ROOT, "README.md")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            readme = f.read()
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\nVersion: {ver}\nSummary: {SUMMARY}\n"
        "Requires-Python: >=3.8\n"
        "Classifier: Programming Language :: C++\n"
        "Classifier: Operating System :: POSIX :: Linux\n"
        "Classifier: Topic :: Software Development :: Quality Assurance\n"
        "Description-Content-Type: text/markdown\n\n" + readme
    )


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def platform_tag() -> str:
    """This machine's wheel platform tag for a binary built here (not portable: `linux_x86_64`)."""
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


def glibc_tag(machine: str = "x86_64") -> str:
    """`manylinux_<major>_<minor>_<machine>` for the glibc of this machine (the oldest one the release runs on)."""
    libc = os.confstr("CS_GNU_LIBC_VERSION") or ""  # "glibc 2.36"
    m = re.match(r"glibc (\d+)\.(\d+)", libc)
    if not m:
        raise RuntimeError(f"not a glibc system ({libc!r})")
    return f"manylinux_{m.group(1)}_{m.group(2)}_{machine}"


def write_wheel(binary: str, out_dir: str, tag: str, ver: str | None = None) -> str:
    """Packs `binary` into `<out_dir>/launchlint-<ver>-py3-none-<tag>.whl`; returns the wheel's file name."""
    ver = ver or version()
    dist_info = f"{NAME}-{ver}.dist-info"
    files: list[tuple[str, bytes, int]] = []  # (archive name, contents, unix mode)
    for mod in ("__init__.py", "__main__.py"):
        with open(os.path.join(HERE, NAME, mod), "rb") as f:
            files.append((f"{NAME}/{mod}", f.read(), 0o644))
    with open(binary, "rb") as f:
        files.append((f"{NAME}/bin/{NAME}", f.read(), 0o755))
    files.append((f"{dist_info}/METADATA", _metadata(ver).encode(), 0o644))
    wheel = f"Wheel-Version: 1.0\nGenerator: launchlint_build\nRoot-Is-Purelib: false\nTag: py3-none-{tag}\n"
    files.append((f"{dist_info}/WHEEL", wheel.encode(), 0o644))
    files.append((f"{dist_info}/entry_points.txt", b"[console_scripts]\nlaunchlint = launchlint.__main__:main\n", 0o644))
    record = "".join(f"{n},{_record_hash(d)},{len(d)}\n" for n, d, _ in files) + f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode(), 0o644))

    os.makedirs(out_dir, exist_ok=True)
    name = f"{NAME}-{ver}-py3-none-{tag}.whl"
    tmp = os.path.join(out_dir, name + ".part")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for arcname, data, mode in files:
            info = zipfile.ZipInfo(arcname, date_time=EPOCH)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(tmp, os.path.join(out_dir, name))
    return name


def build_binary(build_dir: str, portable: bool = False) -> str:
    """Configures and builds the `launchlint` target (no tests) with CMake; returns the binary's path."""
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("launchlint needs CMake >= 3.25 to build from source (Debian: bash tools/setup)")
    args = [cmake, "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DLINT_TESTS=OFF",
            f"-DLAUNCHLINT_PORTABLE={'ON' if portable else 'OFF'}"]
    if shutil.which("ninja") and not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        args += ["-G", "Ninja"]
    # Build output goes to stderr: pip shows it with -v, and stdout stays free for the hook's answer.
    subprocess.run(args, check=True, stdout=sys.stderr)
    subprocess.run([cmake, "--build", build_dir, "--target", NAME, "-j", str(os.cpu_count() or 2)], check=True,
                   stdout=sys.stderr)
    return os.path.join(build_dir, NAME)


# --- PEP 517 hooks ---------------------------------------------------------------------------------------------


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """Settings (pip --config-settings KEY=VALUE): portable=1 links statically like tools/release; build-dir=DIR
    (default build-wheel/); binary=PATH packs an already built launchlint instead of building (packagers, and the
    tests that install through pip and pre-commit). LAUNCHLINT_WHEEL_BINARY in the environment is the same as
    binary=, for tools that call pip themselves (pre-commit)."""
    settings = config_settings or {}
    portable = str(settings.get("portable", "")).lower() in ("1", "true", "on", "yes")
    binary = settings.get("binary") or os.environ.get("LAUNCHLINT_WHEEL_BINARY")
    if binary:
        if not os.access(binary, os.X_OK):
            raise RuntimeError(f"launchlint_build: binary={binary} is not an executable file")
    else:
        build_dir = settings.get("build-dir") or os.path.join(ROOT, "build-wheel")
        binary = build_binary(build_dir, portable)
    return write_wheel(binary, wheel_directory, glibc_tag() if portable else platform_tag())


def build_sdist(sdist_directory, config_settings=None):
    ver = version()
    base = f"{NAME}-{ver}"
    try:
        listed = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], check=True, capture_output=True).stdout
        paths = [p for p in listed.decode().split("\0") if p and os.path.isfile(os.path.join(ROOT, p))]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".cache", "dist", "node_modules"}
        paths = []
        for d, dirs, names in os.walk(ROOT):
            dirs[:] = sorted(x for x in dirs if x not in skip and not x.startswith("build"))
            paths += [os.path.relpath(os.path.join(d, n), ROOT) for n in sorted(names)]
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for p in sorted(paths):
            tar.add(os.path.join(ROOT, p), arcname=f"{base}/{p}", recursive=False)
        info = _metadata(ver).encode()
        ti = tarfile.TarInfo(f"{base}/PKG-INFO")
        ti.size = len(info)
        tar.addfile(ti, io.BytesIO(info))
    return name


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description="write the launchlint wheel around a built binary")
    sub = p.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("wheel")
    w.add_argument("--binary", required=True)
    w.add_argument("--out", required=True)
    w.add_argument("--tag", help="platform tag (default: manylinux_<this glibc>_x86_64)")
    sub.add_parser("version")
    a = p.parse_args(argv)
    if a.cmd == "version":
        print(version())
        return 0
    print(os.path.join(a.out, write_wheel(a.binary, a.out, a.tag or glibc_tag())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
