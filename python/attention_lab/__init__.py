"""attention_lab — your own model's attention in Attention Lab, from a notebook.

    import attention_lab as al
    s = al.scene(q, k, v, causal=True)          # NumPy arrays or torch tensors → a scene (dict)
    s = al.from_torch(mha, x)                   # an nn.MultiheadAttention attending over x
    with al.capture(model) as scenes: model(x)  # every nn.MultiheadAttention call of a model
    al.result(s)["weights"]                     # every stage, by the project's own core (the CLI)
    al.show(s, mode="heads")                    # the lab inside Jupyter, offline
    al.link(s, base="https://you.github.io/attention-lab/")

docs/NOTEBOOK.md has the whole story.
"""
from ._cli import find_cli, result, validate
from ._errors import SceneError
from ._scene import load, scene, scene_from_projections, scene_json
from ._show import html, link, show, single_file
from ._torch import capture, from_torch
from ._version import SCENE_VERSION, __version__

__all__ = ["SceneError", "SCENE_VERSION", "__version__", "capture", "find_cli", "from_torch", "html", "link",
           "load", "result", "scene", "scene_from_projections", "scene_json", "show", "single_file", "validate"]
