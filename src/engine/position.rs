//! A position: the seeds in every pit, store and hand, and the player to move.

use crate::ir::Player;

/// The state of the board between turns.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Position {
    /// Seeds in each pit (in declaration order), then in the two stores.
    pub cells: Vec<u32>,
    /// Seeds in each player's hand.
    pub hands: [u32; 2],
    /// The player to move; `None` once the game is over.
    pub to_move: Option<Player>,
    /// The variables, by slot (see [`super::Engine::var_slots`]): each
    /// holds the index of its value.
    pub vars: Vec<u32>,
}

impl Position {
    /// Copies `other` into `self` without allocating when the sizes match.
    #[inline]
    pub fn copy_from(&mut self, other: &Position) {
        self.cells.clone_from(&other.cells);
        self.hands = other.hands;
        self.to_move = other.to_move;
        self.vars.clone_from(&other.vars);
    }

    /// Seeds in play: pits, stores and hands.
    pub fn total(&self) -> u64 {
        self.cells.iter().map(|&c| c as u64).sum::<u64>()
            + self.hands.iter().map(|&h| h as u64).sum::<u64>()
    }
}
