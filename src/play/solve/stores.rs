//! Whether the stores' contents decide nothing but the margin: then a
//! position's value is its stores' difference plus what is still to be
//! won, whatever the stores hold, so the solver may bound a value by the
//! seeds left in play, and keep one value for every store content.
//!
//! That holds when (read off the rules IR, conservatively: a rule the
//! analysis cannot clear counts against it):
//!
//! - no condition, number or action but the score reads a store's seeds
//!   (a place that may be a store is read only where the rule's guards
//!   say it is a pit: `owner(last) == mover and last != store(mover)`);
//! - nothing is taken out of a store (no turn sown from it, no capture or
//!   relay or fill from it), and no count reads the seeds of the whole
//!   game (`total`, `out_of_play`);
//! - every end leaves the winner to the scores (no `winner P`, no turn
//!   that never ends deciding the game), and there are two players;
//! - each player's score is their store, plus at most their side and
//!   hand.

use crate::ir::visit::{Node, Root};
use crate::ir::{Action, ArithOp, Cond, Endless, Moment, Num, Place, Region, Rules, Who};

/// What the guards of a condition say of places: those that are pits
/// (not a store), and those that are not a store of the mover or of the
/// opponent.
#[derive(Default, Clone)]
struct Guards<'a> {
    pits: Vec<&'a Place>,
    not_movers: Vec<&'a Place>,
    not_opponents: Vec<&'a Place>,
}

impl<'a> Guards<'a> {
    /// The guards with what `c`, known to hold, says added.
    fn with(&self, c: &'a Cond) -> Guards<'a> {
        let mut g = self.clone();
        g.learn(c);
        g
    }

    fn learn(&mut self, c: &'a Cond) {
        match c {
            Cond::And(v) => v.iter().for_each(|c| self.learn(c)),
            Cond::PlaceIn(p, _) => self.pits.push(p),
            Cond::Not(inner) => {
                if let Cond::SamePlace(a, b) = &**inner {
                    for (p, q) in [(a, b), (b, a)] {
                        match q {
                            Place::Store(Who::Mover) => self.not_movers.push(p),
                            Place::Store(Who::Opponent) => self.not_opponents.push(p),
                            _ => {}
                        }
                    }
                }
            }
            Cond::SamePlayer(a, b) => {
                for (w, v) in [(a, b), (b, a)] {
                    if let Who::Owner(p) = w {
                        match v {
                            // Owned by the mover: not the opponent's store.
                            Who::Mover => self.not_opponents.push(p),
                            Who::Opponent => self.not_movers.push(p),
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether `p` may be a store where these guards hold.
    fn may_be_store(&self, p: &Place) -> bool {
        match p {
            Place::Store(_) => true,
            // (Regions, opposite and behind are pits; the origin and the
            // pit lifted are pits where nothing is sown from a store, as
            // `blind` requires.)
            Place::Pit(_)
            | Place::Named(..)
            | Place::Opposite(_)
            | Place::Behind(_)
            | Place::Front(_)
            | Place::Across(_)
            | Place::First(_)
            | Place::Here
            | Place::Origin
            | Place::Lifted => false,
            Place::Last
            | Place::Along(..)
            | Place::Ahead(..)
            | Place::Stepped(..)
            | Place::If(..) => {
                let has = |v: &Vec<&Place>| v.contains(&p);
                !(has(&self.pits) || (has(&self.not_movers) && has(&self.not_opponents)))
            }
        }
    }
}

/// Why the stores' contents may decide more than the margin, if they may
/// (the first thing found); `None` where they decide only the margin.
pub(super) fn blind(rules: &Rules) -> Option<String> {
    if rules.seats() != 2 {
        return Some("a solitaire's result is not its margin".into());
    }
    if rules.endless != Endless::Forbid {
        return Some("a turn that never ends decides the game".into());
    }
    if let Some(e) = rules.ends.iter().find(|e| e.result.is_some()) {
        return Some(format!("the end rule `{}` names who wins", e.name));
    }
    if !score_is_store_and_more(&rules.score) {
        return Some("the score is not a player's store plus their side and hand".into());
    }
    for root in rules.roots() {
        let found = match root {
            // (The score is judged above; the estimate and the board's
            // marks decide nothing.)
            Root::Score(_) | Root::Mark(_) => None,
            Root::FromStore(_) => Some("turns are sown from the store".to_string()),
            Root::Put(p) if p.from == crate::ir::Held::Store => {
                Some("turns put seeds from the store".to_string())
            }
            Root::Rule(r) => {
                let base = Guards::default();
                let guarded = match r.moment {
                    // The places of these moments' actions are the ones
                    // their condition was judged on.
                    Moment::Start
                    | Moment::Land
                    | Moment::Capture
                    | Moment::Lift
                    | Moment::Drop => base.with(&r.when),
                    Moment::Turn | Moment::After | Moment::End | Moment::Scored | Moment::Round => {
                        base.clone()
                    }
                };
                cond(&r.when, &base)
                    .or_else(|| r.actions.iter().find_map(|a| action(a, &guarded)))
                    .map(|why| format!("rule `{}` {why}", r.name))
            }
            Root::End(e) => {
                cond(&e.when, &Guards::default()).map(|why| format!("end rule `{}` {why}", e.name))
            }
            Root::Phase(_)
            | Root::Way(_)
            | Root::Leave(_)
            | Root::Pass(_)
            | Root::SkipWhen(_)
            | Root::PerPlace(_)
            | Root::Put(_)
            | Root::Take(_)
            | Root::MatchEnds(_) => {
                let mut why = None;
                root.children(&mut |n| {
                    why = why.take().or_else(|| node(n, &Guards::default()));
                });
                why
            }
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Whether a score is `store(player)` plus, at most, the player's side
/// and hand (each once).
fn score_is_store_and_more(n: &Num) -> bool {
    let mut terms = Vec::new();
    fn flatten<'a>(n: &'a Num, out: &mut Vec<&'a Num>) {
        match n {
            Num::Arith(ArithOp::Add, a, b) => {
                flatten(a, out);
                flatten(b, out);
            }
            other => out.push(other),
        }
    }
    flatten(n, &mut terms);
    let count = |f: &dyn Fn(&Num) -> bool| terms.iter().filter(|t| f(t)).count();
    let store = count(&|t| matches!(t, Num::Seeds(Place::Store(Who::Each))));
    let side = count(&|t| matches!(t, Num::SeedsIn(Region::Side(Who::Each))));
    let hand = count(&|t| matches!(t, Num::Hand(Who::Each)));
    store == 1 && side <= 1 && hand <= 1 && store + side + hand == terms.len()
}

/// What an action reads of a store, if anything, where `g` holds.
fn action(a: &Action, g: &Guards) -> Option<String> {
    let takes = |p: &Place, what: &str| {
        g.may_be_store(p)
            .then(|| format!("{what} a place that may be a store"))
    };
    let own = match a {
        Action::Capture { place, .. } => takes(place, "captures from"),
        Action::Relay(_) => takes(&Place::Last, "relays from"),
        Action::RelayFrom(p) => takes(p, "relays from"),
        Action::Fill { from, .. } => takes(from, "fills from"),
        Action::Remove(p) => takes(p, "removes the seeds of"),
        Action::Reset => Some("lays the setup out again, stores and all".into()),
        _ => None,
    };
    own.or_else(|| {
        let mut why = None;
        a.children(&mut |n| why = why.take().or_else(|| node(n, g)));
        why
    })
}

/// What a node reads of a store, if anything, where `g` holds.
fn node(n: Node, g: &Guards) -> Option<String> {
    match n {
        Node::Cond(c) => cond(c, g),
        Node::Num(x) => num(x, g),
        other => {
            let mut why = None;
            other.children(&mut |n| why = why.take().or_else(|| node(n, g)));
            why
        }
    }
}

fn cond(c: &Cond, g: &Guards) -> Option<String> {
    match c {
        // Each part of an `and` is read where the others hold.
        Cond::And(v) => {
            let g = g.with(c);
            v.iter().find_map(|c| cond(c, &g))
        }
        _ => {
            let mut why = None;
            Node::Cond(c).children(&mut |n| why = why.take().or_else(|| node(n, g)));
            why
        }
    }
}

fn num(n: &Num, g: &Guards) -> Option<String> {
    match n {
        Num::Seeds(p) if g.may_be_store(p) => {
            Some("reads the seeds of a place that may be a store".into())
        }
        Num::Total => Some("reads `total`, the seeds in play with the stores'".into()),
        Num::OutOfPlay => Some("reads `out_of_play`".into()),
        Num::If(c, a, b) => cond(c, g)
            .or_else(|| num(a, &g.with(c)))
            .or_else(|| num(b, g)),
        _ => {
            let mut why = None;
            Node::Num(n).children(&mut |n| why = why.take().or_else(|| node(n, g)));
            why
        }
    }
}
