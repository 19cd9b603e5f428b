"""notebook_shown.py NOTEBOOK OUT.json — run a notebook's code cells with attention_lab.show()
recording instead of displaying, and write what it showed: {"shown": [{"scene", "mode"}…],
"reference": the notebook's `reference` variable (each layer's per-head weights from PyTorch),
"result": the lab's core (attention_lab.result, the CLI) on each shown scene, per head}.
notebook.test.mjs compares the page inside the executed notebook's HTML with these."""
import json
import sys

import nbformat
import numpy as np

import attention_lab

notebook, out = sys.argv[1], sys.argv[2]
shown = []
attention_lab.show = lambda scene, mode="explore", height=640: shown.append({"scene": scene, "mode": mode})
namespace = {}
for cell in nbformat.read(notebook, 4).cells:
    if cell.cell_type == "code":
        exec(compile(cell.source, notebook, "exec"), namespace)


def per_head(result):
    return [h["weights"].tolist() for h in result["heads"]] if "heads" in result else [result["weights"].tolist()]


with open(out, "w") as f:
    json.dump({"shown": shown, "reference": [np.asarray(r).tolist() for r in namespace.get("reference", [])],
               "result": [per_head(attention_lab.result(s["scene"])) for s in shown],
               "package": attention_lab.__file__}, f)
