"""Type stubs of the extension module (`sow._sow`); `import sow` gives
these names."""

from typing import Any, Optional

class Diagnostic:
    """One problem in a variant file: where, what, and what would be right."""

    file: str
    """The file it is in (`variants/NAME.sow` for a shipped one; the name
    given to `check` for text)."""
    line: int
    """The line, from 1 (0 where the problem has no place in the file)."""
    column: int
    """The column, from 1 (0 likewise)."""
    message: str
    """What is wrong."""
    hint: Optional[str]
    """What would be right, where it can be said."""
    severity: str
    """`error`, or `warning`: valid, but maybe not what it reads as (the
    variant loads all the same)."""

class Variant:
    """A variant: its rules, compiled, ready to play."""

    @property
    def name(self) -> str:
        """The variant's name as its file declares it."""
    @property
    def title(self) -> str:
        """Its title, for people."""
    @property
    def players(self) -> list[str]:
        """Its players, the first to move first unless the rules say otherwise."""
    @property
    def options(self) -> dict[str, str]:
        """Its options, each with the value it has in this variant."""
    def show(self) -> str:
        """The variant as one file, what it builds on merged in (`sow show`)."""
    @property
    def board(self) -> dict[str, Any]:
        """The variant as data (`sow show --format json`): name, title,
        players, rows top to bottom, stores, hands and options."""
    @property
    def num_actions(self) -> int:
        """How many numbered actions the variant has: every move its notation
        can write is chosen by numbers, the same in every position (by one,
        unless a flag is answered at each sowing, as Omweso's: then the
        answers follow, `<1` … `<31` and `end`)."""
    @property
    def max_actions_per_turn(self) -> int:
        """The most actions one turn takes (1, unless a flag is answered at
        each sowing)."""
    @property
    def tensor_size(self) -> int:
        """How many numbers `Game.tensor()` gives."""
    def action_to_string(self, action: int) -> str:
        """The move numbered `action`, or the answer (`<2`, `end`), as the
        notation writes it."""
    def new_game(self, first: Optional[str] = None) -> Game:
        """A new game from the variant's setup; `first` names who moves first
        where the rules leave it to the players (`ValueError` otherwise)."""
    def game_from(self, position: dict[str, Any] | str, result: dict[str, Any] | None = None) -> Game:
        """A game from a position in the JSON contract's form (a dict or its
        JSON text), as `sow moves --from` reads it (`ValueError` if it is
        not one of this variant's positions); with `result` (as
        `Game.outcome` gives it), a finished game's last position
        (`"to_move": None`) and how it ended."""
    def perft(self, depth: int, first: Optional[str] = None) -> int:
        """The number of whole-turn paths of `depth` turns from the start,
        counted on every core with the interpreter lock released."""
    def random_games(
        self,
        n: int,
        seed: int = 0,
        jobs: Optional[int] = None,
        max_plies: int = 10000,
        moves: bool = False,
        first: Optional[str] = None,
    ) -> dict[str, Any]:
        """Plays `n` random games (game `i` from seed `seed + i`) in Rust on
        `jobs` threads (default: every core) and sums them up as `sow random
        --format json` does; with `moves=True` the games too, under
        `"played"`. The same seed gives the same games whatever `jobs`."""
    def analyze(
        self,
        games: int,
        seed: int = 0,
        players: Optional[list[str]] = None,
        level: int = 5,
        max_plies: int = 10000,
        jobs: Optional[int] = None,
        first: Optional[str] = None,
    ) -> dict[str, Any]:
        """Plays `games` games and measures the variant, as `sow analyze
        --format json` does: the same report for the same seed, whatever
        `jobs`. `players`: one computer player for both seats or two
        (`random`, `mcts`, `minimax`; `mcts:3` at level 3, else at
        `level`), taking the first seat in turn."""
    def analyze_part(
        self,
        games: int,
        start: int,
        stop: int,
        seed: int = 0,
        players: Optional[list[str]] = None,
        level: int = 5,
        max_plies: int = 10000,
        jobs: Optional[int] = None,
        first: Optional[str] = None,
    ) -> dict[str, Any]:
        """Plays games `start` to `stop` (not counting `stop`) of the run
        `analyze` would make with the other arguments, summed, as a dict
        for `merge_analysis` (which may run anywhere: this is how
        `sow.ray` splits a run over machines)."""
    def merge_analysis(self, parts: list[dict[str, Any]]) -> dict[str, Any]:
        """The report of the parts (from `analyze_part`) of one run, in any
        order: the report `analyze` makes of the whole run (`ValueError`
        for parts of different runs, or that miss or repeat games)."""

class Game:
    """A game in progress: its position, the moves legal in it, its outcome."""

    def legal_moves(self) -> list[str]:
        """The legal moves, as the notation writes them (none once over;
        with a turn half chosen by actions, the moves it can still be)."""
    def play(self, move: str) -> None:
        """Plays a move as the notation writes it (`sow.MoveError` if it is
        not legal here, with the command line's message)."""
    def legal_actions(self) -> list[int]:
        """The legal actions (see `Variant.num_actions`), ascending: the
        legal moves' numbers, or, with a turn half chosen, the answers that
        go on from it."""
    def apply_action(self, action: int) -> None:
        """Takes the legal action numbered `action`: a move, or a step of
        one (`sow.MoveError` if none is legal by that number)."""
    @property
    def pending_actions(self) -> list[int]:
        """The actions taken of a turn half chosen (empty between turns)."""
    def tensor(self) -> list[float]:
        """The position as numbers: each cell's seeds (pits in board order,
        then the stores), each hand, each variable's value, then who is to
        move (1 for the one to move, 0 for the other); where a flag is
        answered at each sowing, then the turn half chosen (see
        `sow::tensor`)."""
    def __deepcopy__(self, memo: Any) -> Game: ...
    @property
    def position(self) -> dict[str, Any]:
        """The position, in the JSON contract's form."""
    @property
    def outcome(self) -> Optional[dict[str, Any]]:
        """None while the game goes on; else `winner` (None for a draw),
        `reason` and `scores`; a solitaire's also `lost` (its player lost:
        `winner` None, and not a draw)."""
    @property
    def to_move(self) -> Optional[str]:
        """The player to move (None once the game is over)."""
    @property
    def plies(self) -> int:
        """The turns played so far."""
    def clone(self) -> Game:
        """A copy that plays on on its own."""
    def __copy__(self) -> Game: ...
    def text(self) -> str:
        """The board as text, as `sow play` prints it."""
    def svg(self) -> str:
        """The board as an SVG picture, as `sow draw` draws it."""

def variants() -> list[str]:
    """The shipped variants' names."""

def load(name_or_path: str, options: Optional[dict[str, Any]] = None) -> Variant:
    """Loads a shipped variant by name or a `.sow` file by path, its options
    given values (`sow.VariantError`, with every problem, if it does not
    load)."""

def check(text: str, name: str = "<text>") -> list[Diagnostic]:
    """Every problem in a variant's text (an empty list when there is none),
    its warnings among them (`severity == "warning"`: it loads all the
    same)."""

def tournament_table(meetings: list[dict[str, Any]]) -> dict[str, Any]:
    """A tournament's table from its meetings, each a dict with `players`
    (two names), `wins` (two counts), `draws` and `unfinished`: each
    player's games, score and Elo-scale rating, best first, and each
    meeting's share and Wilson interval (see `sow.ray.tournament`)."""
