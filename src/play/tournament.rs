//! A tournament's table: players met in pairs over many games (each pair
//! a run of `sow analyze` with the two players), the results of each
//! pair with a Wilson interval, and ratings on the Elo scale fitted to
//! all the results at once.
//!
//! The ratings are the Bradley–Terry model's: a player of rating `r`
//! scores against one of rating `s`, on average, `1 / (1 + 10^((s - r) /
//! 400))` of a point a game (a win 1, a draw ½). They are fitted by
//! maximum likelihood with Hunter's MM iteration, every pair given one
//! drawn game more than it played so that a player who never scored has
//! a rating all the same, and shifted to average 0. Games left unfinished
//! count for neither player.

use serde_json::{json, Value};

use super::analyze::wilson;

/// Two players' results against each other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meeting {
    /// The players, by the names the table gives them.
    pub players: [String; 2],
    /// Games each won.
    pub wins: [u64; 2],
    /// Games drawn.
    pub draws: u64,
    /// Games that ended in neither (unfinished, or stopped by a turn past
    /// the engine's limit).
    pub unfinished: u64,
}

/// The most rounds the ratings' fit takes (it settles in far fewer).
const MAX_ROUNDS: usize = 10_000;

/// The most games a table counts, all meetings together (2^53: each count
/// exact as a JSON number).
pub const MAX_GAMES: u64 = 1 << 53;

/// The table of a tournament's meetings: each player's games, score and
/// rating (best rated first), and each meeting with the first player's
/// share of the decided games and its 95% Wilson interval. Two meetings
/// of the same pair count together. A meeting of a player with itself,
/// or more than [`MAX_GAMES`] games, are refused.
pub fn table(meetings: &[Meeting]) -> Result<Value, String> {
    let mut total: u64 = 0;
    for m in meetings {
        if m.players[0] == m.players[1] {
            return Err(format!(
                "a meeting is of two players, not of `{}` with itself",
                m.players[0]
            ));
        }
        total = [m.wins[0], m.wins[1], m.draws, m.unfinished]
            .into_iter()
            .try_fold(total, u64::checked_add)
            .filter(|&t| t <= MAX_GAMES)
            .ok_or(format!("a table counts at most {MAX_GAMES} games"))?;
    }
    let mut names: Vec<&str> = Vec::new();
    for m in meetings {
        for p in &m.players {
            if !names.contains(&p.as_str()) {
                names.push(p);
            }
        }
    }
    let index = |p: &str| names.iter().position(|n| *n == p).unwrap_or(0);
    let n = names.len();
    // Points and games between each pair, each pair with one draw more.
    let mut points = vec![0.0; n];
    let mut games = vec![vec![0.0; n]; n];
    let mut record = vec![[0u64; 4]; n];
    for m in meetings {
        let [a, b] = [index(&m.players[0]), index(&m.players[1])];
        let draws = m.draws as f64 + 1.0;
        let played = (m.wins[0] + m.wins[1]) as f64 + draws;
        points[a] += m.wins[0] as f64 + draws / 2.0;
        points[b] += m.wins[1] as f64 + draws / 2.0;
        games[a][b] += played;
        games[b][a] += played;
        for (k, me) in [a, b].into_iter().enumerate() {
            let r = &mut record[me];
            r[0] += m.wins[k];
            r[1] += m.draws;
            r[2] += m.wins[1 - k];
            r[3] += m.unfinished;
        }
    }
    let strength = fit(&points, &games);
    let mean = strength.iter().map(|g| g.log10()).sum::<f64>() / n.max(1) as f64;
    let rating = |i: usize| 400.0 * (strength[i].log10() - mean);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| rating(j).total_cmp(&rating(i)));
    let players: Vec<Value> = order
        .iter()
        .map(|&i| {
            let [won, drawn, lost, unfinished] = record[i];
            let decided = won + drawn + lost;
            json!({
                "name": names[i],
                "games": decided + unfinished,
                "wins": won, "draws": drawn, "losses": lost, "unfinished": unfinished,
                "score": (decided > 0).then(|| (won as f64 + drawn as f64 / 2.0) / decided as f64),
                "rating": (rating(i) * 10.0).round() / 10.0,
            })
        })
        .collect();
    let meetings: Vec<Value> = meetings
        .iter()
        .map(|m| {
            let decided = m.wins[0] + m.wins[1];
            let (low, high) = wilson(m.wins[0], decided);
            json!({
                "players": m.players,
                "games": decided + m.draws + m.unfinished,
                "wins": m.wins, "draws": m.draws, "unfinished": m.unfinished,
                "share": (decided > 0).then(|| m.wins[0] as f64 / decided as f64),
                "interval": [low, high],
            })
        })
        .collect();
    Ok(json!({"players": players, "meetings": meetings}))
}

/// The Bradley–Terry strengths that best explain `points` (each player's
/// total) over `games` (played between each pair): Hunter's MM
/// iteration, to a relative change below 1e-12 or [`MAX_ROUNDS`].
fn fit(points: &[f64], games: &[Vec<f64>]) -> Vec<f64> {
    let n = points.len();
    let mut gamma = vec![1.0; n];
    for _ in 0..MAX_ROUNDS {
        let mut next: Vec<f64> = (0..n)
            .map(|i| {
                let d: f64 = (0..n)
                    .filter(|&j| j != i && games[i][j] > 0.0)
                    .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                    .sum();
                if d > 0.0 {
                    points[i] / d
                } else {
                    gamma[i]
                }
            })
            .collect();
        let scale = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        for g in &mut next {
            *g /= scale.exp();
        }
        let change = (0..n)
            .map(|i| (next[i] / gamma[i] - 1.0).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    gamma
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meeting(a: &str, b: &str, wins: [u64; 2], draws: u64) -> Meeting {
        Meeting {
            players: [a.into(), b.into()],
            wins,
            draws,
            unfinished: 0,
        }
    }

    fn table(meetings: &[Meeting]) -> Value {
        super::table(meetings).unwrap()
    }

    fn ratings(t: &Value) -> Vec<(String, f64)> {
        t["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["name"].as_str().unwrap().into(),
                    p["rating"].as_f64().unwrap(),
                )
            })
            .collect()
    }

    /// Equal results give equal ratings (0 each); a player who scores 3
    /// of 4 points (the virtual draw included) against another is rated
    /// 400·log10(3) ≈ 190.8 above it.
    #[test]
    fn ratings_follow_the_model() {
        let even = table(&[meeting("a", "b", [5, 5], 2)]);
        assert_eq!(ratings(&even), [("a".into(), 0.0), ("b".into(), 0.0)]);
        let t = table(&[meeting("a", "b", [2, 0], 1)]);
        let r = ratings(&t);
        assert_eq!(r[0].0, "a");
        assert!(
            (r[0].1 - r[1].1 - 400.0 * 3f64.log10()).abs() < 0.11,
            "{r:?}"
        );
    }

    /// A player who never scored has a rating still, below the others';
    /// three players in a cycle are rated alike.
    #[test]
    fn ratings_are_finite_and_ordered() {
        let t = table(&[
            meeting("strong", "weak", [50, 0], 0),
            meeting("strong", "mid", [30, 20], 0),
            meeting("mid", "weak", [45, 5], 0),
        ]);
        let r = ratings(&t);
        let names: Vec<&str> = r.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(names, ["strong", "mid", "weak"]);
        assert!(r.iter().all(|x| x.1.is_finite()));
        assert!((r.iter().map(|x| x.1).sum::<f64>()).abs() < 0.2);
        let cycle = table(&[
            meeting("x", "y", [6, 3], 0),
            meeting("y", "z", [6, 3], 0),
            meeting("z", "x", [6, 3], 0),
        ]);
        assert!(ratings(&cycle).iter().all(|x| x.1.abs() < 0.1));
    }

    /// A player met with itself, or more games than the counts hold
    /// exactly, are refused.
    #[test]
    fn a_table_that_cannot_be_is_refused() {
        let own = super::table(&[meeting("a", "a", [1, 2], 0)]).unwrap_err();
        assert_eq!(own, "a meeting is of two players, not of `a` with itself");
        let many = super::table(&[meeting("a", "b", [u64::MAX, 1], 0)]).unwrap_err();
        assert!(many.starts_with("a table counts at most"), "{many}");
        let half = MAX_GAMES / 2 + 1;
        let summed = super::table(&[
            meeting("a", "b", [half, 0], 0),
            meeting("b", "c", [half, 0], 0),
        ]);
        assert!(summed.is_err());
    }

    /// A meeting's share is of the decided games, with its interval.
    #[test]
    fn a_meeting_has_its_share_and_interval() {
        let t = table(&[meeting("a", "b", [30, 10], 5)]);
        let m = &t["meetings"][0];
        assert_eq!(m["share"], 0.75);
        assert_eq!(m["games"], 45);
        let (lo, hi) = wilson(30, 40);
        assert_eq!(m["interval"], json!([lo, hi]));
        assert!(lo < 0.75 && 0.75 < hi);
        let p = &t["players"][0];
        assert_eq!(
            (p["wins"].clone(), p["draws"].clone(), p["losses"].clone()),
            (json!(30), json!(5), json!(10))
        );
    }
}
