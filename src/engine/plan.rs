//! The rules compiled into the plan one player plays by: the pits that
//! may start a turn (with their `start` rules, for each phase), the `land`,
//! `capture` and `lift` rules specialised for each stage of a turn and
//! each pit, the `turn` rules (with what they say of a turn that captures
//! nothing), the `after` and `end` rules, phases, marks and end rules.

use super::board::Board;
use super::compiled::{self, CRule, Compiler, OnTurn, A, C, W};
use super::{eval, Engine, NONE};
use crate::ir::visit::{Node, Root};
use crate::ir::{Decision, Direction, Keep, Moment, Player, Rules};
use crate::limits::MAX_COMPILED;

/// The most rule lists specialised for a pit (stages × cells); a larger
/// game judges its stage's lists as they are.
const MAX_PIT_LISTS: usize = 4096;

/// The rules specialised for one stage of a turn.
#[derive(Debug)]
pub(crate) struct Staged {
    pub land: compiled::FirstOf,
    /// `land` specialised further for each cell the last seed can land in
    /// (empty past [`MAX_PIT_LISTS`]).
    pub landing: Vec<compiled::FirstOf>,
    pub capture: Vec<CRule>,
    pub lift: Vec<CRule>,
    /// `lift` specialised for each cell lifted, likewise.
    pub lifting: Vec<Vec<CRule>>,
    /// A turn in this stage has captured nothing and never will: no rule
    /// of the stage captures, the stage lasts while nothing is captured,
    /// and no rule it meets reads a flag. See [`Plan::settled`].
    pub settled: bool,
}

impl Staged {
    /// No rule met in the stage (its `land` and `lift` rules, and the
    /// `drop` rules judged at every seed) captures or reads a flag.
    pub(crate) fn quiet(&self, drop: &[CRule]) -> bool {
        let met = || {
            std::iter::once(&self.land)
                .chain(&self.landing)
                .flat_map(|f| &f.rules)
                .chain(&self.lift)
                .chain(self.lifting.iter().flatten())
                .chain(drop)
        };
        let captures = |r: &CRule| {
            r.actions
                .iter()
                .any(|a| matches!(a, A::Capture { .. } | A::CaptureRegion { .. }))
        };
        !met().any(|r| captures(r) || compiled::reads_flag(&r.when))
    }
}

/// The rules as one player plays them.
#[derive(Debug)]
pub(crate) struct Plan {
    /// The pits that may start a turn, in the order turns are listed
    /// (labels in natural order), each with the `start` rules specialised
    /// for it. A pit whose rules can never allow it is left out. One list
    /// for each phase (see [`Engine::phase_slot`]).
    pub candidates: Vec<Vec<Candidate>>,
    /// For each phase, the `prefer` actions of the `start` rules that may
    /// hold for some pit (the rule's index and the action's), in file order.
    pub start_prefers: Vec<Vec<(usize, usize)>>,
    pub land: compiled::FirstOf,
    pub capture: Vec<CRule>,
    /// The `land`, `capture` and `lift` rules specialised for each stage of
    /// a turn (see [`Engine::stage`]); empty when there are too many stages.
    pub stages: Vec<Staged>,
    /// The `turn` rules, one list for each phase (see [`Engine::phase_slot`]).
    pub turn: Vec<Vec<CRule>>,
    /// For each of them, whether its condition reads nothing of where a
    /// turn starts (see [`compiled::reads_start`]): it is judged once for
    /// all the turns of a position.
    pub turn_fixed: Vec<Vec<bool>>,
    /// What each action of the `turn` rules says of a turn known only to
    /// capture nothing (`None`: that is not enough to tell), for each phase.
    /// When a `prefer` of a phase rejects such turns, the turns tried there
    /// stop once settled (see [`Staged::settled`]); they are played out in
    /// full only when the rules cannot leave them out without.
    pub settled: Vec<Vec<Vec<Option<bool>>>>,
    /// For each phase: some `prefer` rejects a turn that captures nothing.
    pub lazy: Vec<bool>,
    pub after: Vec<CRule>,
    pub lift: Vec<CRule>,
    /// The rules judged at each seed dropped (`at drop`).
    pub drop: Vec<CRule>,
    /// Places a sowing passes over (`skip when C`, `here` the place).
    pub skip_when: Option<C>,
    /// The seeds each place takes (`drop N`, `here` the place); `None`:
    /// one.
    pub per_place: Option<compiled::N>,
    /// Places a capture chain and `next`/`prev` pass over: those of
    /// `skip_when`, unless only the sowing skips them (`skip sowing when`).
    pub walk_skip: Option<C>,
    pub at_end: Vec<CRule>,
    /// The entry from the hand: seeds, and the phase it belongs to (every
    /// phase when none).
    pub entry: Option<(u32, Option<usize>)>,
    /// Some end rule is judged during turns.
    pub ends_at_once: bool,
    /// Each phase's own condition.
    pub phases: Vec<C>,
    /// The text board's marks.
    pub marks: Vec<(String, C)>,
    pub ends: Vec<CEnd>,
    /// With at most 64 ends: for each cell, the ends judged during a turn
    /// that seeds leaving it may make hold (a bit for each, see
    /// [`CEnd::may_hold`]); empty with more ends.
    pub ends_freed: Vec<u64>,
    /// The same, a bit for each end judged during a turn.
    pub ends_at_once_bits: u64,
    /// The lines of the sowing's direction, judged for a turn's starting
    /// pit.
    pub ways: Ways,
    /// The seeds a lifted pit keeps, and where (`leave N when C`).
    pub leave: Option<(Kept, C)>,
    /// Where the mover may pass (`pass when C`).
    pub pass: Option<C>,
    /// In a match (`match ends when C`): whether it is over once a round
    /// has ended, judged with the mover of the end rule that ended it.
    pub match_over: Option<C>,
    /// The rules that keep a match's tally once a round is scored.
    pub scored: Vec<CRule>,
    /// The rules that set up the next round of a match.
    pub round: Vec<CRule>,
    /// Turns sown from the store: the mover's store, and the place the
    /// first seed goes into (`enter any from store into PLACE`).
    pub from_store: Option<(u16, compiled::P)>,
    /// Turns that put held seeds into a pit (`put … into …`).
    pub put: Option<Put>,
    /// Turns that take a pit's seeds out of the game (`take … from …`).
    pub take: Option<Taking>,
}

/// Turns that take a pit's seeds out of the game, compiled for a mover
/// (see [`crate::ir::Taking`]).
#[derive(Debug)]
pub(crate) struct Taking {
    /// How many seeds, judged for the pit (`here`); `None`: all it holds.
    pub seeds: Option<compiled::N>,
    /// The pits that may be taken from, in order.
    pub from: compiled::R,
    /// Where the seeds go (`here` the pit); `None`: out of the game, or
    /// into a pit chosen.
    pub to: Option<compiled::P>,
    /// The pits the mover may move them into instead (`origin` the pit).
    pub into: Option<compiled::R>,
    /// Which of them may (`here`).
    pub when: C,
}

/// Turns that put held seeds into a pit, compiled for a mover (see
/// [`crate::ir::Put`]).
#[derive(Debug)]
pub(crate) struct Put {
    /// How many seeds, judged for the pit (`here`): the fewest, where
    /// the mover chooses how many.
    pub seeds: compiled::N,
    /// The most, where the mover chooses how many.
    pub upto: Option<compiled::N>,
    /// Where they come from: the mover's hand, or this cell (the store).
    pub from: Option<u16>,
    /// The pits that may take them, in order.
    pub into: compiled::R,
    /// Which of them may (`here`).
    pub when: C,
}

#[derive(Debug)]
pub(crate) struct Candidate {
    pub pit: u16,
    /// Every `require` of the `start` rules, folded into one condition.
    pub allowed: C,
    /// The same, where it only bounds the seeds in one cell (as
    /// `seeds(origin) > 0` does): the cell and the least and most seeds
    /// allowed, judged without dispatching on a comparison.
    pub seeds_within: Option<(u16, i64, i64)>,
    /// The same in two, where the turn's letter is chosen: the parts that
    /// do not read the letter (judged once for the pit), and those that do
    /// (judged for each letter).
    pub unlettered: C,
    pub lettered: C,
    /// The `start` rules, for their preferences (one list shared by every
    /// pit when they are not specialised for each).
    pub start: std::sync::Arc<[CRule]>,
}

impl Candidate {
    fn new(pit: u16, allowed: C, start: std::sync::Arc<[CRule]>) -> Candidate {
        let parts = match &allowed {
            C::And(parts) => parts.to_vec(),
            other => vec![other.clone()],
        };
        let (lettered, unlettered): (Vec<C>, Vec<C>) =
            parts.into_iter().partition(compiled::reads_choice);
        let seeds_within = if let C::SeedsCmp(op, compiled::P::Cell(cell), k) = &allowed {
            compiled::bounds(*op, *k).map(|(lo, hi)| (*cell, lo, hi))
        } else {
            None
        };
        Candidate {
            pit,
            seeds_within,
            allowed,
            unlettered: compiled::join(true, unlettered),
            lettered: compiled::join(true, lettered),
            start,
        }
    }
}

/// The seeds a lifted pit keeps (`leave`): a number fixed when the rules
/// are read (`u32::MAX`: all), or one judged for the pit (`here`).
#[derive(Debug, Clone)]
pub(crate) enum Kept {
    Fixed(u32),
    Judged(compiled::N),
}

/// The sowing's direction for a mover (`None`: chosen by a letter).
#[derive(Debug)]
pub(crate) enum Ways {
    /// The same for every turn (one line, or one that always holds).
    Always(Option<Direction>),
    /// The first line that holds for the starting pit.
    ByPit(Vec<(C, Option<Direction>)>),
}

/// An end rule compiled for a mover (and, for a rule about `player`, one
/// player).
#[derive(Debug, Clone)]
pub(crate) struct CEnd {
    /// Its index in the rules' ends.
    pub end: usize,
    pub when: C,
    /// The winner it names (`loser P`: the other), or a draw (`None`).
    pub result: Option<Option<(bool, W)>>,
    pub at_once: bool,
    /// The cells the condition needs empty, if it does (see
    /// [`compiled::needs_empty`]): judged during a turn only when seeds
    /// have left one of them since it was last found false.
    pub empty: Option<Box<[u64]>>,
    /// What judging it costs (see [`compiled::cost`]).
    pub cost: u64,
}

impl CEnd {
    /// Whether the rule holds, when it reads seeds in fixed cells only (a
    /// row empty, say): judged straight off the cells.
    #[inline(always)]
    pub(crate) fn seeds_only(&self, cells: &[u32]) -> Option<bool> {
        match &self.when {
            C::SpanCmp(op, lo, hi, k) => Some(eval::span_cmp(*op, cells, *lo, *hi, *k)),
            C::SumCmp(op, run, k) => Some(eval::sum_cmp(*op, cells, run, *k)),
            _ => None,
        }
    }

    /// Whether the rule may hold during a turn now, when it did not before
    /// seeds were lifted from `lifted` ([`NONE`]: from anywhere). A cell it
    /// needs empty that holds seeds (the last sown, say) says it does not.
    #[inline]
    pub(crate) fn may_hold(&self, lifted: u16, last: u16, cells: &[u32]) -> bool {
        let Some(bits) = &self.empty else {
            return true;
        };
        let has = |c: u16| eval::has_bit(bits, c);
        (lifted == NONE || has(lifted)) && !(has(last) && cells.get(last as usize) > Some(&0))
    }

    /// What this rule decides, judged in a context: `Some(Some(p))` p
    /// wins, `Some(None)` a draw, `None` the score decides (the rule names
    /// no result, or a player that is none here).
    pub(crate) fn decided(&self, e: &Engine, f: &eval::Ctx) -> Option<Option<Player>> {
        let Some((wins, w)) = self.result.as_ref()? else {
            return Some(None);
        };
        let p = e.who(w, f)?;
        Some(Some(if *wins { p } else { 1 - p }))
    }
}

/// Each mover's end rules.
pub(crate) type BoundEnds = [Vec<CEnd>; 2];

/// The indices of the rules judged at a moment, in file order.
fn rules_at(rules: &Rules, m: Moment) -> Vec<usize> {
    (0..rules.rules.len())
        .filter(|&i| rules.rules[i].moment == m)
        .collect()
}

/// The ends judged during a turn, a bit for each, and for each of
/// `cells` those that seeds leaving it may make hold (see
/// [`Plan::ends_freed`]); none with more than 64 ends.
fn ends_freed(ends: &[CEnd], cells: usize) -> (u64, Vec<u64>) {
    if ends.len() > 64 {
        return (0, Vec::new());
    }
    let mut all = 0;
    let mut freed = vec![0u64; cells];
    for (i, e) in ends.iter().enumerate().filter(|(_, e)| e.at_once) {
        all |= 1 << i;
        for (c, bits) in freed.iter_mut().enumerate() {
            if e.empty.as_ref().is_none_or(|b| eval::has_bit(b, c as u16)) {
                *bits |= 1 << i;
            }
        }
    }
    (all, freed)
}

/// The `prefer` actions of the `start` rules that may hold for some of
/// `candidates` (see [`Plan::start_prefers`]).
fn start_prefers(candidates: &[Candidate]) -> Vec<(usize, usize)> {
    let n_start = candidates.first().map_or(0, |c| c.start.len());
    let mut prefers = Vec::new();
    for ri in 0..n_start {
        for ai in 0..candidates[0].start[ri].actions.len() {
            let may_hold = candidates.iter().any(|c| {
                let r = &c.start[ri];
                r.when != C::Const(false)
                    && matches!(&r.actions[ai], A::Prefer(p) if *p != C::Const(false))
            });
            if may_hold {
                prefers.push((ri, ai));
            }
        }
    }
    prefers
}

/// How many phases, values of `sowings` and of `captured` the rules tell
/// apart, when there are few enough stages (and rules) to compile the
/// rules for each; `None` otherwise.
pub(crate) fn stage_dims(rules: &Rules, counter_caps: (i64, i64)) -> Option<(i64, i64, i64)> {
    // (Within the compiling budget: a variant of many rules is
    // specialised less.)
    let sown_rules = [Moment::Land, Moment::Lift, Moment::Capture]
        .into_iter()
        .map(|m| rules_at(rules, m).len())
        .sum::<usize>();
    let phases = rules.phases.len().max(1) as i64;
    let (s, c) = (counter_caps.0 + 1, counter_caps.1 + 2);
    let stages = phases.saturating_mul(s).saturating_mul(c);
    (stages <= 64 && sown_rules * stages as usize <= MAX_COMPILED).then_some((phases, s, c))
}

impl Plan {
    /// The rules as `mover` plays them, staged by `stage_dims`.
    pub(crate) fn compile(
        rules: &Rules,
        board: &Board,
        compiler: &Compiler,
        mover: Player,
        stage_dims: Option<(i64, i64, i64)>,
    ) -> Plan {
        let at = |m: Moment| rules_at(rules, m);
        let (move_order, next, cells) = (&board.move_order, &board.next, board.npits + 2);
        let npits = board.npits;
        let sown_rules =
            at(Moment::Land).len() + at(Moment::Lift).len() + at(Moment::Capture).len();
        // Start rules specialised for each pit (and phase), when few enough.
        let start_per_pit =
            at(Moment::Start).len() * npits * (rules.phases.len() + 1) <= MAX_COMPILED;
        let rules_at = |m: Moment| {
            at(m)
                .into_iter()
                .map(|i| compiler.rule(i, mover, None))
                .collect::<Vec<_>>()
        };
        // The rules judged before a turn is played, for each phase the
        // position can be in (the phase folded in), then for none.
        let phases = rules.phases.len();
        let in_phase = |p: usize| {
            (p < phases).then_some(compiled::Stage {
                phase: Some(p),
                sowings: None,
                captured: None,
            })
        };
        let candidates: Vec<Vec<Candidate>> = (0..=phases)
            .map(|p| {
                let start_at = |origin: Option<u16>| -> std::sync::Arc<[CRule]> {
                    at(Moment::Start)
                        .into_iter()
                        .map(|i| compiler.rule_at(i, mover, origin, in_phase(p)))
                        .collect()
                };
                let shared = (!start_per_pit).then(|| start_at(None));
                let shared_allowed = shared.as_ref().map(|s| requirements(s));
                move_order
                    .iter()
                    .filter(|&&pit| next[mover as usize][pit as usize] != NONE)
                    .map(|&pit| match (&shared, &shared_allowed) {
                        (Some(start), Some(allowed)) => {
                            Candidate::new(pit, allowed.clone(), start.clone())
                        }
                        _ => {
                            let start = start_at(Some(pit));
                            Candidate::new(pit, requirements(&start), start)
                        }
                    })
                    .filter(|c| c.allowed != C::Const(false))
                    .collect()
            })
            .collect();
        let start_prefers = candidates.iter().map(|c| start_prefers(c)).collect();
        // The `turn` rules of each phase, those that can never apply there
        // left out (they keep every turn): with their indices.
        let (turn_at, turn): (Vec<Vec<usize>>, Vec<Vec<CRule>>) = (0..=phases)
            .map(|p| {
                at(Moment::Turn)
                    .into_iter()
                    .map(|i| (i, compiler.rule_at(i, mover, None, in_phase(p))))
                    .filter(|(_, r)| r.when != C::Const(false))
                    .unzip()
            })
            .unzip();
        let turn_fixed = turn
            .iter()
            .map(|rs: &Vec<CRule>| rs.iter().map(|r| !compiled::reads_start(&r.when)).collect())
            .collect();
        let ends: Vec<CEnd> = rules
            .ends
            .iter()
            .enumerate()
            .flat_map(|(end, e)| {
                // A rule about `player` is judged for each player, the mover first.
                let each: Vec<Option<Player>> = if mentions_each(e) {
                    (0..rules.seats() as Player)
                        .map(|i| Some(if i == 0 { mover } else { 1 - mover }))
                        .collect()
                } else {
                    vec![None]
                };
                each.into_iter()
                    .map(|each| {
                        let when = compiler.cond_before_turn(&e.when, mover, each);
                        CEnd {
                            end,
                            empty: compiled::needs_empty(&when),
                            cost: compiled::cost(&when),
                            when,
                            result: e.result.as_ref().map(|d| match d {
                                Decision::Winner(w) => {
                                    Some((true, compiler.who_for(w, mover, each)))
                                }
                                Decision::Loser(w) => {
                                    Some((false, compiler.who_for(w, mover, each)))
                                }
                                Decision::Draw => None,
                            }),
                            at_once: e.at_once,
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let (ends_at_once_bits, ends_freed) = ends_freed(&ends, cells);
        // No end judged during a turn reads a flag (see `Staged::settled`).
        let ends_read_flags = ends
            .iter()
            .any(|e| e.at_once && compiled::reads_flag(&e.when));
        let settled: Vec<Vec<Vec<Option<bool>>>> = (0..=phases)
            .map(|p| {
                let nothing = compiled::Stage {
                    phase: (p < phases).then_some(p),
                    sowings: None,
                    captured: Some(0),
                };
                turn_at[p]
                    .iter()
                    .map(|&i| {
                        let r = compiler.rule_at(i, mover, None, Some(nothing));
                        r.actions
                            .iter()
                            .map(|a| match a.on_turn() {
                                OnTurn::Meets(C::Const(b)) => Some(*b),
                                OnTurn::Meets(_) => None,
                                OnTurn::Rejected => Some(false),
                                OnTurn::Nothing => Some(true),
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let lazy = (0..=phases)
            .map(|p| {
                turn[p].iter().zip(&settled[p]).any(|(r, said)| {
                    r.actions
                        .iter()
                        .zip(said)
                        .any(|(a, s)| matches!(a, A::Prefer(_)) && *s == Some(false))
                })
            })
            .collect();
        let lines: Vec<(C, Option<Direction>)> = rules
            .sowing
            .direction
            .iter()
            .map(|w| (compiler.cond_for(&w.when, mover, None), w.direction))
            .collect();
        let ways = match lines.as_slice() {
            [(C::Const(true), d), ..] => Ways::Always(*d),
            _ => Ways::ByPit(lines),
        };
        let leave = rules
            .sowing
            .leave
            .as_ref()
            .map(|l| {
                // `leave all`: more than any pit holds, so the pit keeps all.
                let keep = match &l.seeds {
                    Keep::All => Kept::Fixed(u32::MAX),
                    Keep::Count(n) => Kept::Fixed(*n),
                    Keep::Seeds(n) => Kept::Judged(compiler.num_for(n, mover)),
                };
                (keep, compiler.cond_for(&l.when, mover, None))
            })
            .filter(|(_, when)| *when != C::Const(false));
        let pass = rules
            .pass
            .as_ref()
            .map(|c| compiler.cond_before_turn(c, mover, None))
            .filter(|c| *c != C::Const(false));
        // The mover's store's cell.
        let store = (board.npits + mover as usize) as u16;
        let from_store = rules
            .sowing
            .from_store
            .as_ref()
            .map(|p| (store, compiler.place_for(p, mover)));
        let put = rules.put.as_ref().map(|p| Put {
            seeds: compiler.num_for(&p.seeds, mover),
            upto: p.upto.as_ref().map(|n| compiler.num_for(n, mover)),
            from: match p.from {
                crate::ir::Held::Hand => None,
                crate::ir::Held::Store => Some(store),
            },
            into: compiler.region_for(&p.into, mover),
            when: compiler.cond_for(&p.when, mover, None),
        });
        let take = rules.take.as_ref().map(|t| Taking {
            seeds: t.seeds.as_ref().map(|n| compiler.num_for(n, mover)),
            from: compiler.region_for(&t.from, mover),
            to: t.to.as_ref().map(|p| compiler.place_for(p, mover)),
            into: t.into.as_ref().map(|r| compiler.region_for(r, mover)),
            when: compiler.cond_for(&t.when, mover, None),
        });
        let drop = rules_at(Moment::Drop);
        let skip_when = rules
            .sowing
            .skip_when
            .as_ref()
            .map(|c| compiler.cond_for(c, mover, None))
            .filter(|c| *c != C::Const(false));
        Plan {
            ways,
            leave,
            pass,
            match_over: rules
                .rounds
                .as_ref()
                .map(|c| compiler.cond_for(c, mover, None)),
            from_store,
            put,
            take,
            candidates,
            turn,
            turn_fixed,
            settled,
            lazy,
            start_prefers,
            land: compiled::FirstOf::new(rules_at(Moment::Land)),
            capture: rules_at(Moment::Capture),
            stages: stage_dims.map_or_else(Vec::new, |(np, ns, nc)| {
                let mut v = Vec::new();
                for p in 0..np {
                    for sw in 1..=ns {
                        for c in 0..nc {
                            let stage = compiled::Stage {
                                phase: (!rules.phases.is_empty()).then_some(p as usize),
                                sowings: Some(sw),
                                captured: Some(c),
                            };
                            let all = &rules.rules;
                            let of =
                                |m: Moment| (0..all.len()).filter(move |&i| all[i].moment == m);
                            // The live rules of a moment at this stage, specialised
                            // for where the last seed landed or the pit lifted
                            // when `pit` is given.
                            let placed = |m: Moment, pit: Option<u16>| -> Vec<CRule> {
                                let (last, here) = match m {
                                    Moment::Land => (pit, None),
                                    Moment::Lift
                                    | Moment::Drop
                                    | Moment::Capture
                                    | Moment::Start
                                    | Moment::Turn
                                    | Moment::After
                                    | Moment::End
                                    | Moment::Scored
                                    | Moment::Round => (None, pit),
                                };
                                of(m)
                                    .map(|i| compiler.placed_rule(i, mover, stage, last, here))
                                    .filter(|r| r.when != C::Const(false))
                                    .collect()
                            };
                            let at = |m: Moment| placed(m, None);
                            // Specialised for each pit too, when there are few enough.
                            let lists = (np * ns * nc) as usize * cells;
                            let per_pit =
                                lists <= MAX_PIT_LISTS && sown_rules * lists <= MAX_COMPILED;
                            let pits = if per_pit { 0..cells as u16 } else { 0..0 };
                            let mut st = Staged {
                                land: compiled::FirstOf::new(at(Moment::Land)),
                                landing: pits
                                    .clone()
                                    .map(|pit| {
                                        compiled::FirstOf::new(placed(Moment::Land, Some(pit)))
                                    })
                                    .collect(),
                                capture: at(Moment::Capture),
                                lift: at(Moment::Lift),
                                lifting: pits.map(|pit| placed(Moment::Lift, Some(pit))).collect(),
                                settled: false,
                            };
                            // Settled: captured 0, past the sowings the
                            // rules tell apart, and quiet.
                            st.settled = c == 0 && sw == ns && !ends_read_flags && st.quiet(&drop);
                            v.push(st);
                        }
                    }
                }
                v
            }),
            after: rules_at(Moment::After),
            drop,
            walk_skip: skip_when.clone().filter(|_| rules.sowing.skip_walks),
            skip_when,
            per_place: rules
                .sowing
                .per_place
                .as_ref()
                .map(|n| compiler.num_for(n, mover)),
            lift: rules_at(Moment::Lift),
            entry: rules.sowing.entry.as_ref().map(|en| (en.seeds, en.phase)),
            ends_at_once: rules.ends.iter().any(|e| e.at_once),
            ends_freed,
            ends_at_once_bits,
            marks: rules
                .marks
                .iter()
                .map(|m| (m.symbol.clone(), compiler.cond_for(&m.when, mover, None)))
                .collect(),
            phases: rules
                .phases
                .iter()
                .map(|p| compiler.cond_for(&p.when, mover, None))
                .collect(),
            at_end: rules_at(Moment::End),
            scored: rules_at(Moment::Scored),
            round: rules_at(Moment::Round),
            ends,
        }
    }
}

/// What the `start` rules require of a pit, as one condition: for each
/// rule, `not when or (every require)`, constant parts folded.
fn requirements(rules: &[CRule]) -> C {
    compiled::join(
        true,
        rules.iter().map(|r| {
            let need = compiled::join(
                true,
                r.actions.iter().filter_map(|a| match a {
                    compiled::A::Require(c) => Some(c.clone()),
                    _ => None,
                }),
            );
            // A rule that applies requires what it requires.
            compiled::join(false, [compiled::negate(r.when.clone()), need])
        }),
    )
}

/// Whether an end rule speaks of `player` (it is then judged for each
/// player, the mover first).
pub(crate) fn mentions_each(e: &crate::ir::End) -> bool {
    Root::End(e).any(&|n| matches!(n, Node::Who(crate::ir::Who::Each)))
}
