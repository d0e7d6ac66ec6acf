//! The engine: plays a variant's rules IR. It knows nothing of the syntax.
//! It compiles the IR once per variant ([`compiled`]) and allocates nothing
//! per turn in its hot path: legal turns, applying a turn and judging the
//! end reuse buffers the [`Game`] owns.

mod act;
mod compiled;
mod cycle;
mod eval;
mod game;
mod lookahead;
mod position;
mod turn;

pub use game::{Game, ENDLESS};
pub use position::Position;
pub use turn::TooLong;

use crate::ir::{
    Action, Cond, Direction, Heading, Moment, Num, Player, Rules, Skip, Slot, VarScope, Verdict,
    Who,
};
use compiled::{CRule, Compiler, A, C, N, W};

/// "No cell": off the track, no opposite pit.
pub(crate) const NONE: u16 = u16::MAX;

/// A track in one direction, laid out three times over, with where each
/// cell stands in the first lap: a sowing walks it by index, not by a
/// chain of look-ups each waiting on the last.
#[derive(Debug, Default)]
pub(crate) struct Ring {
    cells: Vec<u16>,
    /// Each cell's index in the first lap, or `u32::MAX` (off the track,
    /// or on it more than once: no ring then).
    at: Vec<u32>,
}

impl Ring {
    fn new(track: &[u16], cells: usize) -> Ring {
        let mut at = vec![u32::MAX; cells];
        for (i, &c) in track.iter().enumerate() {
            if at[c as usize] != u32::MAX {
                return Ring::default();
            }
            at[c as usize] = i as u32;
        }
        Ring {
            cells: track.repeat(3),
            at,
        }
    }

    /// The `seeds` cells after `cell`, when the ring holds them.
    #[inline(always)]
    pub(crate) fn after(&self, cell: u16, seeds: u32) -> Option<&[u16]> {
        let i = *self.at.get(cell as usize)? as usize;
        self.cells.get(i + 1..i + 1 + seeds as usize)
    }
}

/// A variant's rules with the tables the engine plays from.
#[derive(Debug)]
pub struct Engine {
    /// The rules IR.
    pub rules: Rules,
    npits: usize,
    /// Per mover: the next cell along the track, passing skipped stores.
    next: [Vec<u16>; 2],
    /// Per mover: the previous cell along the track.
    prev: [Vec<u16>; 2],
    /// Per mover: the cells of the track, skipped stores left out.
    cycle: [Vec<u16>; 2],
    /// Per mover and direction (forward, backward): the track as a ring.
    rings: [[Ring; 2]; 2],
    /// A random number for each cell, to hash a turn's states.
    zobrist: Vec<u64>,
    /// Long turns found endless, by position and turn (see `turn::LONG`).
    endless_seen: std::sync::Mutex<std::collections::HashSet<Vec<u32>>>,
    /// The reasons an outcome gives: each end rule's name, then
    /// [`ENDLESS`].
    reasons: Vec<std::sync::Arc<str>>,
    opposite: Vec<u16>,
    /// Owner of every cell (pits, then the two stores).
    owner: Vec<Player>,
    sides: [Vec<u16>; 2],
    /// The rules compiled for each mover.
    plan: [Plan; 2],
    /// Each player's score.
    scores: [N; 2],
    skip_origin: bool,
    /// Some condition asks whether a position repeats.
    tracks_repetition: bool,
    /// Turns must be played out to judge their legality.
    simulate: bool,
    /// Some `capture` rule forbids the turn.
    forbids: bool,
    /// Every turn must be played out before it is listed (to leave out
    /// turns that never end).
    simulate_all: bool,
    /// Some rule reads `before(…)` while a turn is played.
    reads_before: bool,
    /// Turns can sow more than once (relays, resowing): watch for turns
    /// that never end.
    detect_cycles: bool,
    /// The largest numbers `sowings` and `captured` are compared with:
    /// beyond them the rules cannot tell two counts apart.
    counter_caps: (i64, i64),
    /// How many phases, sowings and captured values tell stages apart.
    stage_dims: Option<(i64, i64, i64)>,
    /// Where each variable's slots begin in [`Position::vars`].
    var_base: Vec<usize>,
    /// The starting value of every slot.
    var_start: Vec<u32>,
    /// Per mover, per cell, per heading (forward, backward, left, right):
    /// the direction along the mover's track, if the heading means one there.
    headings: [Vec<[Option<Direction>; 4]>; 2],
}

/// The most rule lists specialised for a pit (stages × cells); a larger
/// game judges its stage's lists as they are.
const MAX_PIT_LISTS: usize = 4096;

use crate::limits::MAX_COMPILED;

/// The rules specialised for one stage of a turn.
#[derive(Debug)]
struct Staged {
    land: compiled::FirstOf,
    /// `land` specialised further for each cell the last seed can land in
    /// (empty past [`MAX_PIT_LISTS`]).
    landing: Vec<compiled::FirstOf>,
    capture: Vec<CRule>,
    lift: Vec<CRule>,
    /// `lift` specialised for each cell lifted, likewise.
    lifting: Vec<Vec<CRule>>,
    /// A turn in this stage has captured nothing and never will: no rule
    /// of the stage captures, the stage lasts while nothing is captured,
    /// and no rule it meets reads a flag. See [`Plan::settled`].
    settled: bool,
}

impl Staged {
    /// No rule of the stage captures or reads a flag.
    fn quiet(&self) -> bool {
        let lands = || {
            std::iter::once(&self.land)
                .chain(&self.landing)
                .flat_map(|f| &f.rules)
        };
        let captures = |r: &CRule| {
            r.actions
                .iter()
                .any(|a| matches!(a, A::Capture { .. } | A::CaptureRegion { .. }))
        };
        let lifts = self.lift.iter().chain(self.lifting.iter().flatten());
        !lands().any(captures) && !lands().chain(lifts).any(|r| compiled::reads_flag(&r.when))
    }
}

/// The rules as one player plays them.
#[derive(Debug)]
struct Plan {
    /// The pits that may start a turn, in the order turns are listed
    /// (labels in natural order), each with the `start` rules specialised
    /// for it. A pit whose rules can never allow it is left out. One list
    /// for each phase (see [`Engine::phase_slot`]).
    candidates: Vec<Vec<Candidate>>,
    /// Some `start` rule has a `prefer`.
    start_prefers: bool,
    land: compiled::FirstOf,
    capture: Vec<CRule>,
    /// The `land`, `capture` and `lift` rules specialised for each stage of
    /// a turn (see [`Engine::stage`]); empty when there are too many stages.
    stages: Vec<Staged>,
    /// The `turn` rules, one list for each phase (see [`Engine::phase_slot`]).
    turn: Vec<Vec<CRule>>,
    /// What each action of the `turn` rules says of a turn known only to
    /// capture nothing (`None`: that is not enough to tell), for each phase.
    /// When a `prefer` of a phase rejects such turns, the turns tried there
    /// stop once settled (see [`Staged::settled`]); they are played out in
    /// full only when the rules cannot leave them out without.
    settled: Vec<Vec<Vec<Option<bool>>>>,
    /// For each phase: some `prefer` rejects a turn that captures nothing.
    lazy: Vec<bool>,
    after: Vec<CRule>,
    lift: Vec<CRule>,
    at_end: Vec<CRule>,
    /// The entry from the hand: seeds, and the phase it belongs to (every
    /// phase when none).
    entry: Option<(u32, Option<usize>)>,
    /// Some end rule is judged during turns.
    ends_at_once: bool,
    /// Each phase's own condition.
    phases: Vec<C>,
    /// The text board's marks.
    marks: Vec<(String, C)>,
    ends: Vec<CEnd>,
}

#[derive(Debug)]
struct Candidate {
    pit: u16,
    /// Every `require` of the `start` rules, folded into one condition.
    allowed: C,
    /// The `start` rules, for their preferences (one list shared by every
    /// pit when they are not specialised for each).
    start: std::sync::Arc<[CRule]>,
}

/// An end rule compiled for a mover (and, for a rule about `player`, one
/// player).
#[derive(Debug, Clone)]
pub(crate) struct CEnd {
    /// Its index in the rules' ends.
    pub end: usize,
    pub when: C,
    pub result: Option<(Verdict, W)>,
    pub at_once: bool,
    /// The cells the condition needs empty, if it does (see
    /// [`compiled::needs_empty`]): judged during a turn only when seeds
    /// have left one of them since it was last found false.
    pub empty: Option<Box<[u64]>>,
    /// What judging it costs (see [`compiled::cost`]).
    pub cost: u64,
}

/// Each mover's end rules.
pub(crate) type BoundEnds = [Vec<CEnd>; 2];

/// One whole turn: the pit it starts from and the choices made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The starting pit.
    pub pit: u16,
    /// The letter chosen (an index in the notation's letters), or 0 when
    /// the variant has none.
    pub choice: u8,
    /// The flags written (bit i: the notation's flag i).
    pub flags: u8,
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

    /// The winner this rule names, judged in a context, if it names one;
    /// `None` inside means a draw is not possible here: the rule names a
    /// player and that player's side wins or loses.
    pub(crate) fn decided(&self, e: &Engine, f: &eval::Ctx) -> Option<Option<Player>> {
        let (verdict, w) = self.result.as_ref()?;
        let p = e.who(w, f)?;
        Some(Some(match verdict {
            Verdict::Winner => p,
            Verdict::Loser => 1 - p,
        }))
    }
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// The name of the end rule that fired.
    pub reason: std::sync::Arc<str>,
    /// Each player's final score.
    pub scores: [i64; 2],
}

impl Engine {
    /// Builds the engine's tables from checked rules and compiles the rules
    /// for each player.
    pub fn new(rules: Rules) -> Engine {
        let npits = rules.pits.len();
        let cells = npits + 2;
        let cell_of = |s: &Slot| match s {
            Slot::Pit(p) => *p,
            Slot::Store(pl) => (npits + *pl as usize) as u16,
        };
        let mut next = [vec![NONE; cells], vec![NONE; cells]];
        let mut prev = [vec![NONE; cells], vec![NONE; cells]];
        let mut cycle: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
        for mover in 0..2u8 {
            let skipped: Vec<u16> = rules
                .sowing
                .skip
                .iter()
                .filter_map(|s| s.store(mover))
                .map(|p| (npits + p as usize) as u16)
                .collect();
            let track: Vec<u16> = rules.tracks[mover as usize]
                .iter()
                .map(cell_of)
                .filter(|c| !skipped.contains(c))
                .collect();
            let n = track.len();
            for (i, &c) in track.iter().enumerate() {
                next[mover as usize][c as usize] = track[(i + 1) % n];
                prev[mover as usize][c as usize] = track[(i + n - 1) % n];
            }
            cycle[mover as usize] = track;
        }
        let rings = [0, 1].map(|m| {
            let track = &cycle[m];
            let back: Vec<u16> = track.iter().rev().copied().collect();
            [Ring::new(track, cells), Ring::new(&back, cells)]
        });
        let nrows = rules.rows.len();
        let mut opposite = vec![NONE; npits];
        for (id, pit) in rules.pits.iter().enumerate() {
            let facing = nrows - 1 - pit.row;
            if facing != pit.row {
                if let Some(&o) = rules.rows[facing].pits.get(pit.column) {
                    opposite[id] = o;
                }
            }
        }
        let mut owner: Vec<Player> = rules.pits.iter().map(|p| p.owner).collect();
        owner.extend([0, 1]);
        let sides = [0u8, 1].map(|p| {
            (0..npits as u16)
                .filter(|&i| rules.pits[i as usize].owner == p)
                .collect::<Vec<u16>>()
        });
        let all: Vec<u16> = (0..npits as u16).collect();
        let mut move_order = all.clone();
        move_order.sort_by(|&a, &b| {
            natural(&rules.pits[a as usize].label, &rules.pits[b as usize].label)
        });
        let at = |m: Moment| -> Vec<usize> {
            (0..rules.rules.len())
                .filter(|&i| rules.rules[i].moment == m)
                .collect()
        };
        let mut var_base = Vec::new();
        let mut var_start = Vec::new();
        for v in &rules.vars {
            var_base.push(var_start.len());
            let n = match v.scope {
                VarScope::Game => 1,
                VarScope::Player => 2,
                VarScope::Pit => npits,
            };
            var_start.extend(std::iter::repeat_n(0u32, n));
        }
        let headings = [0u8, 1].map(|mover| {
            (0..cells as u16)
                .map(|c| {
                    headings_at(
                        &rules,
                        mover,
                        c,
                        &next[mover as usize],
                        &prev[mover as usize],
                    )
                })
                .collect::<Vec<_>>()
        });
        let compiler = Compiler {
            rules: &rules,
            npits,
            opposite: &opposite,
            owner: &owner,
            sides: &sides,
            all: &all,
            var_base: &var_base,
        };
        let counter_caps = (
            counter_cap(&rules, &Num::Sowings),
            counter_cap(&rules, &Num::Captured),
        );
        // Rules for every stage of a turn (phase, sowings, captured as far
        // as the rules tell them apart), when there are few stages.
        // (Within the compiling budget: a variant of many rules is
        // specialised less.)
        let sown_rules =
            at(Moment::Land).len() + at(Moment::Lift).len() + at(Moment::Capture).len();
        let stage_dims = {
            let phases = rules.phases.len().max(1) as i64;
            let (s, c) = (counter_caps.0 + 1, counter_caps.1 + 2);
            let stages = phases.saturating_mul(s).saturating_mul(c);
            (stages <= 64 && sown_rules * stages as usize <= MAX_COMPILED).then_some((phases, s, c))
        };
        // Start rules specialised for each pit (and phase), when few enough.
        let start_per_pit =
            at(Moment::Start).len() * npits * (rules.phases.len() + 1) <= MAX_COMPILED;
        let plan = [0u8, 1].map(|mover| {
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
            let candidates = (0..=phases)
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
                            (Some(start), Some(allowed)) => Candidate {
                                pit,
                                allowed: allowed.clone(),
                                start: start.clone(),
                            },
                            _ => {
                                let start = start_at(Some(pit));
                                Candidate {
                                    pit,
                                    allowed: requirements(&start),
                                    start,
                                }
                            }
                        })
                        .filter(|c| c.allowed != C::Const(false))
                        .collect()
                })
                .collect();
            let turn: Vec<Vec<CRule>> = (0..=phases)
                .map(|p| {
                    at(Moment::Turn)
                        .into_iter()
                        .map(|i| compiler.rule_at(i, mover, None, in_phase(p)))
                        .collect()
                })
                .collect();
            let ends: Vec<CEnd> = rules
                .ends
                .iter()
                .enumerate()
                .flat_map(|(end, e)| {
                    // A rule about `player` is judged for each player, the mover first.
                    let each: Vec<Option<Player>> = if mentions_each(e) {
                        vec![Some(mover), Some(1 - mover)]
                    } else {
                        vec![None]
                    };
                    each.into_iter()
                        .map(|each| {
                            let when = compiler.cond_for(&e.when, mover, each);
                            CEnd {
                                end,
                                empty: compiled::needs_empty(&when),
                                cost: compiled::cost(&when),
                                when,
                                result: e
                                    .result
                                    .as_ref()
                                    .map(|(v, w)| (*v, compiler.who_for(w, mover, each))),
                                at_once: e.at_once,
                            }
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
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
                    at(Moment::Turn)
                        .into_iter()
                        .map(|i| {
                            let r = compiler.rule_at(i, mover, None, Some(nothing));
                            r.actions
                                .iter()
                                .map(|a| match a {
                                    A::Require(C::Const(b)) | A::Prefer(C::Const(b)) => Some(*b),
                                    A::Require(_) | A::Prefer(_) => None,
                                    A::Forbid => Some(false),
                                    _ => Some(true),
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
            Plan {
                candidates,
                turn,
                settled,
                lazy,
                start_prefers: at(Moment::Start).iter().any(|&i| {
                    rules.rules[i]
                        .actions
                        .iter()
                        .any(|a| matches!(a, Action::Prefer(_)))
                }),
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
                                        _ => (None, pit),
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
                                    lifting: pits
                                        .map(|pit| placed(Moment::Lift, Some(pit)))
                                        .collect(),
                                    settled: false,
                                };
                                // Settled: captured 0, past the sowings the
                                // rules tell apart, and quiet.
                                st.settled = c == 0 && sw == ns && !ends_read_flags && st.quiet();
                                v.push(st);
                            }
                        }
                    }
                    v
                }),
                after: rules_at(Moment::After),
                lift: rules_at(Moment::Lift),
                entry: rules.sowing.entry.as_ref().map(|en| (en.seeds, en.phase)),
                ends_at_once: rules.ends.iter().any(|e| e.at_once),
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
                ends,
            }
        });
        let scores = [compiler.score(0), compiler.score(1)];
        let tracks_repetition = rules_mention(&rules, &|c| *c == Cond::Repeated, &|_| false);
        // Phases are judged on the position at the start of the turn.
        let reads_before = !rules.phases.is_empty()
            || rules_mention(&rules, &|_| false, &|n| matches!(n, Num::Before(_)));
        // What the rules can do, judged on the compiled rules: a rule that
        // an option (or anything known) turns off does not count.
        let live = |r: &&CRule| r.when != C::Const(false);
        let forbids = plan.iter().any(|p| {
            p.capture
                .iter()
                .filter(live)
                .any(|r| r.actions.contains(&A::Forbid))
        });
        let detect_cycles = plan.iter().any(|p| {
            p.land.rules.iter().filter(live).any(|r| {
                r.actions
                    .iter()
                    .any(|a| matches!(a, A::Relay(_) | A::Resow { .. }))
            })
        });
        // Turns that never end must be found before they are listed, when
        // the variant forbids them and its turns can sow more than once.
        let simulate_all = rules.endless == crate::ir::Endless::Forbid && detect_cycles;
        let judges = plan
            .iter()
            .any(|p| p.turn.iter().flatten().any(|r| live(&r)));
        let simulate = judges || forbids || simulate_all;
        let skip_origin = rules.sowing.skip.contains(&Skip::Origin);

        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let zobrist = (0..cells)
            .map(|_| {
                // splitmix64
                seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = seed;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect();
        Engine {
            endless_seen: Default::default(),
            reasons: rules
                .ends
                .iter()
                .map(|e| e.name.as_str())
                .chain([ENDLESS])
                .map(std::sync::Arc::from)
                .collect(),
            zobrist,
            cycle,
            rings,
            rules,
            npits,
            next,
            prev,
            opposite,
            owner,
            sides,
            plan,
            scores,
            skip_origin,
            tracks_repetition,
            simulate,
            forbids,
            simulate_all,
            reads_before,
            detect_cycles,
            counter_caps,
            stage_dims,
            var_base,
            var_start,
            headings,
        }
    }

    /// Number of cells: pits and the two stores.
    pub fn cells(&self) -> usize {
        self.npits + 2
    }

    /// The cell of a player's store.
    pub(crate) fn store_cell(&self, p: Player) -> u16 {
        (self.npits + p as usize) as u16
    }

    /// The starting position.
    pub fn start_position(&self) -> Position {
        let mut cells = self.rules.setup.seeds.clone();
        cells.extend([0, 0]);
        Position {
            cells,
            hands: self.rules.setup.hands,
            to_move: Some(self.rules.setup.first),
            vars: self.var_start.clone(),
        }
    }

    /// Which of a plan's per-phase lists holds for a position: its phase,
    /// or (no phase holding, or none declared) the last list, compiled
    /// for no phase in particular.
    pub(crate) fn phase_slot(&self, pos: &Position) -> usize {
        self.phase(pos).unwrap_or(self.rules.phases.len())
    }

    /// The phase a position is in (an index in the rules' phases), if the
    /// variant declares phases.
    #[inline]
    pub fn phase(&self, pos: &Position) -> Option<usize> {
        let phases = &self.plan[pos.to_move.unwrap_or(0) as usize].phases;
        if phases.is_empty() {
            return None;
        }
        let f = eval::Ctx::new(pos, pos, NONE, NONE);
        Some(
            phases
                .iter()
                .position(|c| self.cond(c, &f))
                .unwrap_or(phases.len() - 1),
        )
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
    /// and flag (or none).
    pub(crate) fn max_turns(&self) -> usize {
        let letters = self.rules.notation.letters.len().max(1);
        let flags = 1 + self.rules.notation.flags.len();
        let pits = self
            .plan
            .iter()
            .flat_map(|p| p.candidates.iter().map(Vec::len))
            .max();
        pits.unwrap_or(0) * letters * flags
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
        self.var_start.len()
    }

    /// Where a variable's slots begin in [`Position::vars`].
    pub fn var_base(&self, var: usize) -> usize {
        self.var_base[var]
    }

    /// The direction a heading means for a mover starting at a cell.
    pub(crate) fn heading(&self, mover: Player, cell: u16, h: Heading) -> Option<Direction> {
        let i = match h {
            Heading::Forward => 0,
            Heading::Backward => 1,
            Heading::Left => 2,
            Heading::Right => 3,
        };
        self.headings[mover as usize]
            .get(cell as usize)
            .and_then(|hs| hs[i])
    }

    /// The sowing direction of a turn, if its choice means one.
    pub(crate) fn turn_direction(&self, mover: Player, turn: Turn) -> Option<Direction> {
        match self.rules.sowing.direction {
            Some(d) => Some(d),
            None => {
                let letter = self.rules.notation.letters.get(turn.choice as usize)?;
                self.heading(mover, turn.pit, letter.heading)
            }
        }
    }

    /// Whether a `capture` rule can forbid a turn, so that listing the
    /// legal turns plays each one out. A rule an option turns off does not
    /// count.
    pub fn forbids_by_capture(&self) -> bool {
        self.forbids
    }

    /// Whether the game keeps the positions seen since the last capture.
    pub fn tracks_repetition(&self) -> bool {
        self.tracks_repetition
    }
}

/// The largest constant a counter (`sowings`, `captured`) is compared
/// with anywhere in the rules, so that counts above it look alike; a very
/// large cap when the counter is used any other way (then no two counts
/// look alike, and only the engine's limits stop a turn that never ends).
fn counter_cap(rules: &Rules, counter: &Num) -> i64 {
    const UNBOUNDED: i64 = i64::MAX / 4;
    fn num(n: &Num, counter: &Num, cap: &mut i64) {
        match n {
            x if x == counter => *cap = UNBOUNDED,
            Num::Before(a) => num(a, counter, cap),
            Num::Arith(_, a, b) => {
                num(a, counter, cap);
                num(b, counter, cap);
            }
            Num::Count(_, c) => cond(c, counter, cap),
            _ => {}
        }
    }
    fn cond(c: &Cond, counter: &Num, cap: &mut i64) {
        match c {
            Cond::Not(a) => cond(a, counter, cap),
            Cond::And(v) | Cond::Or(v) => v.iter().for_each(|c| cond(c, counter, cap)),
            Cond::Compare(_, a, Num::Int(k)) | Cond::Compare(_, Num::Int(k), a) if a == counter => {
                *cap = (*cap).max(k.abs());
            }
            Cond::InRange(a, Num::Int(lo), Num::Int(hi)) if a == counter => {
                *cap = (*cap).max(lo.abs().max(hi.abs()))
            }
            Cond::Compare(_, a, b) => {
                num(a, counter, cap);
                num(b, counter, cap);
            }
            Cond::InRange(a, b, d) => {
                num(a, counter, cap);
                num(b, counter, cap);
                num(d, counter, cap);
            }
            _ => {}
        }
    }
    let mut cap = 0;
    for r in &rules.rules {
        cond(&r.when, counter, &mut cap);
        for a in &r.actions {
            match a {
                Action::Require(c) | Action::Prefer(c) => cond(c, counter, &mut cap),
                Action::Capture {
                    chain: Some((_, c)),
                    ..
                } => cond(c, counter, &mut cap),
                _ => {}
            }
        }
    }
    for e in &rules.ends {
        cond(&e.when, counter, &mut cap);
    }
    cap
}

/// Whether an end rule speaks of `player`.
fn mentions_each(e: &crate::ir::End) -> bool {
    let who_each = |w: &Who| *w == Who::Each;
    e.result.as_ref().is_some_and(|(_, w)| who_each(w)) || format_mentions_each(&e.when)
}

/// Whether a condition speaks of `player` anywhere.
fn format_mentions_each(c: &Cond) -> bool {
    fn place(p: &crate::ir::Place) -> bool {
        use crate::ir::Place;
        match p {
            Place::Store(w) | Place::Named(_, w) => who(w),
            Place::Opposite(p) => place(p),
            _ => false,
        }
    }
    fn who(w: &Who) -> bool {
        match w {
            Who::Each => true,
            Who::Owner(p) => place(p),
            _ => false,
        }
    }
    fn region(r: &crate::ir::Region) -> bool {
        use crate::ir::Region;
        match r {
            Region::Side(w) | Region::Named(_, w) | Region::FirstCaptures(w) => who(w),
            Region::Board => false,
        }
    }
    fn num(n: &Num) -> bool {
        match n {
            Num::Seeds(p) => place(p),
            Num::SeedsIn(r) => region(r),
            Num::Hand(w) => who(w),
            Num::Before(n) => num(n),
            Num::Arith(_, a, b) => num(a) || num(b),
            Num::Count(r, c) => region(r) || format_mentions_each(c),
            _ => false,
        }
    }
    match c {
        Cond::Not(c) => format_mentions_each(c),
        Cond::And(v) | Cond::Or(v) => v.iter().any(format_mentions_each),
        Cond::Compare(_, a, b) => num(a) || num(b),
        Cond::InRange(a, b, c) => num(a) || num(b) || num(c),
        Cond::SamePlace(a, b) => place(a) || place(b),
        Cond::SamePlayer(a, b) => who(a) || who(b),
        Cond::PlaceIn(p, r) => place(p) || region(r),
        Cond::VarIs(_, at, _) => match at {
            crate::ir::VarAt::Player(w) => who(w),
            crate::ir::VarAt::Pit(p) => place(p),
            crate::ir::VarAt::Pits(r) => region(r),
            crate::ir::VarAt::Game => false,
        },
        Cond::HasCapture(w) => who(w),
        _ => false,
    }
}

/// Whether some rule has a condition node `pc` accepts or a number node
/// `pn` accepts.
fn rules_mention(rules: &Rules, pc: &dyn Fn(&Cond) -> bool, pn: &dyn Fn(&Num) -> bool) -> bool {
    fn num(n: &Num, pn: &dyn Fn(&Num) -> bool) -> bool {
        pn(n)
            || match n {
                Num::Before(inner) => num(inner, pn),
                Num::Arith(_, a, b) => num(a, pn) || num(b, pn),
                _ => false,
            }
    }
    fn cond(c: &Cond, pc: &dyn Fn(&Cond) -> bool, pn: &dyn Fn(&Num) -> bool) -> bool {
        pc(c)
            || match c {
                Cond::Not(inner) => cond(inner, pc, pn),
                Cond::And(v) | Cond::Or(v) => v.iter().any(|c| cond(c, pc, pn)),
                Cond::Compare(_, a, b) => num(a, pn) || num(b, pn),
                Cond::InRange(a, b, c) => num(a, pn) || num(b, pn) || num(c, pn),
                _ => false,
            }
    }
    let action = |a: &Action| match a {
        Action::Require(c) | Action::Prefer(c) => cond(c, pc, pn),
        Action::Capture {
            chain: Some((_, c)),
            ..
        } => cond(c, pc, pn),
        _ => false,
    };
    rules.ends.iter().any(|e| cond(&e.when, pc, pn))
        || rules
            .rules
            .iter()
            .any(|r| cond(&r.when, pc, pn) || r.actions.iter().any(action))
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

/// What each heading means for a mover at a cell: forward and backward
/// along the track; left and right towards the mover's own left or right,
/// judged by the columns of the cells next to it on the track (at the end of
/// a row, where the next cell is in the same column, by the cell before).
fn headings_at(
    rules: &Rules,
    mover: Player,
    cell: u16,
    next: &[u16],
    prev: &[u16],
) -> [Option<Direction>; 4] {
    let npits = rules.pits.len();
    if next[cell as usize] == NONE {
        return [None; 4];
    }
    let width = rules.rows.first().map_or(0, |r| r.pits.len()) as i64;
    // Columns as the mover sees them: the top player looks from the other side.
    let column = |c: u16| -> i64 {
        let x = if (c as usize) < npits {
            rules.pits[c as usize].column as i64
        } else {
            match rules.stores[c as usize - npits] {
                Some(crate::ir::Store::Left) => -1,
                _ => width,
            }
        };
        if mover == 0 {
            x
        } else {
            width - 1 - x
        }
    };
    let here = column(cell);
    let (f, b) = (
        column(next[cell as usize]) - here,
        column(prev[cell as usize]) - here,
    );
    let right = if f > 0 || (f == 0 && b < 0) {
        Some(Direction::Forward)
    } else if f < 0 || (f == 0 && b > 0) {
        Some(Direction::Backward)
    } else {
        None
    };
    let left = right.map(|d| match d {
        Direction::Forward => Direction::Backward,
        Direction::Backward => Direction::Forward,
    });
    [
        Some(Direction::Forward),
        Some(Direction::Backward),
        left,
        right,
    ]
}

/// Orders labels as a person would: `A2` before `A10`.
pub fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    fn key(s: &str) -> (String, u64) {
        let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (head, tail) = s.split_at(s.len() - digits);
        (head.to_string(), tail.parse().unwrap_or(0))
    }
    let (ka, kb) = (key(a), key(b));
    // Upper-case rows (the first player's) before lower-case ones.
    let case = |s: &str| s.chars().next().is_some_and(|c| c.is_lowercase());
    (case(a), ka).cmp(&(case(b), kb))
}
