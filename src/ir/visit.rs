//! One walk over the IR, on which every analysis of the rules is built:
//! each node's children, exhaustively, so that a new kind of node is a
//! compile error here rather than a part some analysis silently skips.

use super::{
    Action, Cond, Decision, End, Keep, Leave, Mark, Num, Phase, Place, Put, Region, Rule, Rules,
    Taking, VarAt, Way, Who,
};

/// A node of the IR.
#[derive(Debug, Clone, Copy)]
pub enum Node<'a> {
    /// A condition.
    Cond(&'a Cond),
    /// A number.
    Num(&'a Num),
    /// A place.
    Place(&'a Place),
    /// A player.
    Who(&'a Who),
    /// A set of pits.
    Region(&'a Region),
    /// An instance of a variable.
    VarAt(&'a VarAt),
}

/// Where an expression of the rules stands.
#[derive(Debug, Clone, Copy)]
pub enum Root<'a> {
    /// A rule (its `when` and its actions).
    Rule(&'a Rule),
    /// An end rule (its condition and the player it names).
    End(&'a End),
    /// A phase's condition.
    Phase(&'a Phase),
    /// A mark of the text board.
    Mark(&'a Mark),
    /// The score, or the estimate.
    Score(&'a Num),
    /// A line of the sowing's direction (its condition).
    Way(&'a Way),
    /// The seeds a lifted pit keeps (the condition where it applies).
    Leave(&'a Leave),
    /// Where the player to move may pass.
    Pass(&'a Cond),
    /// Places a sowing passes over.
    SkipWhen(&'a Cond),
    /// The seeds each place of a sowing takes (`drop N`).
    PerPlace(&'a Num),
    /// Where a turn sown from the store begins.
    FromStore(&'a Place),
    /// Turns that put held seeds into a pit (the count, the pits, the
    /// condition).
    Put(&'a Put),
    /// Turns that take seeds out of a pit (the count, the pits, the
    /// condition).
    Take(&'a Taking),
    /// Whether a match is over (`match ends when …`).
    MatchEnds(&'a Cond),
}

impl<'a> Node<'a> {
    /// Calls `f` on each child of the node (not deeper).
    pub fn children(self, f: &mut dyn FnMut(Node<'a>)) {
        match self {
            Node::Cond(c) => match c {
                Cond::True
                | Cond::InPhase(_)
                | Cond::Going(_)
                | Cond::Chose(_)
                | Cond::Flagged(_)
                | Cond::Repeated
                | Cond::Cut
                | Cond::Ended(_)
                | Cond::LastSeed => {}
                Cond::Not(a) => f(Node::Cond(a)),
                Cond::And(v) | Cond::Or(v) => v.iter().for_each(|c| f(Node::Cond(c))),
                Cond::Compare(_, a, b) => {
                    f(Node::Num(a));
                    f(Node::Num(b));
                }
                Cond::InRange(a, b, d) => {
                    f(Node::Num(a));
                    f(Node::Num(b));
                    f(Node::Num(d));
                }
                Cond::SamePlace(a, b) => {
                    f(Node::Place(a));
                    f(Node::Place(b));
                }
                Cond::SamePlayer(a, b) => {
                    f(Node::Who(a));
                    f(Node::Who(b));
                }
                Cond::PlaceIn(p, r) => {
                    f(Node::Place(p));
                    f(Node::Region(r));
                }
                Cond::VarIs(_, at, _) => f(Node::VarAt(at)),
                Cond::HasCapture(w) | Cond::NoLegalTurn(w) => f(Node::Who(w)),
            },
            Node::Num(n) => match n {
                Num::Int(_) | Num::Total | Num::OutOfPlay | Num::Captured | Num::Sowings => {}
                Num::Seeds(p) => f(Node::Place(p)),
                Num::SeedsIn(r) => f(Node::Region(r)),
                Num::Hand(w) => f(Node::Who(w)),
                Num::Count(r, c) => {
                    f(Node::Region(r));
                    f(Node::Cond(c));
                }
                Num::Before(a) => f(Node::Num(a)),
                Num::If(c, a, b) => {
                    f(Node::Cond(c));
                    f(Node::Num(a));
                    f(Node::Num(b));
                }
                Num::SumOver(r, n) => {
                    f(Node::Region(r));
                    f(Node::Num(n));
                }
                Num::Arith(_, a, b) => {
                    f(Node::Num(a));
                    f(Node::Num(b));
                }
                Num::Var(_, at) => f(Node::VarAt(at)),
            },
            Node::Place(p) => match p {
                Place::Pit(_) | Place::Last | Place::Origin | Place::Lifted | Place::Here => {}
                Place::Store(w) | Place::Named(_, w) => f(Node::Who(w)),
                Place::Opposite(p)
                | Place::Behind(p)
                | Place::Front(p)
                | Place::Across(p)
                | Place::Along(p, _)
                | Place::Ahead(p, _) => f(Node::Place(p)),
                Place::Stepped(p, n) => {
                    f(Node::Place(p));
                    f(Node::Num(n));
                }
                Place::First(r) => f(Node::Region(r)),
                Place::If(c, a, b) => {
                    f(Node::Cond(c));
                    f(Node::Place(a));
                    f(Node::Place(b));
                }
            },
            Node::Who(w) => match w {
                Who::Mover | Who::Opponent | Who::Player(_) | Who::Each | Who::Var(_) => {}
                Who::Owner(p) => f(Node::Place(p)),
                Who::Other(w) => f(Node::Who(w)),
            },
            Node::Region(r) => match r {
                Region::Board => {}
                Region::Side(w) | Region::Named(_, w) | Region::FirstCaptures(w) => f(Node::Who(w)),
                Region::Where(r, c) => {
                    f(Node::Region(r));
                    f(Node::Cond(c));
                }
                Region::First(r, n) => {
                    f(Node::Region(r));
                    f(Node::Num(n));
                }
                Region::Path(a, b) => {
                    f(Node::Place(a));
                    f(Node::Place(b));
                }
            },
            Node::VarAt(at) => match at {
                VarAt::Game => {}
                VarAt::Player(w) => f(Node::Who(w)),
                VarAt::Pit(p) => f(Node::Place(p)),
                VarAt::Pits(r) => f(Node::Region(r)),
            },
        }
    }
}

impl Action {
    /// Calls `f` on each expression the action holds.
    pub fn children<'a>(&'a self, f: &mut dyn FnMut(Node<'a>)) {
        match self {
            Action::Require(c) | Action::Prefer(c) => f(Node::Cond(c)),
            Action::Capture {
                place,
                chain,
                to,
                most,
            } => {
                f(Node::Place(place));
                if let Some(most) = most {
                    f(Node::Num(most));
                }
                if let Some(ch) = chain {
                    if let Some(from) = &ch.from {
                        f(Node::Place(from));
                    }
                    f(Node::Cond(&ch.holds));
                    if let Some(taking) = &ch.taking {
                        f(Node::Place(taking));
                    }
                    if let Some(with) = &ch.with {
                        f(Node::Place(with));
                    }
                }
                if let Some(to) = to {
                    f(Node::Place(to));
                }
            }
            Action::CaptureRegion { region, to, most } => {
                f(Node::Region(region));
                if let Some(most) = most {
                    f(Node::Num(most));
                }
                if let Some(to) = to {
                    f(Node::Place(to));
                }
            }
            Action::Resow { from, .. } => f(Node::Place(from)),
            Action::Remove(place) | Action::RelayFrom(place) | Action::AgainFrom(place) => {
                f(Node::Place(place))
            }
            Action::RemoveRegion(region) => f(Node::Region(region)),
            Action::Divide { region, odd, .. } => {
                f(Node::Region(region));
                f(Node::Who(odd));
            }
            Action::Fill { region, to, from } => {
                f(Node::Region(region));
                f(Node::Num(to));
                f(Node::Place(from));
            }
            Action::First(w) => f(Node::Who(w)),
            Action::Set { at, .. } => f(Node::VarAt(at)),
            Action::SetPlayer { at, to, .. } => {
                f(Node::VarAt(at));
                f(Node::Who(to));
            }
            Action::SetNumber { at, to, .. } => {
                f(Node::VarAt(at));
                f(Node::Num(to));
            }
            Action::Relay(_)
            | Action::RelayGoing(_)
            | Action::Again
            | Action::Stop
            | Action::Cancel
            | Action::Forbid
            | Action::Collect
            | Action::Reset => {}
        }
    }
}

impl<'a> Root<'a> {
    /// Calls `f` on each expression the root holds.
    pub fn children(self, f: &mut dyn FnMut(Node<'a>)) {
        match self {
            Root::Rule(r) => {
                f(Node::Cond(&r.when));
                r.actions.iter().for_each(|a| a.children(f));
            }
            Root::End(e) => {
                f(Node::Cond(&e.when));
                match &e.result {
                    Some(Decision::Winner(w) | Decision::Loser(w)) => f(Node::Who(w)),
                    Some(Decision::Draw) | None => {}
                }
            }
            Root::Phase(p) => f(Node::Cond(&p.when)),
            Root::Mark(m) => f(Node::Cond(&m.when)),
            Root::Score(n) => f(Node::Num(n)),
            Root::Way(w) => f(Node::Cond(&w.when)),
            Root::Leave(l) => {
                f(Node::Cond(&l.when));
                match &l.seeds {
                    Keep::All | Keep::Count(_) => {}
                    Keep::Seeds(n) => f(Node::Num(n)),
                }
            }
            Root::SkipWhen(c) => f(Node::Cond(c)),
            Root::PerPlace(n) => f(Node::Num(n)),
            Root::FromStore(p) => f(Node::Place(p)),
            Root::Put(p) => {
                f(Node::Num(&p.seeds));
                f(Node::Region(&p.into));
                f(Node::Cond(&p.when));
            }
            Root::Take(t) => {
                if let Some(n) = &t.seeds {
                    f(Node::Num(n));
                }
                f(Node::Region(&t.from));
                if let Some(p) = &t.to {
                    f(Node::Place(p));
                }
                if let Some(r) = &t.into {
                    f(Node::Region(r));
                }
                f(Node::Cond(&t.when));
            }
            Root::Pass(c) | Root::MatchEnds(c) => f(Node::Cond(c)),
        }
    }

    /// Calls `f` on every node under the root, parents first, going
    /// deeper under a node only while `f` returns `true` for it.
    pub fn walk(self, f: &mut dyn FnMut(Node<'a>) -> bool) {
        self.children(&mut |n| walk(n, f));
    }

    /// Whether some node under the root is one `f` accepts.
    pub fn any(self, f: &dyn Fn(Node<'a>) -> bool) -> bool {
        let mut found = false;
        self.walk(&mut |n| {
            found |= f(n);
            !found
        });
        found
    }
}

/// Calls `f` on `node` and, while `f` says so, on everything under it,
/// parents before children.
pub fn walk<'a>(node: Node<'a>, f: &mut dyn FnMut(Node<'a>) -> bool) {
    if f(node) {
        node.children(&mut |c| walk(c, f));
    }
}

impl Rules {
    /// Every place an expression stands in the rules: each rule, end
    /// rule, phase, mark, the score, the sowing's lines, the pass and
    /// the match's end.
    pub fn roots(&self) -> impl Iterator<Item = Root<'_>> {
        self.rules
            .iter()
            .map(Root::Rule)
            .chain(self.ends.iter().map(Root::End))
            .chain(self.phases.iter().map(Root::Phase))
            .chain(self.marks.iter().map(Root::Mark))
            .chain(std::iter::once(Root::Score(&self.score)))
            .chain(self.estimate.iter().map(Root::Score))
            .chain(self.sowing.direction.iter().map(Root::Way))
            .chain(self.sowing.leave.iter().map(Root::Leave))
            .chain(self.pass.iter().map(Root::Pass))
            .chain(self.sowing.skip_when.iter().map(Root::SkipWhen))
            .chain(self.sowing.per_place.iter().map(Root::PerPlace))
            .chain(self.sowing.from_store.iter().map(Root::FromStore))
            .chain(self.put.iter().map(Root::Put))
            .chain(self.take.iter().map(Root::Take))
            .chain(self.rounds.iter().map(Root::MatchEnds))
    }

    /// Whether some node anywhere in the rules is one `f` accepts.
    pub fn any(&self, f: &dyn Fn(Node) -> bool) -> bool {
        self.roots().any(|r| r.any(f))
    }
}
