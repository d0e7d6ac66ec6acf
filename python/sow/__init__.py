"""sow: a rules language and interpreter for mancala games, in Python.

Every shipped variant, or one written in a ``.sow`` file, as a game::

    import sow
    oware = sow.load("oware-abapa")
    game = oware.new_game()
    game.play(game.legal_moves()[0])
    game.position     # a dict in the JSON contract's form

Every rule is played by the Rust library: this package only carries
values across.
"""


class VariantError(ValueError):
    """A variant file that does not load: ``diagnostics`` lists every
    problem, each with ``file``, ``line``, ``column``, ``message`` and
    ``hint``; ``str(error)`` draws them against the file as ``sow check``
    does."""

    def __init__(self, message, diagnostics):
        super().__init__(message)
        self.diagnostics = diagnostics


class MoveError(ValueError):
    """A move that is not legal in the game's position, with the command
    line's message."""


from ._sow import Diagnostic, Game, Variant, check, load, variants  # noqa: E402

__all__ = [
    "Diagnostic",
    "Game",
    "MoveError",
    "Variant",
    "VariantError",
    "check",
    "load",
    "variants",
]
