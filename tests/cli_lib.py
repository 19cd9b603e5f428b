"""cli_lib.py — what the Python tests share: their optional modules (a loud SKIP, exit 77, when one
is missing: ctest's SKIP_RETURN_CODE, which scripts/test counts as skipped, never as passed) and
running attention-lab-cli."""
import importlib
import subprocess
import sys

SKIP = 77
PACKAGES = {"numpy": "python3-numpy", "torch": "python3-torch"}


def require(module):
    """The module, or print SKIP and exit 77 (run with Debian's /usr/bin/python3)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        print(f"SKIP: {module} is not installed for {sys.executable} "
              f"(scripts/setup installs {PACKAGES.get(module, module)})")
        sys.exit(SKIP)


def run(cli, args, stdin_text=None, timeout=60):
    """(exit status, stdout, stderr) of `cli args…`, fed `stdin_text` when given."""
    proc = subprocess.run([cli] + list(args), input=None if stdin_text is None else stdin_text.encode(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
