//! What a variant's rules can do, judged once: how its positions' legal
//! turns are listed (the one place the listing strategy is chosen),
//! whether its turns can sow more than once and so may never end, whether
//! positions must be remembered, which counters of a turn its rules tell
//! apart. Built on the one walk over the IR (`ir::visit`), and on the
//! compiled rules, so that a rule an option turns off does not count.

use super::compiled::{CRule, A, C};
use super::plan::Plan;
use crate::ir::visit::{Node, Root};
use crate::ir::{Cond, Endless, Num, Rules, Sees};

/// How a position's legal turns are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Listing {
    /// The `start` rules decide alone: no turn is played to be listed.
    Started,
    /// Turns are played out to be judged on what they do: in every
    /// position (`everywhere`: a `capture` rule may forbid a turn, or a
    /// turn may never end and is not legal), or only where some `turn`
    /// rule applies. Where a `prefer` rejects a turn that captures nothing,
    /// such turns are left unfinished (see `Plan::lazy`).
    PlayedOut { everywhere: bool },
}

/// What the rules can do.
#[derive(Debug)]
pub(crate) struct Abilities {
    /// How legal turns are listed.
    pub listing: Listing,
    /// Some condition asks whether a position repeats: positions are kept.
    pub tracks_repetition: bool,
    /// Seeds may leave a store (a turn sown from it, a put from it): a
    /// position from before seeds went into a store may come again.
    pub stores_shrink: bool,
    /// Some end rule or pass asks whether another player has a legal turn
    /// (`no_legal_turn(opponent)`): a look ahead is made before each turn.
    pub looks_before_turns: bool,
    /// Some rule run once the game or a round is over, or the match's end,
    /// asks whether a player could move (`no_legal_turn(P)`): a look
    /// ahead is made for them.
    pub looks_after_play: bool,
    /// A player may pass somewhere (`pass when …`).
    pub passes: bool,
    /// Sowings are judged place by place (`drop` rules, `skip when`,
    /// `drop N` seeds a place).
    pub judges_drops: bool,
    /// The seeds in play are counted again after each turn: seeds may
    /// leave the game during one (`remove`), or sowings are judged seed by
    /// seed.
    pub recounts: bool,
    /// Some end rule reads `total` (bound into the end rules per game).
    pub ends_read_total: bool,
    /// The position a turn starts from must be kept: some rule reads
    /// `before(…)`, or phases are judged on it.
    pub reads_before: bool,
    /// Some rule reads `lifted`, or answers a flag at each sowing: a
    /// turn's state mid-way holds the pit last lifted, or the answers to
    /// come (see `Engine::state_key`).
    pub reads_lifted: bool,
    pub marks_sowings: bool,
    /// Some live `capture` rule forbids the turn.
    pub forbids: bool,
    /// Turns can sow more than once (relays, resowing): a turn that comes
    /// back to a state it was in is watched for.
    pub detect_cycles: bool,
    /// The largest numbers `sowings` and `captured` are compared with:
    /// beyond them the rules cannot tell two counts apart.
    pub counter_caps: (i64, i64),
    /// Every turn is one sowing from a pit, its seeds lifted with no rule
    /// judged, and nothing is judged after it: the turn's loop is compiled
    /// for such variants with the rest left out (`Engine::sow_turn`).
    pub plain_turns: bool,
}

impl Abilities {
    /// What the rules can do, judged on the IR and the compiled plans.
    pub(crate) fn new(rules: &Rules, plan: &[Plan; 2], counter_caps: (i64, i64)) -> Abilities {
        let live = |r: &&CRule| r.when != C::Const(false);
        let forbids = plan.iter().any(|p| {
            p.capture
                .iter()
                .chain(&p.land.rules)
                .filter(live)
                .any(|r| r.actions.contains(&A::Forbid))
        });
        // Some `land` rule sows again (a relay, a resowing).
        let sows_again = plan.iter().any(|p| {
            p.land.rules.iter().filter(live).any(|r| {
                r.actions.iter().any(|a| {
                    matches!(
                        a,
                        A::Relay(_) | A::RelayFrom(_) | A::RelayGoing(_) | A::Resow { .. }
                    )
                })
            })
        });
        // (A turn of a bounded number of sowings is cut, never endless.)
        let detect_cycles = rules.sowing.most.is_none() && sows_again;
        let judges_drops = plan
            .iter()
            .any(|p| !p.drop.is_empty() || p.skip_when.is_some() || p.per_place.is_some());
        let plain_turns = !sows_again
            && !judges_drops
            && plan.iter().all(|p| {
                p.entry.is_none()
                    && p.from_store.is_none()
                    && p.put.is_none()
                    && p.take.is_none()
                    && p.lift.is_empty()
                    && p.leave.is_none()
                    && p.after.is_empty()
            });
        // Turns that never end must be found before they are listed, when
        // the variant forbids them and its turns can sow more than once.
        let endless_forbidden = rules.endless == Endless::Forbid && detect_cycles;
        let judges = plan
            .iter()
            .any(|p| p.turn.iter().flatten().any(|r| live(&r)));
        let listing = if forbids || endless_forbidden {
            Listing::PlayedOut { everywhere: true }
        } else if judges {
            Listing::PlayedOut { everywhere: false }
        } else {
            Listing::Started
        };
        Abilities {
            listing,
            tracks_repetition: rules.any(&|n| matches!(n, Node::Cond(Cond::Repeated))),
            passes: plan.iter().any(|p| p.pass.is_some()),
            stores_shrink: rules.stores_shrink(),
            ends_read_total: rules.ends.iter().any(|e| {
                crate::ir::visit::Root::End(e).any(&|n| matches!(n, Node::Num(Num::Total | Num::OutOfPlay)))
            }),
            judges_drops,
            recounts: judges_drops || rules.loses_seeds(),
            looks_before_turns: rules
                .ends
                .iter()
                .map(Root::End)
                .chain(rules.pass.iter().map(Root::Pass))
                .any(|r| {
                    r.any(&|n| matches!(n, Node::Cond(Cond::NoLegalTurn(w)) if *w != crate::ir::Who::Mover))
                }),
            looks_after_play: rules
                .rules
                .iter()
                .filter(|r| r.moment.spec().when == Sees::OVER)
                .map(Root::Rule)
                .chain(rules.rounds.iter().map(Root::MatchEnds))
                .any(|r| r.any(&|n| matches!(n, Node::Cond(Cond::NoLegalTurn(_))))),
            // Phases are judged on the position at the start of the turn.
            reads_before: !rules.phases.is_empty()
                || rules.any(&|n| matches!(n, Node::Num(Num::Before(_)))),
            reads_lifted: rules.any(&|n| matches!(n, Node::Place(crate::ir::Place::Lifted))),
            marks_sowings: rules.notation.per_sowing.is_some(),
            forbids,
            detect_cycles,
            counter_caps,
            plain_turns,
        }
    }
}

/// The largest constant `sowings` and `captured` are compared with
/// anywhere in the rules, so that counts above it look alike.
pub(crate) fn counter_caps(rules: &Rules) -> (i64, i64) {
    (
        counter_cap(rules, &Num::Sowings),
        counter_cap(rules, &Num::Captured),
    )
}

/// The largest constant a counter is compared with (`sowings > 1`,
/// `captured in 1..3`); a very large cap when the counter is used any
/// other way (then no two counts look alike, and only the engine's limits
/// stop a turn that never ends).
fn counter_cap(rules: &Rules, counter: &Num) -> i64 {
    const UNBOUNDED: i64 = i64::MAX / 4;
    let mut cap = 0i64;
    for root in rules.roots() {
        root.walk(&mut |n| match n {
            Node::Cond(Cond::Compare(_, a, Num::Int(k)) | Cond::Compare(_, Num::Int(k), a))
                if a == counter =>
            {
                cap = cap.max(k.saturating_abs());
                false
            }
            Node::Cond(Cond::InRange(a, Num::Int(lo), Num::Int(hi))) if a == counter => {
                cap = cap.max(lo.saturating_abs().max(hi.saturating_abs()));
                false
            }
            Node::Num(x) if x == counter => {
                cap = UNBOUNDED;
                false
            }
            Node::Cond(_)
            | Node::Num(_)
            | Node::Place(_)
            | Node::Who(_)
            | Node::Region(_)
            | Node::VarAt(_) => true,
        });
    }
    cap
}
