//! Evaluates compiled conditions and numbers against a position, and
//! says what a rule may ask of the look ahead ([`Foresight`]), which the
//! game answers.

use std::cell::Cell;

use super::compiled::{compare, CRule, FirstOf, Lin, Sift, C, N, P, R, T, V, W};
use super::position::Position;
use super::{Engine, NONE};
use crate::ir::{CmpOp, Direction, Player};
use crate::limits::MAX_REGION_CUTS;

/// What a rule may ask of the turns a player could play next, were they
/// to move in the position judged (`has_capture(P)`, `first_captures(P)`,
/// `no_legal_turn(P)`): the game answers by playing them (see
/// `game::lookahead`), so that judging a rule needs no game.
pub(crate) trait Foresight {
    /// Whether `p` would have a legal capturing turn in `pos`.
    fn has_capture(&self, p: Player, pos: &Position) -> bool;
    /// Whether `p` would have a legal turn (a pass aside) in `pos`.
    fn can_move(&self, p: Player, pos: &Position) -> bool;
    /// The pits the first capture of `p`'s capturing turns in `pos` would
    /// empty.
    fn first_captures(&self, p: Player, pos: &Position) -> &[u16];
}

/// What a condition asks of the look ahead.
#[derive(Clone, Copy)]
enum Foreseen {
    /// `has_capture(P)`.
    Capture,
    /// `no_legal_turn(P)`.
    NoTurn,
}

/// What the turn words mean while a condition is judged.
pub(crate) struct Ctx<'a> {
    pub pos: &'a Position,
    /// The position at the start of the turn (`before(…)`).
    pub before: &'a Position,
    pub origin: u16,
    pub last: u16,
    pub here: u16,
    pub no_legal_turn: bool,
    pub repeated: bool,
    /// The turn just played was stopped by `sowings at most N`.
    pub cut: bool,
    /// The end rule that ended the game or the round (an index in the
    /// rules' ends), or [`NONE`].
    pub ended: u16,
    /// The seed just dropped (`here`) is its sowing's last.
    pub last_seed: bool,
    /// Seeds captured so far this turn.
    pub captured: i64,
    /// Sowings so far this turn.
    pub sowings: i64,
    /// The direction of the sowing going on.
    pub dir: Direction,
    /// The pit last lifted to be sown (see [`crate::ir::Place::Lifted`]).
    pub lifted: u16,
    /// The turn's letter and flags.
    pub choice: u8,
    pub flags: u8,
    /// Where to note the flags a condition reads (while a turn is played,
    /// to tell whether a flag changes anything).
    /// (Bits 0–7: the flags read; from bit 32 on: the sowings at which
    /// the per-sowing flag was read.)
    pub asked: Option<&'a Cell<u64>>,
    /// The per-sowing flag's answers (see [`super::Turn::marks`]).
    pub marks: u32,
    /// What the players could play next (at the `after` moment).
    pub look: Option<&'a dyn Foresight>,
    /// Seeds in play, counted the first time a rule asks.
    pub total: Cell<Option<i64>>,
    /// The phase of `before`, where it is known (a turn's, judged once
    /// as it starts).
    pub phase: Option<u16>,
}

impl<'a> Ctx<'a> {
    /// A context on a position (and the position the turn started from).
    #[inline]
    pub(crate) fn new(pos: &'a Position, before: &'a Position, origin: u16, last: u16) -> Ctx<'a> {
        Ctx {
            pos,
            before,
            origin,
            last,
            lifted: origin,
            here: NONE,
            no_legal_turn: false,
            repeated: false,
            cut: false,
            ended: NONE,
            last_seed: false,
            captured: 0,
            sowings: 0,
            dir: Direction::Forward,
            choice: super::Turn::NO_LETTER,
            flags: 0,
            asked: None,
            marks: 0,
            look: None,
            total: Cell::new(None),
            phase: None,
        }
    }
}

/// The seeds of `cells` summed and compared with `k`. Seeds are never
/// negative, so the commonest forms (`== 0`, `> 0`) stop at the first pit
/// that decides them.
#[inline(always)]
pub(crate) fn sum_cmp(op: CmpOp, seeds: &[u32], cells: &[u16], k: i64) -> bool {
    let any = || {
        cells
            .iter()
            .any(|&c| seeds.get(c as usize).is_some_and(|&s| s > 0))
    };
    match (op, k) {
        (CmpOp::Eq | CmpOp::Le, 0) | (CmpOp::Lt, 1) => !any(),
        (CmpOp::Ne | CmpOp::Gt, 0) | (CmpOp::Ge, 1) => any(),
        _ => compare(
            op,
            cells
                .iter()
                .map(|&c| seeds.get(c as usize).map_or(0, |&s| s as i64))
                .sum(),
            k,
        ),
    }
}

/// [`sum_cmp`] for the run of cells `lo..hi`, read straight off the cells.
#[inline(always)]
pub(crate) fn span_cmp(op: CmpOp, seeds: &[u32], lo: u16, hi: u16, k: i64) -> bool {
    let run = seeds.get(lo as usize..hi as usize).unwrap_or_default();
    let any = || run.iter().any(|&s| s > 0);
    match (op, k) {
        (CmpOp::Eq | CmpOp::Le, 0) | (CmpOp::Lt, 1) => !any(),
        (CmpOp::Ne | CmpOp::Gt, 0) | (CmpOp::Ge, 1) => any(),
        _ => compare(op, run.iter().map(|&s| s as i64).sum(), k),
    }
}

/// Whether a cell's bit is set ([`NONE`] never is).
#[inline(always)]
pub(crate) fn has_bit(bits: &[u64], c: u16) -> bool {
    bits.get(c as usize / 64)
        .is_some_and(|w| w >> (c % 64) & 1 == 1)
}

impl Ctx<'_> {
    /// Whether the turn has flag `i`, noting that it was asked.
    #[inline]
    fn flagged(&self, i: u8) -> bool {
        if let Some(a) = self.asked {
            a.set(a.get() | 1 << i);
        }
        self.flags & (1 << i) != 0
    }

    /// Whether the per-sowing flag `i` is answered yes at this sowing,
    /// noting that it was asked there.
    #[inline(never)]
    fn flagged_here(&self, i: u8) -> bool {
        let Some(k) = (self.sowings - 1)
            .try_into()
            .ok()
            .filter(|&k: &u32| k < super::Turn::MARKED_SOWINGS)
        else {
            return false;
        };
        if let Some(a) = self.asked {
            a.set(a.get() | 1 << i | 1 << (32 + k));
        }
        self.marks >> k & 1 == 1
    }
}

impl Engine {
    #[inline]
    pub(crate) fn who(&self, w: &W, f: &Ctx) -> Option<Player> {
        match w {
            W::Is(p) => Some(*p),
            W::OwnerOf(p) => {
                let c = self.place(p, f);
                (c != NONE).then(|| self.board.owner[c as usize])
            }
            W::OwnerNow(p) => {
                let c = self.place(p, f);
                (c != NONE).then(|| self.owner_at(c, f.pos))
            }
            W::Var(slot, named) => {
                let v = f.pos.vars.get(*slot)?;
                named.get(*v as usize).copied().flatten()
            }
            W::Other(w) => self.who(w, f).map(|p| 1 - p),
        }
    }

    /// The owner of cell `c` (not [`NONE`]) in a position: its row's (a
    /// store's player), or with `owner follows VAR` the player the pit's
    /// variable names, where it names one.
    #[inline]
    pub(crate) fn owner_at(&self, c: u16, pos: &Position) -> Player {
        let fixed = self.board.owner[c as usize];
        match self.board.owner_var {
            Some((base, named)) if (c as usize) < self.board.npits => {
                let v = pos.vars[base + c as usize];
                if v == named[0] {
                    0
                } else if v == named[1] {
                    1
                } else {
                    fixed
                }
            }
            _ => fixed,
        }
    }

    /// The cell a place stands for, or [`NONE`].
    #[inline]
    pub(crate) fn place(&self, p: &P, f: &Ctx) -> u16 {
        match p {
            P::Cell(c) => *c,
            P::Last => f.last,
            P::Origin => f.origin,
            P::Lifted => f.lifted,
            P::Behind(inner) => self.board.behind_of(self.place(inner, f)),
            P::Front(inner) => self.board.front_of(self.place(inner, f)),
            P::Across(inner, mover) => self.board.across_of(*mover, self.place(inner, f)),
            P::Here => f.here,
            P::Opposite(inner) => {
                let c = self.place(inner, f);
                if (c as usize) < self.board.npits {
                    self.board.opposite[c as usize]
                } else {
                    NONE
                }
            }
            P::Along(inner, steps, mover) => self.along(inner, *steps, *mover, f),
            P::Ahead(inner, steps, mover) => {
                let steps = match f.dir {
                    Direction::Forward => *steps,
                    Direction::Backward => -*steps,
                };
                self.along(inner, steps, *mover, f)
            }
            P::First(r) => self.first(r, f),
            P::If(c, a, b) => {
                if self.cond(c, f) {
                    self.place(a, f)
                } else {
                    self.place(b, f)
                }
            }
            P::Stepped(inner, steps, mover) => {
                let start = self.place(inner, f);
                // (A track is a ring: the steps are taken round it.)
                let len = self.board.cycle[*mover as usize & 1].len().max(1) as i64;
                let steps = self.num(steps, f) % len;
                self.board.along(*mover, start, steps as i32)
            }
            P::StoreOf(w) => self
                .who(w, f)
                .map_or(NONE, |p| (self.board.npits + p as usize) as u16),
            P::NamedOf(i, w) => self
                .who(w, f)
                .map_or(NONE, |p| self.rules.named_pits[*i].pits[p as usize]),
        }
    }

    /// `first(REGION)` of a region known only as the turn goes.
    #[inline(never)]
    fn first(&self, r: &R, f: &Ctx) -> u16 {
        self.pits(r, f).next().unwrap_or(NONE)
    }

    /// `next(…)`, `prev(…)` of a place known only as the turn goes.
    #[inline(never)]
    fn along(&self, p: &P, steps: i32, mover: Player, f: &Ctx) -> u16 {
        let start = self.place(p, f);
        match &self.plan[mover as usize & 1].walk_skip {
            None => self.board.along(mover, start, steps),
            Some(skip) => self.along_sown(start, steps, mover, skip, f),
        }
    }

    /// [`Engine::along`] where a sowing passes over the places `skip`
    /// holds for (`skip when`): each step goes on to the next place a seed
    /// would fall into now; none where every place is passed over.
    #[inline(never)]
    fn along_sown(&self, start: u16, steps: i32, mover: Player, skip: &C, f: &Ctx) -> u16 {
        let Some(table) = self.board.steps_from(mover, start, steps) else {
            return NONE;
        };
        let skipped = |c: u16| {
            let g = Ctx {
                here: c,
                total: Cell::new(f.total.get()),
                ..*f
            };
            self.cond(skip, &g)
        };
        let len = self.board.cycle[mover as usize & 1].len();
        let n = steps.unsigned_abs() as usize;
        // From a place sown into, fewer steps than a lap: step by step, the
        // walk never passing the start again (the start is not skipped).
        if n < len && !skipped(start) {
            let mut c = start;
            for _ in 0..n {
                c = table[c as usize];
                while skipped(c) {
                    c = table[c as usize];
                }
            }
            return c;
        }
        // Else the places a seed can fall into: round the ring once,
        // counted, so that steps past a lap come back round.
        let mut open = 0;
        let mut c = start;
        for _ in 0..len {
            c = table[c as usize];
            open += !skipped(c) as usize;
        }
        if open == 0 {
            return NONE;
        }
        let mut c = start;
        for _ in 0..n % open {
            c = table[c as usize];
            while skipped(c) {
                c = table[c as usize];
            }
        }
        if steps != 0 && n.is_multiple_of(open) {
            // A whole number of laps: back where it started, unless that
            // place is passed over.
            while skipped(c) {
                c = table[c as usize];
            }
        }
        c
    }

    /// The slot a variable's instance stands for, or `usize::MAX`.
    pub(crate) fn slot(&self, v: &V, f: &Ctx) -> usize {
        match v {
            V::Slot(s) => *s,
            V::PlayerOf(base, w) => self.who(w, f).map_or(usize::MAX, |p| base + p as usize),
            V::PitOf(base, p) => {
                let c = self.place(p, f);
                if (c as usize) < self.board.npits {
                    base + c as usize
                } else {
                    usize::MAX
                }
            }
            // Many slots: see `Engine::slots`.
            V::PitsOf(..) => usize::MAX,
        }
    }

    /// Adds every slot a variable's instance stands for (several for a
    /// region's pits) to `out`, each with `value`.
    pub(crate) fn slots(&self, v: &V, f: &Ctx, value: u32, out: &mut Vec<(usize, u32)>) {
        match v {
            V::PitsOf(base, r) => match self.pits(r, f) {
                // (A slice's own extend, for the common unfiltered region.)
                Pits::All(cells) => out.extend(cells.map(|&c| (base + c as usize, value))),
                filtered => out.extend(filtered.map(|c| (base + c as usize, value))),
            },
            other => out.push((self.slot(other, f), value)),
        }
    }

    /// The pits of a region, in the order it lists them.
    #[inline(always)]
    pub(crate) fn pits<'r>(&'r self, r: &'r R, f: &Ctx<'r>) -> Pits<'r> {
        match r {
            R::Where(base, sifts) => self.pits_where(base, sifts, f),
            all @ (R::Cells(_)
            | R::FirstCaptures(_)
            | R::SideOf(_)
            | R::NamedOf(..)
            | R::Path(..)) => Pits::All(self.region(all, f).iter()),
        }
    }

    /// The pits of a filtered region (see [`Pits::Where`]).
    #[inline(never)]
    fn pits_where<'r>(&'r self, base: &'r R, sifts: &'r [Sift], f: &Ctx<'r>) -> Pits<'r> {
        // Each cut's count, worked out on the position as the walk begins.
        let mut left = [0; MAX_REGION_CUTS];
        let cuts = sifts.iter().filter_map(|s| match s {
            Sift::First(n) => Some(n),
            Sift::Keep(_) => None,
        });
        for (slot, n) in left.iter_mut().zip(cuts) {
            *slot = self.num(n, f).max(0) as usize;
        }
        Pits::Where(Filter {
            engine: self,
            cells: self.region(base, f).iter(),
            sifts,
            left,
            at: Ctx {
                total: Cell::new(f.total.get()),
                ..*f
            },
        })
    }

    /// What the look ahead says of `w`'s next turns (false where there is
    /// no look ahead). Out of line and cold: few variants look ahead.
    #[cold]
    #[inline(never)]
    fn foresees(&self, w: &W, f: &Ctx, what: Foreseen) -> bool {
        match (f.look, self.who(w, f)) {
            (Some(look), Some(p)) => match what {
                Foreseen::Capture => look.has_capture(p, f.pos),
                Foreseen::NoTurn => !look.can_move(p, f.pos),
            },
            _ => false,
        }
    }

    /// The pits the first capture of `w`'s capturing turns would empty
    /// (none where there is no look ahead); cold, as [`Engine::foresees`].
    #[cold]
    #[inline(never)]
    fn first_captures<'r>(&self, w: &W, f: &Ctx<'r>) -> &'r [u16] {
        match (f.look, self.who(w, f)) {
            (Some(look), Some(p)) => look.first_captures(p, f.pos),
            _ => &[],
        }
    }

    /// The pits of a region that is not filtered (a filter's condition is
    /// judged by [`Pits`]).
    fn region<'r>(&'r self, r: &'r R, f: &Ctx<'r>) -> &'r [u16] {
        match r {
            R::Cells(c) => c,
            R::FirstCaptures(w) => self.first_captures(w, f),
            R::SideOf(w) => self
                .who(w, f)
                .map_or(&[], |p| &self.board.sides[p as usize]),
            R::NamedOf(i, w) => self
                .who(w, f)
                .map_or(&[], |p| &self.rules.regions[*i].pits[p as usize]),
            R::Path(a, b, mover) => {
                let dir = match f.dir {
                    Direction::Forward => 0,
                    Direction::Backward => 1,
                };
                self.board.rings[*mover as usize & 1][dir]
                    .span(self.place(a, f), self.place(b, f))
                    .unwrap_or(&[])
            }
            // (Compiled on a region never itself filtered.)
            R::Where(..) => &[],
        }
    }

    #[inline]
    fn seeds(f: &Ctx, c: u16) -> i64 {
        f.pos.cells.get(c as usize).map_or(0, |&s| s as i64)
    }

    pub(crate) fn num(&self, n: &N, f: &Ctx) -> i64 {
        match n {
            N::Lin(l) => self.lin(l, f),
            N::Arith(op, a, b) => op.apply(self.num(a, f), self.num(b, f)),
        }
    }

    #[inline]
    fn lin(&self, l: &Lin, f: &Ctx) -> i64 {
        // No partial sum overflows: a linear sum is built only where its
        // bound fits an i64 (see `compiled::combine`).
        let mut sum = l.k;
        for &(c, cell) in &l.cells {
            sum = sum.wrapping_add(c.wrapping_mul(f.pos.cells[cell as usize] as i64));
        }
        for (c, t) in &l.terms {
            let v = match (t, f.total.get()) {
                (T::Total, Some(total)) => total,
                (T::Hand(W::Is(p)), _) => f.pos.hands[*p as usize & 1] as i64,
                (T::Captured, _) => f.captured,
                (T::Sowings, _) => f.sowings,
                _ => self.term(t, f),
            };
            sum = sum.wrapping_add(c.wrapping_mul(v));
        }
        sum
    }

    #[inline(never)]
    fn term(&self, t: &T, f: &Ctx) -> i64 {
        match t {
            T::Seeds(p) => Self::seeds(f, self.place(p, f)),
            T::BeforeSeeds(p) => {
                let c = self.place(p, f);
                f.before.cells.get(c as usize).map_or(0, |&s| s as i64)
            }
            T::Sum(r) => self
                .pits(r, f)
                .map(|c| f.pos.cells[c as usize] as i64)
                .sum(),
            T::Captured => f.captured,
            T::Sowings => f.sowings,
            // The common count, pits holding so many seeds, judged directly.
            T::Count(r, c) if matches!(**c, C::SeedsCmp(_, P::Here, _)) => {
                let C::SeedsCmp(op, _, k) = **c else {
                    return 0;
                };
                self.pits(r, f)
                    .filter(|&cell| compare(op, Self::seeds(f, cell), k))
                    .count() as i64
            }
            T::Count(r, c) => {
                let mut g = Ctx {
                    total: Cell::new(f.total.get()),
                    ..*f
                };
                let mut n = 0;
                for cell in self.pits(r, f) {
                    g.here = cell;
                    n += self.cond(c, &g) as i64;
                }
                n
            }
            T::Hand(w) => self.who(w, f).map_or(0, |p| f.pos.hands[p as usize] as i64),
            T::Total => match f.total.get() {
                Some(t) => t,
                None => {
                    // The seeds in play now, counted once for this context.
                    let t = f.pos.total() as i64;
                    f.total.set(Some(t));
                    t
                }
            },
            T::If(c, a, b) => {
                if self.cond(c, f) {
                    self.num(a, f)
                } else {
                    self.num(b, f)
                }
            }
            T::SumOver(r, n) => {
                let mut g = Ctx {
                    total: Cell::new(f.total.get()),
                    ..*f
                };
                let mut sum: i64 = 0;
                for cell in self.pits(r, f) {
                    g.here = cell;
                    sum = sum.saturating_add(self.num(n, &g));
                }
                sum
            }
            T::Var(v, low, _) => {
                let slot = self.slot(v, f);
                low + f.pos.vars.get(slot).map_or(0, |&x| x as i64)
            }
            T::Before(inner) => {
                let g = Ctx {
                    pos: f.before,
                    total: Cell::new(f.total.get()),
                    ..*f
                };
                self.num(inner, &g)
            }
        }
    }

    /// The first rule of a list that holds. A run of rules beginning with
    /// the same parts is skipped at once when those parts fail, and judged
    /// on the rest of each when they hold. What was judged is added to
    /// `judged` (a rule's condition at most, a run passed over its shared
    /// parts): a turn's work counts the rules it judges, not every rule
    /// it might have.
    #[inline(always)]
    pub(crate) fn first_of<'r>(
        &self,
        list: &'r FirstOf,
        f: &Ctx,
        judged: &mut u64,
    ) -> Option<&'r CRule> {
        let all = |parts: &[C]| self.all_hold(parts, f);
        // Rules before `known` share `known_len` leading parts that hold.
        let (mut known, mut known_len) = (0, 0);
        let mut i = 0;
        while let Some(r) = list.rules.get(i) {
            let (m, run) = list.shared[i];
            let holds = match &r.when {
                C::And(v) if i < known => all(&v[known_len..]),
                C::And(v) if m > 0 => {
                    if !all(&v[..m]) {
                        // (The run passed over costs its shared parts.)
                        *judged += list.prefix_cost[i];
                        i += 1 + run;
                        continue;
                    }
                    (known, known_len) = (i + 1 + run, m);
                    all(&v[m..])
                }
                c => self.cond(c, f),
            };
            *judged += r.judge_cost;
            if holds {
                return Some(r);
            }
            i += 1;
        }
        None
    }

    /// Whether every one of `parts` holds.
    #[inline(always)]
    fn all_hold(&self, parts: &[C], f: &Ctx) -> bool {
        for c in parts {
            if !self.cond(c, f) {
                return false;
            }
        }
        true
    }

    /// Judges a condition. The leaves rules use most are judged inline,
    /// the rest (and `and`, `or` of them) in [`Engine::cond_general`].
    #[inline(always)]
    pub(crate) fn cond(&self, c: &C, f: &Ctx) -> bool {
        match self.leaf(c, f) {
            Some(b) => b,
            None => self.cond_general(c, f),
        }
    }

    /// The common leaves of a condition, or `None` for the others.
    #[inline(always)]
    fn leaf(&self, c: &C, f: &Ctx) -> Option<bool> {
        Some(match c {
            C::Const(b) => *b,
            C::SeedsCmp(op, P::Cell(cell), k) => compare(*op, Self::seeds(f, *cell), *k),
            C::SeedsCmp(op, P::Last, k) => compare(*op, Self::seeds(f, f.last), *k),
            C::CellLin(op, cell, coef, k) => compare(
                *op,
                coef.wrapping_mul(Self::seeds(f, *cell)).wrapping_add(*k),
                0,
            ),
            C::SumCmp(op, cells, k) => sum_cmp(*op, &f.pos.cells, cells, *k),
            C::SpanCmp(op, lo, hi, k) => span_cmp(*op, &f.pos.cells, *lo, *hi, *k),
            C::SeedsIn(P::Last, lo, hi) => (*lo..=*hi).contains(&Self::seeds(f, f.last)),
            C::SeedsIn(P::Here, lo, hi) => (*lo..=*hi).contains(&Self::seeds(f, f.here)),
            C::InCells(P::Last, bits) => has_bit(bits, f.last),
            C::VarIs(V::Slot(slot), value) => f.pos.vars.get(*slot) == Some(value),
            C::VarIs(V::PitOf(base, P::Last), value) => {
                (f.last as usize) < self.board.npits
                    && f.pos.vars.get(base + f.last as usize) == Some(value)
            }
            C::InCells(P::Here, bits) => has_bit(bits, f.here),
            C::OwnerIs(P::Last, pl) => self.board.owner.get(f.last as usize) == Some(pl),
            C::OwnerIs(P::Here, pl) => self.board.owner.get(f.here as usize) == Some(pl),
            C::NoLegalTurn => f.no_legal_turn,
            C::Repeated => f.repeated,
            C::Cut => f.cut,
            C::LastSeed => f.last_seed,
            C::Going(d) => f.dir == *d,
            C::Chose(i) => f.choice == *i,
            C::Flagged(i) => f.flagged(*i),
            C::FlaggedHere(i) => f.flagged_here(*i),
            _ => return None,
        })
    }

    #[inline(never)]
    fn cond_general(&self, c: &C, f: &Ctx) -> bool {
        match c {
            C::Const(b) => *b,
            C::SeedsCmp(op, p, k) => compare(*op, Self::seeds(f, self.place(p, f)), *k),
            C::SeedsIn(p, lo, hi) => {
                let x = Self::seeds(f, self.place(p, f));
                *lo <= x && x <= *hi
            }
            C::OwnerIs(p, pl) => {
                let c = self.place(p, f);
                c != NONE && self.board.owner[c as usize] == *pl
            }
            C::OwnerNow(p, pl) => {
                let c = self.place(p, f);
                c != NONE && self.owner_at(c, f.pos) == *pl
            }
            C::Not(inner) => !self.cond(inner, f),
            C::And(v) => v.iter().all(|c| self.cond(c, f)),
            C::Or(v) => v.iter().any(|c| self.cond(c, f)),
            C::LinCmp(op, l) => compare(*op, self.lin(l, f), 0),
            C::CellLin(op, cell, coef, k) => compare(
                *op,
                coef.wrapping_mul(Self::seeds(f, *cell)).wrapping_add(*k),
                0,
            ),
            C::SumCmp(op, cells, k) => sum_cmp(*op, &f.pos.cells, cells, *k),
            C::SpanCmp(op, lo, hi, k) => span_cmp(*op, &f.pos.cells, *lo, *hi, *k),
            C::Cmp(op, a, b) => compare(*op, self.num(a, f), self.num(b, f)),
            C::Range(n, lo, hi) => {
                let x = self.num(n, f);
                self.num(lo, f) <= x && x <= self.num(hi, f)
            }
            C::SamePlace(a, b) => {
                let x = self.place(a, f);
                x != NONE && x == self.place(b, f)
            }
            C::SamePlayer(a, b) => match (self.who(a, f), self.who(b, f)) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            },
            C::In(p, r) => {
                let x = self.place(p, f);
                x != NONE && self.pits(r, f).any(|c| c == x)
            }
            C::InCells(p, bits) => has_bit(bits, self.place(p, f)),
            C::VarIs(V::PitsOf(base, r), value) => {
                // Some pit of the region holds the value.
                self.pits(r, f)
                    .any(|c| f.pos.vars.get(base + c as usize) == Some(value))
            }
            C::VarIs(v, value) => {
                let slot = self.slot(v, f);
                slot != usize::MAX && f.pos.vars.get(slot) == Some(value)
            }
            C::HasCapture(w) => self.foresees(w, f, Foreseen::Capture),
            C::NoLegalTurnOf(w) => self.foresees(w, f, Foreseen::NoTurn),
            C::NoLegalTurn => f.no_legal_turn,
            C::Repeated => f.repeated,
            C::Cut => f.cut,
            C::Ended(i) => f.ended == *i,
            C::LastSeed => f.last_seed,
            C::Going(d) => f.dir == *d,
            C::Chose(i) => f.choice == *i,
            C::Flagged(i) => f.flagged(*i),
            C::FlaggedHere(i) => f.flagged_here(*i),
            // The phase is the game's at the start of the turn, all through
            // the turn.
            C::InPhase(i) => match f.phase {
                Some(p) => p as usize == *i,
                None => self.phase(f.before) == Some(*i),
            },
        }
    }
}

/// The pits of a region: a slice of cells, or (`pits(REGION, C)`) those
/// of them for which a condition holds (`here`).
pub(crate) enum Pits<'r> {
    All(std::slice::Iter<'r, u16>),
    Where(Filter<'r>),
}

impl Filter<'_> {
    /// The next pit that passes every sift.
    #[inline(never)]
    fn next(&mut self) -> Option<u16> {
        if let [Sift::Keep(only)] = self.sifts {
            // The common filter of one condition.
            loop {
                let c = *self.cells.next()?;
                self.at.here = c;
                if self.engine.cond(only, &self.at) {
                    return Some(c);
                }
            }
        }
        'pits: loop {
            let c = *self.cells.next()?;
            self.at.here = c;
            let mut cut = 0;
            for sift in self.sifts {
                match sift {
                    Sift::Keep(only) => {
                        if !self.engine.cond(only, &self.at) {
                            continue 'pits;
                        }
                    }
                    Sift::First(_) => {
                        match self.left.get_mut(cut) {
                            // A cut that has let its N through lets no
                            // later pit through: the walk is over.
                            Some(0) | None => return None,
                            Some(left) => *left -= 1,
                        }
                        cut += 1;
                    }
                }
            }
            return Some(c);
        }
    }
}

/// A filtered region's pits, judged one by one.
pub(crate) struct Filter<'r> {
    engine: &'r Engine,
    cells: std::slice::Iter<'r, u16>,
    /// What each pit must pass, in order.
    sifts: &'r [Sift],
    /// How many pits each cut (`Sift::First`) lets through yet.
    left: [usize; MAX_REGION_CUTS],
    /// The context the conditions are judged in, `here` each pit.
    at: Ctx<'r>,
}

impl Iterator for Pits<'_> {
    type Item = u16;

    #[inline(always)]
    fn next(&mut self) -> Option<u16> {
        match self {
            Pits::All(cells) => cells.next().copied(),
            Pits::Where(w) => w.next(),
        }
    }

    // Going over every pit (a sum, a count, an extend) runs the slice's
    // own loop when the region is not filtered.
    #[inline(always)]
    fn fold<B, F: FnMut(B, u16) -> B>(self, init: B, mut f: F) -> B {
        match self {
            Pits::All(cells) => cells.fold(init, |acc, &c| f(acc, c)),
            Pits::Where(mut w) => {
                let mut acc = init;
                while let Some(c) = w.next() {
                    acc = f(acc, c);
                }
                acc
            }
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Pits::All(cells) => cells.size_hint(),
            Pits::Where(w) => (0, w.cells.size_hint().1),
        }
    }
}
