//! The board's geometry as the engine reads it: each mover's track (the
//! next and previous cell, the track as a ring), the pit facing each pit,
//! who owns each cell, each player's side, what a heading means at each
//! cell, where each variable's slots lie in a position, and the numbers
//! that hash a turn's states. Built once per variant, from the rules.

use super::NONE;
use crate::ir::{Direction, Place, Player, Region, Rules, Skip, Slot, VarAt, VarScope, Who};

/// The tables the engine sows and judges from.
#[derive(Debug)]
pub(crate) struct Board {
    /// How many pits (cells are the pits, then the two stores).
    pub npits: usize,
    /// Per mover: the next cell along the track, passing skipped stores.
    pub next: [Vec<u16>; 2],
    /// Per mover: the previous cell along the track.
    pub prev: [Vec<u16>; 2],
    /// Per mover: the cells of the track, skipped stores left out.
    pub cycle: [Vec<u16>; 2],
    /// Per mover and direction (forward, backward): the track as a ring.
    pub rings: [[Ring; 2]; 2],
    /// The pit a sowing comes round to and passes over, if any.
    pub skip_start: Option<Skip>,
    /// The most sowings a turn makes (`sowings at most N`).
    pub most_sowings: i64,
    /// The pit facing each pit, or [`NONE`].
    pub opposite: Vec<u16>,
    /// The pit behind each pit in its column (see
    /// [`crate::ir::Place::Behind`]), or [`NONE`].
    pub behind: Vec<u16>,
    /// The pit in front of each pit in its column (see
    /// [`crate::ir::Place::Front`]), or [`NONE`].
    pub front: Vec<u16>,
    /// For each mover, the pit one row nearer the side facing theirs in
    /// each pit's column, whoever owns it (see
    /// [`crate::ir::Place::Across`]), or [`NONE`].
    pub across: [Vec<u16>; 2],
    /// `owner follows VAR`: where the variable's slots begin, and the
    /// value that names each player (`u32::MAX`: none does).
    pub owner_var: Option<(usize, [u32; 2])>,
    /// The owner of every cell (pits, then the two stores).
    pub owner: Vec<Player>,
    /// Each player's pits.
    pub sides: [Vec<u16>; 2],
    /// Every pit.
    pub all: Vec<u16>,
    /// The pits in the order turns are listed: labels in natural order.
    pub move_order: Vec<u16>,
    /// Per mover, per cell, per heading (forward, backward, left, right):
    /// the direction along the mover's track, if the heading means one there.
    pub headings: [Vec<[Option<Direction>; 4]>; 2],
    /// Where each variable's slots begin in a position's variables.
    pub var_base: Vec<usize>,
    /// The starting value of every slot.
    pub var_start: Vec<u32>,
    /// A random number for each cell, to hash a turn's states.
    pub zobrist: Vec<u64>,
}

/// The value of a player-valued variable that names each player
/// (`u32::MAX` where none does: a solitaire's second seat).
pub(crate) fn player_values(rules: &Rules, v: usize) -> [u32; 2] {
    let var = &rules.vars[v];
    [0, 1].map(|p| {
        rules
            .players
            .get(p)
            .and_then(|name| var.values.iter().position(|x| x == name))
            .map_or(u32::MAX, |i| i as u32)
    })
}

impl Board {
    /// One step along the mover's track, passing over skipped stores.
    #[inline]
    pub(crate) fn step(&self, mover: Player, cell: u16, dir: Direction) -> u16 {
        let table = match dir {
            Direction::Forward => &self.next[mover as usize],
            Direction::Backward => &self.prev[mover as usize],
        };
        table[cell as usize]
    }

    /// The pit behind `c` in its column, or [`NONE`] (a store, none).
    #[inline]
    pub(crate) fn behind_of(&self, c: u16) -> u16 {
        self.behind.get(c as usize).copied().unwrap_or(NONE)
    }

    pub(crate) fn front_of(&self, c: u16) -> u16 {
        self.front.get(c as usize).copied().unwrap_or(NONE)
    }

    /// The pit one row from `c` toward the side facing `mover`'s, or
    /// [`NONE`] (a store, the far row: none).
    pub(crate) fn across_of(&self, mover: Player, c: u16) -> u16 {
        self.across[mover as usize]
            .get(c as usize)
            .copied()
            .unwrap_or(NONE)
    }

    pub(crate) fn new(rules: &Rules) -> Board {
        let npits = rules.pits.len();
        let cells = npits + 2;
        let cell_of = |s: &Slot| match s {
            Slot::Pit(p) => *p,
            Slot::Store(pl) => (npits + *pl as usize) as u16,
        };
        let mut next = [vec![NONE; cells], vec![NONE; cells]];
        let mut prev = [vec![NONE; cells], vec![NONE; cells]];
        let mut cycle: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
        for mover in 0..2u8 {
            let skipped: Vec<u16> = rules
                .sowing
                .skip
                .iter()
                .filter_map(|s| s.store(mover))
                .map(|p| (npits + p as usize) as u16)
                .collect();
            let track: Vec<u16> = rules.tracks[mover as usize]
                .iter()
                .map(cell_of)
                .filter(|c| !skipped.contains(c))
                .collect();
            let n = track.len();
            for (i, &c) in track.iter().enumerate() {
                next[mover as usize][c as usize] = track[(i + 1) % n];
                prev[mover as usize][c as usize] = track[(i + n - 1) % n];
            }
            cycle[mover as usize] = track;
        }
        let rings = [0, 1].map(|m| {
            let track = &cycle[m];
            let back: Vec<u16> = track.iter().rev().copied().collect();
            [Ring::new(track, cells), Ring::new(&back, cells)]
        });
        let nrows = rules.rows.len();
        let mut opposite = vec![NONE; npits];
        for (id, pit) in rules.pits.iter().enumerate() {
            let facing = nrows - 1 - pit.row;
            if facing != pit.row {
                if let Some(&o) = rules.rows[facing].pits.get(pit.column) {
                    opposite[id] = o;
                }
            }
        }
        // Behind: one row further from the middle, the same column and
        // owner; in front: one row nearer it. Across: a row up for the
        // first player (who sits at the bottom, the last row listed), down
        // for the second, whoever owns the pit.
        let step = |up: &dyn Fn(&crate::ir::Pit) -> bool, same_owner: bool| -> Vec<u16> {
            rules
                .pits
                .iter()
                .map(|pit| {
                    let row = if up(pit) {
                        pit.row.checked_sub(1)
                    } else {
                        Some(pit.row + 1)
                    };
                    row.and_then(|r| rules.rows.get(r))
                        .and_then(|r| r.pits.get(pit.column))
                        .copied()
                        .filter(|&b| !same_owner || rules.pits[b as usize].owner == pit.owner)
                        .unwrap_or(NONE)
                })
                .collect()
        };
        let behind = step(&|pit| 2 * pit.row < nrows, true);
        let front = step(&|pit| 2 * pit.row >= nrows, true);
        let across = [step(&|_| true, false), step(&|_| false, false)];
        let mut owner: Vec<Player> = rules.pits.iter().map(|p| p.owner).collect();
        owner.extend([0, 1]);
        let sides = [0u8, 1].map(|p| {
            (0..npits as u16)
                .filter(|&i| rules.pits[i as usize].owner == p)
                .collect::<Vec<u16>>()
        });
        let all: Vec<u16> = (0..npits as u16).collect();
        let mut move_order = all.clone();
        move_order.sort_by(|&a, &b| {
            natural(&rules.pits[a as usize].label, &rules.pits[b as usize].label)
        });
        let mut var_base = Vec::new();
        let mut var_start = Vec::new();
        for v in &rules.vars {
            var_base.push(var_start.len());
            let n = match v.scope {
                VarScope::Game => 1,
                VarScope::Player => 2,
                VarScope::Pit => npits,
            };
            var_start.extend(std::iter::repeat_n(0u32, n));
        }
        // The instances the setup starts elsewhere (`set child(H) = south`;
        // the checker allows only instances known before the game).
        for (v, at, value) in &rules.setup.vars {
            let base = var_base[*v];
            let slots: Vec<usize> = match at {
                VarAt::Game => vec![0],
                VarAt::Player(Who::Player(p)) => vec![*p as usize & 1],
                VarAt::Pit(Place::Pit(id)) => vec![*id as usize],
                VarAt::Pits(Region::Board) => (0..npits).collect(),
                VarAt::Pits(Region::Side(Who::Player(p))) => {
                    (0..npits).filter(|&i| rules.pits[i].owner == *p).collect()
                }
                VarAt::Pits(Region::Named(i, Who::Player(p))) => rules.regions[*i].pits
                    [*p as usize & 1]
                    .iter()
                    .map(|&id| id as usize)
                    .collect(),
                VarAt::Player(_) | VarAt::Pit(_) | VarAt::Pits(_) => Vec::new(),
            };
            for s in slots {
                if let Some(slot) = var_start.get_mut(base + s) {
                    *slot = *value as u32;
                }
            }
        }
        let owner_var = rules.owner.map(|v| (var_base[v], player_values(rules, v)));
        let headings = [0u8, 1].map(|mover| {
            (0..cells as u16)
                .map(|c| {
                    headings_at(
                        rules,
                        mover,
                        c,
                        &next[mover as usize],
                        &prev[mover as usize],
                    )
                })
                .collect::<Vec<_>>()
        });
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let zobrist = (0..cells)
            .map(|_| {
                // splitmix64
                seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = seed;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect();
        Board {
            npits,
            next,
            prev,
            cycle,
            rings,
            most_sowings: rules.sowing.most.map_or(i64::MAX, i64::from),
            skip_start: rules
                .sowing
                .skip
                .iter()
                .find(|sk| matches!(sk, Skip::Origin | Skip::Lifted))
                .cloned(),
            opposite,
            behind,
            front,
            across,
            owner_var,
            owner,
            sides,
            all,
            move_order,
            headings,
            var_base,
            var_start,
            zobrist,
        }
    }

    /// The table of one step along `mover`'s track (back along it when
    /// `steps` is negative), if `cell` is on the track.
    pub(crate) fn steps_from(&self, mover: Player, cell: u16, steps: i32) -> Option<&[u16]> {
        let table = if steps < 0 {
            &self.prev[mover as usize & 1]
        } else {
            &self.next[mover as usize & 1]
        };
        table
            .get(cell as usize)
            .is_some_and(|&n| n != NONE)
            .then_some(table.as_slice())
    }

    /// The place `steps` on from `cell` along `mover`'s track (back, when
    /// negative), or [`NONE`] off the track.
    pub(crate) fn along(&self, mover: Player, cell: u16, steps: i32) -> u16 {
        let Some(table) = self.steps_from(mover, cell, steps) else {
            return NONE;
        };
        // (A track is a ring: going round it more than once comes back.)
        let len = self.cycle[mover as usize & 1].len().max(1);
        let mut c = cell;
        for _ in 0..steps.unsigned_abs() as usize % len {
            c = table[c as usize];
        }
        c
    }
}

/// A track in one direction, laid out three times over, with where each
/// cell stands in the first lap: a sowing walks it by index, not by a
/// chain of look-ups each waiting on the last.
#[derive(Debug, Default)]
pub(crate) struct Ring {
    cells: Vec<u16>,
    /// Each cell's index in the first lap, or `u32::MAX` (off the track,
    /// or on it more than once: no ring then).
    at: Vec<u32>,
}

impl Ring {
    fn new(track: &[u16], cells: usize) -> Ring {
        let mut at = vec![u32::MAX; cells];
        for (i, &c) in track.iter().enumerate() {
            if at[c as usize] != u32::MAX {
                return Ring::default();
            }
            at[c as usize] = i as u32;
        }
        Ring {
            cells: track.repeat(3),
            at,
        }
    }

    /// The cells from `from` to `to`, both included, round the ring once
    /// at most, when the ring holds both.
    pub(crate) fn span(&self, from: u16, to: u16) -> Option<&[u16]> {
        let i = *self.at.get(from as usize)?;
        let j = *self.at.get(to as usize)?;
        if i == u32::MAX || j == u32::MAX {
            return None;
        }
        let len = self.cells.len() / 3;
        let steps = (j as usize + len - i as usize) % len.max(1);
        self.cells.get(i as usize..=i as usize + steps)
    }

    /// The `seeds` cells after `cell`, when the ring holds them.
    #[inline(always)]
    pub(crate) fn after(&self, cell: u16, seeds: u32) -> Option<&[u16]> {
        let i = *self.at.get(cell as usize)? as usize;
        self.cells.get(i + 1..i + 1 + seeds as usize)
    }
}

/// What each heading means for a mover at a cell: forward and backward
/// along the track; left and right towards the mover's own left or right,
/// judged by the columns of the cells next to it on the track (at the end of
/// a row, where the next cell is in the same column, by the cell before).
fn headings_at(
    rules: &Rules,
    mover: Player,
    cell: u16,
    next: &[u16],
    prev: &[u16],
) -> [Option<Direction>; 4] {
    let npits = rules.pits.len();
    if next[cell as usize] == NONE {
        return [None; 4];
    }
    let width = rules.rows.first().map_or(0, |r| r.pits.len()) as i64;
    // Columns as the mover sees them: the top player looks from the other side.
    let column = |c: u16| -> i64 {
        let x = if (c as usize) < npits {
            rules.pits[c as usize].column as i64
        } else {
            match rules.stores[c as usize - npits] {
                Some(crate::ir::Store::Left) => -1,
                Some(crate::ir::Store::Right) | None => width,
            }
        };
        if mover == 0 {
            x
        } else {
            width - 1 - x
        }
    };
    let here = column(cell);
    let (f, b) = (
        column(next[cell as usize]) - here,
        column(prev[cell as usize]) - here,
    );
    let right = if f > 0 || (f == 0 && b < 0) {
        Some(Direction::Forward)
    } else if f < 0 || (f == 0 && b > 0) {
        Some(Direction::Backward)
    } else {
        None
    };
    let left = right.map(|d| match d {
        Direction::Forward => Direction::Backward,
        Direction::Backward => Direction::Forward,
    });
    [
        Some(Direction::Forward),
        Some(Direction::Backward),
        left,
        right,
    ]
}
/// Orders labels as a person would: `A2` before `A10`.
pub fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    fn key(s: &str) -> (String, u64) {
        let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (head, tail) = s.split_at(s.len() - digits);
        (head.to_string(), tail.parse().unwrap_or(0))
    }
    let (ka, kb) = (key(a), key(b));
    // Upper-case rows (the first player's) before lower-case ones.
    let case = |s: &str| s.chars().next().is_some_and(|c| c.is_lowercase());
    (case(a), ka).cmp(&(case(b), kb))
}
