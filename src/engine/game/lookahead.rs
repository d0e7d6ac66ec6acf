//! Looking ahead: the turns a player could play next, were they to move in
//! the position just reached. `has_capture` and `first_captures` read it at
//! the `after` moment, `no_legal_turn(P)` before a turn; each is worked out
//! once, when first asked, on a game object lent by the caller (so nothing
//! is allocated once they exist). A part of the game, as it plays turns.

use std::cell::{OnceCell, RefCell};
use std::sync::Arc;

use super::Game;
use crate::engine::eval::Foresight;
use crate::engine::turn::Applied;
use crate::engine::{Engine, Position, NONE};
use crate::ir::Player;

/// What one player could do next.
#[derive(Debug, Default)]
struct Look {
    /// Some legal turn of theirs captures.
    has_capture: bool,
    /// The pits the first capture of each capturing turn empties.
    first: Vec<u16>,
    /// Some turn of theirs is legal (a pass aside).
    can_move: bool,
}

/// What a look ahead works with, kept from turn to turn.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ahead {
    /// Games to work out on: the games used stay at the positions looked
    /// at, so that the caller can take over what they found.
    pub games: Vec<Game>,
    /// Lists for the pits found.
    spare: Vec<Vec<u16>>,
    /// The work a turn may do in the games looked at: the looking game's
    /// ([`Game::set_work_limit`]).
    pub limit: u64,
    /// The work the games looked at did, for the looking game to count.
    pub worked: u64,
}

/// The look ahead from one position, worked out lazily for each player.
#[derive(Debug)]
pub(crate) struct Lookahead {
    engine: Arc<Engine>,
    looks: [OnceCell<Look>; 2],
    ahead: RefCell<Ahead>,
}

impl Lookahead {
    /// A look ahead, working with `ahead` (growing it when needed).
    pub(crate) fn new(engine: Arc<Engine>, ahead: Ahead) -> Lookahead {
        Lookahead {
            engine,
            looks: [OnceCell::new(), OnceCell::new()],
            ahead: RefCell::new(ahead),
        }
    }

    /// What it worked with, back.
    pub(crate) fn into_ahead(self) -> Ahead {
        let mut ahead = self.ahead.into_inner();
        for look in self.looks.into_iter().filter_map(OnceCell::into_inner) {
            ahead.spare.push(look.first);
        }
        ahead
    }

    fn look(&self, p: Player, pos: &Position) -> &Look {
        self.looks[p as usize & 1].get_or_init(|| self.work_out(p, pos))
    }

    fn work_out(&self, p: Player, pos: &Position) -> Look {
        let mut ahead = self.ahead.borrow_mut();
        let mut look = Look {
            has_capture: false,
            first: ahead.spare.pop().unwrap_or_default(),
            can_move: false,
        };
        look.first.clear();
        let limit = ahead.limit;
        let games = &mut ahead.games;
        // The first game not used yet by this look ahead (one per player).
        let used = self.looks.iter().filter(|l| l.get().is_some()).count();
        if games.len() <= used {
            match Game::for_looking(self.engine.clone(), pos.clone()) {
                Ok(g) => games.push(g),
                Err(_) => return look,
            }
        }
        let game = &mut games[used];
        game.set_work_limit(limit);
        let start = game.work();
        // The legal turns, with every rule but the end rules (a game made
        // to look lists them, judges no end and runs no `after` rule, so
        // this does not look further).
        if game.reset(pos, p).is_err() {
            return look;
        }
        look.can_move = !game.legal_turns().is_empty();
        let mut note = |a: &Applied| {
            if a.captured {
                look.has_capture = true;
                if a.first_taken != NONE && !look.first.contains(&a.first_taken) {
                    look.first.push(a.first_taken);
                }
            }
        };
        game.judged_turns().for_each(&mut note);
        let spent = game.work().saturating_sub(start);
        ahead.worked += spent;
        look
    }
}

impl Foresight for Lookahead {
    fn has_capture(&self, p: Player, pos: &Position) -> bool {
        self.look(p, pos).has_capture
    }

    fn can_move(&self, p: Player, pos: &Position) -> bool {
        self.look(p, pos).can_move
    }

    fn first_captures(&self, p: Player, pos: &Position) -> &[u16] {
        &self.look(p, pos).first
    }
}
