"""result() and validate(): the project's own core, through attention-lab-cli (docs/CLI.md).

No attention math is done in Python: the CLI reads the scene (every rule of the app, its messages)
and prints every stage, which comes back as NumPy arrays under the CLI's keys.
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np

from ._errors import SceneError
from ._scene import check, load, scene_json

CLI_NAME = "attention-lab-cli"
_PREFIX = CLI_NAME + ": "


def _candidates():
    """Where the CLI may be, in order: $ATTENTION_LAB_CLI, PATH, the repository's native build (this
    package's source folder is python/attention_lab/ of the repository; an installed copy knows the
    repository it was built from through _web/build.json)."""
    env = os.environ.get("ATTENTION_LAB_CLI")
    if env:
        yield Path(env)
        return
    on_path = shutil.which(CLI_NAME)
    if on_path:
        yield Path(on_path)
    roots = [Path(__file__).resolve().parents[2]]
    stamp = Path(__file__).resolve().parent / "_web" / "build.json"
    if stamp.is_file():
        try:
            repository = json.loads(stamp.read_text(encoding="utf-8")).get("repository")
        except (OSError, ValueError):
            repository = None
        if repository:
            roots.append(Path(repository))
    for root in roots:
        for preset in ("native", "native-debug"):
            yield root / "build" / preset / "src" / CLI_NAME


def find_cli(required=True):
    """The path of attention-lab-cli, or (when not `required`) None; FileNotFoundError says where it
    was looked for and how to build it."""
    looked = []
    for path in _candidates():
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
        looked.append(str(path))
    if not required:
        return None
    if os.environ.get("ATTENTION_LAB_CLI"):
        raise FileNotFoundError(f"ATTENTION_LAB_CLI={os.environ['ATTENTION_LAB_CLI']} is not an executable file")
    raise FileNotFoundError(
        f"{CLI_NAME} not found (looked on PATH and at {', '.join(looked)}): build it in the repository with "
        f"`cmake --preset native && cmake --build --preset native --target {CLI_NAME}`, put it on PATH, "
        "or set ATTENTION_LAB_CLI to its path")


def run_cli(scene, args=(), required=True):
    """The CLI's stdout for `attention-lab-cli ARGS… -` fed the scene; SceneError with the app's message
    when it refuses the scene (exit 2). None when the CLI is not found and not `required`."""
    cli = find_cli(required)
    if cli is None:
        return None
    text = scene if isinstance(scene, str) else scene_json(scene)
    proc = subprocess.run([cli, *args, "-"], input=text.encode("utf-8"), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=600)
    err = proc.stderr.decode("utf-8", "replace").strip()
    if proc.returncode == 2:
        message = err.splitlines()[0] if err else "the scene was refused"
        raise SceneError(message[len(_PREFIX):] if message.startswith(_PREFIX) else message)
    if proc.returncode != 0:
        raise RuntimeError(f"{cli} exited with {proc.returncode}: {err}")
    return proc.stdout.decode("utf-8")


def validate(scene, required=True):
    """Ask the app whether it reads the scene: None, or SceneError with its message. With
    required=False a missing CLI is not an error (the Python checks have run)."""
    s = _as_scene(scene)
    check(s)
    run_cli(s, ["--compact"], required)


def _as_scene(scene):
    """A dict, JSON text or a file path → the scene dict with plain lists."""
    if isinstance(scene, dict):
        return json.loads(scene_json(scene))  # NumPy arrays (as load() gives them) → lists
    return json.loads(scene_json(load(scene)))


# The CLI's integer keys; "allowed" is the 0/1 mask actually applied (a bool array here).
_INT_KEYS = ("masked_rows", "argmax")


def _stage(key, value):
    """One stage of the CLI's JSON as NumPy: matrices float64 ("scaled"'s masked cells, null in the
    JSON, become -inf, as PyTorch's masked_fill writes them), "allowed" bool, indices int64."""
    if key == "heads":
        return [{k: _stage(k, v) for k, v in head.items()} for head in value]
    if key in _INT_KEYS:
        return np.asarray(value, dtype=np.int64)
    if key == "allowed":
        return np.asarray(value, dtype=np.int64) == 1
    if isinstance(value, list):
        return np.array([[-np.inf if x is None else x for x in row] if isinstance(row, list) else row
                         for row in value], dtype=np.float64)
    return value


def result(scene):
    """Every stage of the scene, computed by the project's own core (attention-lab-cli), as a dict of
    NumPy arrays under the CLI's keys: Q, K, V, scores, divisor, scaled, allowed, weights, output,
    masked_rows, entropy, argmax; a multi-head scene has heads (a list of {scores, scaled, weights,
    output}) and concat, and its weights are the heads' mean (PyTorch's averaged weights); RoPE adds
    Q_rope and K_rope, ALiBi bias. A bad scene raises SceneError with the app's message."""
    s = _as_scene(scene)
    check(s)
    out = json.loads(run_cli(s, ["--compact"]))
    return {key: _stage(key, value) for key, value in out.items()}
