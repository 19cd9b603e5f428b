"""The one exception of the package: a scene the app would refuse, with the app's own message."""


class SceneError(ValueError):
    """A scene (or an input to one) the app refuses. The message is the app's: "<field>: <reason>",
    e.g. "K: has 4 rows, expected 5 (one per token)"."""
