//! Looking ahead: the turns a player could play next, were they to move in
//! the position just reached. `has_capture` and `first_captures` read it at
//! the `after` moment; each is worked out once, when first asked, on a game
//! object lent by the caller (so nothing is allocated once they exist).

use std::cell::{OnceCell, RefCell};
use std::sync::Arc;

use super::turn::Applied;
use super::{Engine, Game, Position, NONE};
use crate::ir::Player;

/// What one player could do next.
#[derive(Debug, Default)]
struct Look {
    /// Some legal turn of theirs captures.
    has_capture: bool,
    /// The pits the first capture of each capturing turn empties.
    first: Vec<u16>,
}

/// The look ahead from one position, worked out lazily for each player.
#[derive(Debug)]
pub(crate) struct Lookahead {
    engine: Arc<Engine>,
    looks: [OnceCell<Look>; 2],
    /// Games to work out on: the games used stay at their positions, so
    /// that the caller can take over what they found.
    games: RefCell<Vec<Game>>,
}

impl Lookahead {
    /// A look ahead, working on `games` (and adding games when there are
    /// too few).
    pub(crate) fn new(engine: Arc<Engine>, games: Vec<Game>) -> Lookahead {
        Lookahead {
            engine,
            looks: [OnceCell::new(), OnceCell::new()],
            games: RefCell::new(games),
        }
    }

    /// The games back, the ones used at the positions looked at.
    pub(crate) fn into_games(self) -> Vec<Game> {
        self.games.into_inner()
    }

    fn look(&self, p: Player, pos: &Position) -> &Look {
        self.looks[p as usize & 1].get_or_init(|| self.work_out(p, pos))
    }

    /// Whether `p` would have a legal capturing turn in `pos`.
    pub(crate) fn has_capture(&self, p: Player, pos: &Position) -> bool {
        self.look(p, pos).has_capture
    }

    /// The pits the first capture of `p`'s capturing turns in `pos` would
    /// empty.
    pub(crate) fn first_captures(&self, p: Player, pos: &Position) -> &[u16] {
        &self.look(p, pos).first
    }

    fn work_out(&self, p: Player, pos: &Position) -> Look {
        let mut look = Look::default();
        let mut games = self.games.borrow_mut();
        // The first game not used yet by this look ahead (one per player).
        let used = self.looks.iter().filter(|l| l.get().is_some()).count();
        if games.len() <= used {
            match Game::from_position(self.engine.clone(), pos.clone(), Vec::new()) {
                Ok(g) => games.push(g),
                Err(_) => return look,
            }
        }
        let game = &mut games[used];
        // The legal turns, with every rule (a game from the position lists
        // them; it runs no `after` rule, so this does not look further).
        if game.reset(pos, p).is_err() {
            return look;
        }
        let mut note = |a: &Applied| {
            if a.captured {
                look.has_capture = true;
                if a.first_taken != NONE && !look.first.contains(&a.first_taken) {
                    look.first.push(a.first_taken);
                }
            }
        };
        game.judged_turns().for_each(&mut note);
        look
    }
}
