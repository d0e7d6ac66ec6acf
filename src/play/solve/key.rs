//! A position as one exact number: the key the solver's table and its
//! path of positions are read by. Every part of a position that decides
//! the game is in it (the player to move, every cell, both hands, every
//! variable slot), each a digit of a mixed-radix number, so two positions
//! have the same key only when they are the same position; but where the
//! stores decide only the margin (see `stores`), the stores are left out:
//! what is still to be won is the same whatever they hold, and the table
//! keeps that. (On one line of play two positions with the same pits
//! have the same stores: no seed leaves a store, and a store's seeds are
//! the pits' less.)

use crate::engine::{Engine, Position};

/// How a variant's positions are numbered: the radix of each digit.
#[derive(Debug, Clone)]
pub(super) struct Keys {
    /// Seeds a cell or hand can hold, plus one: the most seeds in play.
    seeds: u32,
    /// Each variable slot's radix: how many values it holds.
    vars: Vec<u32>,
    /// The store cells left out of the key (their digits read as empty),
    /// where what a position is worth is kept relative to its stores.
    stores: Option<[usize; 2]>,
}

/// How many values each variable slot of a position holds, in the order
/// of [`Position::vars`]: a digit's radix (the keys' and the endgame
/// databases').
pub(super) fn var_radices(engine: &Engine) -> Vec<u32> {
    engine
        .rules
        .vars
        .iter()
        .enumerate()
        .flat_map(|(v, var)| {
            let values = match var.numbers {
                Some((low, high)) => high.saturating_sub(low).saturating_add(1),
                None => var.values.len() as i64,
            };
            let slots = engine.var_slots_of(v);
            std::iter::repeat_n(values.clamp(1, i64::from(u32::MAX)) as u32, slots)
        })
        .collect()
}

impl Keys {
    /// The numbering of positions of at most `seeds` seeds in play, or
    /// why there is none (a board too large to number in 128 bits).
    pub(super) fn new(
        engine: &Engine,
        seeds: u64,
        stores: Option<[usize; 2]>,
    ) -> Result<Keys, String> {
        let seeds = u32::try_from(seeds.saturating_add(1))
            .map_err(|_| format!("{seeds} seeds are too many to solve"))?;
        let keys = Keys {
            seeds,
            vars: var_radices(engine),
            stores,
        };
        // The largest key: every digit at its highest.
        let digits = engine.cells() + 2;
        let mut room: u128 = 3;
        for r in std::iter::repeat_n(keys.seeds, digits).chain(keys.vars.iter().copied()) {
            room = room.checked_mul(u128::from(r)).ok_or_else(|| {
                format!(
                    "its positions ({} cells of up to {} seeds, {} variable slots) are too many to number in 128 bits",
                    engine.cells(),
                    keys.seeds - 1,
                    keys.vars.len()
                )
            })?;
        }
        Ok(keys)
    }

    /// The most seeds a cell may hold.
    pub(super) fn most(&self) -> u32 {
        self.seeds - 1
    }

    /// The numbering written out (what a saved table's keys were
    /// numbered by: one read back must have been numbered alike).
    pub(super) fn layout(&self) -> String {
        let stores = self
            .stores
            .map_or("kept".to_string(), |[a, b]| format!("{a},{b}"));
        let vars: Vec<String> = self.vars.iter().map(u32::to_string).collect();
        format!(
            "seeds={} vars=[{}] stores={stores}",
            self.seeds,
            vars.join(",")
        )
    }

    /// The key of a position, or `None` if it holds more seeds in a cell
    /// than the numbering allows (or a variable past its values).
    #[inline]
    pub(super) fn key(&self, pos: &Position) -> Option<u128> {
        let mut k: u128 = pos.to_move.map_or(0, |p| u128::from(p & 1) + 1);
        let radix = u128::from(self.seeds);
        let [s0, s1] = self.stores.unwrap_or([usize::MAX; 2]);
        for (i, &c) in pos.cells.iter().chain(&pos.hands).enumerate() {
            if c >= self.seeds {
                return None;
            }
            let digit = if i == s0 || i == s1 { 0 } else { c };
            k = k * radix + u128::from(digit);
        }
        for (&v, &r) in pos.vars.iter().zip(&self.vars) {
            if v >= r {
                return None;
            }
            k = k * u128::from(r) + u128::from(v);
        }
        Some(k)
    }
}
