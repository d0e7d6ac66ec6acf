//! Arguments several commands share: output formats, who plays a seat,
//! how a long run is carried out and how many games it plays.

use clap::{Args, ValueEnum};

use crate::{ai, runs};

/// Output formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum Format {
    Text,
    Json,
}

/// Who plays a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum SeatArg {
    /// A person, typing turns on standard input.
    Human,
    /// Uniformly random turns.
    Random,
    /// Monte Carlo tree search.
    Mcts,
    /// Alpha-beta search on the variant's estimate (its score unless it gives one).
    Minimax,
    /// A proven best turn (the solver's), for a variant small enough to solve.
    Perfect,
}

impl SeatArg {
    pub(super) fn seat(self) -> ai::Seat {
        match self {
            SeatArg::Human => ai::Seat::Human,
            SeatArg::Random => ai::Seat::Random,
            SeatArg::Mcts => ai::Seat::Mcts,
            SeatArg::Minimax => ai::Seat::Minimax,
            SeatArg::Perfect => ai::Seat::Perfect,
        }
    }
}

/// How a long run is carried out.
#[derive(Args, Debug, Clone, Copy)]
pub(super) struct RunArgs {
    /// How many threads play (default: one per core); the results are
    /// the same whatever the number.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: Option<u16>,
    /// No progress bar (none is drawn either when standard error is not a
    /// terminal).
    #[arg(long)]
    pub(super) quiet: bool,
}

impl RunArgs {
    pub(super) fn jobs(self) -> usize {
        self.jobs.map_or_else(runs::all_cores, usize::from)
    }
}

/// How many games a long run plays, from which seed, and how long each
/// may last (`random`, `analyze`).
#[derive(Args, Debug)]
pub(super) struct Many {
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    pub(super) games: u64,
    /// Game i is played from seed SEED + i; the same seed gives the same
    /// games.
    #[arg(long, default_value_t = 0)]
    pub(super) seed: u64,
    /// Stop a game unfinished after this many turns (so that a variant
    /// whose games need not end cannot make the run last forever).
    #[arg(long, default_value_t = 10_000)]
    pub(super) max_plies: u32,
}
