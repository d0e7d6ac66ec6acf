//! A variant's turns numbered: every turn its notation can write gets a
//! number fixed by the rules alone, from 0 up to [`Actions::count`], so
//! that programs naming moves by number (OpenSpiel's action ids, the
//! outputs of a policy network) have the same numbers in every position
//! and every run.
//!
//! The numbers run, for each pit in the order the board lists them: the
//! turn written without a letter, then with each letter; within each, with
//! each combination of the flags (as bits, in the order the notation
//! declares them). Then `pass`, where the rules have passes, then
//! `store:1` … `store:1000`, where a turn may sow from the store. A flag
//! answered at each sowing (`flag "<" per sowing`) makes a turn a series
//! of choices, which one number cannot name: such variants are refused.

use crate::engine::{Game, Turn};
use crate::ir::Rules;
use crate::limits::MAX_STORE_TURN;

/// How a variant's turns are numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actions {
    pits: usize,
    letters: usize,
    flags: u32,
    pass: bool,
    store: bool,
}

impl Actions {
    /// The numbering of a variant's turns, or why it has none.
    pub fn of(rules: &Rules) -> Result<Actions, String> {
        let notation = &rules.notation;
        if let Some(i) = notation.per_sowing {
            return Err(format!(
                "the turns of {} cannot be numbered: its flag `{}` is answered at each sowing, so a turn is a series of choices",
                rules.name, notation.flags[i]
            ));
        }
        Ok(Actions {
            pits: rules.pits.len(),
            letters: notation.letters.len(),
            flags: notation.flags.len() as u32,
            pass: rules.pass.is_some(),
            store: rules.sowing.from_store.is_some(),
        })
    }

    /// The turns of one pit: without a letter and with each, each with
    /// every combination of flags.
    fn per_pit(&self) -> usize {
        (self.letters + 1) << self.flags
    }

    /// How many numbers there are.
    pub fn count(&self) -> usize {
        self.pits * self.per_pit()
            + self.pass as usize
            + if self.store {
                MAX_STORE_TURN as usize
            } else {
                0
            }
    }

    /// The number of a turn (none for a turn this numbering does not
    /// hold).
    pub fn number(&self, turn: Turn) -> Option<usize> {
        let pits = self.pits * self.per_pit();
        if turn == Turn::PASS {
            return self.pass.then_some(pits);
        }
        if turn.seeds() > 0 {
            let first = pits + self.pass as usize;
            return (self.store && turn.seeds() <= MAX_STORE_TURN)
                .then(|| first + turn.seeds() as usize - 1);
        }
        let pit = turn.pit as usize;
        let letter = match turn.choice {
            Turn::NO_LETTER => 0,
            l => l as usize + 1,
        };
        let fits = pit < self.pits
            && letter <= self.letters
            && (turn.flags as usize) < (1 << self.flags)
            && turn.marks() == 0;
        fits.then(|| pit * self.per_pit() + (letter << self.flags) + turn.flags as usize)
    }

    /// The legal turns of `game`, by number, ascending.
    pub fn legal(&self, game: &Game) -> Vec<usize> {
        let mut numbers: Vec<usize> = game
            .legal_turns()
            .iter()
            .filter_map(|&t| self.number(t))
            .collect();
        numbers.sort_unstable();
        numbers
    }

    /// The legal turn of `game` numbered `n`, if there is one.
    pub fn turn(&self, game: &Game, n: usize) -> Option<Turn> {
        game.legal_turns()
            .iter()
            .copied()
            .find(|&t| self.number(t) == Some(n))
    }

    /// The text of turn number `n` as the notation writes it (none past
    /// the last number).
    pub fn written(&self, rules: &Rules, n: usize) -> Option<String> {
        let pits = self.pits * self.per_pit();
        if n < pits {
            let (pit, rest) = (n / self.per_pit(), n % self.per_pit());
            let (letter, flags) = (rest >> self.flags, rest & ((1 << self.flags) - 1));
            return Some(super::notation::encode(
                &rules.pits,
                &rules.notation,
                pit,
                letter.checked_sub(1),
                flags as u8,
                0,
            ));
        }
        let n = n - pits;
        if self.pass && n == 0 {
            return Some(super::notation::PASS.to_string());
        }
        let n = n - self.pass as usize;
        (self.store && n < MAX_STORE_TURN as usize)
            .then(|| format!("{}{}", super::notation::FROM_STORE, n + 1))
    }
}
