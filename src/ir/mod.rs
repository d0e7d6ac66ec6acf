//! The rules IR: what the checker understood from a variant file, with no
//! spans. It is the contract between the language and the engine, and is
//! snapshot (YAML) for every shipped variant so that a reviewer sees what the
//! interpreter made of each file.

use serde::Serialize;

mod moment;
pub mod visit;

pub use moment::{ActionKind, MomentSpec, Order, Sees};

/// A pit's index in [`Rules::pits`].
pub type PitId = u16;
/// A player: 0 is the first declared (drawn at the bottom), 1 the other.
pub type Player = u8;

/// A whole variant, checked and lowered.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rules {
    /// The variant's name (`oware-abapa`).
    pub name: String,
    /// A human title.
    pub title: String,
    /// The players' names: two (index 0 sits at the bottom of the board),
    /// or one for a solitaire. A solitaire is played on the engine's two
    /// seats, the second never moving: a solitaire "won" by that seat is
    /// a game the player lost (see [`Rules::seats`]).
    pub players: Vec<String>,
    /// Every pit, in declaration order.
    pub pits: Vec<Pit>,
    /// The rows as drawn, top to bottom.
    pub rows: Vec<Row>,
    /// Each player's store, if the variant has stores.
    pub stores: [Option<Store>; 2],
    /// Named per-player sets of pits (row groups and regions).
    pub regions: Vec<NamedRegion>,
    /// Named per-player pits.
    pub named_pits: Vec<NamedPit>,
    /// The starting position.
    pub setup: Setup,
    /// The sowing circuit of each player (the same for both when shared).
    pub tracks: [Vec<Slot>; 2],
    /// How a turn's sowing is made.
    pub sowing: Sowing,
    /// How turns are written: choice letters, annotations to ignore.
    pub notation: Notation,
    /// Named phases, in order: the game is in the first whose condition holds.
    pub phases: Vec<Phase>,
    /// Variables the rules set and read.
    pub vars: Vec<Var>,
    /// The rules, in file order, grouped by the moment they are judged.
    pub rules: Vec<Rule>,
    /// How the game ends, judged in order before each turn.
    pub ends: Vec<End>,
    /// Each player's final score (with [`Who::Each`] for the player scored).
    pub score: Num,
    /// `estimate N`: how good a position is for each player (with
    /// [`Who::Each`]), as the computer players judge it; the score where
    /// none is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Num>,
    /// What becomes of a turn that would sow for ever.
    pub endless: Endless,
    /// Where the player to move may pass (`pass when C`): judged before a
    /// turn, once no end rule has ended the game; a pass changes nothing
    /// but the player to move.
    pub pass: Option<Cond>,
    /// `put N from hand|store into REGION when C`: turns that put seeds
    /// the mover holds off the board into one pit, sowing nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub put: Option<Put>,
    /// `take all|N from REGION [to PLACE] when C`: turns that take seeds
    /// out of one pit, out of the game or to a place, sowing nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub take: Option<Taking>,
    /// `owner follows VAR`: the per-pit variable (an index in `vars`)
    /// whose value, where it names a player, is the pit's owner in play
    /// (a child, a tuzdyk, a captured hole); elsewhere its row's owner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<usize>,
    /// The variable (an index in `vars`, named `last_mover`) the engine
    /// sets to the player of each turn played, where the rules read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_mover: Option<usize>,
    /// `rounds until C`: the game is a match played in rounds. When an end
    /// rule ends a round, its `end` rules run and its result is scored;
    /// then, judged on that position, C says whether the match is over
    /// (its result the round's); if not, the `round` rules set up the next
    /// round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<Cond>,
    /// The variable (an index in `vars`, named `starter`) the engine sets
    /// to the player who moves first in each round, where the rules read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starter: Option<usize>,
    /// The variable (named `round_winner`) the engine sets to the winner of
    /// each round as it ends (`none`: a draw), where the rules read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round_winner: Option<usize>,
    /// The variable (an index in `vars`, named `passes`) the engine sets to
    /// the turns passed in a row just before each turn (0 after one that
    /// is not a pass, held at the number of players), where the rules read
    /// it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passes: Option<usize>,
    /// The variable (named `turns_passed`) the engine sets to the whole
    /// turns passed in a row just before each turn, where the rules read
    /// it: as `passes`, but a pass its mover makes moving again (the turn
    /// begun with a sowing) is no turn passed, and counts 0 (Ludii's "all
    /// passed": each player's last turn a single pass).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turns_passed: Option<usize>,
    /// The variable (named `passed`, per player, `no` or `yes`) the engine
    /// sets for a player whenever they play: whether their last play was a
    /// pass (Ludii's player found without a move), where the rules read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passed: Option<usize>,
    /// The variable (an index in `vars`, named `resume`; its values `none`
    /// and then every pit's label, in pit order) the engine sets to the
    /// pit an `again from` names, and clears after every other turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume: Option<usize>,
    /// Marks the text board draws after a pit's label where they hold.
    pub marks: Vec<Mark>,
    /// The choices the variant leaves open, each with the value in force.
    pub options: Vec<Setting>,
}

/// An option of the variant (`option NAME default VALUE: VALUES`) and the
/// value it has in this game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setting {
    /// The option's name.
    pub name: String,
    /// The values it may take.
    pub choices: Choices,
    /// The value in force (a number is written in decimal).
    pub value: String,
}

/// The values an option may take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Choices {
    /// One of these words.
    Words(Vec<String>),
    /// A whole number from the first to the second.
    Range(i64, i64),
}

impl Choices {
    /// Whether `value` is one of the choices.
    pub fn allows(&self, value: &str) -> bool {
        self.value_of(value).is_some()
    }

    /// The value `given` names, as the variant writes it (a number as
    /// its digits: `04` and `+4` are `4`), if it is one of these.
    pub fn value_of(&self, given: &str) -> Option<String> {
        match self {
            Choices::Words(w) => w.iter().find(|x| *x == given).cloned(),
            Choices::Range(lo, hi) => given
                .parse::<i64>()
                .ok()
                .filter(|n| lo <= n && n <= hi)
                .map(|n| n.to_string()),
        }
    }

    /// The choices as a user writes them: `a | b | c` or `1..10`.
    pub fn describe(&self) -> String {
        match self {
            Choices::Words(w) => w.join(" | "),
            Choices::Range(lo, hi) if lo == hi => lo.to_string(),
            Choices::Range(lo, hi) => format!("{lo}..{hi}"),
        }
    }
}

/// A mark on the text board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// What is drawn after the label.
    pub symbol: String,
    /// Where (`here` is the pit; `mover` the player to move).
    pub when: Cond,
}

/// What becomes of a turn that would never end (its sowing comes back to a
/// state it was in before, exactly).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Endless {
    /// It is not a legal turn.
    #[default]
    Forbid,
    /// Playing it ends the game in a draw.
    Draw,
    /// Playing it loses the game.
    Loss,
}

/// One pit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pit {
    /// The label users type.
    pub label: String,
    /// Who owns it.
    pub owner: Player,
    /// Its row in [`Rules::rows`].
    pub row: usize,
    /// Its column, counted from the left as drawn.
    pub column: usize,
}

/// A row of pits as drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The row group's name, if any (`inner`).
    pub group: Option<String>,
    /// Who owns it; none for a row the players share (each pit's owner
    /// is its own).
    pub owner: Option<Player>,
    /// Its pits, left to right as drawn.
    pub pits: Vec<PitId>,
}

/// Where a store is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Store {
    /// At the left end of the board.
    Left,
    /// At the right end of the board.
    Right,
}

/// A per-player set of pits with a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamedRegion {
    /// The name used as `name(player)`.
    pub name: String,
    /// The pits of each player.
    pub pits: [Vec<PitId>; 2],
}

/// A per-player pit with a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamedPit {
    /// The name used as `name(player)`.
    pub name: String,
    /// Each player's pit.
    pub pits: [PitId; 2],
}

/// The starting position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setup {
    /// Seeds in each pit.
    pub seeds: Vec<u32>,
    /// Where the setup names pits by who starts (`seeds 2: two(starter)`,
    /// a per-player region or pit): the seeds in each pit when each player
    /// starts (`seeds` is then South's). A round's `reset` lays out the
    /// one of the `starter` of the round just ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_starter: Option<[Vec<u32>; 2]>,
    /// Variables' instances that start at another value than their first
    /// (`set child(H) = south`): each instance named by a player's name,
    /// a label or a region of a player's, and the value's index in the
    /// variable's words (or above its lowest number).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vars: Vec<(usize, VarAt, usize)>,
    /// Seeds in each player's hand.
    pub hands: [u32; 2],
    /// Seeds in each player's store.
    pub stores: [u32; 2],
    /// Who moves first.
    pub first: Player,
    /// Whether the rules leave who moves first to the players (`first
    /// chosen`): the command line names them (`--first PLAYER`), `first`
    /// being the first player declared otherwise.
    pub first_chosen: bool,
}

impl Setup {
    /// The seeds it lays out: pits, hands and stores.
    pub fn total(&self) -> u64 {
        self.seeds.iter().map(|&s| s as u64).sum::<u64>()
            + self.hands.iter().map(|&s| s as u64).sum::<u64>()
            + self.stores.iter().map(|&s| s as u64).sum::<u64>()
    }

    /// `out_of_play` where `in_play` seeds are in play: the seeds it lays
    /// out less those.
    pub fn out_of_play(&self, in_play: u64) -> i64 {
        self.total() as i64 - in_play as i64
    }
}

impl Rules {
    /// The options in force as a person reads them: `holes=4,
    /// pit_seeds=3` (empty where the variant has none).
    pub fn options_text(&self) -> String {
        let options: Vec<String> = self
            .options
            .iter()
            .map(|o| format!("{}={}", o.name, o.value))
            .collect();
        options.join(", ")
    }

    /// Whether seeds can leave the game (`remove` at any moment, a turn
    /// cut short by `sowings at most N`): a position then says how many
    /// are out of play.
    pub fn seeds_leave(&self) -> bool {
        self.sowing.most.is_some()
            || self.rules.iter().any(|r| {
                r.actions
                    .iter()
                    .any(|a| matches!(a, Action::Remove(_) | Action::RemoveRegion(_)))
            })
    }

    /// Whether the seeds in play may change in number while the game goes
    /// on: a `remove` at a moment of the turn or of a round, a turn cut
    /// short by `sowings at most N` (its lifted seeds leave), or a round
    /// laying out the setup afresh (`reset`: the setup's seeds, whatever
    /// were in play). Elsewhere every seed stays.
    pub fn loses_seeds(&self) -> bool {
        self.sowing.most.is_some()
            || self.rules.iter().any(|r| {
                r.moment != Moment::End
                    && r.actions.iter().any(|a| {
                        matches!(
                            a,
                            Action::Remove(_) | Action::RemoveRegion(_) | Action::Reset
                        )
                    })
            })
    }

    /// Whether seeds are ever held in a player's hand: the setup puts
    /// some there, a turn enters seeds from it, or a rule reads it.
    pub fn uses_hands(&self) -> bool {
        self.setup.hands.iter().any(|&h| h > 0)
            || self.sowing.entry.is_some()
            || self.any(&|n| matches!(n, visit::Node::Num(Num::Hand(_))))
    }

    /// The number of players: 2, or 1 for a solitaire.
    pub fn seats(&self) -> usize {
        self.players.len()
    }

    /// Whether seeds may leave a store: a turn sown from it, a put from it
    /// (elsewhere stores only grow).
    pub fn stores_shrink(&self) -> bool {
        self.sowing.from_store.is_some() || self.put.as_ref().is_some_and(|p| p.from == Held::Store)
    }

    /// The player who moves after `p` when nothing gives `p` another
    /// turn: the other, or in a solitaire the player again.
    pub fn next_player(&self, p: Player) -> Player {
        if self.seats() == 1 {
            p
        } else {
            1 - p
        }
    }

    /// A player's name; `None` for the seat no one sits in (a solitaire's
    /// second).
    pub fn player_name(&self, p: Player) -> Option<&str> {
        self.players.get(p as usize).map(String::as_str)
    }

    /// Who plays, for a message: "the players are south and north", or
    /// "the only player is solo".
    pub fn players_are(&self) -> String {
        match self.players.as_slice() {
            [one] => format!("the only player is {one}"),
            all => format!("the players are {}", all.join(" and ")),
        }
    }

    /// The players' names, for a message: "`south` and `north`", or
    /// "`solo`".
    pub fn players_text(names: &[String]) -> String {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(" and ")
    }
}

/// A place on a sowing track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    /// A pit.
    Pit(PitId),
    /// A player's store.
    Store(Player),
}

/// How turns are written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Notation {
    /// Letters written after the pit's label, each naming a direction the
    /// mover chooses (with `direction choose`).
    pub letters: Vec<Letter>,
    /// Annotations accepted after a turn and ignored (`*`, `#`).
    pub ignore: Vec<String>,
    /// Marks written after the letter for a yes/no choice the rules ask
    /// about during the turn (`+`): read with `chose("+")`.
    pub flags: Vec<String>,
    /// The flag answered afresh at each sowing (`flag "<" per sowing`),
    /// if any: an index in `flags`. A turn writes it after the sowing
    /// whose rules ask (`B3<2`: yes at the end of the second sowing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_sowing: Option<usize>,
}

/// A choice letter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Letter {
    /// The letter as written.
    pub letter: String,
    /// The direction it chooses.
    pub heading: Heading,
}

/// A direction as a player names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Heading {
    /// Along the track.
    Forward,
    /// Against the track.
    Backward,
    /// From the starting pit towards the mover's own left.
    Left,
    /// From the starting pit towards the mover's own right.
    Right,
}

/// A named phase of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Phase {
    /// Its name.
    pub name: String,
    /// The game is in this phase when this holds (and no earlier phase's
    /// condition does).
    pub when: Cond,
}

/// A variable the rules set and read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Var {
    /// Its name.
    pub name: String,
    /// One value for the game, one per player, or one per pit.
    pub scope: VarScope,
    /// The words it can hold; the first is where it starts (none for a
    /// variable holding a number).
    pub values: Vec<String>,
    /// A variable holding a whole number: the lowest and highest it can
    /// hold (`var wins per player: 0..10`); it starts at the lowest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numbers: Option<(i64, i64)>,
}

/// How many values a variable holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VarScope {
    /// One for the whole game.
    Game,
    /// One per player.
    Player,
    /// One per pit.
    Pit,
}

/// Which instance of a variable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VarAt {
    /// The game's.
    Game,
    /// A player's.
    Player(Who),
    /// A pit's.
    Pit(Place),
    /// Every pit of a region's (only to set).
    Pits(Region),
}

/// How seeds are lifted and sown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sowing {
    /// How many seeds are lifted from the starting pit.
    pub take: Take,
    /// Which way along the track a turn is sown, by its starting pit: the
    /// first line whose condition holds decides (the last has none).
    pub direction: Vec<Way>,
    /// Places the sowing passes over.
    pub skip: Vec<Skip>,
    /// A turn that begins by putting seeds from the mover's hand into the
    /// starting pit (the first "sowing" lands there) instead of lifting it.
    pub entry: Option<Entry>,
    /// Seeds left in a pit when it is lifted to be sown.
    pub leave: Option<Leave>,
    /// A turn may instead sow seeds from the mover's store, as many as the
    /// mover names (one to all it holds), the first into this place
    /// (`enter any from store into first_hole(mover)`).
    pub from_store: Option<Place>,
    /// Places a sowing passes over, giving them no seed, where this holds
    /// for the place (`here`): `skip when blocked(here) == yes`.
    pub skip_when: Option<Cond>,
    /// Whether a capture chain and `next`/`prev` pass over the places
    /// `skip_when` holds for too (`skip when C`), or only the sowing does
    /// (`skip sowing when C`: a chain stops at such a hole as at any other,
    /// Urim UR11).
    pub skip_walks: bool,
    /// The most sowings a turn makes (`sowings at most 75`): one that
    /// would begin another stops there, the seeds lifted for it leaving
    /// the game, and [`Cond::Cut`] holds.
    pub most: Option<u32>,
    /// The seeds each place of a sowing takes (`drop 4`), judged for the
    /// place (`here`) before they fall: that many, or what is left to
    /// sow if fewer, one where it is below one; `None`: one a place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_place: Option<Num>,
}

impl Sowing {
    /// The places a capture chain and `next`/`prev` pass over: those the
    /// sowing passes over (`skip when`), unless only the sowing does
    /// (`skip sowing when`).
    pub fn walk_skip(&self) -> Option<&Cond> {
        self.skip_when.as_ref().filter(|_| self.skip_walks)
    }
}

/// Turns that put seeds held off the board into one pit
/// (`put 7 from store into side(mover) when seeds(here) == 0`): one turn
/// for each pit of the region for which the condition holds and whose
/// count the mover holds. Nothing is sown: no `start`, `lift`, `drop` or
/// `land` rule is judged, the `turn` and `after` rules are (`origin` and
/// `last` the pit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Put {
    /// How many seeds, judged for the pit (`here`) on the position the
    /// turn starts from: a pit for which it is below 1, or above what the
    /// mover holds, takes no put.
    pub seeds: Num,
    /// Where the mover chooses how many (`put 1..hand(mover) from hand
    /// into …`): the most, judged likewise; one turn for each count from
    /// `seeds` to this that the mover holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upto: Option<Num>,
    /// Where the seeds come from.
    pub from: Held,
    /// The pits that may take them, in the order the turns are listed.
    pub into: Region,
    /// Which of them may, judged for each (`here`) on the position the
    /// turn starts from.
    pub when: Cond,
}

/// Turns that take seeds out of one pit, out of the game or to a place
/// (`take all from side(opponent) when seeds(here) > 0`): one turn for
/// each pit of the region for which the condition holds and that holds
/// the count. Nothing is sown: as for a put, no `start`, `lift`, `drop`
/// or `land` rule is judged, the `turn` and `after` rules are (`origin`
/// and `last` the pit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Taking {
    /// How many seeds (`None`: all the pit holds), judged for the pit
    /// (`here`) on the position the turn starts from: a pit for which it
    /// is below 1, or above what the pit holds, is not taken from.
    pub seeds: Option<Num>,
    /// The pits that may be taken from, in the order the turns are listed.
    pub from: Region,
    /// Where the seeds go (`to store(mover)`), judged for the pit
    /// (`here`): a pit for which it is none is not taken from; `None`:
    /// out of the game, or into a pit the mover chooses (`into`).
    pub to: Option<Place>,
    /// The pits the mover may move the seeds into instead
    /// (`into pits(board, here != origin)`), judged with `origin` the pit
    /// taken from: one turn for each pit taken from and each of these but
    /// itself, in order. Never with `to`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub into: Option<Region>,
    /// Which of them may, judged for each (`here`) on the position the
    /// turn starts from.
    pub when: Cond,
}

/// Where a player's seeds off the board are held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Held {
    /// The player's hand.
    Hand,
    /// The player's store.
    Store,
}

/// Seeds a pit keeps when it is lifted (`leave 1 when seeds(here) > 1`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Leave {
    /// How many it keeps (all it has, if it has no more): `leave all`
    /// keeps every seed, so the turn sows none (a pit chosen without
    /// sowing, its own last place).
    pub seeds: Keep,
    /// Where it applies: judged for the pit lifted (`here`) before it is
    /// lifted.
    pub when: Cond,
}

/// A line of the sowing's direction (`direction backward when …`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Way {
    /// Where it applies: judged for the starting pit (`origin`) on the
    /// position the turn starts from.
    pub when: Cond,
    /// The direction, or `None` where the mover chooses it by a letter.
    pub direction: Option<Direction>,
}

/// Seeds entered from the hand at the start of a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// How many seeds.
    pub seeds: u32,
    /// Only in this phase (an index in [`Rules::phases`]); always if none.
    pub phase: Option<usize>,
}

/// How many seeds a lifted pit keeps (`leave`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    /// Every seed in the pit.
    All,
    /// A fixed number (or all, if fewer).
    Count(u32),
    /// A number judged for the pit lifted (`here`) before it is lifted:
    /// `leave seeds(here) - 3` (or all, if fewer; none, if below 1).
    Seeds(Num),
}

/// How many seeds a sowing lifts (`take`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Take {
    /// Every seed in the pit.
    All,
    /// A fixed number (or all, if fewer).
    Count(u32),
}

/// The direction of sowing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Along the track as declared.
    #[default]
    Forward,
    /// Against the track.
    Backward,
}

/// A place a sowing passes over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Skip {
    /// The pit the turn started from, when a sowing comes round to it.
    Origin,
    /// The pit the sowing going on started from (the one its seeds were
    /// lifted from: a relay's, not the turn's), when it comes round to it.
    Lifted,
    /// A player's store.
    Store(Who),
}

impl Skip {
    /// The player whose store this passes over when `mover` sows, if it
    /// is a store the rule names (the mover's, the opponent's or a named
    /// player's: the checker accepts no other).
    pub fn store(&self, mover: Player) -> Option<Player> {
        match self {
            Skip::Store(Who::Mover) => Some(mover),
            Skip::Store(Who::Opponent) => Some(1 - mover),
            Skip::Store(Who::Player(p)) => Some(*p),
            Skip::Store(Who::Owner(_) | Who::Each | Who::Var(_) | Who::Other(_))
            | Skip::Origin
            | Skip::Lifted => None,
        }
    }
}

/// A named rule judged at one moment of a turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rule {
    /// Its name (unique in the variant).
    pub name: String,
    /// When it is judged.
    pub moment: Moment,
    /// It applies only when this holds.
    pub when: Cond,
    /// What it does.
    pub actions: Vec<Action>,
}

/// The moments of a turn at which rules are judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Moment {
    /// Whether a pit may start a turn (`origin` is the pit).
    Start,
    /// The last seed of a sowing has landed (`last`). The first rule that
    /// applies decides what follows; if none does, the turn ends.
    Land,
    /// Seeds have been taken by a capture, not yet put away.
    Capture,
    /// A whole turn is judged: `when` on the position before it, the
    /// actions on the position it leads to.
    Turn,
    /// A turn has been played (before the end rules are judged).
    After,
    /// Seeds have just been lifted from a pit (`here`) to be sown.
    Lift,
    /// A seed has just fallen into a place (`here`) while sowing.
    Drop,
    /// The game (or a round of a match) has ended.
    End,
    /// A round of a match has been scored (`round_winner` names its
    /// winner), before the match's end is judged.
    Scored,
    /// A round of a match has ended and the match goes on: the next
    /// round is set up.
    Round,
}

/// What a rule does.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Only turns (or starting pits) where this holds are legal.
    Require(Cond),
    /// If some turns (or starting pits) satisfy this, only those are legal.
    Prefer(Cond),
    /// Take the seeds of a pit, then walk on along the track while
    /// `chain` holds, taking each pit (stores are passed over, never
    /// taken).
    Capture {
        /// The first pit taken.
        place: Place,
        /// A walk along the track, taking pits while a condition holds.
        chain: Option<Chain>,
        /// Where the seeds go: a store or a pit, or (`None`) the mover's
        /// store, or the resowing when the rule resows (see
        /// [`Action::Resow`]).
        to: Option<Place>,
        /// The most seeds taken from each pit (`at most 2`: Weg WG17; a
        /// count read from the position, judged when the action runs:
        /// `at most share(north)`); all of them if none.
        most: Option<Box<Num>>,
    },
    /// Take every seed of a region's pits.
    CaptureRegion {
        /// The region.
        region: Region,
        /// Where the seeds go, as for [`Action::Capture`].
        to: Option<Place>,
        /// The most seeds taken from each pit, as for [`Action::Capture`].
        most: Option<Box<Num>>,
    },
    /// Lift the seeds of the landing pit (all, or at most a number) and
    /// sow on.
    Relay(Option<u32>),
    /// Lift every seed of another pit and sow on from the place after it
    /// (`relay from next(last)`).
    RelayFrom(Place),
    /// Lift every seed of the landing pit and sow on going this way
    /// (`forward` or `backward`: the checker accepts no other), the way
    /// every later sowing goes until another changes it.
    RelayGoing(Heading),
    /// Sow the seeds this rule captured without a destination (`to`), the
    /// first into `from`, going `heading` from there; the turn goes on from
    /// where they end.
    Resow {
        /// Where the first seed goes.
        from: Place,
        /// Which way.
        heading: Heading,
    },
    /// Give a variable a value.
    Set {
        /// The variable.
        var: usize,
        /// Which instance.
        at: VarAt,
        /// The value's index in [`Var::values`].
        value: usize,
    },
    /// Give a variable holding a number the value of a number, held
    /// within the variable's range.
    SetNumber {
        /// The variable.
        var: usize,
        /// Which instance.
        at: VarAt,
        /// The number.
        to: Num,
    },
    /// Give a variable whose values are the players' names the name of a
    /// player.
    SetPlayer {
        /// The variable.
        var: usize,
        /// Which instance.
        at: VarAt,
        /// The player whose name it takes.
        to: Who,
    },
    /// Bring each pit of a region, in the region's order, to so many
    /// seeds taken from a place, while the place has enough for the next.
    Fill {
        /// The pits, in the order they are filled.
        region: Region,
        /// The seeds each is brought to.
        to: Num,
        /// Where the seeds come from (a store, or a pit).
        from: Place,
    },
    /// Who moves first in the next round.
    First(Who),
    /// The mover moves again.
    Again,
    /// The mover moves again, from a place: the next turn is the sowing of
    /// that pit (its only legal turn; the `start` rules do not judge it),
    /// a decision of its own, as Ludii asks its mover again to sow on from
    /// the last hole sowed. The engine keeps the turn (the variable named
    /// `resume`): the pit, and the letter of the turn that named it.
    AgainFrom(Place),
    /// The turn ends.
    Stop,
    /// The seeds taken by this capture go back where they were.
    Cancel,
    /// The turn is not legal.
    Forbid,
    /// Every pit's seeds go to its owner's store.
    Collect,
    /// Every pit, store and hand holds again what the setup puts there
    /// (the board set up afresh for a round: Weg WG26).
    Reset,
    /// The seeds of a pit leave the game, counting for nobody.
    Remove(Place),
    /// The seeds of a region's pits leave the game, counting for nobody.
    RemoveRegion(Region),
    /// The seeds of a region's pits are shared between the two stores,
    /// the odd one to a player's.
    Divide {
        /// The pits shared.
        region: Region,
        /// Who gets the odd seed.
        odd: Who,
        /// Where each player's share goes: their store, or their pit of a
        /// per-player pit (`into last_child`, by index in
        /// [`Rules::named_pits`]).
        into: Option<usize>,
    },
}

/// A capture's walk along the track (`chain backward while C`): from a
/// pit (the one captured, or `from PLACE`), each pit on (`here`) is judged
/// and, while the condition holds, taken (or the place `taking` names),
/// with the place `with` names for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Chain {
    /// `forward` along the sowing, or `backward` against it.
    pub direction: Direction,
    /// How many places each step of the walk goes (`every 2`: every
    /// second one), counting only places it does not pass over.
    pub every: u32,
    /// Where the walk starts (the pit captured, if none).
    pub from: Option<Place>,
    /// The condition each pit walked (`here`) is judged by.
    #[serde(rename = "while")]
    pub holds: Cond,
    /// The place taken for each pit walked (`here`, if none).
    pub taking: Option<Place>,
    /// A place taken too for each pit walked, just after it (`with
    /// opposite(here)`: each pit and the one facing it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with: Option<Place>,
}

/// How a game ends.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct End {
    /// The reason reported when it fires.
    pub name: String,
    /// It fires when this holds, before a turn (`mover` is the player to
    /// move); when the condition names `player`, it is judged for each
    /// player, the mover first.
    pub when: Cond,
    /// Who wins or loses, or a draw, if the rule says; otherwise the
    /// higher score wins.
    pub result: Option<Decision>,
    /// Judged also during a turn, after each sowing and each capture; the
    /// turn stops there (`mover` is the player making the turn).
    pub at_once: bool,
}

/// What an end rule decides (`winner P`, `loser P`, `draw`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The player wins.
    Winner(Who),
    /// The player loses.
    Loser(Who),
    /// Nobody wins.
    Draw,
}

/// A player, relative to the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// The player whose turn it is.
    Mover,
    /// The other player.
    Opponent,
    /// A player by name.
    Player(Player),
    /// The owner of a place.
    Owner(Box<Place>),
    /// The player being scored.
    Each,
    /// The player a variable of the game names (`last_mover`, `starter`):
    /// none where it names none.
    Var(usize),
    /// The other player (`opponent(starter)`).
    Other(Box<Who>),
}

/// A place: a pit or a store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// A pit by label.
    Pit(PitId),
    /// Where the last seed of the sowing landed.
    Last,
    /// The pit the turn started from.
    Origin,
    /// The pit whose seeds were last lifted to be sown this turn: the
    /// origin, or the pit of the latest relay (a resowing of captured
    /// seeds lifts none).
    Lifted,
    /// The pit being judged by a chain.
    Here,
    /// A player's store.
    Store(Who),
    /// A named per-player pit.
    Named(usize, Who),
    /// The pit facing this one across the board.
    Opposite(Box<Place>),
    /// The pit behind this one in its column, one row further from the
    /// middle of the board, of the same owner (none where there is none).
    Behind(Box<Place>),
    /// The pit in front of this one in its column, one row nearer the
    /// middle of the board, of the same owner (none where there is none:
    /// an inner row's).
    Front(Box<Place>),
    /// The pit in this one's column one row nearer the side of the board
    /// facing the mover's, whoever owns it (none off the board): on four
    /// rows, an outer hole's is the mover's inner hole in front of it, an
    /// inner hole's the opponent's facing it (Ludii's "opposite pit").
    Across(Box<Place>),
    /// The place so many steps on along the mover's track (back along it,
    /// when negative), as the track is listed: `next(last)`, `prev(last, 2)`.
    Along(Box<Place>, i32),
    /// The place so many steps on the way the sowing going on goes (back
    /// against it, when negative): `ahead(last)`, `back(here)`; along the
    /// track as `next`/`prev` are, in a sowing going backward the other way.
    Ahead(Box<Place>, i32),
    /// `along(PLACE, N)`: the place N steps on along the mover's track as
    /// it is listed (back along it, when negative), every place on it
    /// counted, those a `skip when` passes over too; N judged on the
    /// position: `along(lifted, before(seeds(lifted)))`.
    Stepped(Box<Place>, Box<Num>),
    /// The first pit of a region, in the order it lists them (none when it
    /// is empty): `first(pits(order(mover), child(here) == mover))`.
    First(Box<Region>),
    /// `if(C, A, B)`: the place A where the condition holds, else B.
    If(Box<Cond>, Box<Place>, Box<Place>),
}

/// A set of pits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Region {
    /// Every pit a player owns.
    Side(Who),
    /// A named per-player region.
    Named(usize, Who),
    /// Every pit on the board.
    Board,
    /// The pits the first capture of each of a player's capturing turns
    /// would empty, were that player to move now (at the `after` moment).
    FirstCaptures(Who),
    /// The pits of a region for which a condition holds (`here` the pit).
    Where(Box<Region>, Box<Cond>),
    /// The first N pits of a region, in the order it lists them (all of
    /// them, if it has no more): `first(refill(south), 3)`.
    First(Box<Region>, Box<Num>),
    /// `path(A, B)`: the pits from A on to the first B met, both
    /// included, the way the sowing going on runs along the mover's track,
    /// its stores left out (the pits a lap sowed, `path(lifted, last)`,
    /// where it did not go round the ring); none where either place is off
    /// the track.
    Path(Box<Place>, Box<Place>),
}

/// A whole number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Num {
    /// A constant.
    Int(i64),
    /// Seeds in a place.
    Seeds(Place),
    /// Seeds in a region.
    SeedsIn(Region),
    /// Seeds in a player's hand.
    Hand(Who),
    /// `if(C, A, B)`: A where C holds, else B.
    If(Box<Cond>, Box<Num>, Box<Num>),
    /// `sum(REGION, N)`: N judged for each pit of the region (`here`),
    /// added up.
    SumOver(Region, Box<Num>),
    /// Every seed in play: pits, stores and hands.
    Total,
    /// `out_of_play`: the seeds the setup lays out less those in play:
    /// in a game played from its setup, the seeds that have left it
    /// (`remove`, a sowing cut).
    OutOfPlay,
    /// Seeds captured so far this turn.
    Captured,
    /// Sowings made so far this turn, the current one included (an entry
    /// from the hand counts as one).
    Sowings,
    /// The pits of a region for which a condition holds (`here`).
    Count(Region, Box<Cond>),
    /// The value at the start of the turn.
    Before(Box<Num>),
    /// Arithmetic.
    Arith(ArithOp, Box<Num>, Box<Num>),
    /// The number a variable holds (`wins(south)`).
    Var(usize, VarAt),
}

/// Arithmetic operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (0 when dividing by 0)
    Div,
    /// `%` (0 when dividing by 0)
    Rem,
}

impl ArithOp {
    /// `x op y`, as every number in a game is worked out (in play and when
    /// a file is read): saturating at the bounds of an `i64`, division
    /// whole and toward zero, 0 where it divides by 0.
    pub fn apply(self, x: i64, y: i64) -> i64 {
        match self {
            ArithOp::Add => x.saturating_add(y),
            ArithOp::Sub => x.saturating_sub(y),
            ArithOp::Mul => x.saturating_mul(y),
            ArithOp::Div if y == 0 => 0,
            ArithOp::Div => x.saturating_div(y),
            ArithOp::Rem => x.checked_rem(y).unwrap_or(0),
        }
    }
}

/// Comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// A condition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cond {
    /// Always.
    True,
    /// Negation.
    Not(Box<Cond>),
    /// All hold.
    And(Vec<Cond>),
    /// Some holds.
    Or(Vec<Cond>),
    /// Compares two numbers.
    Compare(CmpOp, Num, Num),
    /// A number lies in an inclusive range.
    InRange(Num, Num, Num),
    /// Two places are the same.
    SamePlace(Place, Place),
    /// Two players are the same.
    SamePlayer(Who, Who),
    /// A place lies in a region.
    PlaceIn(Place, Region),
    /// A variable holds a value (by index in [`Var::values`]).
    VarIs(usize, VarAt, usize),
    /// The game is in a phase (by index in [`Rules::phases`]).
    InPhase(usize),
    /// The sowing now going on runs this way along the track.
    Going(Direction),
    /// The turn was written with this letter (an index in the notation's
    /// letters).
    Chose(usize),
    /// The turn was written with this flag (an index in the notation's
    /// flags).
    Flagged(usize),
    /// A player would have a legal capturing turn, were they to move now
    /// (at the `after` moment).
    HasCapture(Who),
    /// A player has no legal turn (a pass aside), were they to move now:
    /// `no_legal_turn` is the player to move's.
    NoLegalTurn(Who),
    /// The position (board, stores, hands, player to move) was seen before.
    Repeated,
    /// The turn just played was stopped by the sowings it may make
    /// (`sowings at most N`).
    Cut,
    /// The seed just dropped is its sowing's last (at the `drop` moment).
    LastSeed,
    /// The end rule that ended the game, or the round (by index in
    /// [`Rules::ends`]): `ended(clear_win)`, once it has ended.
    Ended(usize),
}
