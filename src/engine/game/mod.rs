//! A game in progress: a position, the turns legal in it, the positions
//! seen (for the repetition rule) and the outcome once it is over.

mod lookahead;

use std::sync::Arc;

use super::abilities::Listing;
use super::act::{Acts, Effects, Unsent};
use super::compiled::{compare, OnTurn, A, C, P};
use super::eval::Ctx;
use super::history::History;
use super::plan::Ways;
use super::site::Site;
use super::turn::{Applied, Halt, Scratch, TooLong};
use super::{BoundEnds, Engine, Outcome, Position, Shown, Turn, NONE};
use crate::ir::{Endless, Player};
use lookahead::Lookahead;

/// A game in progress. Reuses its buffers from turn to turn, so playing a
/// turn allocates nothing once they have grown.
#[derive(Debug)]
pub struct Game {
    engine: Arc<Engine>,
    st: State,
}

/// Everything but the engine, so the engine can be borrowed beside it.
#[derive(Debug, Default)]
struct State {
    pos: Position,
    /// Positions since the last capture, the current one last.
    seen: History,
    /// In a match: the rounds ended so far, the turns played in this
    /// round, and the round the last turn ended, if it ended one.
    rounds: u32,
    round_plies: u32,
    round_over: bool,
    /// (Kept from round to round, so that a round's end allocates nothing.)
    round_end: RoundEnd,
    repeated: bool,
    /// The turn just played was stopped by `sowings at most N` (`cut`).
    cut: bool,
    /// The end rule that ended the game or the round just ended (an index
    /// in the rules' ends; [`NONE`] while none has: `ended(NAME)`).
    ended: u16,
    /// Seeds in play.
    total: i64,
    /// The end rules with `total` bound in.
    ends: Arc<BoundEnds>,
    legal: Vec<Turn>,
    /// The turns a position's rules were judging, kept to judge again in
    /// full (see [`State::judge_turns`]).
    candidates: Vec<Turn>,
    outcome: Option<Outcome>,
    plies: u32,
    before: Position,
    /// Whether `results` and `tried` hold what each legal turn does.
    judged: bool,
    /// The position each legal turn leads to (when `judged`).
    results: Vec<Position>,
    /// What each legal turn did, and the flags its rules read.
    tried: Vec<(Result<Applied, Halt>, u64)>,
    /// Spare lists, while flagged turns are slotted in.
    next_legal: Vec<Turn>,
    next_results: Vec<Position>,
    next_tried: Vec<(Result<Applied, Halt>, u64)>,
    /// The turns with per-sowing answers still to extend (see
    /// `marked_turns`), kept between listings.
    marking: Vec<(Turn, usize, u32)>,
    scratch: Scratch,
    /// Turns found never to end in this position (left out of `legal` when
    /// the variant forbids them).
    /// Turns left out that may never end, in listing order: `true` for
    /// those found never to end (left out because the variant forbids
    /// them), `false` for those left out unfinished because they capture
    /// nothing and a `prefer` rejected them (see [`State::judge_turns`]).
    endless: Vec<(Turn, bool)>,
    /// Games the `after` rules looked ahead on, at the positions they
    /// looked at: when the next position is one of them, its legal turns
    /// are known.
    ahead: lookahead::Ahead,
    /// The work done in this game before the turn (or listing) under way
    /// ([`Game::work`]), looking ahead included.
    worked: u64,
    /// Buffers for the actions of the `after` and `end` rules.
    acts: Acts,
    /// While tracing: the rules that ruled out a turn of the position's
    /// (a `forbid`, a `turn` rule's `require`: they fire in turns never
    /// played), and whether the listing was tried while tracing.
    forbade: Vec<u16>,
    traced_listing: bool,
    keep: Vec<u8>,
    /// Whether turns are shown step by step, and the last one's steps.
    showing: bool,
    shown: Option<Box<Shown>>,
    /// A game a look ahead lists turns on: it judges no end rule and
    /// offers no pass (see [`lookahead`]).
    listing_only: bool,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        let mut g = Game {
            engine: self.engine.clone(),
            st: State::default(),
        };
        g.copy_from(self);
        g.st.scratch.limit = self.st.scratch.limit;
        g
    }
}

impl Game {
    /// A new game from the variant's setup.
    pub fn new(engine: Arc<Engine>) -> Result<Game, TooLong> {
        let pos = engine.start_position();
        Game::from_position(engine, pos, Vec::new())
    }

    /// A game from a position, with the positions seen since the last
    /// capture (flat records as [`Game::seen`] gives them), oldest first.
    pub fn from_position(
        engine: Arc<Engine>,
        pos: Position,
        seen: Vec<u32>,
    ) -> Result<Game, TooLong> {
        Game::build(engine, pos, seen, false)
    }

    /// A game over at `pos` with `outcome`, as a finished game's last
    /// position and result were kept: no turn is legal, no player is to
    /// move. (`None`: the result is not known, a board to draw.)
    pub fn ended_at(engine: Arc<Engine>, pos: Position, outcome: Option<Outcome>) -> Game {
        let mut st = State {
            pos,
            ..State::default()
        };
        st.pos.to_move = None;
        st.afresh(&engine);
        st.outcome = outcome;
        Game { engine, st }
    }

    /// Becomes the game [`Game::from_position`] makes of `pos` with no
    /// position seen before it, reusing this game's buffers (a solver's
    /// databases set up millions of positions). Keeps what this game
    /// learnt of turns that never end, which depends on positions alone.
    pub fn set_position(&mut self, pos: &Position) -> Result<(), TooLong> {
        let (e, st) = (&self.engine, &mut self.st);
        st.pos.copy_from(pos);
        st.afresh(e);
        st.seen.clear();
        st.settle(e, false)
    }

    /// A game a look ahead lists a player's turns on (see
    /// [`State::listing_only`]).
    pub(crate) fn for_looking(engine: Arc<Engine>, pos: Position) -> Result<Game, TooLong> {
        Game::build(engine, pos, Vec::new(), true)
    }

    fn build(
        engine: Arc<Engine>,
        pos: Position,
        seen: Vec<u32>,
        listing_only: bool,
    ) -> Result<Game, TooLong> {
        let mut st = State {
            pos,
            listing_only,
            ..State::default()
        };
        st.afresh(&engine);
        st.seen = History::from_records(seen, engine.record_len());
        st.settle(&engine, false)?;
        Ok(Game { engine, st })
    }

    /// The work this game has done since it was made (turns played, and
    /// listed, looking ahead included), in the units of
    /// [`crate::limits::MAX_TURN_WORK`]: counted, not timed, the same on
    /// any machine. A search budgets by it.
    pub fn work(&self) -> u64 {
        self.st.worked + self.st.scratch.work
    }

    /// Lowers the work one turn, or listing a position's turns, may do in
    /// this game ([`crate::limits::turn_work`] at most; 0: that): a search
    /// that plays many games gives up on a dear turn sooner, which then
    /// fails as one past the engine's limit. A clone keeps it; a game
    /// copied into keeps its own.
    pub fn set_work_limit(&mut self, units: u64) {
        self.st.scratch.limit = units;
    }

    /// Notes, from now on, the rules each turn played fires (see
    /// [`Game::fired`]); a traced turn is played again rather than taken
    /// from what listing the turns found, so tracing costs time.
    pub fn trace_rules(&mut self, on: bool) {
        self.st.acts.tracing = on;
        self.st.acts.fired.clear();
    }

    /// Shows, from now on, each turn played step by step ([`Game::shown`]):
    /// the board after each pit lifted, seed sown and rule that moved
    /// seeds. A shown turn is traced too ([`Game::trace_rules`]), and
    /// costs time and memory: it is for a person watching.
    pub fn show_turns(&mut self, on: bool) {
        self.trace_rules(on);
        self.st.showing = on;
        self.st.shown = None;
    }

    /// The steps of the last turn played, while turns are shown (none for
    /// a pass).
    pub fn shown(&self) -> Option<&Shown> {
        self.st.shown.as_deref()
    }

    /// The rules the last turn played fired, while tracing (indices in the
    /// rules' `rules`, in the order they fired, as often as they did): a
    /// rule that forbade another turn the mover could have played instead
    /// (once); a `start` or `turn` rule whose condition held for it (its
    /// requirements were in force); and every other rule whose condition
    /// held where it was judged, so that it acted (the `end` and `round`
    /// rules of a game or round the turn ended included).
    pub fn fired(&self) -> &[u16] {
        &self.st.acts.fired
    }

    /// Copies another game as [`Game::copy_from`] does, and forgets what
    /// this one learnt in its own play (the turns found never to end, the
    /// positions looked ahead at), so that it plays on exactly as a clone
    /// of `other` would, spending the same work: a run that reuses one
    /// game for many gives the same results however the games are shared
    /// out.
    pub fn copy_afresh(&mut self, other: &Game) {
        self.copy_from(other);
        self.st.scratch.memo.clear();
        self.st.ahead = Default::default();
    }

    /// Copies another game of the same variant, without allocating when the
    /// buffers are large enough.
    pub fn copy_from(&mut self, other: &Game) {
        if !Arc::ptr_eq(&self.engine, &other.engine) {
            self.engine = other.engine.clone();
            self.st.ahead = Default::default();
        }
        let (st, o) = (&mut self.st, &other.st);
        st.pos.copy_from(&o.pos);
        st.seen.copy_from(&o.seen);
        st.rounds = o.rounds;
        st.round_plies = o.round_plies;
        st.round_over = o.round_over;
        if o.round_over {
            st.round_end.outcome.clone_from(&o.round_end.outcome);
            st.round_end.position.copy_from(&o.round_end.position);
        }
        st.repeated = o.repeated;
        st.legal.clone_from(&o.legal);
        st.endless.clone_from(&o.endless);
        // What the legal turns do is worked out again when asked.
        st.judged = false;
        st.forbade.clear();
        st.traced_listing = false;
        st.acts.fired.clear();
        st.outcome.clone_from(&o.outcome);
        st.plies = o.plies;
        st.total = o.total;
        if !Arc::ptr_eq(&st.ends, &o.ends) {
            st.ends = o.ends.clone();
        }
        if st.before.cells.len() != o.pos.cells.len() {
            st.before = o.pos.clone();
        }
    }

    /// The engine this game is played by.
    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.st.pos
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.st.outcome.as_ref()
    }

    /// Turns played since this game object was started.
    pub fn plies(&self) -> u32 {
        self.st.plies
    }

    /// Counts the turns played from `plies` (a game resumed from a saved
    /// position, which does not hold the count).
    pub fn set_plies(&mut self, plies: u32) {
        self.st.plies = plies;
    }

    /// In a match: the rounds ended so far (0 in a game of one round).
    pub fn rounds(&self) -> u32 {
        self.st.rounds
    }

    /// Sets the rounds ended so far (a position of a match read back).
    pub fn set_rounds(&mut self, rounds: u32) {
        self.st.rounds = rounds;
    }

    /// The round the last turn ended, if it ended one and the match went
    /// on (the position is then the next round's start).
    pub fn round_end(&self) -> Option<&RoundEnd> {
        self.st.round_over.then_some(&self.st.round_end)
    }

    /// Turns that would never end in this position, left out of the legal
    /// turns because the variant forbids them. (Turns left out unfinished,
    /// because they capture nothing where a capture is preferred, are
    /// played out in full here to tell.)
    pub fn endless_turns(&self) -> Vec<Turn> {
        let e = &*self.engine;
        let (pos, mut scratch) = (&self.st.pos, Scratch::default());
        // Unfinished turns count only where the variant forbids turns that
        // never end, and only while the position is the one they were
        // listed in.
        let look = e.rules.endless == Endless::Forbid && self.st.outcome.is_none();
        let mut never_ends = |t: Turn| {
            let mut after = pos.clone();
            let played = e.apply(&mut after, pos, e.phase(pos), t, false, &mut scratch);
            matches!(played, Err(Halt::Endless))
        };
        self.st
            .endless
            .iter()
            .filter(|&&(t, found)| found || look && never_ends(t))
            .map(|&(t, _)| t)
            .collect()
    }

    /// The legal turns, in the documented order (starting pits by label in
    /// natural order: `A` before `a`, `A2` before `A10`). Empty once the
    /// game is over.
    pub fn legal_turns(&self) -> &[Turn] {
        &self.st.legal
    }

    /// Length of one record in [`Game::seen`]: the player to move, every
    /// cell, both hands, every variable slot.
    pub fn record_len(&self) -> usize {
        self.engine.record_len()
    }

    /// Positions seen since the last capture, before the current one, as
    /// flat records (empty when the variant has no repetition rule).
    pub fn seen(&self) -> &[u32] {
        let seen = self.st.seen.records();
        &seen[..seen.len().saturating_sub(self.record_len())]
    }

    /// Plays a legal turn. Fails only when a turn runs past the engine's
    /// resource limit ([`crate::limits::MAX_TURN_WORK`]).
    pub fn play(&mut self, turn: Turn) -> Result<(), TooLong> {
        // (A pass is the one turn of no pit.)
        if turn.pit == Turn::PASS.pit {
            return self.pass();
        }
        if self.st.acts.tracing {
            return self.play_traced(turn);
        }
        let (e, st) = (&*self.engine, &mut self.st);
        st.keep_before(e);
        // A turn judged while the legal turns were listed is not played again.
        let played = match st.judged_index(turn) {
            Some(k) => known(&mut st.pos, &st.results[k], &st.tried[k].0),
            None => st.apply_turn(e, turn),
        };
        self.finish_turn(played)
    }

    /// [`Game::play`] while tracing: the turn is played again (not taken
    /// from what listing the turns found), noting the rules it fires.
    #[inline(never)]
    fn play_traced(&mut self, turn: Turn) -> Result<(), TooLong> {
        let (e, st) = (&*self.engine, &mut self.st);
        st.keep_before(e);
        if !st.traced_listing {
            // A listing made before tracing, copied from another game or
            // taken from a look ahead: the turns are listed again, noting
            // the rules that rule one out. (The turn is played below, and
            // the next position listed afresh.)
            let mover = st.pos.to_move.unwrap_or(0);
            st.generate(e, mover, true)?;
        }
        st.acts.fired.clone_from(&st.forbade);
        st.fired_before(e, turn);
        st.scratch.acts.tracing = true;
        if st.showing {
            st.scratch.acts.shown = Some(Box::default());
        }
        let played = st.apply_turn(e, turn);
        st.scratch.acts.tracing = false;
        st.shown = st.scratch.acts.shown.take();
        st.acts.fired.append(&mut st.scratch.acts.fired);
        self.finish_turn(played)
    }

    /// Becomes `parent` with `turn` played (a legal turn of the parent's),
    /// using what the parent found when it listed its turns.
    pub fn play_from(&mut self, parent: &Game, turn: Turn) -> Result<(), TooLong> {
        self.copy_from(parent);
        let traced = self.st.acts.tracing;
        let Some(k) = parent
            .st
            .judged_index(turn)
            .filter(|_| turn != Turn::PASS && !traced)
        else {
            return self.play(turn);
        };
        let (e, st) = (&*self.engine, &mut self.st);
        st.keep_before(e);
        let played = known(&mut st.pos, &parent.st.results[k], &parent.st.tried[k].0);
        self.finish_turn(played)
    }

    /// A pass (`pass when …`): the other player moves, nothing else
    /// changes, and no `after` rule runs.
    #[inline(never)]
    fn pass(&mut self) -> Result<(), TooLong> {
        let (e, st) = (&*self.engine, &mut self.st);
        st.acts.fired.clear();
        st.shown = None;
        st.keep_before(e);
        let mover = st.pos.to_move.unwrap_or(0);
        st.cut = false;
        st.played(e, mover, true);
        // (A pit to go on from, whose sowing the rules forbade, is gone by.)
        e.note_resume(&mut st.pos, None);
        st.pos.to_move = Some(e.next_player[mover as usize]);
        st.settle(&self.engine, false)
    }

    /// The rest of a turn once it has been played on the position: the
    /// end of the game, the `after` rules, the next player.
    #[inline(always)]
    fn finish_turn(&mut self, played: Result<Applied, Halt>) -> Result<(), TooLong> {
        let (me, st) = (&self.engine, &mut self.st);
        let e = &**me;
        // The turn has not changed the player to move yet.
        let mover = st.pos.to_move.unwrap_or(0);
        let applied = match played {
            Ok(a) => a,
            Err(Halt::Endless) => {
                // The variant lets a turn that never ends be played: it ends
                // the game, a draw or a loss for the mover.
                let decided = match e.rules.endless {
                    // (Not a legal turn: only played by a caller that did not
                    // list it.)
                    Endless::Forbid => return Err(TooLong),
                    Endless::Draw => None,
                    // (In a solitaire the seat no one sits in: a loss.)
                    Endless::Loss => Some(1 - mover),
                };
                st.pos.copy_from(&st.before);
                st.played(e, mover, false);
                // (It ends a match too: no round follows.)
                st.finish(me, mover, e.rules.ends.len(), Some(decided), false);
                return Ok(());
            }
            Err(h @ (Halt::TooLong | Halt::Settled)) => return Err(h.into()),
        };
        st.cut = applied.cut;
        st.played(e, mover, false);
        if applied.cut || e.can.recounts {
            // Seeds may have left the game: the total is counted again.
            st.recount(e);
        }
        if let Some(i) = applied.ended {
            // An end rule fired during the turn: the game ends there.
            let end = &e.plan[mover as usize].ends[i];
            let decided = end.decided(e, &Ctx::new(&st.pos, &st.pos, NONE, NONE));
            if st.finish(me, mover, end.end, decided, true) {
                return st.settle(&self.engine, true);
            }
            return Ok(());
        }
        let again =
            !e.plan[mover as usize].after.is_empty() && st.after_turn(&self.engine, &applied);
        st.pos.to_move = Some(if applied.again || again {
            mover
        } else {
            e.next_player[mover as usize]
        });
        st.settle(&self.engine, applied.stored)
    }

    /// What each legal turn does (the turns are played now if listing
    /// them did not play them).
    pub(crate) fn judged_turns(&mut self) -> impl Iterator<Item = &Applied> + '_ {
        if !self.st.judged {
            self.st.worked += std::mem::take(&mut self.st.scratch.work);
            self.st.try_turns(&self.engine, false);
        }
        self.st.tried[..self.st.sown()]
            .iter()
            .filter_map(|(r, _)| r.as_ref().ok())
    }

    /// Sets the game to `pos` with `to_move` to move and no history,
    /// reusing its buffers.
    pub(crate) fn reset(&mut self, pos: &Position, to_move: Player) -> Result<(), TooLong> {
        let (e, st) = (&*self.engine, &mut self.st);
        st.pos.copy_from(pos);
        if st.pos.to_move != Some(to_move) {
            // A pit `again from` named is the mover's to go on from, not
            // another player's.
            e.note_resume(&mut st.pos, None);
        }
        st.pos.to_move = Some(to_move);
        st.seen.clear();
        st.repeated = false;
        st.plies = 0;
        st.recount(e);
        let settled = st.settle(&self.engine, false);
        if settled.is_err() {
            st.judged = false;
        }
        settled
    }
}

/// A listed turn's result, already worked out: its position put in place
/// (a turn that did not end leaves the position as it was).
fn known(
    pos: &mut Position,
    result: &Position,
    tried: &Result<Applied, Halt>,
) -> Result<Applied, Halt> {
    if tried.is_ok() {
        pos.copy_from(result);
    }
    tried.clone()
}

/// A round of a match that ended: its result, and the position it ended
/// in (after its `end` rules), before the next round was set up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundEnd {
    /// The round's winner, the end rule that ended it, the scores.
    pub outcome: Outcome,
    /// The position the round ended in.
    pub position: Position,
}

/// While tracing: notes rule `id` as one that ruled out a turn (one still
/// legal it does not hold for, in `keep` as [`State::judge_turns`] marks
/// them), unless it only prefers and holds for none (`idle`).
#[cold]
#[inline(never)]
fn note_ruled_out(keep: &[u8], idle: bool, id: u16, forbade: &mut Vec<u16>) {
    let ruled_out = !idle && keep.iter().any(|&flag| flag & 1 != 0 && flag & 2 == 0);
    if ruled_out && !forbade.contains(&id) {
        forbade.push(id);
    }
}

/// The reason reported when a turn that never ends ends the game.
pub const ENDLESS: &str = "endless_turn";

/// An end rule that holds: its index, and the winner it names if it names
/// one (see [`super::plan::CEnd::decided`]).
type Fired = Option<(usize, Option<Option<Player>>)>;

impl State {
    /// Becomes a game just started from the position it holds, keeping
    /// its buffers (and what it learnt of turns that never end and of
    /// positions looked ahead at, which depends on positions alone); the
    /// positions seen before are the caller's to set.
    fn afresh(&mut self, e: &Engine) {
        self.before.copy_from(&self.pos);
        self.rounds = 0;
        // (A round over in the position given goes on to the next, as it
        // would in play.)
        self.round_plies = 1;
        self.round_over = false;
        self.repeated = false;
        self.cut = false;
        self.ended = State::default().ended;
        // Seeds leave play only where the rules say (`remove` while
        // sowing, a turn cut short), so the total is counted once per
        // game and again after such a turn.
        let total = self.pos.total() as i64;
        if total != self.total || self.ends.iter().all(Vec::is_empty) {
            self.total = total;
            self.ends = e.bound_ends(total);
        }
        self.legal.clear();
        self.endless.clear();
        self.judged = false;
        self.outcome = None;
        self.plies = 0;
        self.forbade.clear();
        self.traced_listing = false;
        self.acts.fired.clear();
    }

    /// After a turn (or on loading): repetition bookkeeping, the legal
    /// turns, and the end rules.
    fn settle(&mut self, me: &Arc<Engine>, stored: bool) -> Result<(), TooLong> {
        let e = &**me;
        self.outcome = None;
        if e.can.tracks_repetition {
            self.remember(stored && !e.can.stores_shrink);
        }
        let Some(mover) = self.pos.to_move else {
            self.legal.clear();
            return Ok(());
        };
        self.generate(e, mover, true)?;
        if self.listing_only {
            return Ok(());
        }
        let (fired, passes) = if e.can.looks_before_turns {
            self.judge_looking(me, mover)
        } else {
            self.judge(e, mover, &self.before_turn())
        };
        if let Some((end, decided)) = fired {
            if self.finish(me, mover, end, decided, true) {
                return self.settle(me, true);
            }
        } else if passes {
            self.legal.push(Turn::PASS);
        }
        Ok(())
    }

    /// Plays `turn` on the position, in full, from the position kept as
    /// the turn's start (the work of listing counted first).
    #[inline(always)]
    fn apply_turn(&mut self, e: &Engine, turn: Turn) -> Result<Applied, Halt> {
        self.worked += std::mem::take(&mut self.scratch.work);
        e.apply(
            &mut self.pos,
            &self.before,
            e.phase(&self.before),
            turn,
            false,
            &mut self.scratch,
        )
    }

    /// What the end rules and the pass are judged on before a turn.
    fn before_turn(&self) -> Ctx<'_> {
        let mut f = Ctx::new(&self.pos, &self.pos, NONE, NONE);
        f.total.set(Some(self.total));
        f.no_legal_turn = self.legal.is_empty();
        f.repeated = self.repeated;
        f.cut = self.cut;
        f
    }

    /// The first end rule that holds (its index and the winner it names),
    /// and, if none does, whether the mover may pass.
    #[inline(always)]
    fn judge(&self, e: &Engine, mover: Player, f: &Ctx) -> (Fired, bool) {
        for end in self.ends[mover as usize].iter() {
            if e.cond(&end.when, f) {
                return (Some((end.end, end.decided(e, f))), false);
            }
        }
        let passes = e.can.passes && self.may_pass(e, mover, f);
        (None, passes)
    }

    /// Whether the mover may pass (`pass when …`).
    #[inline(never)]
    fn may_pass(&self, e: &Engine, mover: Player, f: &Ctx) -> bool {
        match &e.plan[mover as usize].pass {
            Some(c) => e.cond(c, f),
            None => false,
        }
    }

    /// Runs the `after` rules of a turn that has been played (not of turns
    /// only judged). Each rule may look ahead from the position as the
    /// rules before it left it. Returns whether one says the mover moves
    /// again.
    #[inline(never)]
    fn after_turn(&mut self, me: &Arc<Engine>, applied: &Applied) -> bool {
        let mut again = false;
        let mut ahead = std::mem::take(&mut self.ahead);
        ahead.limit = self.scratch.limit;
        if let Some(at) = &applied.at {
            let mover = self.pos.to_move.unwrap_or(0);
            for rule in &me.plan[mover as usize].after {
                let look = Lookahead::new(me.clone(), ahead);
                let site = Site {
                    look: Some(&look),
                    ..Site::turn(&self.before, at)
                };
                if me.cond(&rule.when, &site.ctx(&self.pos)) {
                    let mut fx = Effects::default();
                    me.run(rule, &mut self.pos, &site, &mut self.acts, &mut fx);
                    me.put_away(&mut self.pos, &mut self.acts.taken, Unsent::Store);
                    again |= fx.again;
                }
                ahead = look.into_ahead();
            }
        }
        self.ahead = ahead;
        self.worked += std::mem::take(&mut self.ahead.worked);
        again
    }

    /// [`State::judge`], looking ahead at what the other player could do
    /// (`no_legal_turn(opponent)`).
    #[inline(never)]
    fn judge_looking(&mut self, me: &Arc<Engine>, mover: Player) -> (Fired, bool) {
        self.with_look(me, |st, look| {
            let mut f = st.before_turn();
            f.look = Some(look);
            st.judge(me, mover, &f)
        })
    }

    /// Runs `judge` with a look ahead from this game (the positions it
    /// looked at before kept for the next, the work it does counted).
    fn with_look<T>(
        &mut self,
        me: &Arc<Engine>,
        judge: impl FnOnce(&Self, &dyn crate::engine::eval::Foresight) -> T,
    ) -> T {
        let mut ahead = std::mem::take(&mut self.ahead);
        ahead.limit = self.scratch.limit;
        let look = Lookahead::new(me.clone(), ahead);
        let judged = judge(self, &look);
        self.ahead = look.into_ahead();
        self.worked += std::mem::take(&mut self.ahead.worked);
        judged
    }

    /// Records the current position; notes whether it was seen before.
    /// Where stores only grow, no position from before seeds went into a
    /// store can come again: the history starts anew then (`stored`; the
    /// caller says so only where no seed leaves a store).
    fn remember(&mut self, stored: bool) {
        if stored {
            self.seen.clear();
        }
        let p = &self.pos;
        let to_move = [p.to_move.map_or(2, u32::from)];
        self.repeated = self.seen.push(&[&to_move, &p.cells, &p.hands, &p.vars]);
    }

    /// Ends the game by end rule `end`: the `end` rules run, the scores are
    /// counted, and the winner is the one the rule decided or the higher
    /// score.
    ///
    /// In a match (`match ends when …`), a round ended by an end rule
    /// (`by_rule`) ends only the round unless the match is over: then the
    /// next round is set up, and this says so (the caller lists its turns).
    fn finish(
        &mut self,
        me: &Arc<Engine>,
        mover: Player,
        end: usize,
        decided: Option<Option<Player>>,
        by_rule: bool,
    ) -> bool {
        let e = &**me;
        let reason = &e.reasons[end];
        self.ended = end as u16;
        // The `end` rules, on the position the game ends in.
        self.run_every(me, &e.plan[mover as usize].at_end);
        let f = Ctx::new(&self.pos, &self.pos, NONE, NONE);
        let scores = [e.num(&e.scores[0], &f), e.num(&e.scores[1], &f)];
        let winner = match decided {
            Some(w) => w,
            None => match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            },
        };
        let outcome = Outcome {
            winner,
            reason: reason.clone(),
            scores,
        };
        if let (Some(over), true) = (&e.plan[mover as usize].match_over, by_rule) {
            e.note_round_winner(&mut self.pos, winner);
            // The tally (`scored`), before the match's end is judged.
            self.run_every(me, &e.plan[mover as usize].scored);
            let over = self.looking(me, |st, look| {
                let f = Ctx {
                    cut: st.cut,
                    ended: st.ended,
                    look,
                    ..Ctx::new(&st.pos, &st.pos, NONE, NONE)
                };
                e.cond(over, &f)
            });
            // A round in which no turn was played ends the match: its
            // set-up could only lead to another such round.
            if !over && self.round_plies > 0 {
                self.next_round(me, mover, outcome);
                return true;
            }
        }
        self.pos.to_move = None;
        self.legal.clear();
        self.outcome = Some(outcome);
        false
    }

    /// Runs every rule of a moment after a turn (`end`, `round`) whose
    /// condition holds, in file order, on the position as the rules before
    /// it left it (`before(…)` and the phase are judged on the position
    /// they start from: the turn is over); the player the last `first`
    /// names, if one does.
    fn run_every(&mut self, me: &Arc<Engine>, rules: &[super::compiled::CRule]) -> Option<Player> {
        let e = &**me;
        self.before.copy_from(&self.pos);
        let mut first = None;
        for rule in rules {
            let holds = self.looking(me, |st, look| {
                let site = Site::after_play(&st.before);
                let f = Ctx {
                    cut: st.cut,
                    ended: st.ended,
                    look,
                    ..site.ctx(&st.pos)
                };
                e.cond(&rule.when, &f)
            });
            if !holds {
                continue;
            }
            let site = Site::after_play(&self.before);
            let mut fx = Effects::default();
            e.run(rule, &mut self.pos, &site, &mut self.acts, &mut fx);
            e.put_away(&mut self.pos, &mut self.acts.taken, Unsent::Store);
            for a in &rule.actions {
                if let A::First(w) = a {
                    first = e.who(w, &site.ctx(&self.pos)).or(first);
                }
            }
        }
        first
    }

    /// `judge` given a look ahead from the position as it stands where the
    /// rules ask for one once play is over (`no_legal_turn(P)` at `end`,
    /// `scored`, `round` or in `match ends`), and none otherwise.
    fn looking<T>(
        &mut self,
        me: &Arc<Engine>,
        judge: impl FnOnce(&Self, Option<&dyn crate::engine::eval::Foresight>) -> T,
    ) -> T {
        if !me.can.looks_after_play {
            return judge(self, None);
        }
        self.with_look(me, |st, look| judge(st, Some(look)))
    }

    /// Sets up the next round of a match once one has ended (`outcome`,
    /// the end rule judged with `mover` to move): the `round` rules, in
    /// file order, on the position the round ended in; the player a
    /// `first` names moves first (else `mover`, play passing on as usual).
    fn next_round(&mut self, me: &Arc<Engine>, mover: Player, outcome: Outcome) {
        let e = &**me;
        self.round_over = true;
        self.round_end.outcome = outcome;
        self.round_end.position.copy_from(&self.pos);
        let first = self
            .run_every(me, &e.plan[mover as usize].round)
            .unwrap_or(mover);
        self.pos.to_move = Some(first);
        e.note_starter(&mut self.pos, first);
        self.rounds = self.rounds.saturating_add(1);
        self.round_plies = 0;
        self.cut = false;
        self.ended = NONE;
        self.seen.clear();
        // The set-up may have left seeds out of play.
        self.recount(e);
    }

    /// Notes a turn (or a pass) `mover` has just played: the plies
    /// counted, the round it ended (if any) forgotten, the last mover, the
    /// passes in a row.
    fn played(&mut self, e: &Engine, mover: Player, passed: bool) {
        // (A round's first turn is no mover's moving again, whoever
        // moved last in the round before.)
        let again = self.round_plies > 0 && e.moving_again(&self.pos, mover);
        self.plies += 1;
        self.round_plies += 1;
        self.round_over = false;
        e.note_mover(&mut self.pos, mover);
        e.note_pass(&mut self.pos, passed, again);
        e.note_passed(&mut self.pos, mover, passed);
    }

    /// Counts the seeds in play again, binding the new total into the end
    /// rules where they read it.
    fn recount(&mut self, e: &Engine) {
        let total = self.pos.total() as i64;
        if total != self.total {
            self.total = total;
            if e.can.ends_read_total {
                self.ends = e.bound_ends(total);
            }
        }
    }

    /// Fills `legal` with the turns the rules allow `mover`.
    /// With `settle`, turns may be left unfinished where the rules allow
    /// (see [`State::judge_turns`]); the tests compare with `false`.
    // (Inlined into `settle`, where it runs after every turn, as it was
    // before tracing called it too.)
    #[inline(always)]
    fn generate(&mut self, e: &Engine, mover: Player, settle: bool) -> Result<(), TooLong> {
        self.forbade.clear();
        self.traced_listing = false;
        if self.adopt() {
            return Ok(());
        }
        self.traced_listing = self.acts.tracing;
        self.legal.clear();
        self.endless.clear();
        self.judged = false;
        // The turns tried to list them share one work budget.
        self.worked += std::mem::take(&mut self.scratch.work);
        let plan = &e.plan[mover as usize];
        let phase = e.phase_slot(&self.pos);
        // After `again from`, the one pit named (the start rules do not
        // judge it); else every starting pit the rules allow.
        match e.resumed(&self.pos) {
            Some(next) => self.resumed_turns(e, mover, next),
            None => self.starting_turns(e, mover, phase),
        }
        // Puts and takes, judged by their own lines whether or not a
        // sowing was named.
        e.put_turns(&self.pos, mover, &mut self.legal);
        e.take_turns(&self.pos, mover, &mut self.legal);
        let flags = !e.rules.notation.flags.is_empty();
        let judging = self.judging(e, mover, phase);
        // Turns that capture nothing may be left unfinished when a `prefer`
        // rejects them: if the rules cannot leave them all out without
        // their ends, every turn is played out in full after all.
        let settle = settle && judging && plan.lazy[phase];
        if settle {
            self.candidates.clone_from(&self.legal);
        }
        if judging || flags {
            self.try_turns(e, settle);
        }
        // An unfinished turn that read a flag cannot be told from its
        // flagged twin without its end: everything in full, then.
        let unsure = settle
            && flags
            && self
                .tried
                .iter()
                .any(|(r, asked)| matches!(r, Err(Halt::Settled)) && *asked != 0);
        if unsure {
            self.try_turns(e, false);
        }
        if flags {
            self.flagged_turns(e)?;
        }
        if judging && !self.judge_turns(e, mover, phase)? {
            self.legal.clone_from(&self.candidates);
            self.endless.clear();
            self.try_turns(e, false);
            if flags {
                self.flagged_turns(e)?;
            }
            self.judge_turns(e, mover, phase)?;
        }
        Ok(())
    }

    /// The turns of a mover going on from a pit (`again from`): that pit's
    /// sowing, where it has seeds, the way the turn that named it was
    /// written (every way the mover may choose from it, where that turn
    /// had no letter and this one needs one).
    fn resumed_turns(&mut self, e: &Engine, mover: Player, next: Turn) {
        let pit = next.pit;
        if self.pos.cells[pit as usize] == 0 {
            return;
        }
        if e.way(mover, &self.pos, pit).is_some() {
            self.legal.push(Turn::from_pit(pit, Turn::NO_LETTER));
            return;
        }
        for (i, letter) in e.rules.notation.letters.iter().enumerate() {
            let kept = next.choice == Turn::NO_LETTER || next.choice as usize == i;
            if kept && e.heading(mover, pit, letter.heading).is_some() {
                self.legal.push(Turn::from_pit(pit, i as u8));
            }
        }
    }

    /// The turns the `start` rules allow `mover` (and the store's, where
    /// the mover may sow from it), before the `turn` rules judge them.
    #[inline(always)]
    fn starting_turns(&mut self, e: &Engine, mover: Player, phase: usize) {
        let plan = &e.plan[mover as usize];
        // The way turns are sown, where it is the same for every pit.
        let always = match &plan.ways {
            Ways::Always(d) => Some(d.is_none()),
            Ways::ByPit(_) => None,
        };
        for cand in &plan.candidates[phase] {
            // One turn per letter that means a direction from this pit
            // where the direction is chosen, else one turn with none.
            let chosen = always.unwrap_or_else(|| e.way(mover, &self.pos, cand.pit).is_none());
            if !chosen {
                let allowed = match cand.seeds_within {
                    Some((cell, lo, hi)) => {
                        (lo..=hi).contains(&(self.pos.cells[cell as usize] as i64))
                    }
                    None => self.allows(e, &cand.allowed, cand.pit, Turn::NO_LETTER),
                };
                if allowed {
                    self.legal.push(Turn::from_pit(cand.pit, Turn::NO_LETTER));
                }
                continue;
            }
            // What does not read the letter, judged once for the pit.
            if !self.allows(e, &cand.unlettered, cand.pit, Turn::NO_LETTER) {
                continue;
            }
            for (i, letter) in e.rules.notation.letters.iter().enumerate() {
                if e.heading(mover, cand.pit, letter.heading).is_some()
                    && self.allows(e, &cand.lettered, cand.pit, i as u8)
                {
                    self.legal.push(Turn::from_pit(cand.pit, i as u8));
                }
            }
        }
        if !plan.start_prefers[phase].is_empty() {
            self.start_preferences(e, mover, phase);
        }
        if let Some((store, _)) = plan.from_store {
            // One turn for each count the store can sow (see
            // `limits::MAX_STORE_TURN`).
            let held = self.pos.cells[store as usize].min(crate::limits::MAX_STORE_TURN);
            for seeds in 1..=held {
                self.legal.push(Turn::from_store(store, seeds));
            }
        }
    }

    /// Keeps the position a turn starts from, when the rules read it (or a
    /// turn that never ends must be undone).
    fn keep_before(&mut self, e: &Engine) {
        if e.can.reads_before || e.can.detect_cycles {
            self.before.copy_from(&self.pos);
        }
    }

    /// Where `turn` is in the legal turns, if what it does is known.
    fn judged_index(&self, turn: Turn) -> Option<usize> {
        if !self.judged {
            return None;
        }
        self.legal.iter().position(|&t| t == turn)
    }

    /// Takes over the legal turns a game looked ahead on found for this
    /// very position, if there is one.
    fn adopt(&mut self) -> bool {
        let Some(g) = self
            .ahead
            .games
            .iter_mut()
            .find(|g| g.st.judged && g.st.outcome.is_none() && g.st.pos == self.pos)
        else {
            return false;
        };
        let o = &mut g.st;
        std::mem::swap(&mut self.legal, &mut o.legal);
        std::mem::swap(&mut self.results, &mut o.results);
        std::mem::swap(&mut self.tried, &mut o.tried);
        std::mem::swap(&mut self.endless, &mut o.endless);
        self.judged = true;
        // That game's lists are ours now (and its are stale).
        o.judged = false;
        o.legal.clear();
        true
    }

    /// Plays each listed turn once, on a position of its own, keeping what
    /// it did for the rules that judge turns and for [`Game::play`].
    /// How many of the legal turns are sown: all but a pass, which comes
    /// last.
    fn sown(&self) -> usize {
        self.legal.len() - (self.legal.last() == Some(&Turn::PASS)) as usize
    }

    fn try_turns(&mut self, e: &Engine, settle: bool) {
        let n = self.sown();
        if self.results.len() < n {
            // As many as there can be turns, so that the lists swapped with
            // other games never need to grow again.
            self.results.resize(e.max_turns().max(n), self.pos.clone());
        }
        self.tried.clear();
        let in_phase = e.phase(&self.pos);
        let tracing = self.acts.tracing;
        self.scratch.acts.tracing = tracing;
        for k in 0..n {
            self.results[k].copy_from(&self.pos);
            let r = e.apply(
                &mut self.results[k],
                &self.pos,
                in_phase,
                self.legal[k],
                settle,
                &mut self.scratch,
            );
            if tracing {
                self.note_forbidding(e, &r);
            }
            self.tried.push((r, self.scratch.asked));
        }
        self.scratch.acts.tracing = false;
        self.judged = true;
    }

    /// Notes, while tracing, the rules that forbade a turn just tried (see
    /// [`Game::fired`]).
    fn note_forbidding(&mut self, e: &Engine, tried: &Result<Applied, Halt>) {
        let fired = std::mem::take(&mut self.scratch.acts.fired);
        if matches!(tried, Ok(a) if a.forbidden) {
            for &id in &fired {
                let forbids = e.rules.rules[id as usize]
                    .actions
                    .contains(&crate::ir::Action::Forbid);
                if forbids && !self.forbade.contains(&id) {
                    self.forbade.push(id);
                }
            }
        }
        self.scratch.acts.fired = fired;
        self.scratch.acts.fired.clear();
    }

    /// Notes the `start` and `turn` rules in force for `turn`, about to be
    /// played from `pos`: those whose condition holds for it.
    fn fired_before(&mut self, e: &Engine, turn: Turn) {
        let plan = &e.plan[self.pos.to_move.unwrap_or(0) as usize];
        let phase = e.phase_slot(&self.pos);
        let mut f = Ctx::new(&self.pos, &self.pos, turn.pit, NONE);
        f.choice = turn.choice;
        f.flags = turn.flags;
        // (A put or a take is judged by its own line, not by the `start`
        // rules.)
        let start = plan.candidates[phase]
            .iter()
            .find(|c| c.pit == turn.pit && !turn.sows_nothing());
        let rules = start.map_or(&[][..], |c| &c.start[..]).iter();
        for r in rules.chain(&plan.turn[phase]) {
            if e.cond(&r.when, &f) {
                self.acts.fired.push(r.id);
            }
        }
    }

    /// Preferences among starting pits (`prefer` in `start` rules), in file
    /// order: each keeps only the turns it holds for, if any.
    fn start_preferences(&mut self, e: &Engine, mover: Player, phase: usize) {
        let plan = &e.plan[mover as usize];
        let candidates = &plan.candidates[phase];
        for &(ri, ai) in &plan.start_prefers[phase] {
            // Each turn judged once. The legal turns are in the
            // candidates' order, so the candidate of each is found by
            // walking both lists together.
            self.keep.clear();
            let mut c = 0;
            let mut f = Ctx::new(&self.pos, &self.pos, NONE, NONE);
            for t in &self.legal {
                c += candidates[c..]
                    .iter()
                    .position(|cand| cand.pit == t.pit)
                    .expect("a candidate for each turn listed");
                let r = &candidates[c].start[ri];
                (f.origin, f.lifted, f.choice) = (t.pit, t.pit, t.choice);
                let holds =
                    e.cond(&r.when, &f) && matches!(&r.actions[ai], A::Prefer(c) if e.cond(c, &f));
                self.keep.push(holds as u8);
            }
            if self.keep.contains(&1) {
                let mut k = 0;
                self.legal.retain(|_| {
                    k += 1;
                    self.keep[k - 1] == 1
                });
            }
        }
    }

    /// Adds, after each turn, the same turn with each flag written, where
    /// the flag changes what the turn does (the rules read it, and the
    /// result differs).
    /// Each flagged turn is played out in full: an unfinished plain turn
    /// reads no flag (or the listing is done again in full, see `generate`).
    fn flagged_turns(&mut self, e: &Engine) -> Result<(), TooLong> {
        let n = self.legal.len();
        if self.tried.iter().all(|&(_, asked)| asked == 0) {
            return Ok(());
        }
        // The lists are rebuilt with each flagged turn right after its
        // plain one, which keeps the documented order: by pit, letter, then
        // flags. Positions are swapped between the lists, never dropped.
        self.next_legal.clear();
        self.next_tried.clear();
        let mut j = 0;
        for k in 0..n {
            let t = self.legal[k];
            let plain = j;
            self.slot(j, e);
            std::mem::swap(&mut self.results[k], &mut self.next_results[j]);
            let (result, asked) = std::mem::replace(&mut self.tried[k], (Err(Halt::TooLong), 0));
            self.next_legal.push(t);
            self.next_tried.push((result, asked));
            j += 1;
            for b in 0..e.rules.notation.flags.len() as u8 {
                if asked & 1 << b == 0 {
                    // The rules never read the flag: it changes nothing.
                    continue;
                }
                if e.rules.notation.per_sowing == Some(b as usize) {
                    j = self.marked_turns(e, t, plain, j)?;
                    continue;
                }
                let flagged = Turn { flags: 1 << b, ..t };
                let with = self.play_into(e, j, e.phase(&self.pos), flagged);
                if self.differs(plain, j, &with) {
                    self.next_legal.push(flagged);
                    self.next_tried.push((with, self.scratch.asked));
                    j += 1;
                }
            }
        }
        std::mem::swap(&mut self.legal, &mut self.next_legal);
        std::mem::swap(&mut self.tried, &mut self.next_tried);
        std::mem::swap(&mut self.results, &mut self.next_results);
        Ok(())
    }

    /// Plays `turn` in full on a copy of the position, into the spare
    /// list's slot `j`.
    fn play_into(
        &mut self,
        e: &Engine,
        j: usize,
        phase: Option<usize>,
        turn: Turn,
    ) -> Result<Applied, Halt> {
        self.slot(j, e);
        self.next_results[j].copy_from(&self.pos);
        e.apply(
            &mut self.next_results[j],
            &self.pos,
            phase,
            turn,
            false,
            &mut self.scratch,
        )
    }

    /// Whether the turn just played into `next_results[j]`, `with`, does
    /// otherwise than the one listed at `plain`.
    fn differs(&self, plain: usize, j: usize, with: &Result<Applied, Halt>) -> bool {
        match (&self.next_tried[plain].0, with) {
            (Ok(p), Ok(w)) => {
                self.next_results[j] != self.next_results[plain]
                    || w.again != p.again
                    || w.ended != p.ended
                    || w.forbidden != p.forbidden
            }
            (Err(a), Err(b)) => a != b,
            _ => true,
        }
    }

    /// Adds, after the plain turn `t` listed at `plain` (and before `j`),
    /// the same turn with the per-sowing flag answered yes at each set of
    /// sowings where the rules ask it and the answer changes what the
    /// turn does: a later answer is sought only on the way an earlier one
    /// opened. Returns the next free index; past
    /// [`crate::limits::MAX_MARKED_TURNS`] ways, the listing is too long.
    fn marked_turns(
        &mut self,
        e: &Engine,
        t: Turn,
        plain: usize,
        mut j: usize,
    ) -> Result<usize, TooLong> {
        let phase = e.phase(&self.pos);
        // Where the plain turn asked, as it was played in full to be
        // listed (see `generate`).
        let sowings_asked = |asked: u64| (asked >> 32) as u32;
        let mut open = std::mem::take(&mut self.marking);
        open.clear();
        open.push((t, plain, sowings_asked(self.next_tried[plain].1)));
        let mut listed = 0;
        while let Some((parent, at, asked_at)) = open.pop() {
            // Answers only after the parent's last: each set once.
            let after = 32 - parent.marks().leading_zeros();
            for k in after..Turn::MARKED_SOWINGS {
                if asked_at >> k & 1 == 0 {
                    continue;
                }
                if listed == crate::limits::MAX_MARKED_TURNS {
                    return Err(TooLong);
                }
                let marked = parent.with_marks(parent.marks() | 1 << k);
                let with = self.play_into(e, j, phase, marked);
                if self.differs(at, j, &with) {
                    self.next_legal.push(marked);
                    self.next_tried.push((with, self.scratch.asked));
                    open.push((marked, j, sowings_asked(self.scratch.asked)));
                    j += 1;
                    listed += 1;
                }
            }
        }
        self.marking = open;
        Ok(j)
    }

    /// Makes sure the spare list of positions has a slot `j`.
    fn slot(&mut self, j: usize, e: &Engine) {
        if self.next_results.len() <= j {
            let n = e.max_turns().max(j + 1);
            self.next_results.resize(n, self.pos.clone());
        }
    }

    /// Whether `allowed` (a candidate's requirements, or part of them)
    /// holds for the turn from `pit` with `choice`. The common requirement,
    /// `seeds(origin) > 0` on a known pit, is judged without building a
    /// context.
    #[inline(always)]
    fn allows(&self, e: &Engine, allowed: &C, pit: u16, choice: u8) -> bool {
        match allowed {
            C::Const(b) => *b,
            C::SeedsCmp(op, P::Cell(c), k) => compare(*op, self.pos.cells[*c as usize] as i64, *k),
            other => {
                let mut f = Ctx::new(&self.pos, &self.pos, pit, NONE);
                f.choice = choice;
                e.cond(other, &f)
            }
        }
    }

    /// Whether turns must be played to be judged here (see `Listing`):
    /// everywhere, or where some `turn` rule applies.
    #[inline(always)]
    fn judging(&self, e: &Engine, mover: Player, phase: usize) -> bool {
        match e.can.listing {
            Listing::Started => false,
            Listing::PlayedOut { everywhere: true } => true,
            Listing::PlayedOut { everywhere: false } => {
                let f = Ctx::new(&self.pos, &self.pos, NONE, NONE);
                for r in &e.plan[mover as usize].turn[phase] {
                    if e.cond(&r.when, &f) {
                        return true;
                    }
                }
                false
            }
        }
    }

    /// Keeps the turns the `turn` rules (and forbidding `capture` rules)
    /// allow, judged on what each did. Rules filter in file order:
    /// `require` drops what fails; `prefer` drops what fails only if
    /// something it keeps is left.
    ///
    /// A turn left unfinished ([`Halt::Settled`]: it captures nothing) is
    /// judged by what the rules say of such a turn (`Plan::settled`). It
    /// must be left out by a rule that rejects it, without ever counting
    /// for a `prefer` (had it never ended, it would not have); otherwise
    /// this returns `false`, for everything to be played out in full and
    /// judged again. (A turn left unfinished is not run on to the
    /// engine's limits: a turn past them is an error only when played
    /// out.)
    fn judge_turns(&mut self, e: &Engine, mover: Player, phase: usize) -> Result<bool, TooLong> {
        let plan = &e.plan[mover as usize];
        let turn_rules = &plan.turn[phase];
        let n = self.legal.len();
        self.keep.clear();
        for k in 0..n {
            // keep[k]: bit 0 = still legal; bit 1 = holds for the action
            // judged; bit 2 = unfinished.
            let keep = match &self.tried[k].0 {
                Err(Halt::Settled) => 1 | 4,
                Ok(a) => !a.forbidden as u8,
                // Never ends: not legal (the variant forbids it).
                Err(Halt::Endless) if e.rules.endless == Endless::Forbid => 0,
                Err(Halt::Endless) => {
                    // Legal, and ends the game when played (it stays a turn
                    // that never ends, for `play`): the rules judge it as if
                    // it had left the position as it was.
                    self.results[k].copy_from(&self.pos);
                    1
                }
                Err(Halt::TooLong) => return Err(TooLong),
            };
            self.keep.push(keep);
        }
        let State {
            pos,
            legal,
            results,
            tried,
            keep,
            endless,
            acts,
            forbade,
            ..
        } = self;
        for (ri, r) in turn_rules.iter().enumerate() {
            // A condition that reads nothing of where a turn starts, judged
            // once: where it fails, the rule keeps every turn.
            let fixed = plan.turn_fixed[phase][ri];
            if fixed && !e.cond(&r.when, &Ctx::new(pos, pos, NONE, NONE)) {
                continue;
            }
            for (ai, a) in r.actions.iter().enumerate() {
                let prefer = matches!(a, A::Prefer(_));
                let mut any = false;
                for k in 0..n {
                    if keep[k] & 1 == 0 {
                        continue;
                    }
                    let t = legal[k];
                    let mut fb = Ctx::new(pos, pos, t.pit, NONE);
                    fb.choice = t.choice;
                    fb.flags = t.flags;
                    // (A fixed condition was found to hold above.)
                    let applies = fixed || e.cond(&r.when, &fb);
                    if keep[k] & 4 != 0 {
                        // Unfinished: what the rule says of a turn that captures nothing.
                        let holds = !applies || {
                            match plan.settled[phase][ri][ai] {
                                Some(b) => b,
                                None => return Ok(false),
                            }
                        };
                        if holds && prefer {
                            return Ok(false);
                        }
                        keep[k] |= if holds { 2 } else { 0 };
                        continue;
                    }
                    let idle;
                    let applied = match &tried[k].0 {
                        Ok(a) => a,
                        Err(Halt::Endless) => {
                            idle = Applied {
                                last: t.pit,
                                ..Applied::default()
                            };
                            &idle
                        }
                        Err(_) => continue,
                    };
                    let holds = !applies || {
                        let mut fa = Ctx::new(&results[k], pos, t.pit, applied.last);
                        fa.captured = applied.seeds_captured;
                        fa.dir = applied.dir;
                        fa.choice = t.choice;
                        fa.flags = t.flags;
                        match a.on_turn() {
                            OnTurn::Meets(c) => e.cond(c, &fa),
                            OnTurn::Rejected => false,
                            OnTurn::Nothing => true,
                        }
                    };
                    keep[k] |= if holds { 2 } else { 0 };
                    any |= holds;
                }
                if acts.tracing {
                    note_ruled_out(keep, prefer && !any, r.id, forbade);
                }
                for flag in keep.iter_mut() {
                    let holds = *flag & 2 != 0;
                    if !holds && (!prefer || any) {
                        *flag = 0;
                    }
                    *flag &= !2;
                }
            }
        }
        if keep.iter().any(|&flag| flag & 5 == 5) {
            // An unfinished turn is still in: its end decides.
            return Ok(false);
        }
        // Keep the legal turns, and what each did, in order.
        let mut j = 0;
        for (k, &flag) in keep.iter().enumerate() {
            match (flag & 1, &tried[k].0) {
                (0, Err(Halt::Endless)) if e.rules.endless == Endless::Forbid => {
                    endless.push((legal[k], true))
                }
                (0, Err(Halt::Settled)) => endless.push((legal[k], false)),
                _ => {}
            }
            if flag & 1 == 1 {
                if j != k {
                    legal.swap(j, k);
                    tried.swap(j, k);
                    results.swap(j, k);
                }
                j += 1;
            }
        }
        legal.truncate(j);
        tried.truncate(j);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board of the test variants below: two rows of six, a store at
    /// each end.
    const TWO_ROWS: &str = "players south north
board {
  row north: f e d c b a
  row south: A B C D E F
  store north left
  store south right
}
";

    /// A test variant: its name, the board above and `rest`.
    fn on_two_rows(name: &str, rest: &str) -> crate::Variant {
        let text = format!("variant {name}\n{TWO_ROWS}{rest}");
        crate::Variant::from_source(&format!("{name}.sow"), &text).expect("valid")
    }

    /// Leaving turns unfinished changes nothing: in every position random
    /// play of the shipped variants reaches, the legal turns, what each
    /// does and the turns that never end are those found by playing every
    /// turn out in full.
    /// A game whose flag `+` is read by a turn that captures nothing and
    /// relays on (a turn from an empty pit relays nothing): its flagged
    /// twin must be told apart by the whole turn.
    const FLAG_TWINS: &str = r#"
setup {
  seeds 2
  total 24
}
track: A B C D E F store(south) a b c d e f store(north)
notation {
  flag "+"
}
sow {
  take all
  direction forward
  skip store(opponent)
}
rule own_pit at start {
  require owner(origin) == mover
}
rule capture_first at land when sowings == 1 and owner(last) == mover and last != store(mover) \
    and seeds(last) == 1 and seeds(opposite(last)) > 0 {
  capture opposite(last) to store(mover)
}
rule flag_stops at land when sowings == 1 and chose("+") {
  stop
}
rule relay_first at land when sowings == 1 {
  relay
}
rule relay_on at land when seeds(last) > 1 {
  relay
}
rule compulsory at turn when not chose("+") {
  prefer captured > 0
}
end empty_row when seeds(side(south)) == 0 or seeds(side(north)) == 0
score seeds(store(player)) + seeds(side(player))
"#;

    /// Relay sowing where only a turn's first lap captures at its
    /// landing, but seeds may be captured later in a turn as well: by a
    /// `lift` rule (`LATE_CAPTURES` with `lift`) or a `drop` rule (with
    /// `drop`). A turn that has captured nothing after its first lap has
    /// not settled.
    const LATE_CAPTURES: &str = r#"
setup {
  seeds 3
  total 36
}
track: A B C D E F a b c d e f
sow {
  take all
  direction forward
}
rule own_pit at start {
  require owner(origin) == mover and seeds(origin) > 0
}
rule compulsory at turn {
  prefer captured > 0
}
rule first_lap at land when sowings == 1 and seeds(last) == 2 {
  capture last to store(mover)
}
rule relay_on at land when seeds(last) > 1 {
  relay
}
LATE
end empty_row when seeds(side(south)) == 0 or seeds(side(north)) == 0
score seeds(store(player))
"#;

    /// Plays random games of `v`, listing every position's turns with
    /// turns left unfinished where the rules allow and in full: the same
    /// turns, each doing the same. Returns the turns left unfinished and
    /// those compared.
    fn compare_unfinished(name: &str, v: &crate::Variant, games: usize) -> (usize, usize) {
        let (mut left_out, mut compared) = (0, 0);
        let e = &*v.engine;
        let start = Game::new(v.engine.clone()).expect("starts");
        let mut full = start.clone();
        let mut k = 11u64;
        for _ in 0..games {
            let mut game = start.clone();
            while game.outcome().is_none() && game.plies() < 400 {
                let mover = game.position().to_move.expect("a mover");
                full.copy_from(&game);
                full.st.ahead = Default::default();
                full.st.generate(e, mover, false).expect("lists");
                // (A pass, last, is no sown turn: `generate` lists none.)
                let n = game.st.sown();
                assert_eq!(game.legal_turns()[..n], *full.legal_turns(), "{name}");
                assert_eq!(game.endless_turns(), full.endless_turns(), "{name}");
                if game.st.judged && full.st.judged {
                    assert_eq!(game.st.tried[..n], full.st.tried[..n], "{name}");
                    assert_eq!(game.st.results[..n], full.st.results[..n], "{name}");
                    compared += n;
                }
                left_out += game.st.endless.iter().filter(|&&(_, found)| !found).count();
                k = k
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let t = game.legal_turns()[(k >> 33) as usize % game.legal_turns().len()];
                game.play(t).expect("plays");
            }
        }
        (left_out, compared)
    }

    /// Seeds a `lift` or a `drop` rule captures count as captured: a turn
    /// past the laps its `land` rules capture in is not settled while
    /// such a rule may still capture.
    #[test]
    fn captures_at_lift_and_drop_are_not_left_unfinished() {
        for (moment, rule) in [
            ("drop", "rule late at drop when seeds(here) == 5 {\n  capture here to store(mover)\n}"),
            ("lift", "rule late at lift when seeds(opposite(here)) > 3 {\n  capture opposite(here) to store(mover)\n}"),
        ] {
            let v = on_two_rows("late-captures", &LATE_CAPTURES.replace("LATE", rule));
            let (_, compared) = compare_unfinished(moment, &v, 60);
            assert!(compared > 500, "{moment}: only {compared} turns compared");
        }
    }

    #[test]
    fn unfinished_turns_change_nothing() {
        let (mut left_out, mut compared) = (0, 0);
        let option = |name: &str, value: &str| {
            let v = crate::Variant::shipped(name).expect("shipped");
            v.with_options(&[("endless_turns".into(), value.into())])
                .expect("an option")
        };
        let mut variants: Vec<(String, crate::Variant)> = crate::variants::names()
            .into_iter()
            .map(|n| (n.to_string(), crate::Variant::shipped(n).expect("shipped")))
            .collect();
        variants.push(("kiswahili, draw".into(), option("bao-la-kiswahili", "draw")));
        variants.push(("kujifunza, loss".into(), option("bao-la-kujifunza", "loss")));
        variants.push(("flag twins".into(), on_two_rows("flag-twins", FLAG_TWINS)));
        for (name, v) in &variants {
            let (l, c) = compare_unfinished(name, v, 6);
            left_out += l;
            compared += c;
        }
        assert!(left_out > 1000, "only {left_out} turns left unfinished");
        assert!(compared > 5_000, "only {compared} turns compared");
    }
}
