//! Looking ahead: the turns a player could play next, were they to move in
//! the position just reached. `has_capture` and `first_captures` read it at
//! the `after` moment; each is worked out once, when first asked.

use std::cell::OnceCell;
use std::sync::Arc;

use super::turn::Scratch;
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
    pos: Position,
    looks: [OnceCell<Look>; 2],
}

impl Lookahead {
    /// A look ahead from `pos`.
    pub(crate) fn new(engine: Arc<Engine>, pos: &Position) -> Lookahead {
        Lookahead {
            engine,
            pos: pos.clone(),
            looks: [OnceCell::new(), OnceCell::new()],
        }
    }

    fn look(&self, p: Player) -> &Look {
        self.looks[p as usize & 1].get_or_init(|| self.work_out(p))
    }

    /// Whether `p` would have a legal capturing turn.
    pub(crate) fn has_capture(&self, p: Player) -> bool {
        self.look(p).has_capture
    }

    /// The pits the first capture of `p`'s capturing turns would empty.
    pub(crate) fn first_captures(&self, p: Player) -> &[u16] {
        &self.look(p).first
    }

    fn work_out(&self, p: Player) -> Look {
        let mut q = self.pos.clone();
        q.to_move = Some(p);
        let mut look = Look::default();
        // The legal turns, with every rule (a game from the position lists
        // them; it runs no `after` rule, so this does not look further).
        let Ok(game) = Game::from_position(self.engine.clone(), q.clone(), Vec::new()) else {
            return look;
        };
        let mut note = |a: &super::turn::Applied| {
            if a.captured {
                look.has_capture = true;
                if a.first_taken != NONE && !look.first.contains(&a.first_taken) {
                    look.first.push(a.first_taken);
                }
            }
        };
        match game.judged_turns() {
            // The game played each turn to list it.
            Some(judged) => judged.for_each(&mut note),
            None => {
                let mut scratch = Scratch::default();
                for &t in game.legal_turns() {
                    let mut sim = q.clone();
                    if let Ok(a) = self.engine.apply(&mut sim, &q, t, &mut scratch) {
                        note(&a);
                    }
                }
            }
        }
        look
    }
}
