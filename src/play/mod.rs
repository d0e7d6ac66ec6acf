//! Playing games: a move list, random games and perft (`games`), random
//! games in bulk (`random`), the computer players (`ai`), a game at the
//! seats (`session`), records, scripts, long runs on threads (`runs`), the
//! analysis of a variant and a tournament's table of players.

pub mod ai;
pub mod analyze;
mod games;
pub mod random;
pub mod record;
pub mod runs;
pub mod script;
pub mod session;
pub mod solve;
pub mod tournament;

pub use games::*;
