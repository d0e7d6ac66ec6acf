//! The engine: plays a variant's rules IR. It knows nothing of the syntax.
//! It compiles the IR once per variant and allocates nothing per turn in
//! its hot path: legal turns, applying a turn and judging the end reuse
//! buffers the [`Game`] owns.
//!
//! Its modules read one way, each using only those listed before it
//! (`tests/layout.rs` checks it):
//!
//! - `position`, `history`: a position, and the positions a game has been in;
//! - `shown`: a turn shown step by step, for a person watching;
//! - `board`: the board's geometry, built once from the rules;
//! - `compiled`: what the rules compile to, for each mover;
//! - `eval`: how a compiled condition or number is judged on a position;
//! - `plan`, `abilities`: each player's rules laid out for each moment and
//!   stage, and what the rules can do (how legal turns are listed);
//! - `site`, `act`: where a rule is judged (the turn as it stands), and how
//!   its actions act;
//! - `cycle`, `put`, `turn`: finding a turn that never ends, a turn that
//!   puts held seeds into a pit, and one turn;
//! - `game`: a game, which plays turns (and, in `game::lookahead`, plays
//!   them ahead for the rules that look ahead).

mod abilities;
mod act;
mod board;
mod compiled;
mod cycle;
mod eval;
mod game;
mod history;
mod plan;
mod position;
mod put;
mod shown;
mod site;
mod turn;

pub use board::natural;
pub use game::{Game, RoundEnd, ENDLESS};
pub use position::Position;
pub use shown::{Frame, Shown, StepKind};
pub use turn::TooLong;

use abilities::Abilities;
use board::Board;
use compiled::{Compiler, C, N};
use eval::Ctx;
use plan::{BoundEnds, CEnd, Plan, Ways};

use crate::ir::{Direction, Heading, Player, Rules};

/// "No cell": off the track, no opposite pit.
pub(crate) const NONE: u16 = u16::MAX;

/// A variant's rules with the tables the engine plays from. It is shared
/// by every game of the variant and never changes.
#[derive(Debug)]
pub struct Engine {
    /// The rules IR.
    pub rules: Rules,
    /// The board's geometry.
    board: Board,
    /// The rules compiled for each mover.
    plan: [Plan; 2],
    /// What the rules can do.
    can: Abilities,
    /// How many phases, sowings and captured values tell stages apart.
    stage_dims: Option<(i64, i64, i64)>,
    /// Each player's score.
    scores: [N; 2],
    /// Each player's estimate (`estimate`, else the score).
    estimates: [N; 2],
    /// Who moves after each player ([`Rules::next_player`], kept at hand).
    next_player: [Player; 2],
    /// `last_mover`: its variable's slot, and the value naming each player.
    last_mover: Option<(usize, [u32; 2])>,
    /// `starter`: likewise.
    starter: Option<(usize, [u32; 2])>,
    /// `round_winner`: its slot, and the values naming each player and
    /// `none`.
    round_winner: Option<(usize, [u32; 3])>,
    /// `passes`: its slot, and the most it counts.
    passes: Option<(usize, u32)>,
    /// `turns_passed`: likewise.
    turns_passed: Option<(usize, u32)>,
    /// `passed`: its variable's first slot (a player's, each).
    passed: Option<usize>,
    /// `resume`: its slot, and the stride of its values (0 there for
    /// none, else 1 + pit × stride + letter, where letter 0 is none and
    /// each letter of the notation follows).
    resume: Option<(usize, u32)>,
    /// The reasons an outcome gives: each end rule's name, then
    /// [`ENDLESS`].
    reasons: Vec<std::sync::Arc<str>>,
}

/// One whole turn: the pit it starts from and the choices made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The starting pit.
    pub pit: u16,
    /// The letter chosen (an index in the notation's letters), or
    /// [`Turn::NO_LETTER`] where the sowing's direction is not chosen.
    pub choice: u8,
    /// The flags written (bit i: the notation's flag i).
    pub flags: u8,
    /// A turn sown from the store: [`Turn::STORE`] and the seeds it sows
    /// (see [`Turn::seeds`]); a turn putting seeds into `pit`
    /// ([`Turn::put`]): [`Turn::STORE`] and [`Turn::PUT`]; a turn from a
    /// pit: the per-sowing flag's answers (see [`Turn::marks`]); a turn
    /// taking `pit`'s seeds ([`Turn::take`]): [`Turn::STORE`] and
    /// [`Turn::TAKE`], and, where the mover chose the pit they go into
    /// ([`Turn::take_into`]), that pit plus one in the low 16 bits. One word
    /// keeps a turn at 8 bytes: the engine copies turns in its hottest
    /// loops.
    extra: u32,
}

impl Turn {
    /// The `choice` of a turn written without a letter.
    pub const NO_LETTER: u8 = u8::MAX;
    /// A pass (`pass when …`): no pit is sown.
    pub const PASS: Turn = Turn::from_pit(NONE, Turn::NO_LETTER);
    /// The mark of a turn that does not sow a pit's seeds: one sown from
    /// the store, or a put.
    const STORE: u32 = 1 << 31;
    /// With [`Turn::STORE`], the mark of a put (a store turn's seeds stay
    /// below it: see [`crate::limits::MAX_STORE_TURN`]).
    const PUT: u32 = 1 << 30;
    /// With [`Turn::STORE`], the mark of a take.
    const TAKE: u32 = 1 << 29;
    /// The sowings a per-sowing flag can answer: 1 to 31.
    pub const MARKED_SOWINGS: u32 = 31;

    /// A turn from a pit, with a letter (or [`Turn::NO_LETTER`]), no flag.
    pub const fn from_pit(pit: u16, choice: u8) -> Turn {
        Turn {
            pit,
            choice,
            flags: 0,
            extra: 0,
        }
    }

    /// A turn sowing `seeds` (1 to [`crate::limits::MAX_STORE_TURN`])
    /// from the store `store`.
    pub const fn from_store(store: u16, seeds: u32) -> Turn {
        Turn {
            pit: store,
            choice: Turn::NO_LETTER,
            flags: 0,
            extra: Turn::STORE | seeds,
        }
    }

    /// A turn putting held seeds into `pit` (`put … into …`), sowing
    /// nothing.
    pub const fn put(pit: u16) -> Turn {
        Turn {
            pit,
            choice: Turn::NO_LETTER,
            flags: 0,
            extra: Turn::STORE | Turn::PUT,
        }
    }

    /// A turn putting `seeds` held seeds into `pit`, a count the mover
    /// chose (`put LOW..HIGH from … into …`; 1 to
    /// [`crate::limits::MAX_STORE_TURN`]), sowing nothing.
    pub const fn put_count(pit: u16, seeds: u32) -> Turn {
        Turn {
            pit,
            choice: Turn::NO_LETTER,
            flags: 0,
            extra: Turn::STORE | Turn::PUT | seeds,
        }
    }

    /// Whether the turn puts held seeds into its pit.
    #[inline]
    pub fn is_put(self) -> bool {
        self.extra & (Turn::STORE | Turn::PUT | Turn::TAKE) == Turn::STORE | Turn::PUT
    }

    /// The seeds a put moves where the mover chose how many
    /// ([`Turn::put_count`]); none for any other turn.
    #[inline]
    pub fn put_seeds(self) -> Option<u32> {
        let n = self.extra & !(Turn::STORE | Turn::PUT | Turn::TAKE);
        (self.is_put() && n > 0).then_some(n)
    }

    /// A turn taking seeds out of `pit` and out of the game (`take … from
    /// …`), sowing nothing.
    pub const fn take(pit: u16) -> Turn {
        Turn {
            pit,
            choice: Turn::NO_LETTER,
            flags: 0,
            extra: Turn::STORE | Turn::TAKE,
        }
    }

    /// A turn moving seeds out of `pit` into `into`, a pit the mover
    /// chose (`take … from … into …`), sowing nothing.
    pub const fn take_into(pit: u16, into: u16) -> Turn {
        Turn {
            pit,
            choice: Turn::NO_LETTER,
            flags: 0,
            extra: Turn::STORE | Turn::TAKE | (into as u32 + 1),
        }
    }

    /// Whether the turn takes seeds out of its pit (out of the game, to a
    /// place, or into a pit chosen).
    #[inline]
    pub fn is_take(self) -> bool {
        self.extra & (Turn::STORE | Turn::PUT | Turn::TAKE) == Turn::STORE | Turn::TAKE
    }

    /// The pit a take moves its seeds into, chosen by the mover
    /// ([`Turn::take_into`]); none for any other turn.
    #[inline]
    pub fn destination(self) -> Option<u16> {
        (self.is_take() && self.extra & 0xffff != 0).then(|| (self.extra & 0xffff) as u16 - 1)
    }

    /// Whether the turn acts on its pit without sowing: a put or a take.
    #[inline]
    pub fn sows_nothing(self) -> bool {
        self.is_put() || self.is_take()
    }

    /// The seeds a turn from the store sows; none for any other turn.
    #[inline]
    pub fn seeds(self) -> u32 {
        if self.extra & (Turn::STORE | Turn::PUT | Turn::TAKE) == Turn::STORE {
            self.extra & !(Turn::STORE | Turn::PUT | Turn::TAKE)
        } else {
            0
        }
    }

    /// The per-sowing flag's answers (`flag "<" per sowing`): bit k, yes
    /// at the end of sowing k + 1 (sowings past the 31st answer no).
    #[inline]
    pub fn marks(self) -> u32 {
        if self.extra & Turn::STORE != 0 {
            0
        } else {
            self.extra
        }
    }

    /// The same turn from a pit with these per-sowing answers (any other
    /// turn as it is).
    pub fn with_marks(self, marks: u32) -> Turn {
        if self.extra & Turn::STORE != 0 {
            return self;
        }
        Turn {
            extra: marks & !Turn::STORE,
            ..self
        }
    }
}
/// How a game ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// The name of the end rule that fired.
    pub reason: std::sync::Arc<str>,
    /// Each player's final score.
    pub scores: [i64; 2],
}
impl Engine {
    /// The reasons an outcome may give: each end rule's name, then
    /// [`ENDLESS`] (a turn that never ends, where it ends the game).
    pub fn reasons(&self) -> &[std::sync::Arc<str>] {
        &self.reasons
    }

    /// Builds the engine from checked rules: the board's tables, the rules
    /// compiled for each player, and what they can do.
    pub fn new(rules: Rules) -> Engine {
        let board = Board::new(&rules);
        let compiler = Compiler {
            rules: &rules,
            board: &board,
        };
        let counter_caps = abilities::counter_caps(&rules);
        let stage_dims = plan::stage_dims(&rules, counter_caps);
        let plan =
            [0u8, 1].map(|mover| Plan::compile(&rules, &board, &compiler, mover, stage_dims));
        let scores = [compiler.score(0), compiler.score(1)];
        let estimates = [compiler.estimate(0), compiler.estimate(1)];
        let can = Abilities::new(&rules, &plan, counter_caps);
        // A variable the engine keeps: its slot, and the value naming each
        // player.
        let kept = |v: usize| (board.var_base[v], board::player_values(&rules, v));
        let last_mover = rules.last_mover.map(kept);
        let starter = rules.starter.map(kept);
        let round_winner = rules.round_winner.map(|v| {
            let [a, b] = board::player_values(&rules, v);
            let none = rules.vars[v].values.iter().position(|x| x == "none");
            (board.var_base[v], [a, b, none.unwrap_or_default() as u32])
        });
        let counter = |v: usize| {
            let (low, high) = rules.vars[v].numbers.unwrap_or_default();
            (board.var_base[v], (high - low) as u32)
        };
        let passes = rules.passes.map(counter);
        let turns_passed = rules.turns_passed.map(counter);
        let resume = rules
            .resume
            .map(|v| (board.var_base[v], rules.notation.letters.len() as u32 + 1));
        Engine {
            next_player: [0, 1].map(|p| rules.next_player(p)),
            last_mover,
            starter,
            round_winner,
            passes,
            turns_passed,
            passed: rules.passed.map(|v| board.var_base[v]),
            resume,
            reasons: rules
                .ends
                .iter()
                .map(|e| e.name.as_str())
                .chain([ENDLESS])
                .map(std::sync::Arc::from)
                .collect(),
            rules,
            board,
            plan,
            can,
            stage_dims,
            scores,
            estimates,
        }
    }

    /// Whether rule `i` (an index in the rules' `rules`) can never apply
    /// under the options in force: its condition, compiled for either
    /// mover, is false whatever the position (`when grand_slam ==
    /// forbidden` where the option is otherwise).
    pub fn switched_off(&self, i: usize) -> bool {
        let compiler = Compiler {
            rules: &self.rules,
            board: &self.board,
        };
        [0, 1]
            .into_iter()
            .all(|mover| compiler.rule(i, mover, None).when == compiled::C::Const(false))
    }

    /// Each player's score on a position, as the variant's `score` counts
    /// it (the game need not be over).
    pub fn scores(&self, pos: &Position) -> [i64; 2] {
        let f = Ctx::new(pos, pos, NONE, NONE);
        [self.num(&self.scores[0], &f), self.num(&self.scores[1], &f)]
    }

    /// How good a position is for each player, as the variant's `estimate`
    /// judges it (its `score` where it has none): what the computer
    /// players weigh positions by.
    pub fn estimates(&self, pos: &Position) -> [i64; 2] {
        let f = Ctx::new(pos, pos, NONE, NONE);
        [
            self.num(&self.estimates[0], &f),
            self.num(&self.estimates[1], &f),
        ]
    }

    /// Number of cells: pits and the two stores.
    pub fn cells(&self) -> usize {
        self.board.npits + 2
    }

    /// The cell of a player's store.
    pub(crate) fn store_cell(&self, p: Player) -> u16 {
        (self.board.npits + p as usize) as u16
    }

    /// The starting position.
    pub fn start_position(&self) -> Position {
        self.start_position_for(self.rules.setup.first)
    }

    /// The starting position with `first` to move (where the rules leave
    /// who starts to the players, `first chosen`).
    pub fn start_position_for(&self, first: Player) -> Position {
        let mut pos = Position {
            cells: vec![0; self.cells()],
            hands: [0; 2],
            to_move: Some(first),
            vars: self.board.var_start.clone(),
        };
        self.note_starter(&mut pos, first);
        self.lay_out(&mut pos);
        pos
    }

    /// The seeds of a position's pits, stores and hands laid out as the
    /// setup lays them (at the start, and by `reset`; out of line, as the
    /// actions' work is, see `act.rs`).
    #[inline(never)]
    pub(crate) fn lay_out(&self, pos: &mut Position) {
        let setup = &self.rules.setup;
        // Laid out by who starts (the round just ended's starter, at a
        // `reset`): the file that names pits by it reads `starter`.
        let seeds = match (&setup.by_starter, self.starter) {
            (Some(layouts), Some((slot, values))) => {
                let north = pos.vars.get(slot) == Some(&values[1]);
                &layouts[usize::from(north)]
            }
            (Some(_), None) | (None, _) => &setup.seeds,
        };
        let (pits, stores) = pos.cells.split_at_mut(self.board.npits);
        pits.copy_from_slice(seeds);
        stores.copy_from_slice(&setup.stores);
        pos.hands = setup.hands;
    }

    /// Which of a plan's per-phase lists holds for a position: its phase,
    /// or (no phase holding, or none declared) the last list, compiled
    /// for no phase in particular.
    pub(crate) fn phase_slot(&self, pos: &Position) -> usize {
        self.phase(pos).unwrap_or(self.rules.phases.len())
    }

    /// The phase a position is in (an index in the rules' phases), if the
    /// variant declares phases.
    #[inline(always)]
    pub fn phase(&self, pos: &Position) -> Option<usize> {
        if self.rules.phases.is_empty() {
            return None;
        }
        Some(self.phase_judged(pos))
    }

    /// [`Engine::phase`], of a variant that declares phases.
    #[inline(never)]
    fn phase_judged(&self, pos: &Position) -> usize {
        let phases = &self.plan[pos.to_move.unwrap_or(0) as usize].phases;
        let f = eval::Ctx::new(pos, pos, NONE, NONE);
        phases
            .iter()
            .position(|c| self.cond(c, &f))
            .unwrap_or(phases.len() - 1)
    }

    /// Notes in a position that `mover` played the turn that led to it
    /// (`last_mover`, where the rules read it).
    #[inline]
    pub(crate) fn note_mover(&self, pos: &mut Position, mover: Player) {
        if let Some((slot, values)) = self.last_mover {
            pos.vars[slot] = values[mover as usize & 1];
        }
    }

    /// Whether `mover`, about to play on `pos`, played the ply before
    /// (moving again after an `again`), where the engine keeps who moved
    /// last; never in a solitaire, whose every ply is the one player's.
    #[inline]
    pub(crate) fn moving_again(&self, pos: &Position, mover: Player) -> bool {
        match self.last_mover {
            Some((slot, values)) if self.rules.seats() == 2 => {
                pos.vars[slot] == values[mover as usize & 1]
            }
            Some(_) | None => false,
        }
    }

    /// Notes in a position whether the turn that led to it was a pass
    /// (`passes` counts them in a row, where the rules read it), and
    /// whether it was a whole turn passed (`turns_passed`: not a pass its
    /// mover makes moving again, `again`).
    #[inline]
    pub(crate) fn note_pass(&self, pos: &mut Position, passed: bool, again: bool) {
        let count = |pos: &mut Position, kept: Option<(usize, u32)>, up: bool| {
            if let Some((slot, most)) = kept {
                pos.vars[slot] = if up {
                    (pos.vars[slot] + 1).min(most)
                } else {
                    0
                };
            }
        };
        count(pos, self.passes, passed);
        count(pos, self.turns_passed, passed && !again);
    }

    /// Notes in a position whether `mover`'s play that led to it was a
    /// pass (`passed`, where the rules read it).
    #[inline]
    pub(crate) fn note_passed(&self, pos: &mut Position, mover: Player, passed: bool) {
        if let Some(base) = self.passed {
            pos.vars[base + (mover as usize & 1)] = passed as u32;
        }
    }

    /// Notes in a position the turn the mover must play next (`again
    /// from`): a pit, sown the way the turn that named it was written (its
    /// letter, where it had one); or none.
    #[inline]
    pub(crate) fn note_resume(&self, pos: &mut Position, next: Option<Turn>) {
        if let Some((slot, stride)) = self.resume {
            // (A place that is none, or a store, names no pit: the mover
            // moves again as after a plain `again`.) The values: none,
            // then each pit with no letter and with each letter in turn.
            pos.vars[slot] = next
                .filter(|t| (t.pit as usize) < self.board.npits)
                .map_or(0, |t| {
                    let letter = match t.choice {
                        Turn::NO_LETTER => 0,
                        l => (l as u32 + 1).min(stride - 1),
                    };
                    1 + t.pit as u32 * stride + letter
                });
        }
    }

    /// The turn the player to move must play next (`again from`), if the
    /// turn before named one: its pit, and the letter it keeps.
    #[inline]
    pub(crate) fn resumed(&self, pos: &Position) -> Option<Turn> {
        let (slot, stride) = self.resume?;
        match pos.vars[slot] {
            0 => None,
            v => {
                let (pit, letter) = ((v - 1) / stride, (v - 1) % stride);
                let choice = match letter {
                    0 => Turn::NO_LETTER,
                    l => l as u8 - 1,
                };
                Some(Turn::from_pit(pit as u16, choice))
            }
        }
    }

    /// Notes in a position who won the round just ended (`round_winner`,
    /// `none` for a draw), where the rules read it.
    pub(crate) fn note_round_winner(&self, pos: &mut Position, winner: Option<Player>) {
        if let Some((slot, values)) = self.round_winner {
            pos.vars[slot] = winner.map_or(values[2], |p| values[p as usize & 1]);
        }
    }

    /// Notes in a position who moves first in the round (`starter`), where
    /// the rules read it.
    pub(crate) fn note_starter(&self, pos: &mut Position, first: Player) {
        if let Some((slot, values)) = self.starter {
            pos.vars[slot] = values[first as usize & 1];
        }
    }

    /// The end rules of each mover with a game's seed total bound in.
    pub(crate) fn bound_ends(&self, total: i64) -> std::sync::Arc<BoundEnds> {
        std::sync::Arc::new([0, 1].map(|m| {
            self.plan[m]
                .ends
                .iter()
                .map(|e| CEnd {
                    when: compiled::bind_total(&e.when, total),
                    ..e.clone()
                })
                .collect()
        }))
    }

    /// The most turns a position can have: a turn per starting pit, letter
    /// and flag (or none), a pass, the turns from the store, a put per pit.
    pub(crate) fn max_turns(&self) -> usize {
        let letters = self.rules.notation.letters.len().max(1);
        let flags = 1 + self.rules.notation.flags.len();
        let pits = self
            .plan
            .iter()
            .flat_map(|p| p.candidates.iter().map(Vec::len))
            .max();
        pits.unwrap_or(0) * letters * flags
            + 1
            + self
                .rules
                .sowing
                .from_store
                .as_ref()
                .map_or(0, |_| crate::limits::MAX_STORE_TURN as usize)
            + self.rules.put.as_ref().map_or(0, |_| self.board.npits)
            + self.rules.take.as_ref().map_or(0, |_| self.board.npits)
    }

    /// The index of a turn's stage in a plan's `stages`, if staged.
    #[inline]
    pub(crate) fn stage(&self, phase: usize, sowings: i64, captured: i64) -> Option<usize> {
        let (_, ns, nc) = self.stage_dims?;
        let s = sowings.clamp(1, ns) - 1;
        let c = captured.clamp(0, nc - 1);
        Some(((phase as i64 * ns + s) * nc + c) as usize)
    }

    /// The marks the text board draws after a pit's label.
    pub fn marks(&self, pos: &Position, pit: u16) -> String {
        let mover = pos.to_move.unwrap_or(0);
        let mut f = eval::Ctx::new(pos, pos, NONE, NONE);
        f.here = pit;
        self.plan[mover as usize]
            .marks
            .iter()
            .filter(|(_, c)| self.cond(c, &f))
            .map(|(s, _)| s.as_str())
            .collect()
    }

    /// The number of variable slots a position holds.
    pub fn var_slots(&self) -> usize {
        self.board.var_start.len()
    }

    /// The number of slots variable `var` holds in a position (one, one a
    /// player or one a pit).
    pub fn var_slots_of(&self, var: usize) -> usize {
        let base = &self.board.var_base;
        base.get(var + 1).copied().unwrap_or(self.var_slots()) - base[var]
    }

    /// Length of one record of the repetition history: the player to move,
    /// every cell, both hands, every variable slot.
    pub fn record_len(&self) -> usize {
        self.cells() + 3 + self.var_slots()
    }

    /// The pits in the order positions and turns list them: labels in
    /// natural order (`A2` before `A10`).
    pub fn pits_in_label_order(&self) -> &[u16] {
        &self.board.move_order
    }

    /// Where a variable's slots begin in [`Position::vars`].
    pub fn var_base(&self, var: usize) -> usize {
        self.board.var_base[var]
    }

    /// The direction a heading means for a mover starting at a cell.
    pub(crate) fn heading(&self, mover: Player, cell: u16, h: Heading) -> Option<Direction> {
        let i = match h {
            Heading::Forward => 0,
            Heading::Backward => 1,
            Heading::Left => 2,
            Heading::Right => 3,
        };
        self.board.headings[mover as usize]
            .get(cell as usize)
            .and_then(|hs| hs[i])
    }

    /// The way a turn from `pit` is sown on `pos`: the first line of the
    /// sowing's direction that holds (`None`: by the letter chosen).
    #[inline(always)]
    pub(crate) fn way(&self, mover: Player, pos: &Position, pit: u16) -> Option<Direction> {
        match &self.plan[mover as usize].ways {
            Ways::Always(d) => *d,
            Ways::ByPit(lines) => self.way_by_pit(lines, pos, pit),
        }
    }

    /// The first line of the direction that holds for `pit` (forward if
    /// none does: the checker ends the lines with one that always holds).
    #[inline(never)]
    fn way_by_pit(
        &self,
        lines: &[(C, Option<Direction>)],
        pos: &Position,
        pit: u16,
    ) -> Option<Direction> {
        let f = Ctx::new(pos, pos, pit, NONE);
        lines
            .iter()
            .find(|(c, _)| self.cond(c, &f))
            .map_or(Some(Direction::Forward), |&(_, d)| d)
    }

    /// The sowing direction of a turn from `pos`, if its choice means one:
    /// the way its pit is sown, or the way its letter names where the way
    /// is chosen.
    pub(crate) fn turn_direction(
        &self,
        mover: Player,
        pos: &Position,
        turn: Turn,
    ) -> Option<Direction> {
        match (self.way(mover, pos, turn.pit), turn.choice) {
            (Some(d), Turn::NO_LETTER) => Some(d),
            (Some(_), _) | (None, Turn::NO_LETTER) => None,
            (None, choice) => {
                let letter = self.rules.notation.letters.get(choice as usize)?;
                self.heading(mover, turn.pit, letter.heading)
            }
        }
    }

    /// Whether a `capture` rule can forbid a turn, so that listing the
    /// legal turns plays each one out. A rule an option turns off does not
    /// count.
    pub fn forbids_by_capture(&self) -> bool {
        self.can.forbids
    }

    /// Whether the game keeps the positions seen since the last capture.
    pub fn tracks_repetition(&self) -> bool {
        self.can.tracks_repetition
    }
}
