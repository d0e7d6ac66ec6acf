//! Computer players. Each chooses a turn using only what the engine offers
//! every variant (the legal turns, playing one, the outcome, the variant's
//! `score`), so one player serves every game the language can write; each
//! is reproducible from a seed.

mod alphabeta;
mod mcts;
mod perfect;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use alphabeta::AlphaBeta;
pub use mcts::Mcts;
pub use perfect::{Perfect, MAX_POSITIONS as PERFECT_MAX_POSITIONS};

use crate::engine::{Game, TooLong, Turn};
use crate::ir::Player;

/// Who plays a seat (in JSON, by its [name](Seat::name)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// A person, typing turns.
    Human,
    /// Uniformly random turns.
    Random,
    /// Monte Carlo tree search ([`Mcts`]).
    Mcts,
    /// Alpha-beta search on the variant's estimate, else its score ([`AlphaBeta`]).
    Minimax,
    /// A proven best turn, for a variant small enough to solve ([`Perfect`]).
    Perfect,
}

impl Seat {
    /// Every kind of seat.
    pub const ALL: [Seat; 5] = [
        Seat::Human,
        Seat::Random,
        Seat::Mcts,
        Seat::Minimax,
        Seat::Perfect,
    ];

    /// The seat a word names (`mcts`), if it names one.
    pub fn named(word: &str) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| s.name() == word)
    }

    /// The seat's word on the command line (`--south mcts`).
    pub fn name(self) -> &'static str {
        match self {
            Seat::Human => "human",
            Seat::Random => "random",
            Seat::Mcts => "mcts",
            Seat::Minimax => "minimax",
            Seat::Perfect => "perfect",
        }
    }
}

/// A computer player as a word names it: `mcts`, or `mcts:3` for one at
/// level 3 (with no level, the one the run gives every player).
pub fn computer_named(word: &str) -> Result<(Seat, Option<u8>), String> {
    let (name, at) = match word.split_once(':') {
        Some((name, at)) => (name, Some(at)),
        None => (word, None),
    };
    let seat = Seat::named(name)
        .filter(|&s| s != Seat::Human)
        .ok_or_else(|| {
            format!(
                "`{word}` is not a computer player: random, mcts, minimax or perfect (`mcts:3` at level 3)"
            )
        })?;
    match at.map(|at| at.parse::<u8>()) {
        None => Ok((seat, None)),
        Some(Ok(level)) if LEVELS.contains(&level) => Ok((seat, Some(level))),
        Some(_) => Err(format!("`{word}`: a level is 1 to 9")),
    }
}

/// How hard a computer player thinks: 1 (at once) to 9.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=9;

/// The level a computer plays at unless told: each player answers within
/// about 2 s a turn on the project's machine class.
pub const DEFAULT_LEVEL: u8 = 5;

/// The work a turn may do in the games a search plays (a two-hundredth of
/// the engine's limit, some 20 ms): past it the search gives the turn up
/// as one past the engine's limit, where the game itself would play it
/// out. A Bao relay can take a second to be found endless.
pub(crate) const SEARCH_WORK: u64 = crate::limits::MAX_TURN_WORK / 200;

/// A game to search from: the position, with the work a turn may do
/// lowered to [`SEARCH_WORK`].
pub(crate) fn searching(root: &Game) -> Game {
    let mut g = root.clone();
    g.set_work_limit(SEARCH_WORK);
    g
}

/// The work budget of a search at level 1 (in the engine's units,
/// [`Game::work`]): some 60 ms here; it doubles a level.
pub(crate) const LEVEL_1_WORK: u64 = 15_625_000;

/// A search's work budget at a level (250 million units at the default,
/// about a second here).
pub(crate) fn level_work(level: u8) -> u64 {
    LEVEL_1_WORK << level.saturating_sub(1).min(8)
}

/// A computer player.
pub trait Agent {
    /// The turn it plays in `game` (which has a legal turn). Fails where
    /// a turn runs past the engine's limit, or where the work it is part
    /// of is asked to stop (`runs::stopped`).
    fn choose(&mut self, game: &Game) -> Result<Turn, TooLong>;
}

/// The computer player of a seat, at a level, from a seed (none for a
/// person).
pub fn computer(seat: Seat, level: u8, seed: u64) -> Option<Box<dyn Agent>> {
    let level = level.clamp(*LEVELS.start(), *LEVELS.end());
    match seat {
        Seat::Human => None,
        Seat::Random => Some(Box::new(RandomAgent::new(seed))),
        Seat::Mcts => Some(Box::new(Mcts::at_level(level, seed))),
        Seat::Minimax => Some(Box::new(AlphaBeta::at_level(level, seed))),
        Seat::Perfect => Some(Box::new(Perfect::new(seed))),
    }
}

/// Why a player of `seats` cannot play `game`'s variant, if one cannot:
/// only a perfect player is ever refused, where the variant cannot be
/// solved or is too large (see [`perfect::refusal`], asked once however
/// many seats it takes). Each face that seats players asks before the
/// game starts.
pub fn refusal(seats: &[Seat], game: &Game) -> Option<String> {
    let refuses = |s: &Seat| match s {
        Seat::Perfect => true,
        Seat::Human | Seat::Random | Seat::Mcts | Seat::Minimax => false,
    };
    seats
        .iter()
        .any(refuses)
        .then(|| perfect::refusal(game))
        .flatten()
}

/// A turn the endgame databases prove best in `game`, where they hold
/// every turn's value (see [`crate::solve::Endgame`]); ties by `rng`. The
/// searching players play it rather than search.
pub(crate) fn endgame_turn(game: &Game, rng: &mut ChaCha8Rng) -> Option<Turn> {
    let best = crate::solve::Endgame::for_players(game)?.best_turns(game)?;
    best.get(rng.gen_range(0..best.len())).copied()
}

/// Plays uniformly at random among the legal turns.
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random player from a seed.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, game: &Game) -> Result<Turn, TooLong> {
        let legal = game.legal_turns();
        Ok(legal[self.rng.gen_range(0..legal.len())])
    }
}

/// What a finished (or cut off) game is worth to each player: 1 a win, 0 a
/// loss, ½ a draw; a game cut off before its end is judged by the
/// variant's estimate (its score unless it gives one). A solitaire's one
/// player wins or not.
pub(crate) fn rewards(game: &Game) -> [f64; 2] {
    let solo = game.engine().rules.seats() == 1;
    let winner = match game.outcome() {
        Some(o) => o.winner,
        None => {
            let s = game.engine().estimates(game.position());
            match s[0].cmp(&s[1]) {
                _ if solo => None,
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => return [0.5, 0.5],
            }
        }
    };
    match winner {
        Some(p) => {
            let mut r = [0.0; 2];
            r[p as usize & 1] = 1.0;
            r
        }
        None if solo => [0.0; 2],
        None => [0.5, 0.5],
    }
}

/// The player a computer plays for in `game`: the one to move.
pub(crate) fn to_move(game: &Game) -> Player {
    game.position().to_move.unwrap_or(0)
}
