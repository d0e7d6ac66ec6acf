//! The moments of a turn, as one table: what a moment's rules can see,
//! which actions they can take, and how its rules apply. The checker reads
//! it to accept a file, the engine to play it: neither keeps an idea of its
//! own.

use super::{Action, Moment};

/// What an expression can see where it is judged: the words that mean
/// something there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sees {
    /// `mover`, `opponent`, `before(…)`: a turn is being judged or played.
    pub mover: bool,
    /// `origin`: the turn's starting pit.
    pub origin: bool,
    /// `chose(…)`: how the turn was written.
    pub chose: bool,
    /// `last`, `captured`, `sowings`, `going(…)`: a sowing has been made.
    pub last: bool,
    /// `here`: a pit being judged (lifted, drawn, or walked by a chain).
    pub here: bool,
    /// `has_capture(…)`, `first_captures(…)`: looking ahead at the turns a
    /// player could play next.
    pub ahead: bool,
    /// `no_legal_turn`, `repeated`: judged before a turn, on the legal turns
    /// and the positions seen (only end rules are).
    pub ending: bool,
    /// `no_legal_turn(P)`: whether a player could move, were they to move
    /// in the position judged (before a turn, at `after`, and once the
    /// game or a round is over).
    pub foresees: bool,
    /// `player`: the player a score or an end rule is judged for.
    pub each: bool,
    /// The phases' names: whether the game is in a phase.
    pub phases: bool,
    /// `cut`: whether the turn just played was stopped by the sowings it
    /// may make (before a turn, and at the end).
    pub cut: bool,
    /// `last_seed`: whether the seed just dropped is its sowing's last.
    pub dropping: bool,
    /// `ended(NAME)`: which end rule ended the game or the round.
    pub ended: bool,
}

/// Nothing but constants and the board.
const NOTHING: Sees = Sees {
    mover: false,
    origin: false,
    chose: false,
    last: false,
    here: false,
    ahead: false,
    ending: false,
    foresees: false,
    each: false,
    phases: true,
    cut: false,
    dropping: false,
    ended: false,
};

/// A turn's words, once it has been played (or a sowing made).
const PLAYED: Sees = Sees {
    mover: true,
    origin: true,
    chose: true,
    last: true,
    ..NOTHING
};

impl Sees {
    /// A phase's condition: the position only (the phase decides which
    /// turns are legal, so it cannot depend on them), and no phase (the
    /// first phase whose condition holds is the game's).
    pub const PHASE: Sees = Sees {
        mover: true,
        phases: false,
        ..NOTHING
    };
    /// Where the player to move may pass (`pass when …`): judged before a
    /// turn, as the end rules are, for the player to move only.
    pub const PASS: Sees = Sees {
        mover: true,
        ending: true,
        foresees: true,
        cut: true,
        ..NOTHING
    };
    /// Turns on one pit that sow nothing (`put N from … into REGION when
    /// C`, `take N from REGION when C`): listed before a turn, for the
    /// player to move; the count and the condition are judged for each
    /// pit (`here`).
    pub const PIT_TURN: Sees = Sees {
        mover: true,
        ..NOTHING
    };
    /// The pits a take's seeds may be moved into (`take all from REGION
    /// into REGION`): listed as a take is, for each pit taken from
    /// (`origin`).
    pub const PIT_MOVE: Sees = Sees {
        mover: true,
        origin: true,
        ..NOTHING
    };
    /// An end rule (`end NAME when …`): judged before every turn.
    pub const END_RULE: Sees = Sees {
        mover: true,
        ending: true,
        foresees: true,
        each: true,
        cut: true,
        ..NOTHING
    };
    /// An end rule judged during a turn too (`at once`): the same words,
    /// `no_legal_turn` and `repeated` being known only before the turn.
    pub const END_AT_ONCE: Sees = Sees {
        mover: true,
        each: true,
        ..NOTHING
    };
    /// Whether a match is over (`match ends when …`): judged once a round
    /// has ended, on the position it ended in, as the `end` rules are.
    pub const MATCH: Sees = Sees::OVER;
    /// A rule's condition once the game, or a round, is over (`end`,
    /// `scored`, `round`): the player to move, `cut`, the end rule that
    /// ended it (`ended(NAME)`), and whether a player could move on
    /// (`no_legal_turn(P)`).
    pub const OVER: Sees = Sees {
        mover: true,
        cut: true,
        ended: true,
        foresees: true,
        ..NOTHING
    };
    /// The actions of such a rule: the player to move.
    pub const OVER_ACTING: Sees = Sees {
        mover: true,
        ..NOTHING
    };
    /// The score: each player's, at the end.
    pub const SCORE: Sees = Sees {
        each: true,
        ..NOTHING
    };
    /// A mark of the text board: the pit drawn (`here`) and the player to
    /// move.
    pub const MARK: Sees = Sees {
        mover: true,
        here: true,
        ..NOTHING
    };
    /// The `sow` block (`skip store(opponent)`, `direction … when …`): the
    /// turn about to be sown, before it is written.
    pub const SOWING: Sees = Sees {
        mover: true,
        origin: true,
        ..NOTHING
    };
}

/// How the rules of a moment apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Each rule filters the candidates in file order: `require` keeps what
    /// holds, `prefer` keeps what holds if anything does.
    Filter,
    /// The first rule that applies decides; if none does, nothing happens.
    First,
    /// Every rule that applies, in file order.
    Every,
}

/// The kinds of action a rule can take, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionKind {
    /// `require C`
    Require,
    /// `prefer C`
    Prefer,
    /// `capture PLACE|REGION …`
    Capture,
    /// `resow from PLACE HEADING`
    Resow,
    /// `relay [N]`
    Relay,
    /// `again [from PLACE]`
    Again,
    /// `stop`
    Stop,
    /// `cancel`
    Cancel,
    /// `forbid`
    Forbid,
    /// `collect`
    Collect,
    /// `reset`
    Reset,
    /// `remove PLACE|REGION`
    Remove,
    /// `divide REGION odd to PLAYER`
    Divide,
    /// `set VAR = VALUE`
    Set,
    /// `fill REGION to N from PLACE`
    Fill,
    /// `first PLAYER`
    First,
}

impl ActionKind {
    /// Every kind, in the order the README lists them.
    pub const ALL: [ActionKind; 16] = [
        ActionKind::Require,
        ActionKind::Prefer,
        ActionKind::Capture,
        ActionKind::Resow,
        ActionKind::Relay,
        ActionKind::Again,
        ActionKind::Stop,
        ActionKind::Cancel,
        ActionKind::Forbid,
        ActionKind::Collect,
        ActionKind::Reset,
        ActionKind::Remove,
        ActionKind::Divide,
        ActionKind::Set,
        ActionKind::Fill,
        ActionKind::First,
    ];

    /// The word that writes it.
    pub fn word(self) -> &'static str {
        match self {
            ActionKind::Require => "require",
            ActionKind::Prefer => "prefer",
            ActionKind::Capture => "capture",
            ActionKind::Resow => "resow",
            ActionKind::Relay => "relay",
            ActionKind::Again => "again",
            ActionKind::Stop => "stop",
            ActionKind::Cancel => "cancel",
            ActionKind::Forbid => "forbid",
            ActionKind::Collect => "collect",
            ActionKind::Reset => "reset",
            ActionKind::Remove => "remove",
            ActionKind::Divide => "divide",
            ActionKind::Set => "set",
            ActionKind::Fill => "fill",
            ActionKind::First => "first",
        }
    }

    /// The kind a word writes, if it writes one.
    pub fn named(word: &str) -> Option<ActionKind> {
        ActionKind::ALL.into_iter().find(|k| k.word() == word)
    }
}

impl Action {
    /// What kind of action this is.
    pub fn kind(&self) -> ActionKind {
        match self {
            Action::Require(_) => ActionKind::Require,
            Action::Prefer(_) => ActionKind::Prefer,
            Action::Capture { .. } | Action::CaptureRegion { .. } => ActionKind::Capture,
            Action::Resow { .. } => ActionKind::Resow,
            Action::Relay(_) | Action::RelayFrom(_) | Action::RelayGoing(_) => ActionKind::Relay,
            Action::Set { .. } | Action::SetPlayer { .. } | Action::SetNumber { .. } => {
                ActionKind::Set
            }
            Action::Again | Action::AgainFrom(_) => ActionKind::Again,
            Action::Stop => ActionKind::Stop,
            Action::Cancel => ActionKind::Cancel,
            Action::Forbid => ActionKind::Forbid,
            Action::Collect => ActionKind::Collect,
            Action::Reset => ActionKind::Reset,
            Action::Remove(_) | Action::RemoveRegion(_) => ActionKind::Remove,
            Action::Divide { .. } => ActionKind::Divide,
            Action::Fill { .. } => ActionKind::Fill,
            Action::First(_) => ActionKind::First,
        }
    }
}

/// One moment of the table.
#[derive(Debug, Clone, Copy)]
pub struct MomentSpec {
    /// The word that names it (`rule x at land`).
    pub name: &'static str,
    /// Where its rules' `when` is, for messages ("at the `land` moment").
    pub what: &'static str,
    /// Where its actions are, likewise.
    pub actions_what: &'static str,
    /// What a rule's `when` sees.
    pub when: Sees,
    /// What its actions see.
    pub actions_see: Sees,
    /// The actions its rules can take.
    pub actions: &'static [ActionKind],
    /// How its rules apply.
    pub order: Order,
}

impl Moment {
    /// Every moment, in the order a turn meets them.
    pub const ALL: [Moment; 10] = [
        Moment::Start,
        Moment::Lift,
        Moment::Drop,
        Moment::Land,
        Moment::Capture,
        Moment::Turn,
        Moment::After,
        Moment::End,
        Moment::Scored,
        Moment::Round,
    ];

    /// The moment's row of the table.
    pub fn spec(self) -> &'static MomentSpec {
        use ActionKind as K;
        match self {
            Moment::Start => &MomentSpec {
                name: "start",
                what: "at the `start` moment",
                actions_what: "at the `start` moment",
                when: Sees {
                    mover: true,
                    origin: true,
                    chose: true,
                    ..NOTHING
                },
                actions_see: Sees {
                    mover: true,
                    origin: true,
                    chose: true,
                    ..NOTHING
                },
                actions: &[K::Require, K::Prefer],
                order: Order::Filter,
            },
            Moment::Lift => &MomentSpec {
                name: "lift",
                what: "at the `lift` moment",
                actions_what: "at the `lift` moment",
                when: Sees {
                    here: true,
                    ..PLAYED
                },
                actions_see: Sees {
                    here: true,
                    ..PLAYED
                },
                actions: &[K::Capture, K::Set],
                order: Order::Every,
            },
            Moment::Drop => &MomentSpec {
                name: "drop",
                what: "at the `drop` moment",
                actions_what: "at the `drop` moment",
                when: Sees {
                    here: true,
                    dropping: true,
                    ..PLAYED
                },
                actions_see: Sees {
                    here: true,
                    dropping: true,
                    ..PLAYED
                },
                actions: &[K::Capture, K::Remove, K::Set],
                order: Order::Every,
            },
            Moment::Land => &MomentSpec {
                name: "land",
                what: "while sowing",
                actions_what: "while sowing",
                when: PLAYED,
                actions_see: PLAYED,
                actions: &[
                    K::Capture,
                    K::Remove,
                    K::Resow,
                    K::Relay,
                    K::Again,
                    K::Stop,
                    K::Forbid,
                    K::Set,
                ],
                order: Order::First,
            },
            Moment::Capture => &MomentSpec {
                name: "capture",
                what: "while sowing",
                actions_what: "while sowing",
                when: PLAYED,
                actions_see: PLAYED,
                actions: &[K::Cancel, K::Forbid, K::Capture, K::Set],
                order: Order::Every,
            },
            Moment::Turn => &MomentSpec {
                name: "turn",
                what: "in a `turn` rule's `when` (judged before the turn)",
                actions_what: "in a `turn` rule",
                when: Sees {
                    mover: true,
                    origin: true,
                    chose: true,
                    ..NOTHING
                },
                actions_see: PLAYED,
                actions: &[K::Require, K::Prefer, K::Forbid],
                order: Order::Filter,
            },
            Moment::After => &MomentSpec {
                name: "after",
                what: "at the `after` moment",
                actions_what: "at the `after` moment",
                when: Sees {
                    ahead: true,
                    foresees: true,
                    ..PLAYED
                },
                actions_see: Sees {
                    ahead: true,
                    foresees: true,
                    ..PLAYED
                },
                actions: &[K::Capture, K::Remove, K::Set, K::Again],
                order: Order::Every,
            },
            Moment::End => &MomentSpec {
                name: "end",
                what: "at the `end` moment",
                actions_what: "at the `end` moment",
                when: Sees::OVER,
                actions_see: Sees::OVER_ACTING,
                actions: &[K::Capture, K::Collect, K::Remove, K::Divide, K::Set],
                order: Order::Every,
            },
            Moment::Scored => &MomentSpec {
                name: "scored",
                what: "at the `scored` moment",
                actions_what: "at the `scored` moment",
                when: Sees::OVER,
                actions_see: Sees::OVER_ACTING,
                actions: &[K::Set],
                order: Order::Every,
            },
            Moment::Round => &MomentSpec {
                name: "round",
                what: "at the `round` moment",
                actions_what: "at the `round` moment",
                when: Sees::OVER,
                actions_see: Sees::OVER_ACTING,
                actions: &[
                    K::Capture,
                    K::Collect,
                    K::Reset,
                    K::Remove,
                    K::Set,
                    K::Fill,
                    K::First,
                ],
                order: Order::Every,
            },
        }
    }

    /// The word that names it.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The moment a word names, if it names one.
    pub fn named(word: &str) -> Option<Moment> {
        Moment::ALL.into_iter().find(|m| m.name() == word)
    }

    /// Whether its rules can take this kind of action.
    pub fn allows(self, kind: ActionKind) -> bool {
        self.spec().actions.contains(&kind)
    }
}
