//! A variant's turns numbered: every turn its notation can write is
//! chosen by numbers fixed by the rules alone, from 0 up to
//! [`Actions::count`], so that programs naming moves by number
//! (OpenSpiel's action ids, the outputs of a policy network) have the same
//! numbers in every position and every run.
//!
//! The numbers run, for each pit in the order the board lists them: the
//! turn written without a letter, then with each letter; within each, with
//! each combination of the flags (as bits, in the order the notation
//! declares them). Then `pass`, where the rules have passes, then
//! `store:1` … `store:1000`, where a turn may sow from the store, then a
//! put into each pit (`put:LABEL`, in the order the board lists them),
//! where the variant has `put` (or, where the mover chooses how many, for
//! each pit, each count from 1 to 1000: `put:1A` … `put:1000A`), then a
//! take from each pit (`take:LABEL`), where it has `take`, or, where its take moves the seeds into a pit the
//! mover chooses, one for each pit and each pit (`A>b`: A's seeds into b).
//!
//! A flag answered at each sowing (`flag "<" per sowing`) makes a turn a
//! series of choices: the turn's pit, letter and other flags first, by the
//! numbers above, then the answers, one number each, while more than one
//! turn is still open: `<k` (the flag, at the end of sowing `k`, 1 to 31)
//! or `end` (no flag at any later sowing). Written one after the other, a
//! turn's numbers write it (`end` writes nothing): `A3`, `<2`, `<5` is
//! `A3<2<5`. A turn half chosen is a [`Partial`]; a number completing a
//! turn gives it [whole](Chosen::Whole).

use crate::engine::{Game, Turn};
use crate::ir::Rules;
use crate::limits::MAX_STORE_TURN;

/// How a variant's turns are numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actions {
    pits: usize,
    letters: usize,
    /// The flags a number's bits give (the per-sowing flag not among them).
    flags: u32,
    pass: bool,
    store: bool,
    /// The variant has puts (`put … into …`): one number per pit.
    puts: bool,
    /// Its puts' counts are chosen (`put 1..N from …`): a number for each
    /// pit and each count up to [`MAX_STORE_TURN`].
    counted: bool,
    /// The variant has takes (`take … from …`): one number per pit.
    takes: bool,
    /// Its takes move the seeds into a pit the mover chooses (`take …
    /// into …`): one number for each pit and each pit.
    moves: bool,
    /// The per-sowing flag's index, where there is one.
    per_sowing: Option<u32>,
}

/// A turn half chosen: its pit, letter and flags, and the per-sowing
/// flag's answers up to sowing `after` (more than one turn is still open).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partial {
    turn: Turn,
    after: u32,
}

impl Partial {
    /// The turn so far (its answers up to [`Partial::after`]).
    pub fn turn(self) -> Turn {
        self.turn
    }

    /// The sowings answered so far: the flag's answers at sowings 1 to
    /// this are fixed, later ones still to choose.
    pub fn after(self) -> u32 {
        self.after
    }
}

/// What a number chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chosen {
    /// A whole turn, to play.
    Whole(Turn),
    /// Part of one: more numbers are to come.
    Partial(Partial),
}

/// A turn without its per-sowing answers (a turn from the store as it is).
fn unanswered(t: Turn) -> Turn {
    match t.seeds() {
        0 => t.with_marks(0),
        _ => t,
    }
}

/// The per-sowing flag's answers at sowings 1 to `after`.
fn answered(after: u32) -> u32 {
    1u32.checked_shl(after).map_or(u32::MAX, |b| b - 1)
}

impl Actions {
    /// The numbering of a variant's turns.
    pub fn of(rules: &Rules) -> Actions {
        let notation = &rules.notation;
        let per_sowing = notation.per_sowing.map(|i| i as u32);
        Actions {
            pits: rules.pits.len(),
            letters: notation.letters.len(),
            flags: notation.flags.len() as u32 - u32::from(per_sowing.is_some()),
            pass: rules.pass.is_some(),
            store: rules.sowing.from_store.is_some(),
            puts: rules.put.is_some(),
            counted: rules.put.as_ref().is_some_and(|p| p.upto.is_some()),
            takes: rules.take.is_some(),
            moves: rules.take.as_ref().is_some_and(|t| t.into.is_some()),
            per_sowing,
        }
    }

    /// The turns of one pit: without a letter and with each, each with
    /// every combination of flags.
    fn per_pit(&self) -> usize {
        (self.letters + 1) << self.flags
    }

    /// The first number of the puts (past the turns from the store).
    fn first_put(&self) -> usize {
        self.pits * self.per_pit()
            + self.pass as usize
            + if self.store {
                MAX_STORE_TURN as usize
            } else {
                0
            }
    }

    /// The numbers of one pit's puts: one, or one for each count chosen.
    fn per_put(&self) -> usize {
        if self.counted {
            MAX_STORE_TURN as usize
        } else {
            1
        }
    }

    /// The first number of the takes (past the puts).
    fn first_take(&self) -> usize {
        self.first_put()
            + if self.puts {
                self.pits * self.per_put()
            } else {
                0
            }
    }

    /// How many numbers name a turn's pit, letter and flags (or a pass, a
    /// turn from the store, a put, a take): the answers come after.
    fn turns(&self) -> usize {
        self.first_take() + self.take_numbers()
    }

    /// How many numbers the takes have: one a pit, or one for each pit
    /// and each pit it may move its seeds into.
    fn take_numbers(&self) -> usize {
        match (self.takes, self.moves) {
            (false, _) => 0,
            (true, false) => self.pits,
            (true, true) => self.pits * self.pits,
        }
    }

    /// How many numbers there are.
    pub fn count(&self) -> usize {
        self.turns()
            + match self.per_sowing {
                Some(_) => Turn::MARKED_SOWINGS as usize + 1,
                None => 0,
            }
    }

    /// The most numbers one turn takes.
    pub fn most_per_turn(&self) -> usize {
        match self.per_sowing {
            Some(_) => 2 + Turn::MARKED_SOWINGS as usize,
            None => 1,
        }
    }

    /// A turn's flags as a number's bits: the per-sowing flag's bit taken
    /// out.
    fn squeeze(&self, flags: u8) -> usize {
        let flags = flags as usize;
        match self.per_sowing {
            Some(i) => (flags & ((1 << i) - 1)) | (flags >> (i + 1) << i),
            None => flags,
        }
    }

    /// A number's bits as a turn's flags: the per-sowing flag's bit put
    /// back (as no).
    fn spread(&self, bits: usize) -> u8 {
        let bits = match self.per_sowing {
            Some(i) => (bits & ((1 << i) - 1)) | (bits >> i << (i + 1)),
            None => bits,
        };
        bits as u8
    }

    /// The number of a turn's pit, letter and flags (of a pass, or a turn
    /// from the store): the first number of the turn (none for a turn
    /// this numbering does not hold).
    pub fn number(&self, turn: Turn) -> Option<usize> {
        let pits = self.pits * self.per_pit();
        if turn == Turn::PASS {
            return self.pass.then_some(pits);
        }
        if turn.is_put() {
            let count = match (turn.put_seeds(), self.counted) {
                (None, false) => 0,
                (Some(n), true) if (1..=MAX_STORE_TURN).contains(&n) => n as usize - 1,
                (Some(_), true) | (None, true) | (Some(_), false) => return None,
            };
            return (self.puts && (turn.pit as usize) < self.pits)
                .then(|| self.first_put() + turn.pit as usize * self.per_put() + count);
        }
        if turn.is_take() {
            let pit = turn.pit as usize;
            return match turn.destination() {
                None => {
                    (self.takes && !self.moves && pit < self.pits).then(|| self.first_take() + pit)
                }
                Some(into) => (self.moves && pit < self.pits && (into as usize) < self.pits)
                    .then(|| self.first_take() + pit * self.pits + into as usize),
            };
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
        let bits = self.squeeze(turn.flags);
        let fits = pit < self.pits
            && letter <= self.letters
            && bits < (1 << self.flags)
            && self.spread(bits) == turn.flags
            && (turn.marks() == 0 || self.per_sowing.is_some());
        fits.then(|| pit * self.per_pit() + (letter << self.flags) + bits)
    }

    /// The number of the answer `<k`.
    fn flag_at(&self, k: u32) -> usize {
        self.turns() + k as usize - 1
    }

    /// The number of the answer `end`.
    fn end(&self) -> usize {
        self.turns() + Turn::MARKED_SOWINGS as usize
    }

    /// The legal turns of `game` that `partial` leads to (all of them,
    /// with none).
    pub fn open<'g>(
        &self,
        game: &'g Game,
        partial: Option<Partial>,
    ) -> impl Iterator<Item = Turn> + 'g {
        let p = partial.map(|p| (p.turn, answered(p.after)));
        game.legal_turns()
            .iter()
            .copied()
            .filter(move |&t| match p {
                None => true,
                Some((so_far, fixed)) => {
                    unanswered(t) == unanswered(so_far) && t.marks() & fixed == so_far.marks()
                }
            })
    }

    /// The answer that goes from `partial` towards `t`.
    fn answer(&self, partial: Partial, t: Turn) -> usize {
        match t.marks() & !answered(partial.after) {
            0 => self.end(),
            later => self.flag_at(later.trailing_zeros() + 1),
        }
    }

    /// The legal numbers of `game`, ascending: with `partial`, the answers
    /// that go on from it.
    pub fn legal(&self, game: &Game, partial: Option<Partial>) -> Vec<usize> {
        let mut numbers: Vec<usize> = match partial {
            None => self
                .open(game, None)
                .filter_map(|t| self.number(t))
                .collect(),
            Some(p) => self
                .open(game, partial)
                .map(|t| self.answer(p, t))
                .collect(),
        };
        numbers.sort_unstable();
        numbers.dedup();
        numbers
    }

    /// What number `n` chooses in `game`, with `partial` chosen so far:
    /// a whole turn, or part of one (none where `n` is not legal).
    pub fn choose(&self, game: &Game, partial: Option<Partial>, n: usize) -> Option<Chosen> {
        let next = match partial {
            None => {
                let t = self.open(game, None).find(|&t| self.number(t) == Some(n))?;
                Partial {
                    turn: unanswered(t),
                    after: 0,
                }
            }
            Some(p) if n == self.end() => Partial {
                after: Turn::MARKED_SOWINGS,
                ..p
            },
            Some(p) => {
                let k = (n.checked_sub(self.turns())? + 1) as u32;
                if !(p.after + 1..=Turn::MARKED_SOWINGS).contains(&k) {
                    return None;
                }
                Partial {
                    turn: p.turn.with_marks(p.turn.marks() | 1 << (k - 1)),
                    after: k,
                }
            }
        };
        // The turns the choice leaves open: none, one (whole), or more.
        let mut open = self.open(game, Some(next));
        let first = open.next()?;
        Some(match open.next() {
            None => Chosen::Whole(first),
            Some(_) => Chosen::Partial(next),
        })
    }

    /// The numbers that choose `turn` in `game`, in order (none if it is
    /// not legal there).
    pub fn numbers(&self, game: &Game, turn: Turn) -> Option<Vec<usize>> {
        let mut out = vec![self.number(turn)?];
        let mut partial = None;
        for _ in 0..self.most_per_turn() {
            match self.choose(game, partial, *out.last()?)? {
                Chosen::Whole(t) => return (t == turn).then_some(out),
                Chosen::Partial(p) => {
                    out.push(self.answer(p, turn));
                    partial = Some(p);
                }
            }
        }
        None
    }

    /// The numbers that chose `partial`, in order.
    pub fn taken(&self, partial: Partial) -> Vec<usize> {
        let base = self.number(unanswered(partial.turn));
        let marks = partial.turn.marks();
        base.into_iter()
            .chain(
                (1..=partial.after)
                    .filter(|k| marks >> (k - 1) & 1 == 1)
                    .map(|k| self.flag_at(k)),
            )
            .collect()
    }

    /// The text of number `n` as the notation writes it (none past the
    /// last number): a turn, or an answer (`<2`, `end`).
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
                self.spread(flags),
                0,
            ));
        }
        if n >= self.turns() {
            let f = rules.notation.flags.get(self.per_sowing? as usize)?;
            let k = n - self.turns() + 1;
            return match k {
                k if k <= Turn::MARKED_SOWINGS as usize => Some(format!("{f}{k}")),
                k if k == Turn::MARKED_SOWINGS as usize + 1 => Some(END.to_string()),
                _ => None,
            };
        }
        if self.takes && n >= self.first_take() {
            let k = n - self.first_take();
            if self.moves {
                let (from, into) = (
                    rules.pits.get(k / self.pits)?,
                    rules.pits.get(k % self.pits)?,
                );
                return Some(format!(
                    "{}{}{}",
                    from.label,
                    super::notation::MOVE_TO,
                    into.label
                ));
            }
            let pit = rules.pits.get(k)?;
            return Some(format!("{}{}", super::notation::TAKE, pit.label));
        }
        if self.puts && n >= self.first_put() {
            let k = n - self.first_put();
            let pit = rules.pits.get(k / self.per_put())?;
            if self.counted {
                let count = k % self.per_put() + 1;
                return Some(format!("{}{count}{}", super::notation::PUT, pit.label));
            }
            return Some(format!("{}{}", super::notation::PUT, pit.label));
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

/// The answer that no later sowing is flagged.
pub const END: &str = "end";
