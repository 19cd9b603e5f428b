"""show(), html() and link(): the lab itself, from the single-file build the package ships.

The single-file build (scripts/dist → dist/attention-lab.html: the wasm, scripts, styles, demos and
languages in one page) is copied into _web/ by scripts/notebook-web with a stamp, _web/build.json,
naming the scene version of the app it was made from. show() puts that page into an <iframe srcdoc>
with the scene: no server, no network, and the page travels inside the saved notebook. The scene
goes in as a link's fragment (#s=…, docs/SHARING.md) when it fits one, else through the page API's
setState() once the page is ready.
"""
import base64
import html as html_text
import json
import os
from pathlib import Path

from ._errors import SceneError
from ._scene import check, load, scene_json
from ._version import SCENE_VERSION, __version__

# The app's limit on a link's fragment (src/scene/link.hpp, kMaxFragmentBytes).
MAX_FRAGMENT_BYTES = 32768
# The app's modes, as a link's mode= names them (src/scene/link.hpp, kModes).
MODES = ("explore", "walk", "heads", "keyspace", "flash", "decode", "train", "circuits")

_WEB = Path(__file__).resolve().parent / "_web"


def _plain(scene):
    """A scene (dict, JSON text, path; matrices may be NumPy arrays) as a checked dict of lists."""
    s = load(scene) if not isinstance(scene, dict) else scene
    s = json.loads(scene_json(s))
    check(s)
    return s


def _fragment_value(s):
    return base64.urlsafe_b64encode(scene_json(s).encode("utf-8")).decode("ascii").rstrip("=")


def _mode_pair(mode):
    if mode not in MODES:
        raise SceneError(f"mode: unknown mode {mode!r} (expected one of {', '.join(MODES)})")
    return "" if mode == "explore" else "mode=" + mode


def link(scene, base="attention-lab.html", mode="explore"):
    """A shareable link to the scene: base + "#s=<base64url of the scene JSON>" (the app's link,
    docs/SHARING.md), plus "&mode=…" for another mode. base is your copy of the site
    ("https://you.github.io/attention-lab/") or of the single file. A scene too large for a link
    (over 32 KiB of fragment) raises SceneError: share the JSON file, or show() it."""
    s = _plain(scene)
    fragment = "s=" + _fragment_value(s)
    pair = _mode_pair(mode)
    if pair:
        fragment += "&" + pair
    size = len(fragment.encode("ascii"))
    if size > MAX_FRAGMENT_BYTES:
        raise SceneError(f"link: the scene needs {size} bytes of link, more than the {MAX_FRAGMENT_BYTES} a link "
                         "holds; share the scene as a JSON file (Import JSON in the app), or show() it")
    return base + "#" + fragment


def single_file():
    """The single-file build's path: $ATTENTION_LAB_HTML, else the package's _web/attention-lab.html
    (its stamp must name this package's scene version), else a source checkout's dist/attention-lab.html.
    FileNotFoundError says how to make it."""
    env = os.environ.get("ATTENTION_LAB_HTML")
    if env:
        if not Path(env).is_file():
            raise FileNotFoundError(f"ATTENTION_LAB_HTML={env} is not a file")
        return Path(env)
    shipped = _WEB / "attention-lab.html"
    if shipped.is_file():
        stamp = json.loads((_WEB / "build.json").read_text(encoding="utf-8"))
        if stamp.get("scene_version") != SCENE_VERSION:
            raise SceneError(f"version: the lab shipped in this package reads scene version "
                             f"{stamp.get('scene_version')}, but attention_lab {__version__} writes scene version "
                             f"{SCENE_VERSION}; rebuild the package (scripts/notebook-web)")
        return shipped
    checkout = Path(__file__).resolve().parents[2] / "dist" / "attention-lab.html"
    if checkout.is_file():
        return checkout
    raise FileNotFoundError("the single-file build is not in this package: in the repository run scripts/dist, "
                            "then scripts/notebook-web, and reinstall (pip install ./python); or set "
                            "ATTENTION_LAB_HTML to a dist/attention-lab.html")


def page(scene, mode="explore"):
    """The single-file page, opening on `scene` in `mode`: the whole HTML document as text."""
    s = _plain(scene)
    pair = _mode_pair(mode)
    fragment = "s=" + _fragment_value(s)
    fits = len(fragment) + len(pair) + 1 <= MAX_FRAGMENT_BYTES
    fragment = "&".join(p for p in ((fragment if fits else ""), pair) if p)
    doc = single_file().read_text(encoding="utf-8")
    # Inside <iframe srcdoc> a relative address resolves against the notebook's page, so the page's
    # history.replaceState("#…") (its address follows every edit) would be refused as another
    # document's URL: the base makes "#…" mean about:srcdoc#…, this document's own address.
    head = doc.index("<head>") + len("<head>")
    doc = doc[:head] + '\n<base href="about:srcdoc" />' + doc[head:]
    # The address before the app reads it (the page's own scripts come after this one).
    opening = ("<script>\n\"use strict\";\n// attention_lab.show(): the scene and mode this page opens on.\n"
               f"history.replaceState(null, \"\", {json.dumps('#' + fragment)});\n</script>\n")
    at = doc.index("<script")
    doc = doc[:at] + opening + doc[at:]
    if not fits:  # too large for an address: the page API, once the page is ready
        scene_literal = json.dumps(s, separators=(",", ":")).replace("<", "\\u003c")
        late = ("<script>\n\"use strict\";\nwindow.attentionLab.ready.then(() => {\n"
                f"  const r = window.attentionLab.setState({scene_literal});\n"
                "  if (!r.ok) console.error(\"attention_lab.show(): \" + r.error);\n});\n</script>\n")
        at = doc.rindex("</body>")
        doc = doc[:at] + late + doc[at:]
    return doc


def html(scene, mode="explore", height=640):
    """The <iframe> that show() displays, as HTML text (for a page of your own, or nbconvert)."""
    if not isinstance(height, int) or isinstance(height, bool) or not 200 <= height <= 4000:
        raise SceneError(f"height: must be a whole number of pixels from 200 to 4000, got {height!r}")
    # In a <div>: IPython warns about HTML that starts with "<iframe" (it suggests its IFrame, which
    # needs a URL; this page has none, it travels inside the output).
    return (f'<div class="attention-lab-output"><iframe class="attention-lab" title="Attention Lab" width="100%" '
            f'height="{height}" style="border:0" srcdoc="{html_text.escape(page(scene, mode), quote=True)}">'
            '</iframe></div>')


def show(scene, mode="explore", height=640):
    """Display the lab inside Jupyter, opened on `scene` (a dict from scene(), from_torch(), capture,
    or a file) in `mode` (explore, walk, heads, keyspace, flash, decode, …). Works offline and in a
    saved notebook: the page is the single-file build, inside the output."""
    try:
        from IPython.display import HTML, display
    except ImportError:
        raise RuntimeError("show() needs IPython (Jupyter); attention_lab.html(scene) gives the HTML to save "
                           "as a page") from None
    display(HTML(html(scene, mode, height)))
