"""The versions that travel together: this package, the scene format it writes, and the single-file
build it ships (scripts/notebook-web stamps the build with the scene version of the app it was made
from; show() refuses a build whose stamp differs)."""

# The app's version (CMakeLists.txt's `project(attention_lab VERSION …)`).
__version__ = "0.1.0"

# The newest scene version this package writes and reads: the app's kSceneVersion
# (src/scene/scene.hpp). A scene with a newer "version" is refused, naming both.
SCENE_VERSION = 2
