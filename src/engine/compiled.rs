//! Rules compiled for play: the IR's conditions specialised for each mover
//! (and, for `start` rules, each starting pit), with every name resolved to
//! a cell and constant parts folded away. `owner(origin) == mover` on a
//! known pit becomes `true` or `false`; `store(mover)` becomes a cell.
//! This is what keeps a tree-walking interpreter fast.

use super::NONE;
use crate::ir::{
    Action, ArithOp, CmpOp, Cond, Direction, Heading, Moment, Num, Place, Player, Region, Rules,
    VarAt, Who,
};

/// A player, resolved where it can be.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum W {
    Is(Player),
    /// The owner of a place's row (or store).
    OwnerOf(Box<P>),
    /// The owner of a place now, with `owner follows VAR`.
    OwnerNow(Box<P>),
    /// The player a variable of the game names: its slot, and the player
    /// each of its values names (none for `none`).
    Var(usize, Box<[Option<Player>]>),
    /// The other player.
    Other(Box<W>),
}

/// A place.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum P {
    Cell(u16),
    Last,
    Origin,
    Lifted,
    Here,
    Opposite(Box<P>),
    Behind(Box<P>),
    Front(Box<P>),
    /// One row on toward the side facing a mover's.
    Across(Box<P>, Player),
    /// So many steps along a mover's track (back, when negative).
    Along(Box<P>, i32, Player),
    /// So many steps the way the sowing going on goes (back, when
    /// negative), along a mover's track.
    Ahead(Box<P>, i32, Player),
    /// So many steps along a mover's track as it is listed (back, when
    /// negative), the steps judged in play.
    Stepped(Box<P>, Box<N>, Player),
    /// The first pit of a region known only as the turn goes.
    First(Box<R>),
    /// The first place where the condition holds, else the second.
    If(Box<C>, Box<P>, Box<P>),
    StoreOf(Box<W>),
    NamedOf(usize, Box<W>),
}

/// A set of pits.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum R {
    Cells(Box<[u16]>),
    /// Known only by looking ahead (see `game::lookahead`).
    FirstCaptures(W),
    SideOf(Box<W>),
    NamedOf(usize, Box<W>),
    /// The pits of a region (never itself filtered) that pass each sift
    /// in turn, `here` each pit.
    Where(Box<R>, Box<[Sift]>),
    /// `path(A, B)`: the cells from A to B along a mover's track, the way
    /// the sowing going on runs (stores on the track among them: see
    /// [`crate::ir::Region::Path`] for how they are left out).
    Path(Box<P>, Box<P>, Player),
}

/// A step of a filtered region's walk over its pits.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Sift {
    /// Only the pits for which a condition holds go on (`pits(R, C)`).
    Keep(C),
    /// Only the first N pits to come so far go on (`first(R, N)`).
    First(N),
}

/// A number: a linear sum (most rules' numbers are), or arithmetic a sum
/// cannot hold.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum N {
    Lin(Lin),
    Arith(ArithOp, Box<N>, Box<N>),
}

/// `k + Σ coefficient × seeds(cell) + Σ coefficient × term`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Lin {
    pub k: i64,
    /// Seeds of fixed cells, the common case, kept apart for a tight loop.
    pub cells: Vec<(i64, u16)>,
    pub terms: Vec<(i64, T)>,
}

/// A term of a linear sum that is not a fixed cell's seeds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum T {
    Seeds(P),
    Sum(R),
    Hand(W),
    Total,
    Captured,
    Sowings,
    Count(R, Box<C>),
    Before(Box<N>),
    /// `before(seeds(PLACE))`, the common `before`, for a place found
    /// without reading the board: the seeds it held as the turn began.
    BeforeSeeds(P),
    /// `if(C, A, B)`.
    If(Box<C>, Box<N>, Box<N>),
    /// `sum(R, N)`, N judged with `here` each pit.
    SumOver(R, Box<N>),
    /// The number a variable holds: its slot's value above the lowest
    /// it can hold, and that lowest and the highest.
    Var(V, i64, i64),
}

impl Lin {
    fn constant(k: i64) -> Lin {
        Lin {
            k,
            ..Lin::default()
        }
    }

    fn cell(c: u16) -> Lin {
        Lin {
            cells: vec![(1, c)],
            ..Lin::default()
        }
    }

    /// Only a constant.
    fn is_const(&self) -> bool {
        self.cells.is_empty() && self.terms.is_empty()
    }

    fn term(t: T) -> Lin {
        Lin {
            terms: vec![(1, t)],
            ..Lin::default()
        }
    }

    fn scaled(mut self, by: i64) -> Lin {
        self.k = self.k.saturating_mul(by);
        for (c, _) in &mut self.terms {
            *c = c.saturating_mul(by);
        }
        for (c, _) in &mut self.cells {
            *c = c.saturating_mul(by);
        }
        self.terms.retain(|(c, _)| *c != 0);
        self.cells.retain(|(c, _)| *c != 0);
        self
    }

    fn plus(mut self, other: Lin) -> Lin {
        self.k = self.k.saturating_add(other.k);
        for (c, t) in other.terms {
            match self.terms.iter_mut().find(|(_, u)| *u == t) {
                Some((d, _)) => *d = d.saturating_add(c),
                None => self.terms.push((c, t)),
            }
        }
        for (c, cell) in other.cells {
            match self.cells.iter_mut().find(|(_, u)| *u == cell) {
                Some((d, _)) => *d = d.saturating_add(c),
                None => self.cells.push((c, cell)),
            }
        }
        self.terms.retain(|(c, _)| *c != 0);
        self.cells.retain(|(c, _)| *c != 0);
        self
    }
}

/// An instance of a variable: a slot in [`super::Position::vars`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum V {
    Slot(usize),
    /// The slot of a player's instance: base + player.
    PlayerOf(usize, W),
    /// The slot of a pit's instance: base + pit.
    PitOf(usize, P),
    /// The slots of every pit of a region.
    PitsOf(usize, R),
}

/// A condition.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum C {
    VarIs(V, u32),
    Const(bool),
    Not(Box<C>),
    And(Box<[C]>),
    Or(Box<[C]>),
    Cmp(CmpOp, N, N),
    /// A linear sum compared with 0.
    LinCmp(CmpOp, Lin),
    /// `coefficient × seeds(cell) + k` compared with 0.
    CellLin(CmpOp, u16, i64, i64),
    /// The seeds of some cells, summed, compared with a number.
    SumCmp(CmpOp, Box<[u16]>, i64),
    /// The same for a run of cells `lo..hi` (a row, often), read without
    /// looking each cell up.
    SpanCmp(CmpOp, u16, u16, i64),
    SeedsCmp(CmpOp, P, i64),
    SeedsIn(P, i64, i64),
    Range(N, N, N),
    SamePlace(P, P),
    OwnerIs(P, Player),
    /// The owner of a place now (`owner follows VAR`) is a player.
    OwnerNow(P, Player),
    SamePlayer(W, W),
    In(P, R),
    /// A place among a fixed set of cells (a bit per cell).
    InCells(P, Box<[u64]>),
    /// The player to move has no legal turn.
    NoLegalTurn,
    /// Another player has none, were they to move now (known by looking
    /// ahead, see `game::lookahead`).
    NoLegalTurnOf(W),
    Repeated,
    /// The turn just played was stopped by `sowings at most N`.
    Cut,
    /// The end rule that ended the game or round (an index in the ends).
    Ended(u16),
    /// The seed just dropped is its sowing's last.
    LastSeed,
    Going(Direction),
    Chose(u8),
    Flagged(u8),
    /// The per-sowing flag, answered at the sowing going on.
    FlaggedHere(u8),
    /// The game is in this phase: the phase of the position the turn
    /// started from, as [`super::Engine::phase`] judges it (the one place a
    /// phase is judged).
    InPhase(usize),
    /// Known only by looking ahead (see `game::lookahead`).
    HasCapture(W),
}

/// Whether a condition reads the turn's flags.
pub(crate) fn reads_flag(c: &C) -> bool {
    let cond = |c: &C| matches!(c, C::Flagged(_) | C::FlaggedHere(_));
    reads(
        c,
        &Picks {
            cond: &cond,
            place: &|_| false,
        },
    )
}

/// Whether a condition reads the letter the turn was chosen with.
pub(crate) fn reads_choice(c: &C) -> bool {
    let cond = |c: &C| matches!(c, C::Chose(_));
    reads(
        c,
        &Picks {
            cond: &cond,
            place: &|_| false,
        },
    )
}

/// Whether a condition reads where a turn starts (its origin, letter or
/// flags): one that does not says the same of every turn from a position.
pub(crate) fn reads_start(c: &C) -> bool {
    let cond = |c: &C| matches!(c, C::Chose(_) | C::Flagged(_) | C::FlaggedHere(_));
    let place = |p: &P| matches!(p, P::Origin | P::Lifted);
    reads(
        c,
        &Picks {
            cond: &cond,
            place: &place,
        },
    )
}

/// The parts of a condition [`reads`] looks for: conditions, and places.
struct Picks<'a> {
    cond: &'a dyn Fn(&C) -> bool,
    place: &'a dyn Fn(&P) -> bool,
}

/// Whether some part of a condition, down to the conditions inside its
/// numbers, places, players and regions, is one `part` picks out.
fn reads(c: &C, part: &Picks) -> bool {
    fn num(n: &N, part: &Picks) -> bool {
        match n {
            N::Lin(l) => lin(l, part),
            N::Arith(_, a, b) => num(a, part) || num(b, part),
        }
    }
    fn lin(l: &Lin, part: &Picks) -> bool {
        l.terms.iter().any(|(_, t)| match t {
            T::Seeds(p) | T::BeforeSeeds(p) => place(p, part),
            T::Hand(w) => who(w, part),
            T::Count(r, c) => region(r, part) || reads(c, part),
            T::Sum(r) => region(r, part),
            T::Before(n) => num(n, part),
            T::If(c, a, b) => reads(c, part) || num(a, part) || num(b, part),
            T::SumOver(r, n) => region(r, part) || num(n, part),
            T::Var(v, ..) => var(v, part),
            T::Total | T::Captured | T::Sowings => false,
        })
    }
    fn region(r: &R, part: &Picks) -> bool {
        match r {
            R::Where(r, stages) => {
                region(r, part)
                    || stages.iter().any(|s| match s {
                        Sift::Keep(c) => reads(c, part),
                        Sift::First(n) => num(n, part),
                    })
            }
            R::FirstCaptures(w) => who(w, part),
            R::SideOf(w) | R::NamedOf(_, w) => who(w, part),
            R::Path(a, b, _) => place(a, part) || place(b, part),
            R::Cells(_) => false,
        }
    }
    fn place(p: &P, part: &Picks) -> bool {
        if (part.place)(p) {
            return true;
        }
        match p {
            P::Opposite(p)
            | P::Behind(p)
            | P::Front(p)
            | P::Across(p, _)
            | P::Along(p, ..)
            | P::Ahead(p, ..) => place(p, part),
            P::First(r) => region(r, part),
            P::Stepped(p, n, _) => place(p, part) || num(n, part),
            P::If(c, a, b) => reads(c, part) || place(a, part) || place(b, part),
            P::StoreOf(w) | P::NamedOf(_, w) => who(w, part),
            P::Cell(_) | P::Last | P::Origin | P::Lifted | P::Here => false,
        }
    }
    fn who(w: &W, part: &Picks) -> bool {
        match w {
            W::OwnerOf(p) | W::OwnerNow(p) => place(p, part),
            W::Other(w) => who(w, part),
            W::Is(_) | W::Var(..) => false,
        }
    }
    fn var(v: &V, part: &Picks) -> bool {
        match v {
            V::PlayerOf(_, w) => who(w, part),
            V::PitOf(_, p) => place(p, part),
            V::PitsOf(_, r) => region(r, part),
            V::Slot(_) => false,
        }
    }
    if (part.cond)(c) {
        return true;
    }
    match c {
        C::VarIs(v, _) => var(v, part),
        C::Not(inner) => reads(inner, part),
        C::And(v) | C::Or(v) => v.iter().any(|c| reads(c, part)),
        C::Cmp(_, a, b) => num(a, part) || num(b, part),
        C::Range(a, b, c) => num(a, part) || num(b, part) || num(c, part),
        C::LinCmp(_, l) => lin(l, part),
        C::SeedsCmp(_, p, _)
        | C::SeedsIn(p, ..)
        | C::OwnerIs(p, _)
        | C::OwnerNow(p, _)
        | C::InCells(p, _) => place(p, part),
        C::In(p, r) => place(p, part) || region(r, part),
        C::SamePlace(a, b) => place(a, part) || place(b, part),
        C::SamePlayer(a, b) => who(a, part) || who(b, part),
        C::NoLegalTurnOf(w) | C::HasCapture(w) => who(w, part),
        C::Const(_)
        | C::CellLin(..)
        | C::SumCmp(..)
        | C::SpanCmp(..)
        | C::NoLegalTurn
        | C::Repeated
        | C::Cut
        | C::Ended(_)
        | C::LastSeed
        | C::Going(_)
        | C::Chose(_)
        | C::Flagged(_)
        | C::FlaggedHere(_)
        | C::InPhase(_) => false,
    }
}

/// A set of cells as bits (a bit per cell), for [`C::InCells`].
pub(crate) fn cell_bits(cells: &[u16]) -> Box<[u64]> {
    let top = cells.iter().max().map_or(0, |&c| c as usize);
    let mut bits = vec![0u64; top / 64 + 1];
    for &c in cells {
        bits[c as usize / 64] |= 1 << (c % 64);
    }
    bits.into()
}

/// The cells (as bits) a condition requires to be empty, when it holds
/// only where they all are: sowing only adds seeds, so such a condition,
/// found false, can hold again only after seeds leave one of them.
pub(crate) fn needs_empty(c: &C) -> Option<Box<[u64]>> {
    empty_cells(c).map(|cells| cell_bits(&cells))
}

/// The cells of [`needs_empty`]. An `and` of such conditions needs all
/// their cells empty; one with any other part (another cell's seeds, a
/// variable) may come to hold as that part does, whatever the seeds leave.
fn empty_cells(c: &C) -> Option<Vec<u16>> {
    match c {
        C::SumCmp(CmpOp::Eq | CmpOp::Le, cells, 0) | C::SumCmp(CmpOp::Lt, cells, 1) => {
            Some(cells.to_vec())
        }
        C::SpanCmp(CmpOp::Eq | CmpOp::Le, lo, hi, 0) | C::SpanCmp(CmpOp::Lt, lo, hi, 1) => {
            Some((*lo..*hi).collect())
        }
        C::SeedsCmp(CmpOp::Eq | CmpOp::Le, P::Cell(c), 0)
        | C::SeedsCmp(CmpOp::Lt, P::Cell(c), 1) => Some(vec![*c]),
        C::And(parts) => parts
            .iter()
            .map(empty_cells)
            .collect::<Option<Vec<_>>>()
            .map(|each| each.concat()),
        _ => None,
    }
}

/// The most seeds a capture takes from each pit.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Most {
    /// A number known before play (`u32::MAX`: all of them).
    Fixed(u32),
    /// A count read from the position, judged when the action runs.
    Judged(Box<N>),
}

/// An action.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum A {
    Require(C),
    Prefer(C),
    Capture {
        place: P,
        chain: Option<CChain>,
        /// A store, or `None`: the mover's, or the resowing (nothing, where
        /// the resowing cannot start).
        to: Option<P>,
        /// The most seeds taken from each pit.
        most: Most,
    },
    CaptureRegion {
        region: R,
        to: Option<P>,
        most: Most,
    },
    Resow {
        from: P,
        heading: Heading,
    },
    Set {
        var: V,
        value: u32,
    },
    /// A variable valued by the players' names set to a player known
    /// only in play: the value for each player.
    SetPlayer {
        var: V,
        who: W,
        values: [u32; 2],
    },
    /// A variable holding a number set to a number, held within its
    /// range (the lowest and highest it can hold).
    SetNumber {
        var: V,
        to: N,
        low: i64,
        high: i64,
    },
    Relay(Option<u32>),
    /// Lift another pit's seeds and sow on from it.
    RelayFrom(P),
    /// `relay forward|backward`: on, going this way.
    RelayGoing(Direction),
    Again,
    /// The mover moves again, from this pit only.
    AgainFrom(P),
    Stop,
    Cancel,
    Forbid,
    Collect,
    Reset,
    /// The seeds of a pit leave the game.
    Remove(P),
    /// The seeds of a region leave the game.
    RemoveRegion(R),
    /// The seeds of a region are shared between the stores (or the
    /// players' cells given), the odd one to a player's.
    Divide(R, W, Option<[u16; 2]>),
    /// Each pit of a region, in its order, brought to so many seeds from a
    /// place while it has enough.
    Fill(R, N, P),
    /// Who moves first in the next round (read by the `round` moment).
    First(W),
}

/// A capture's walk, compiled (see [`crate::ir::Chain`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CChain {
    pub direction: Direction,
    pub every: u32,
    pub from: Option<P>,
    pub holds: C,
    pub taking: Option<P>,
    pub with: Option<P>,
}

/// What a rule's steering actions (`relay`, `stop`, `again`, `forbid`)
/// say, folded in their order when the rules are compiled: they
/// read and change nothing on the board, so where they stand among the
/// other actions does not matter, and a rule of steering alone (most
/// `land` rules) is carried out without its actions being run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Steer {
    /// The last `relay` or `stop`, if any.
    pub relay: Option<Option<Option<u32>>>,
    pub again: bool,
    pub forbid: bool,
}

impl Steer {
    /// The steering of `actions`, and whether they hold any other.
    pub(crate) fn of(actions: &[A]) -> (Steer, bool) {
        let mut s = Steer::default();
        let mut others = false;
        for a in actions {
            others |= !s.note(a);
        }
        (s, others)
    }

    /// Folds in one action; false if it is not a steering one.
    fn note(&mut self, a: &A) -> bool {
        match a {
            A::Relay(n) => self.relay = Some(Some(*n)),
            A::Stop => self.relay = Some(None),
            A::Again => self.again = true,
            A::Forbid => self.forbid = true,
            // `cancel` gives back the seeds taken so far: where it stands
            // among the captures matters.
            A::Cancel
            | A::Require(_)
            | A::Prefer(_)
            | A::Capture { .. }
            | A::CaptureRegion { .. }
            | A::Resow { .. }
            | A::Set { .. }
            | A::SetPlayer { .. }
            | A::SetNumber { .. }
            | A::Collect
            | A::Reset
            | A::Remove(_)
            | A::RemoveRegion(_)
            | A::RelayFrom(_)
            | A::RelayGoing(_)
            | A::AgainFrom(_)
            | A::Divide(..)
            | A::Fill(..)
            | A::First(_) => return false,
        }
        true
    }
}

/// A rule, compiled.
#[derive(Debug, Clone)]
pub(crate) struct CRule {
    /// The rule it is compiled from (an index in the rules' `rules`).
    pub id: u16,
    pub when: C,
    pub actions: Vec<A>,
    /// Its steering actions, folded (see [`Steer`]).
    pub steer: Steer,
    /// Whether it has actions besides steering ones, to be run.
    pub acts: bool,
    /// Whether it resows the seeds it captures (`resow`): those its
    /// captures send to the mover are held for the resowing.
    pub resows: bool,
    /// Whether its resowing is the turn's last sowing, its end not
    /// judged: it resows and says `stop`, `again` or `again from`.
    pub resow_ends: bool,
    /// What judging its condition costs, at most (see [`cost`]): what a
    /// turn is charged for each rule it judges.
    pub judge_cost: u64,
    /// What doing what it says costs, at most: charged when it holds.
    pub act_cost: u64,
}

/// What an action of a `turn` rule says of a turn: a condition it must
/// meet, that it is rejected, or nothing (the moment table allows no
/// other action at `turn`).
pub(crate) enum OnTurn<'a> {
    Meets(&'a C),
    Rejected,
    Nothing,
}

impl A {
    /// What this action says of a turn, at the `turn` moment.
    pub(crate) fn on_turn(&self) -> OnTurn<'_> {
        match self {
            A::Require(c) | A::Prefer(c) => OnTurn::Meets(c),
            A::Forbid => OnTurn::Rejected,
            A::Capture { .. }
            | A::CaptureRegion { .. }
            | A::Resow { .. }
            | A::Set { .. }
            | A::SetPlayer { .. }
            | A::SetNumber { .. }
            | A::Relay(_)
            | A::RelayFrom(_)
            | A::RelayGoing(_)
            | A::Again
            | A::AgainFrom(_)
            | A::Stop
            | A::Cancel
            | A::Collect
            | A::Reset
            | A::Remove(_)
            | A::RemoveRegion(_)
            | A::Divide(..)
            | A::Fill(..)
            | A::First(_) => OnTurn::Nothing,
        }
    }
}

impl CRule {
    pub(crate) fn new(id: u16, when: C, actions: Vec<A>) -> CRule {
        let judge_cost = RULE_COST + cost(&when);
        let act_cost = actions.iter().map(action_cost).sum::<u64>();
        let (steer, acts) = Steer::of(&actions);
        let resows = actions.iter().any(|a| matches!(a, A::Resow { .. }));
        let ends = steer.again
            || steer.relay == Some(None)
            || actions.iter().any(|a| matches!(a, A::AgainFrom(_)));
        let resow_ends = resows && ends;
        CRule {
            id,
            when,
            actions,
            steer,
            acts,
            resows,
            resow_ends,
            judge_cost,
            act_cost,
        }
    }
}

/// The work of judging a rule beside its conditions (see [`cost`]).
const RULE_COST: u64 = 8;

/// A region whose pits are known only in play: as large as a board gets.
const ANY_REGION: u64 = crate::limits::MAX_PITS as u64;

/// What working out a capture's `at most` costs.
fn most_cost(m: &Most) -> u64 {
    match m {
        Most::Fixed(_) => 0,
        Most::Judged(n) => num_cost(n),
    }
}

/// What working out a number costs (see [`cost`]).
fn num_cost(n: &N) -> u64 {
    match n {
        N::Lin(l) => lin_cost(l),
        N::Arith(_, a, b) => 1 + num_cost(a) + num_cost(b),
    }
}

/// What working out a linear sum costs (see [`cost`]).
fn lin_cost(l: &Lin) -> u64 {
    1 + l.cells.len() as u64
        + l.terms
            .iter()
            .map(|(_, t)| match t {
                T::Seeds(_)
                | T::BeforeSeeds(_)
                | T::Hand(_)
                | T::Total
                | T::Captured
                | T::Sowings
                | T::Var(..) => 2,
                T::Sum(r) => 2 + region_cost(r),
                T::Count(r, c) => 2 + region_cost(r).saturating_mul(1 + cost(c)),
                T::Before(n) => 2 + num_cost(n),
                T::If(c, a, b) => 2 + cost(c) + num_cost(a).max(num_cost(b)),
                T::SumOver(r, n) => 2 + region_cost(r).saturating_mul(1 + num_cost(n)),
            })
            .sum::<u64>()
}

/// Roughly what judging a condition costs, in the units of a turn's work
/// budget ([`crate::limits::MAX_TURN_WORK`]; about a nanosecond each):
/// a leaf is one, a sum or count over pits one a pit.
pub(crate) fn cost(c: &C) -> u64 {
    let (num, lin) = (num_cost, lin_cost);
    match c {
        C::Const(_) => 0,
        C::VarIs(V::PitsOf(_, r), _) => 1 + region_cost(r),
        C::VarIs(..)
        | C::CellLin(..)
        | C::SeedsCmp(..)
        | C::SeedsIn(..)
        | C::SamePlace(..)
        | C::OwnerIs(..)
        | C::OwnerNow(..)
        | C::SamePlayer(..)
        | C::InCells(..)
        | C::NoLegalTurn
        | C::NoLegalTurnOf(_)
        | C::Repeated
        | C::Cut
        | C::Ended(_)
        | C::LastSeed
        | C::Going(_)
        | C::Chose(_)
        | C::Flagged(_)
        | C::FlaggedHere(_)
        | C::HasCapture(_) => 1,
        C::Not(c) => 1 + cost(c),
        // The phases' conditions, judged in order.
        C::InPhase(_) => 8,
        C::And(v) | C::Or(v) => v.iter().map(cost).sum(),
        C::Cmp(_, a, b) => 1 + num(a) + num(b),
        C::LinCmp(_, l) => 1 + lin(l),
        C::SumCmp(_, cells, _) => 1 + cells.len() as u64,
        C::SpanCmp(_, lo, hi, _) => 1 + hi.saturating_sub(*lo) as u64,
        C::Range(a, b, d) => 1 + num(a) + num(b) + num(d),
        C::In(_, r) => 1 + region_cost(r),
    }
}

/// A region walked through one more sift: a filtered region's sifts
/// grow (two conditions in a row judged as one), any other becomes the
/// base of a filter.
fn sifted(r: R, sift: Sift) -> R {
    match r {
        R::Where(base, sifts) => {
            let mut sifts = sifts.into_vec();
            match (sifts.pop(), sift) {
                (Some(Sift::Keep(a)), Sift::Keep(b)) => sifts.push(Sift::Keep(join(true, [a, b]))),
                (Some(last @ (Sift::Keep(_) | Sift::First(_))), sift) => {
                    sifts.push(last);
                    sifts.push(sift);
                }
                (None, sift) => sifts.push(sift),
            }
            R::Where(base, sifts.into())
        }
        r @ (R::Cells(_) | R::FirstCaptures(_) | R::SideOf(_) | R::NamedOf(..) | R::Path(..)) => {
            R::Where(Box::new(r), Box::new([sift]))
        }
    }
}

/// What going over a region's pits costs at most: a pit each, and a
/// filter's condition judged on each.
fn region_cost(r: &R) -> u64 {
    match r {
        R::Cells(cells) => cells.len() as u64,
        R::FirstCaptures(_) | R::SideOf(_) | R::NamedOf(..) | R::Path(..) => ANY_REGION,
        R::Where(r, stages) => region_cost(r).saturating_mul(
            stages
                .iter()
                .map(|s| match s {
                    Sift::Keep(c) => 1 + cost(c),
                    Sift::First(n) => 1 + num_cost(n),
                })
                .sum(),
        ),
    }
}

/// What doing an action costs at most, beside the sowing it leads to.
fn action_cost(a: &A) -> u64 {
    match a {
        A::Require(c) | A::Prefer(c) => cost(c),
        // A chain walks the whole board at most.
        A::Capture { chain, most, .. } => {
            2 + most_cost(most)
                + chain
                    .as_ref()
                    .map_or(0, |ch| ANY_REGION * (2 + cost(&ch.holds)))
        }
        A::CaptureRegion { region, most, .. } => 2 + most_cost(most) + region_cost(region),
        A::RemoveRegion(region) | A::Divide(region, ..) | A::Fill(region, ..) => {
            2 + region_cost(region)
        }
        A::Set {
            var: V::PitsOf(_, r),
            ..
        }
        | A::SetPlayer {
            var: V::PitsOf(_, r),
            ..
        } => ANY_REGION.max(region_cost(r)),
        A::SetNumber { var, to, .. } => {
            let slots = match var {
                V::PitsOf(_, r) => ANY_REGION.max(region_cost(r)),
                V::Slot(_) | V::PlayerOf(..) | V::PitOf(..) => 1,
            };
            slots + num_cost(to)
        }
        A::Set { .. }
        | A::SetPlayer { .. }
        | A::First(_)
        | A::Resow { .. }
        | A::Relay(_)
        | A::RelayFrom(_)
        | A::RelayGoing(_)
        | A::Again
        | A::AgainFrom(_)
        | A::Stop
        | A::Cancel
        | A::Forbid
        | A::Remove(_)
        | A::Collect => 1,
        A::Reset => 2 + crate::limits::MAX_PITS as u64,
    }
}

/// Rules of which the first that holds decides (the `land` rules).
/// Neighbours whose conditions begin with the same parts are judged on
/// those parts once.
#[derive(Debug, Clone, Default)]
pub(crate) struct FirstOf {
    pub rules: Vec<CRule>,
    /// For each rule: how many leading parts of its `and` the rules after
    /// it share, and how many rules after it share them.
    pub shared: Vec<(usize, usize)>,
    /// The same rules judged off the position alone, when they can be.
    pub quick: Option<Quick>,
    /// Where they cannot be (some rule does more than relay or stop, or
    /// a condition asks more than a cell's seeds or a variable), the same
    /// rules judged without a context built, when their conditions allow
    /// it.
    pub plain: Option<Plain>,
    /// What judging the list costs at most where `quick` or `plain`
    /// judges it (see [`cost`]; the general judge, `Engine::first_of`,
    /// counts the rules it judges), the actions of the rule that holds
    /// aside.
    pub cost: u64,
    /// For each rule that starts a run sharing leading parts (see
    /// `shared`), what judging those parts costs: a run passed over when
    /// they fail costs that alone.
    pub prefix_cost: Vec<u64>,
}

/// `land` rules that only relay or stop, on conditions that only compare
/// a fixed cell's seeds or test a variable's slot: what a relay lap meets
/// once the pit it ends in is known (see `Staged::landing`).
#[derive(Debug, Clone)]
pub(crate) struct Quick(Box<[QuickRule]>);

#[derive(Debug, Clone)]
pub(crate) struct QuickRule {
    /// What must all hold.
    tests: Box<[Test]>,
    /// The seeds it relays (`None`: all) or, for `stop`, nothing.
    does: Option<Option<u32>>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Test {
    Seeds(CmpOp, u16, i64),
    Var(usize, u32),
}

impl Quick {
    fn of(rules: &[CRule]) -> Option<Quick> {
        let rules_tested = tested(rules, |c| match c {
            C::SeedsCmp(op, P::Cell(cell), k) => Some(Test::Seeds(*op, *cell, *k)),
            C::VarIs(V::Slot(slot), v) => Some(Test::Var(*slot, *v)),
            _ => None,
        })?;
        let quick = rules_tested
            .into_iter()
            .map(|(tests, i)| {
                let does = match rules[i].actions.as_slice() {
                    [A::Relay(n)] => Some(*n),
                    [A::Stop] => None,
                    _ => return None,
                };
                Some(QuickRule { tests, does })
            })
            .collect::<Option<_>>()?;
        Some(Quick(quick))
    }

    /// What the first rule that holds does: relay (so many seeds, or all),
    /// or nothing (`stop`, or no rule holds).
    #[inline(always)]
    pub(crate) fn decide(&self, cells: &[u32], vars: &[u32]) -> Option<Option<u32>> {
        let holds = |t: &Test| match *t {
            Test::Seeds(op, cell, k) => {
                compare(op, cells.get(cell as usize).map_or(0, |&s| s as i64), k)
            }
            Test::Var(slot, v) => vars.get(slot) == Some(&v),
        };
        self.0
            .iter()
            .find(|r| r.tests.iter().all(holds))
            .and_then(|r| r.does)
    }
}

/// `land` rules on conditions that only compare a fixed cell's seeds,
/// ask which way the sowing goes or compare the seeds the turn's origin
/// held as it began, some with actions to run (a capture and a resowing,
/// most often): the first that holds is found without a context built.
#[derive(Debug, Clone)]
pub(crate) struct Plain(Box<[(Box<[PlainTest]>, usize)]>);

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum PlainTest {
    Seeds(CmpOp, u16, i64),
    Going(Direction),
    /// `coefficient × before(seeds(origin)) + k` compared with 0.
    Origin(CmpOp, i64, i64),
}

/// Where a turn stands, as far as [`Plain`] tests read it.
#[derive(Clone, Copy)]
pub(crate) struct PlainAt<'a> {
    pub cells: &'a [u32],
    pub dir: Direction,
    /// The cells as the turn began, and where it began.
    pub before: &'a [u32],
    pub origin: u16,
}

impl Plain {
    fn of(rules: &[CRule]) -> Option<Plain> {
        let rules_tested = tested(rules, |c| match c {
            C::SeedsCmp(op, P::Cell(cell), k) => Some(PlainTest::Seeds(*op, *cell, *k)),
            C::Going(d) => Some(PlainTest::Going(*d)),
            C::LinCmp(op, l) if l.cells.is_empty() => match l.terms.as_slice() {
                [(coef, T::BeforeSeeds(P::Origin))] => Some(PlainTest::Origin(*op, *coef, l.k)),
                _ => None,
            },
            _ => None,
        })?;
        Some(Plain(rules_tested.into()))
    }

    /// The index of the first rule that holds, if one does.
    #[inline(always)]
    pub(crate) fn first(&self, at: PlainAt) -> Option<usize> {
        let holds = |t: &PlainTest| match *t {
            PlainTest::Seeds(op, cell, k) => {
                compare(op, at.cells.get(cell as usize).map_or(0, |&s| s as i64), k)
            }
            PlainTest::Going(d) => at.dir == d,
            // (As a linear sum is judged: see `Engine::lin`.)
            PlainTest::Origin(op, coef, k) => {
                let held = at.before.get(at.origin as usize).map_or(0, |&s| s as i64);
                compare(op, k.wrapping_add(coef.wrapping_mul(held)), 0)
            }
        };
        'rules: for (tests, i) in &*self.0 {
            for t in &**tests {
                if !holds(t) {
                    continue 'rules;
                }
            }
            return Some(*i);
        }
        None
    }
}

/// Each live rule's condition as a list of tests that must all hold
/// (`test` reads one part of an `and`), with the rule's index; `None` if
/// some part is not such a test.
#[allow(clippy::type_complexity)]
fn tested<T>(rules: &[CRule], test: impl Fn(&C) -> Option<T>) -> Option<Vec<(Box<[T]>, usize)>> {
    let mut out = Vec::new();
    for (i, r) in rules.iter().enumerate() {
        let tests: Box<[T]> = match &r.when {
            C::Const(false) => continue,
            C::Const(true) => Box::new([]),
            C::And(parts) => parts.iter().map(&test).collect::<Option<_>>()?,
            c => Box::new([test(c)?]),
        };
        out.push((tests, i));
    }
    Some(out)
}

impl FirstOf {
    pub fn new(rules: Vec<CRule>) -> FirstOf {
        fn parts(c: &C) -> &[C] {
            match c {
                C::And(v) => v,
                _ => &[],
            }
        }
        let shared = (0..rules.len())
            .map(|i| {
                let mine = parts(&rules[i].when);
                let m = rules.get(i + 1).map_or(0, |next| {
                    let theirs = parts(&next.when);
                    mine.iter().zip(theirs).take_while(|(a, b)| a == b).count()
                });
                // A shared prefix must leave each rule something of its own.
                let m = m.min(mine.len().saturating_sub(1));
                if m == 0 {
                    return (0, 0);
                }
                let run = rules[i + 1..]
                    .iter()
                    .take_while(|r| {
                        let p = parts(&r.when);
                        p.len() > m && p[..m] == mine[..m]
                    })
                    .count();
                (m, run)
            })
            .collect();
        let quick = Quick::of(&rules);
        let plain = quick.is_none().then(|| Plain::of(&rules)).flatten();
        let cost = match &quick {
            Some(q) => q.0.iter().map(|r| 1 + r.tests.len() as u64).sum(),
            None => rules.iter().map(|r| r.judge_cost).sum(),
        };
        let prefix_cost = rules
            .iter()
            .zip(&shared)
            .map(|(r, &(m, _))| {
                RULE_COST + parts(&r.when).iter().take(m).map(self::cost).sum::<u64>()
            })
            .collect();
        FirstOf {
            quick,
            plain,
            rules,
            shared,
            cost,
            prefix_cost,
        }
    }
}

/// What is known while compiling.
#[derive(Clone, Copy)]
struct Known {
    mover: Player,
    origin: Option<u16>,
    /// Where the last seed landed, when a rule is specialised for it.
    last: Option<u16>,
    /// The pit a `lift` rule is judging, when it is specialised for it
    /// (never inside `count` or a chain, which bind `here` themselves).
    here: Option<u16>,
    each: Option<Player>,
    /// Where the turn stands, when a rule is specialised for it.
    stage: Option<Stage>,
    /// Judged before a turn, on the mover's legal turns listed
    /// (`no_legal_turn` of the mover reads the list).
    listed: bool,
}

impl Known {
    /// Nothing known but the mover (and the player `player` stands for).
    fn mover(mover: Player, each: Option<Player>) -> Known {
        Known {
            mover,
            origin: None,
            last: None,
            here: None,
            each,
            stage: None,
            listed: false,
        }
    }
}

/// A turn's phase and counters, as far as the rules tell them apart: rules
/// are compiled once for each stage, so that checks on them fold away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stage {
    /// The phase (an index in the rules' phases), if the variant has phases.
    pub phase: Option<usize>,
    /// `sowings`, or any value past the largest the rules compare it with
    /// (`None`: not known, as for the rules judged before or after a turn).
    pub sowings: Option<i64>,
    /// `captured`, likewise.
    pub captured: Option<i64>,
}

/// Compiles against the board's tables.
pub(crate) struct Compiler<'a> {
    pub rules: &'a Rules,
    pub board: &'a super::board::Board,
}

impl Compiler<'_> {
    fn who(&self, w: &Who, k: Known) -> W {
        match w {
            Who::Mover => W::Is(k.mover),
            Who::Opponent => W::Is(1 - k.mover),
            Who::Player(p) => W::Is(*p),
            Who::Each => W::Is(k.each.unwrap_or(k.mover)),
            Who::Owner(place) => match self.place(place, k) {
                // (An owner that follows a variable is known only in play.)
                p if self.board.owner_var.is_some() => W::OwnerNow(Box::new(p)),
                P::Cell(c) if c != NONE => W::Is(self.board.owner[c as usize]),
                p => W::OwnerOf(Box::new(p)),
            },
            Who::Var(var) => {
                let players = &self.rules.players;
                let named = self.rules.vars[*var]
                    .values
                    .iter()
                    .map(|v| players.iter().position(|p| p == v).map(|p| p as Player))
                    .collect();
                W::Var(self.board.var_base[*var], named)
            }
            Who::Other(w) => match self.who(w, k) {
                W::Is(p) => W::Is(1 - p),
                dynamic => W::Other(Box::new(dynamic)),
            },
        }
    }

    fn place(&self, p: &Place, k: Known) -> P {
        match p {
            Place::Pit(id) => P::Cell(*id),
            Place::Last => k.last.map_or(P::Last, P::Cell),
            Place::Origin => k.origin.map_or(P::Origin, P::Cell),
            Place::Lifted => P::Lifted,
            Place::Here => k.here.map_or(P::Here, P::Cell),
            Place::Store(w) => match self.who(w, k) {
                W::Is(pl) => P::Cell((self.board.npits + pl as usize) as u16),
                dynamic => P::StoreOf(Box::new(dynamic)),
            },
            Place::Named(i, w) => match self.who(w, k) {
                W::Is(pl) => P::Cell(self.rules.named_pits[*i].pits[pl as usize]),
                dynamic => P::NamedOf(*i, Box::new(dynamic)),
            },
            Place::Opposite(inner) => match self.place(inner, k) {
                P::Cell(c) => P::Cell(if (c as usize) < self.board.npits {
                    self.board.opposite[c as usize]
                } else {
                    NONE
                }),
                dynamic => P::Opposite(Box::new(dynamic)),
            },
            Place::Behind(inner) => match self.place(inner, k) {
                P::Cell(c) => P::Cell(self.board.behind_of(c)),
                dynamic => P::Behind(Box::new(dynamic)),
            },
            Place::Front(inner) => match self.place(inner, k) {
                P::Cell(c) => P::Cell(self.board.front_of(c)),
                dynamic => P::Front(Box::new(dynamic)),
            },
            Place::Across(inner) => match self.place(inner, k) {
                P::Cell(c) => P::Cell(self.board.across_of(k.mover, c)),
                dynamic => P::Across(Box::new(dynamic), k.mover),
            },
            Place::First(r) => match self.region(r, k) {
                R::Cells(cells) => P::Cell(cells.first().copied().unwrap_or(NONE)),
                dynamic => P::First(Box::new(dynamic)),
            },
            Place::Along(inner, steps) => match self.place(inner, k) {
                // (Where places are passed over by `skip when`, the steps
                // are known only in play.)
                P::Cell(c) if self.rules.sowing.walk_skip().is_none() => {
                    P::Cell(self.board.along(k.mover, c, *steps))
                }
                dynamic => P::Along(Box::new(dynamic), *steps, k.mover),
            },
            // (The sowing's direction is known only in play.)
            Place::Ahead(inner, steps) => P::Ahead(Box::new(self.place(inner, k)), *steps, k.mover),
            Place::Stepped(inner, steps) => P::Stepped(
                Box::new(self.place(inner, k)),
                Box::new(self.num(steps, k)),
                k.mover,
            ),
            Place::If(c, a, b) => match self.cond(c, k) {
                C::Const(true) => self.place(a, k),
                C::Const(false) => self.place(b, k),
                c => P::If(
                    Box::new(c),
                    Box::new(self.place(a, k)),
                    Box::new(self.place(b, k)),
                ),
            },
        }
    }

    fn region(&self, r: &Region, k: Known) -> R {
        match r {
            Region::Board => R::Cells(self.board.all.as_slice().into()),
            // With `owner follows VAR`, a side is the pits owned now.
            Region::Side(w) if self.board.owner_var.is_some() => self.region(
                &Region::Where(
                    Box::new(Region::Board),
                    Box::new(Cond::SamePlayer(
                        Who::Owner(Box::new(Place::Here)),
                        w.clone(),
                    )),
                ),
                k,
            ),
            Region::Side(w) => match self.who(w, k) {
                W::Is(p) => R::Cells(self.board.sides[p as usize].clone().into()),
                dynamic => R::SideOf(Box::new(dynamic)),
            },
            Region::Named(i, w) => match self.who(w, k) {
                W::Is(p) => R::Cells(self.rules.regions[*i].pits[p as usize].clone().into()),
                dynamic => R::NamedOf(*i, Box::new(dynamic)),
            },
            Region::FirstCaptures(w) => R::FirstCaptures(self.who(w, k)),
            Region::Where(r, c) => {
                let c = self.cond(c, Known { here: None, ..k });
                match (self.region(r, k), c) {
                    (_, C::Const(false)) => R::Cells(Box::new([])),
                    (r, C::Const(true)) => r,
                    (r, c) => sifted(r, Sift::Keep(c)),
                }
            }
            Region::Path(a, b) => {
                let path = R::Path(
                    Box::new(self.place(a, k)),
                    Box::new(self.place(b, k)),
                    k.mover,
                );
                // A track through a store: the path is its pits.
                if self.board.cycle[k.mover as usize & 1]
                    .iter()
                    .any(|&c| c as usize >= self.board.npits)
                {
                    sifted(
                        path,
                        Sift::Keep(C::InCells(P::Here, cell_bits(&self.board.all))),
                    )
                } else {
                    path
                }
            }
            Region::First(r, n) => match (self.region(r, k), self.num(n, k)) {
                // The first N of a region known before the game.
                (R::Cells(cells), N::Lin(l)) if l.is_const() => {
                    let n = (l.k.max(0) as usize).min(cells.len());
                    R::Cells(cells[..n].into())
                }
                (r, n) => sifted(r, Sift::First(n)),
            },
        }
    }

    /// A capture's `at most N`: all where none is given; a number known
    /// before play folded in (below zero, none).
    fn most(&self, most: &Option<Box<Num>>, k: Known) -> Most {
        match most.as_ref().map(|n| self.num(n, k)) {
            None => Most::Fixed(u32::MAX),
            Some(N::Lin(l)) if l.is_const() => {
                Most::Fixed(l.k.clamp(0, i64::from(u32::MAX)) as u32)
            }
            Some(judged) => Most::Judged(Box::new(judged)),
        }
    }

    fn num(&self, n: &Num, k: Known) -> N {
        let lin = |l: Lin| N::Lin(l);
        match n {
            Num::Int(x) => lin(Lin::constant(*x)),
            Num::Seeds(p) => lin(match self.place(p, k) {
                P::Cell(NONE) => Lin::constant(0),
                P::Cell(c) => Lin::cell(c),
                dynamic => Lin::term(T::Seeds(dynamic)),
            }),
            Num::SeedsIn(r) => lin(match self.region(r, k) {
                R::Cells(cells) => Lin {
                    cells: cells.iter().map(|&c| (1, c)).collect(),
                    ..Lin::default()
                },
                dynamic => Lin::term(T::Sum(dynamic)),
            }),
            Num::Hand(w) => lin(Lin::term(T::Hand(self.who(w, k)))),
            Num::Total => lin(Lin::term(T::Total)),
            Num::OutOfPlay => combine(
                ArithOp::Sub,
                lin(Lin::constant(self.rules.setup.total() as i64)),
                lin(Lin::term(T::Total)),
            ),
            Num::Captured => lin(match k.stage.and_then(|st| st.captured) {
                Some(n) => Lin::constant(n),
                None => Lin::term(T::Captured),
            }),
            Num::Sowings => lin(match k.stage.and_then(|st| st.sowings) {
                Some(n) => Lin::constant(n),
                None => Lin::term(T::Sowings),
            }),
            Num::Count(r, c) => lin(Lin::term(T::Count(
                self.region(r, k),
                Box::new(self.cond(c, Known { here: None, ..k })),
            ))),
            Num::Before(inner) => lin(before(self.num(inner, k))),
            Num::If(c, a, b) => match self.cond(c, k) {
                C::Const(true) => self.num(a, k),
                C::Const(false) => self.num(b, k),
                c => lin(Lin::term(T::If(
                    Box::new(c),
                    Box::new(self.num(a, k)),
                    Box::new(self.num(b, k)),
                ))),
            },
            Num::SumOver(r, n) => lin(Lin::term(T::SumOver(
                self.region(r, k),
                Box::new(self.num(n, Known { here: None, ..k })),
            ))),
            Num::Arith(op, a, b) => combine(*op, self.num(a, k), self.num(b, k)),
            Num::Var(var, at) => {
                let (low, high) = self.rules.vars[*var].numbers.unwrap_or_default();
                lin(Lin::term(T::Var(self.var(*var, at, k), low, high)))
            }
        }
    }

    fn cond(&self, c: &Cond, k: Known) -> C {
        match c {
            Cond::True => C::Const(true),
            Cond::Not(inner) => negate(self.cond(inner, k)),
            Cond::And(v) => join(true, v.iter().map(|c| self.cond(c, k))),
            Cond::Or(v) => join(false, v.iter().map(|c| self.cond(c, k))),
            Cond::Compare(op, a, b) => match (self.num(a, k), self.num(b, k)) {
                // x op y  ⇔  x - y op 0, when x - y is exact.
                (N::Lin(x), N::Lin(y)) if exact_sum(&x, &y) => lin_cond(*op, x.plus(y.scaled(-1))),
                (x, y) => C::Cmp(*op, x, y),
            },
            Cond::InRange(n, lo, hi) => match (self.num(n, k), self.num(lo, k), self.num(hi, k)) {
                (N::Lin(x), N::Lin(l), N::Lin(h)) if l.is_const() && h.is_const() => {
                    match (x.cells.as_slice(), x.terms.as_slice()) {
                        ([], []) => C::Const(l.k <= x.k && x.k <= h.k),
                        ([], [(1, T::Seeds(p))]) if shifts(&x, &l, &h) => {
                            C::SeedsIn(p.clone(), l.k - x.k, h.k - x.k)
                        }
                        ([(1, c)], []) if shifts(&x, &l, &h) => {
                            C::SeedsIn(P::Cell(*c), l.k - x.k, h.k - x.k)
                        }
                        _ => C::Range(N::Lin(x), N::Lin(l), N::Lin(h)),
                    }
                }
                (x, l, h) => C::Range(x, l, h),
            },
            Cond::SamePlace(a, b) => match (self.place(a, k), self.place(b, k)) {
                (P::Cell(x), P::Cell(y)) => C::Const(x == y && x != NONE),
                (x, y) => C::SamePlace(x, y),
            },
            Cond::SamePlayer(a, b) => match (self.who(a, k), self.who(b, k)) {
                (W::Is(x), W::Is(y)) => C::Const(x == y),
                (W::OwnerOf(p), W::Is(y)) | (W::Is(y), W::OwnerOf(p)) => C::OwnerIs(*p, y),
                (W::OwnerNow(p), W::Is(y)) | (W::Is(y), W::OwnerNow(p)) => C::OwnerNow(*p, y),
                (x, y) => C::SamePlayer(x, y),
            },
            Cond::PlaceIn(p, r) => match (self.place(p, k), self.region(r, k)) {
                (P::Cell(c), R::Cells(cells)) => C::Const(cells.contains(&c)),
                (p, R::Cells(cells)) => C::InCells(p, cell_bits(&cells)),
                (p, r) => C::In(p, r),
            },
            Cond::VarIs(var, at, value) => C::VarIs(self.var(*var, at, k), *value as u32),
            Cond::InPhase(i) if k.stage.is_some_and(|st| st.phase.is_some()) => {
                C::Const(k.stage.and_then(|st| st.phase) == Some(*i))
            }
            Cond::InPhase(i) => C::InPhase(*i),
            Cond::NoLegalTurn(w) => match self.who(w, k) {
                W::Is(p) if p == k.mover && k.listed => C::NoLegalTurn,
                other => C::NoLegalTurnOf(other),
            },
            Cond::Repeated => C::Repeated,
            Cond::Cut => C::Cut,
            Cond::Ended(i) => C::Ended(*i as u16),
            Cond::LastSeed => C::LastSeed,
            Cond::HasCapture(w) => C::HasCapture(self.who(w, k)),
            Cond::Going(d) => C::Going(*d),
            Cond::Chose(i) => C::Chose(*i as u8),
            Cond::Flagged(i) if self.rules.notation.per_sowing == Some(*i) => {
                C::FlaggedHere(*i as u8)
            }
            Cond::Flagged(i) => C::Flagged(*i as u8),
        }
    }

    fn var(&self, var: usize, at: &VarAt, k: Known) -> V {
        let base = self.board.var_base[var];
        match at {
            VarAt::Game => V::Slot(base),
            VarAt::Player(w) => match self.who(w, k) {
                W::Is(p) => V::Slot(base + p as usize),
                dynamic => V::PlayerOf(base, dynamic),
            },
            VarAt::Pit(p) => match self.place(p, k) {
                P::Cell(c) => V::Slot(base + c as usize),
                dynamic => V::PitOf(base, dynamic),
            },
            VarAt::Pits(r) => V::PitsOf(base, self.region(r, k)),
        }
    }

    fn action(&self, a: &Action, k: Known) -> A {
        match a {
            Action::Require(c) => A::Require(self.cond(c, k)),
            Action::Prefer(c) => A::Prefer(self.cond(c, k)),
            Action::Capture {
                place,
                chain,
                to,
                most,
            } => A::Capture {
                place: self.place(place, k),
                chain: chain.as_ref().map(|ch| {
                    let walked = Known { here: None, ..k };
                    CChain {
                        direction: ch.direction,
                        every: ch.every,
                        from: ch.from.as_ref().map(|p| self.place(p, k)),
                        holds: self.cond(&ch.holds, walked),
                        taking: ch.taking.as_ref().map(|p| self.place(p, walked)),
                        with: ch.with.as_ref().map(|p| self.place(p, walked)),
                    }
                }),
                to: to.as_ref().map(|to| self.place(to, k)),
                most: self.most(most, k),
            },
            Action::CaptureRegion { region, to, most } => A::CaptureRegion {
                region: self.region(region, k),
                to: to.as_ref().map(|to| self.place(to, k)),
                most: self.most(most, k),
            },
            Action::Resow { from, heading } => A::Resow {
                from: self.place(from, k),
                heading: *heading,
            },
            Action::Set { var, at, value } => A::Set {
                var: self.var(*var, at, k),
                value: *value as u32,
            },
            Action::SetPlayer { var, at, to } => {
                let values = &self.rules.vars[*var].values;
                let players = &self.rules.players;
                let value = |p: usize| {
                    values
                        .iter()
                        .position(|v| Some(v) == players.get(p))
                        .unwrap_or_default() as u32
                };
                let values = [value(0), value(1)];
                match self.who(to, k) {
                    W::Is(p) => A::Set {
                        var: self.var(*var, at, k),
                        value: values[p as usize & 1],
                    },
                    who => A::SetPlayer {
                        var: self.var(*var, at, k),
                        who,
                        values,
                    },
                }
            }
            Action::SetNumber { var, at, to } => {
                let (low, high) = self.rules.vars[*var].numbers.unwrap_or_default();
                A::SetNumber {
                    var: self.var(*var, at, k),
                    to: self.num(to, k),
                    low,
                    high,
                }
            }
            Action::Relay(n) => A::Relay(*n),
            Action::RelayFrom(p) => A::RelayFrom(self.place(p, k)),
            Action::RelayGoing(h) => A::RelayGoing(match h {
                Heading::Forward => Direction::Forward,
                // (The checker accepts no other.)
                Heading::Backward | Heading::Left | Heading::Right => Direction::Backward,
            }),
            Action::Again => A::Again,
            Action::AgainFrom(p) => A::AgainFrom(self.place(p, k)),
            Action::Stop => A::Stop,
            Action::Cancel => A::Cancel,
            Action::Forbid => A::Forbid,
            Action::Collect => A::Collect,
            Action::Reset => A::Reset,
            Action::Remove(p) => A::Remove(self.place(p, k)),
            Action::RemoveRegion(r) => A::RemoveRegion(self.region(r, k)),
            Action::Divide { region, odd, into } => A::Divide(
                self.region(region, k),
                self.who(odd, k),
                into.map(|i| self.rules.named_pits[i].pits),
            ),
            Action::Fill { region, to, from } => {
                A::Fill(self.region(region, k), self.num(to, k), self.place(from, k))
            }
            Action::First(w) => A::First(self.who(w, k)),
        }
    }

    /// A rule for a mover (and a known starting pit, for `start` rules).
    pub fn rule(&self, i: usize, mover: Player, origin: Option<u16>) -> CRule {
        self.rule_at(i, mover, origin, None)
    }

    /// A rule for a mover at a stage of the turn.
    pub fn rule_at(
        &self,
        i: usize,
        mover: Player,
        origin: Option<u16>,
        stage: Option<Stage>,
    ) -> CRule {
        self.rule_known(
            i,
            Known {
                origin,
                stage,
                ..Known::mover(mover, None)
            },
        )
    }

    /// A rule for a mover at a stage of the turn, specialised (when given)
    /// for where the last seed landed (`land` rules) or the pit lifted
    /// (`lift` rules).
    pub fn placed_rule(
        &self,
        i: usize,
        mover: Player,
        stage: Stage,
        last: Option<u16>,
        here: Option<u16>,
    ) -> CRule {
        self.rule_known(
            i,
            Known {
                last,
                here,
                stage: Some(stage),
                ..Known::mover(mover, None)
            },
        )
    }

    fn rule_known(&self, i: usize, k: Known) -> CRule {
        let r = &self.rules.rules[i];
        // `captured` counts the seeds the moment's captures have taken so
        // far (see `site::Site::pending`): the stage tells it only where
        // none can have been taken yet, in a `land` rule's condition and in
        // the rules judged of a whole turn (`start`, `turn`).
        let taking = Known {
            stage: k.stage.map(|st| Stage {
                captured: None,
                ..st
            }),
            ..k
        };
        let (when, actions) = match r.moment {
            Moment::Start | Moment::Turn => (k, k),
            Moment::Land | Moment::After | Moment::End | Moment::Scored | Moment::Round => {
                (k, taking)
            }
            Moment::Capture | Moment::Lift | Moment::Drop => (taking, taking),
        };
        // (The checker allows at most `limits::MAX_RULES` rules.)
        CRule::new(
            i as u16,
            self.cond(&r.when, when),
            r.actions.iter().map(|a| self.action(a, actions)).collect(),
        )
    }

    /// A condition for a mover (and the player `player` stands for).
    pub fn cond_for(&self, c: &Cond, mover: Player, each: Option<Player>) -> C {
        self.cond(c, Known::mover(mover, each))
    }

    /// [`Compiler::cond_for`] judged before a turn (an end rule, the
    /// pass), where the mover's legal turns are listed.
    pub fn cond_before_turn(&self, c: &Cond, mover: Player, each: Option<Player>) -> C {
        self.cond(
            c,
            Known {
                listed: true,
                ..Known::mover(mover, each)
            },
        )
    }

    /// A place for a mover.
    pub fn place_for(&self, p: &Place, mover: Player) -> P {
        self.place(p, Known::mover(mover, None))
    }

    /// A number for a mover.
    pub fn num_for(&self, n: &Num, mover: Player) -> N {
        self.num(n, Known::mover(mover, None))
    }

    /// A region for a mover.
    pub fn region_for(&self, r: &Region, mover: Player) -> R {
        self.region(r, Known::mover(mover, None))
    }

    /// A player for a mover (and the player `player` stands for).
    pub fn who_for(&self, w: &Who, mover: Player, each: Option<Player>) -> W {
        self.who(w, Known::mover(mover, each))
    }

    /// The score of one player.
    pub fn score(&self, each: Player) -> N {
        self.num(&self.rules.score, Known::mover(each, Some(each)))
    }

    /// The estimate of one player (`estimate`), or its score.
    pub fn estimate(&self, each: Player) -> N {
        let n = self.rules.estimate.as_ref().unwrap_or(&self.rules.score);
        self.num(n, Known::mover(each, Some(each)))
    }
}

/// The exact result of `x op y` as a linear sum when it is one and cannot
/// overflow, or else the arithmetic as written: numbers saturate at the
/// bounds of an `i64`, operation by operation, whatever form they take.
fn combine(op: ArithOp, x: N, y: N) -> N {
    match (op, x, y) {
        (ArithOp::Add, N::Lin(x), N::Lin(y)) if exact_sum(&x, &y) => N::Lin(x.plus(y)),
        (ArithOp::Sub, N::Lin(x), N::Lin(y)) if exact_sum(&x, &y) => N::Lin(x.plus(y.scaled(-1))),
        (ArithOp::Mul, N::Lin(x), N::Lin(y)) if y.is_const() && exact_scaled(&x, y.k) => {
            N::Lin(x.scaled(y.k))
        }
        (ArithOp::Mul, N::Lin(x), N::Lin(y)) if x.is_const() && exact_scaled(&y, x.k) => {
            N::Lin(y.scaled(x.k))
        }
        (op, N::Lin(x), N::Lin(y)) if x.is_const() && y.is_const() => {
            N::Lin(Lin::constant(op.apply(x.k, y.k)))
        }
        (op, x, y) => N::Arith(op, Box::new(x), Box::new(y)),
    }
}

/// The largest magnitude a number can reach in play, as far as known: a
/// linear sum's, term by term; arithmetic's, the bound of an `i64`.
fn bound(n: &N) -> i128 {
    match n {
        N::Lin(l) => l.bound(),
        N::Arith(..) => i64::MAX as i128,
    }
}

/// `before(N)`: a sum of seeds in places found without reading the
/// board becomes a sum of the seeds they held as the turn began (read
/// straight off that position); anything else is judged on it whole.
fn before(n: N) -> Lin {
    // Places that say where they are without reading the board.
    let fixed = |p: &P| matches!(p, P::Cell(_) | P::Last | P::Origin | P::Lifted | P::Here);
    match n {
        N::Lin(l)
            if l.terms
                .iter()
                .all(|(_, t)| matches!(t, T::Seeds(p) if fixed(p))) =>
        {
            let cells = l
                .cells
                .iter()
                .map(|&(c, cell)| (c, T::BeforeSeeds(P::Cell(cell))));
            let terms = l.terms.into_iter().map(|(c, t)| match t {
                T::Seeds(p) => (c, T::BeforeSeeds(p)),
                other => (c, other),
            });
            Lin {
                k: l.k,
                cells: Vec::new(),
                terms: cells.chain(terms).collect(),
            }
        }
        n => Lin::term(T::Before(Box::new(n))),
    }
}

/// The largest magnitude a term reaches: seeds are at most
/// [`crate::limits::MAX_SEEDS`] in all, a count at most the pits, the
/// counters of a turn at most what its work budget allows.
fn term_bound(t: &T) -> i128 {
    let seeds = crate::limits::MAX_SEEDS as i128;
    match t {
        T::Seeds(_) | T::BeforeSeeds(_) | T::Sum(_) | T::Hand(_) | T::Total => seeds,
        T::Captured => 1 << 57,
        T::Sowings => 1 << 33,
        T::Count(..) => crate::limits::MAX_PITS as i128,
        T::Before(n) => bound(n),
        T::If(_, a, b) => bound(a).max(bound(b)),
        T::SumOver(_, n) => bound(n).saturating_mul(crate::limits::MAX_PITS as i128),
        T::Var(_, low, high) => (*low as i128).abs().max((*high as i128).abs()),
    }
}

impl Lin {
    /// The largest magnitude the sum reaches, or any partial sum of it.
    fn bound(&self) -> i128 {
        let seeds = crate::limits::MAX_SEEDS as i128;
        (self.k as i128).abs()
            + self
                .cells
                .iter()
                .map(|(c, _)| (*c as i128).abs() * seeds)
                .sum::<i128>()
            + self
                .terms
                .iter()
                .map(|(c, t)| (*c as i128).abs() * term_bound(t))
                .sum::<i128>()
    }
}

/// Whether `x ± y` is exact as one linear sum (no partial sum overflows).
fn exact_sum(x: &Lin, y: &Lin) -> bool {
    x.bound() + y.bound() <= i64::MAX as i128
}

/// Whether `x × k` is exact as one linear sum.
fn exact_scaled(x: &Lin, k: i64) -> bool {
    x.bound() * (k as i128).abs() <= i64::MAX as i128
}

/// Whether `l - x` and `h - x` (for a range test on `x`'s seeds) are exact.
fn shifts(x: &Lin, l: &Lin, h: &Lin) -> bool {
    l.k.checked_sub(x.k).is_some() && h.k.checked_sub(x.k).is_some()
}

/// `not c`, a constant folded.
pub(crate) fn negate(c: C) -> C {
    // A comparison is negated by its opposite operator, kept a leaf.
    let flip = |op: CmpOp| match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
    };
    match c {
        C::Const(b) => C::Const(!b),
        C::Not(inner) => *inner,
        C::SeedsCmp(op, p, k) => C::SeedsCmp(flip(op), p, k),
        C::CellLin(op, cell, coef, k) => C::CellLin(flip(op), cell, coef, k),
        C::SumCmp(op, cells, k) => C::SumCmp(flip(op), cells, k),
        C::SpanCmp(op, lo, hi, k) => C::SpanCmp(flip(op), lo, hi, k),
        C::LinCmp(op, l) => C::LinCmp(flip(op), l),
        other => C::Not(Box::new(other)),
    }
}

/// Every part (`and`) or some part (`or`), constants folded: a part that
/// decides the whole ends it, a part that cannot is left out, one part left
/// stands alone.
pub(crate) fn join(and: bool, parts: impl IntoIterator<Item = C>) -> C {
    let (neutral, decisive) = (C::Const(and), C::Const(!and));
    let mut kept = Vec::new();
    for p in parts {
        if p == decisive {
            return decisive;
        }
        if p != neutral {
            kept.push(p);
        }
    }
    match kept.len() {
        0 => neutral,
        1 => kept.pop().expect("one part"),
        _ if and => C::And(kept.into()),
        _ => C::Or(kept.into()),
    }
}

/// `lin op 0` as the cheapest condition that says it.
fn lin_cond(op: CmpOp, d: Lin) -> C {
    match (d.cells.as_slice(), d.terms.as_slice()) {
        ([], []) => C::Const(compare(op, d.k, 0)),
        ([], [(1, T::Seeds(p))]) => C::SeedsCmp(op, p.clone(), -d.k),
        ([(1, c)], []) => C::SeedsCmp(op, P::Cell(*c), -d.k),
        ([(coef, c)], []) => C::CellLin(op, *c, *coef, d.k),
        (cells, []) if cells.iter().all(|(coef, _)| *coef == 1) => {
            let mut cells: Vec<u16> = cells.iter().map(|(_, c)| *c).collect();
            cells.sort_unstable();
            match (cells.first(), cells.last()) {
                (Some(&lo), Some(&hi)) if (hi - lo) as usize + 1 == cells.len() => {
                    C::SpanCmp(op, lo, hi + 1, -d.k)
                }
                _ => C::SumCmp(op, cells.into(), -d.k),
            }
        }
        _ => C::LinCmp(op, d),
    }
}

/// A condition with the game's seed total put in for `total`: the total
/// never changes during a game, so each game binds it once.
pub(crate) fn bind_total(c: &C, total: i64) -> C {
    let fold = |l: &Lin| -> Lin {
        let mut l = l.clone();
        for (coef, t) in std::mem::take(&mut l.terms) {
            match t {
                T::Total => l.k = l.k.saturating_add(coef.saturating_mul(total)),
                other => l.terms.push((coef, other)),
            }
        }
        l
    };
    match c {
        C::Not(inner) => negate(bind_total(inner, total)),
        C::And(v) => join(true, v.iter().map(|c| bind_total(c, total))),
        C::Or(v) => join(false, v.iter().map(|c| bind_total(c, total))),
        C::LinCmp(op, l) => lin_cond(*op, fold(l)),
        other => other.clone(),
    }
}

#[inline]
pub(crate) fn compare(op: CmpOp, x: i64, y: i64) -> bool {
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

/// The values `x` may take for `x op k` to hold, as a closed range (none
/// for `!=`, which is not one range).
pub(crate) fn bounds(op: CmpOp, k: i64) -> Option<(i64, i64)> {
    match op {
        CmpOp::Eq => Some((k, k)),
        CmpOp::Ne => None,
        // (Nothing is less than the least number, or more than the most.)
        CmpOp::Lt => k.checked_sub(1).map(|hi| (i64::MIN, hi)),
        CmpOp::Le => Some((i64::MIN, k)),
        CmpOp::Gt => k.checked_add(1).map(|lo| (lo, i64::MAX)),
        CmpOp::Ge => Some((k, i64::MAX)),
    }
}
