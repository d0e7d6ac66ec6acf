//! Measuring a variant (`sow analyze`): many games between two players,
//! and what they show of it — whether the first player is favoured, how
//! long games last, how many turns a player has to choose from, whether
//! seeds are conserved, and which rules and end conditions ever fire (a
//! rule that never does is the commonest mistake in a new variant).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::ai::{self, Seat};
use crate::engine::{Game, Position, ENDLESS};
use crate::ir::{Endless, Player};
use crate::runs;
use crate::Variant;

/// What to play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// How many games.
    pub games: u64,
    /// Game `i` is played from seed `seed + i`.
    pub seed: u64,
    /// Who plays each seat (not a person).
    pub players: [Seat; 2],
    /// How hard each of the two players thinks (see [`ai::LEVELS`]).
    pub levels: [u8; 2],
    /// A game still going after this many turns is left unfinished.
    pub max_plies: u32,
    /// Keep each game's figures in the report (else only the totals).
    pub keep: bool,
}

impl Plan {
    /// Whether the two players differ (in kind, or a computer's level):
    /// then each takes the first seat in half the games.
    pub fn players_differ(&self) -> bool {
        let thinks = |k: usize| self.players[k] != Seat::Random;
        self.players[0] != self.players[1] || (thinks(0) && self.levels[0] != self.levels[1])
    }

    /// Why a player of the plan cannot play the game from `start`, if one
    /// cannot (see [`ai::refusal`]): asked before the games are played.
    pub fn refusal(&self, start: &crate::engine::Game) -> Option<String> {
        ai::refusal(&self.players, start)
    }
}

/// How one game went.
#[derive(Debug, Clone)]
pub struct Played {
    /// Turns played.
    pub plies: u32,
    /// The player who moved first.
    pub first: Player,
    /// How it ended.
    pub result: Ending,
    /// The end rules that ended its rounds and the game, in order.
    pub ends: Vec<Arc<str>>,
    /// The turns to choose from before each turn, summed.
    pub choices: u64,
    /// The most turns to choose from before a turn.
    pub widest: u32,
    /// Turns found never to end (over every position of the game).
    pub endless: u64,
    /// Positions whose seeds in play differ from the start's.
    pub unconserved: u64,
    /// For each rule (by index), the turns in which it fired.
    pub fired: Vec<u64>,
    /// The plan's second player took the first seat (in odd games, where
    /// the players differ, so that each moves first as often).
    pub swapped: bool,
}

impl Played {
    /// A game not yet played from `start`, of a variant of `rules` rules.
    fn new(start: &Position, rules: usize, swapped: bool) -> Played {
        Played {
            plies: 0,
            first: start.to_move.unwrap_or(0),
            result: Ending::Unfinished,
            ends: Vec::new(),
            choices: 0,
            widest: 0,
            endless: 0,
            unconserved: 0,
            fired: vec![0; rules],
            swapped,
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Won by this player (in a solitaire, 1: lost).
    Won(Player),
    /// Drawn.
    Drawn,
    /// Still going after the most turns allowed.
    Unfinished,
    /// A turn ran past the engine's work limit.
    TooLong,
}

/// Plays game `i` of the plan from `fresh` (a new game) in `game`;
/// `None` when Ctrl-C stopped it.
pub fn play_one(fresh: &Game, game: &mut Game, plan: &Plan, i: u64) -> Option<Played> {
    let rules = &fresh.engine().rules;
    let start = fresh.position();
    let seed = plan.seed.wrapping_add(i);
    // Random against random is one random player for both seats, from the
    // game's seed: the games `sow random` plays from the same seed.
    let both_random = plan.players == [Seat::Random; 2];
    let swapped = plan.players_differ() && i % 2 == 1;
    // The plan's player k, from a seed of its own.
    let agent = |k: usize| {
        ai::computer(
            plan.players[k],
            plan.levels[k],
            seed.wrapping_mul(2).wrapping_add(k as u64),
        )
    };
    let mut shared = ai::RandomAgent::new(seed);
    let mut agents = [agent(0)?, agent(1)?];
    let mut p = Played::new(start, rules.rules.len(), swapped);
    game.copy_afresh(fresh);
    game.trace_rules(true);
    let conserves = !rules.loses_seeds();
    let total = start.total();
    // The ply at which each rule last fired, plus one: a rule counts once
    // a turn.
    let mut stamp = vec![0u32; rules.rules.len()];
    while game.outcome().is_none() && p.plies < plan.max_plies {
        if runs::stopped() {
            return None;
        }
        let n = game.legal_turns().len() as u32;
        let endless = game.endless_turns().len() as u64;
        let seat = ai::to_move(game) as usize & 1;
        let rounds = game.rounds();
        let agent: &mut dyn ai::Agent = match both_random {
            true => &mut shared,
            false => &mut *agents[seat ^ usize::from(swapped)],
        };
        let played = agent.choose(game).and_then(|t| game.play(t));
        if played.is_err() {
            if runs::stopped() {
                // (Stopped within the turn: not a turn past the limit.)
                return None;
            }
            p.result = Ending::TooLong;
            return Some(p);
        }
        p.plies += 1;
        p.choices += u64::from(n);
        p.widest = p.widest.max(n);
        p.endless += endless;
        for &r in game.fired() {
            if stamp[r as usize] != p.plies {
                stamp[r as usize] = p.plies;
                p.fired[r as usize] += 1;
            }
        }
        if game.rounds() > rounds {
            if let Some(end) = game.round_end() {
                p.ends.push(end.outcome.reason.clone());
            }
        }
        // (Once the game is over, its `end` rules may have put seeds away.)
        if conserves && game.outcome().is_none() && game.position().total() != total {
            p.unconserved += 1;
        }
    }
    if let Some(o) = game.outcome() {
        p.ends.push(o.reason.clone());
        p.result = match o.winner {
            Some(w) => Ending::Won(w),
            None => Ending::Drawn,
        };
    }
    Some(p)
}

/// The games of a run, in order.
pub struct Report<'a> {
    /// The variant played.
    pub variant: &'a Variant,
    /// What was asked.
    pub plan: Plan,
    /// The games played, in order (with [`Plan::keep`]; else none).
    pub games: Vec<Played>,
    /// Whether Ctrl-C stopped the run before all the games were played.
    pub interrupted: bool,
    /// The games' figures, summed as they were played.
    totals: Figures,
}

/// The Wilson score interval (95%) of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96_f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Lengths of games, summarised.
#[derive(Debug, Clone)]
struct Lengths {
    mean: f64,
    median: u32,
    p95: u32,
    min: u32,
    max: u32,
    /// Equal bins from `min` to `max`: (first length, last length, games).
    bins: Vec<(u32, u32, u64)>,
}

/// How many bins a length histogram has, at most.
const BINS: u32 = 10;

impl Lengths {
    /// From how many games lasted each number of turns.
    fn of(counts: &BTreeMap<u32, u64>) -> Option<Lengths> {
        let n: u64 = counts.values().sum();
        let (&min, &max) = (counts.keys().next()?, counts.keys().next_back()?);
        // The nearest rank: the smallest length with at least q% of the
        // games at or below it (of an even count, the lower middle one
        // for the median).
        let rank = |q: u64| {
            let need = (n * q).div_ceil(100).max(1);
            let mut seen = 0;
            counts
                .iter()
                .find(|&(_, &k)| {
                    seen += k;
                    seen >= need
                })
                .map_or(max, |(&x, _)| x)
        };
        let width = (max - min) / BINS + 1;
        let mut bins: Vec<(u32, u32, u64)> = (0..=(max - min) / width)
            .map(|b| (min + b * width, (min + b * width + width - 1).min(max), 0))
            .collect();
        let mut sum = 0.0;
        for (&x, &k) in counts {
            bins[((x - min) / width) as usize].2 += k;
            sum += f64::from(x) * k as f64;
        }
        Some(Lengths {
            mean: sum / n as f64,
            median: rank(50),
            p95: rank(95),
            min,
            max,
            bins,
        })
    }
}

/// What the first player's share of the decided games says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Balanced,
    FavoursFirst,
    FavoursSecond,
    /// No game was decided (or the game has one player).
    Unknown,
}

impl Verdict {
    fn word(self) -> &'static str {
        match self {
            Verdict::Balanced => "balanced",
            Verdict::FavoursFirst => "favours_first",
            Verdict::FavoursSecond => "favours_second",
            Verdict::Unknown => "unknown",
        }
    }
}

/// The figures of a report, summed game by game (in any order and any
/// grouping: the sums of parts are the sums of the whole) and worked out
/// once for both formats.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Figures {
    played: u64,
    wins: [u64; 2],
    /// Games won by the plan's first and second player (each took the
    /// first seat in half the games).
    by_player: [u64; 2],
    /// How many finished games lasted each number of turns.
    length_counts: BTreeMap<u32, u64>,
    draws: u64,
    unfinished: u64,
    too_long: u64,
    turns: u64,
    /// Games won by the player who moved first, of those decided.
    first_wins: u64,
    decided: u64,
    // Worked out by `finish`, never summed.
    #[serde(skip, default = "no_interval")]
    interval: (f64, f64),
    #[serde(skip, default = "no_verdict")]
    verdict: Verdict,
    #[serde(skip)]
    lengths: Option<Lengths>,
    choices: u64,
    widest: u32,
    endless: u64,
    unconserved: Option<u64>,
    /// Rounds played to their end (a finished game's last included).
    rounds: u64,
    fired: Vec<u64>,
    /// Each end rule's name (and the turn that never ends, where the
    /// variant lets it end a game), with the games or rounds it ended.
    ends: Vec<(String, u64)>,
}

impl Figures {
    fn new(r: &crate::ir::Rules) -> Figures {
        let mut ends: Vec<(String, u64)> = r.ends.iter().map(|e| (e.name.clone(), 0)).collect();
        if r.endless != Endless::Forbid {
            ends.push((ENDLESS.to_string(), 0));
        }
        Figures {
            played: 0,
            wins: [0; 2],
            by_player: [0; 2],
            length_counts: BTreeMap::new(),
            draws: 0,
            unfinished: 0,
            too_long: 0,
            turns: 0,
            first_wins: 0,
            decided: 0,
            interval: no_interval(),
            verdict: no_verdict(),
            lengths: None,
            choices: 0,
            widest: 0,
            endless: 0,
            unconserved: (!r.loses_seeds()).then_some(0),
            rounds: 0,
            fired: vec![0; r.rules.len()],
            ends,
        }
    }

    /// Adds a game.
    fn add(&mut self, g: &Played) {
        self.played += 1;
        self.turns += u64::from(g.plies);
        self.choices += g.choices;
        self.widest = self.widest.max(g.widest);
        self.endless += g.endless;
        if let Some(u) = &mut self.unconserved {
            *u += g.unconserved;
        }
        for (total, n) in self.fired.iter_mut().zip(&g.fired) {
            *total += n;
        }
        for reason in &g.ends {
            if let Some(e) = self.ends.iter_mut().find(|e| *e.0 == **reason) {
                e.1 += 1;
            }
        }
        match g.result {
            Ending::Won(w) => {
                self.wins[w as usize & 1] += 1;
                self.by_player[(w as usize & 1) ^ usize::from(g.swapped)] += 1;
                self.decided += 1;
                self.first_wins += u64::from(w == g.first);
            }
            Ending::Drawn => self.draws += 1,
            Ending::Unfinished => self.unfinished += 1,
            Ending::TooLong => self.too_long += 1,
        }
        if matches!(g.result, Ending::Won(_) | Ending::Drawn) {
            *self.length_counts.entry(g.plies).or_default() += 1;
        }
        self.rounds += g.ends.len() as u64;
    }

    /// Adds the sums of another part of the same plan's games.
    fn merge(&mut self, o: &Figures) {
        self.played = self.played.saturating_add(o.played);
        for k in 0..2 {
            self.wins[k] = self.wins[k].saturating_add(o.wins[k]);
            self.by_player[k] = self.by_player[k].saturating_add(o.by_player[k]);
        }
        for (&x, &k) in &o.length_counts {
            let n = self.length_counts.entry(x).or_default();
            *n = n.saturating_add(k);
        }
        self.draws = self.draws.saturating_add(o.draws);
        self.unfinished = self.unfinished.saturating_add(o.unfinished);
        self.too_long = self.too_long.saturating_add(o.too_long);
        self.turns = self.turns.saturating_add(o.turns);
        self.first_wins = self.first_wins.saturating_add(o.first_wins);
        self.decided = self.decided.saturating_add(o.decided);
        self.choices = self.choices.saturating_add(o.choices);
        self.widest = self.widest.max(o.widest);
        self.endless = self.endless.saturating_add(o.endless);
        if let (Some(a), Some(b)) = (&mut self.unconserved, o.unconserved) {
            *a = a.saturating_add(b);
        }
        self.rounds = self.rounds.saturating_add(o.rounds);
        for (a, &b) in self.fired.iter_mut().zip(&o.fired) {
            *a = a.saturating_add(b);
        }
        for (a, b) in self.ends.iter_mut().zip(&o.ends) {
            a.1 = a.1.saturating_add(b.1);
        }
    }

    /// What in these sums contradicts itself, or the `games` of at most
    /// `max_plies` turns they are said to be of, if anything (a part made
    /// by hand, or changed on its way).
    fn contradiction(&self, games: u64, max_plies: u32) -> Option<&'static str> {
        // (Sums that overflow are contradictions too.)
        fn sum(v: impl IntoIterator<Item = u64>) -> Option<u64> {
            v.into_iter().try_fold(0u64, u64::checked_add)
        }
        let Some(won) = sum(self.wins) else {
            return Some("its wins do not add up");
        };
        let lasted = sum(self
            .length_counts
            .iter()
            .map(|(&k, &n)| u64::from(k).saturating_mul(n)));
        let checks = [
            (
                self.played == games,
                "its sums count other games than it covers",
            ),
            (
                sum([won, self.draws, self.unfinished, self.too_long]) == Some(self.played),
                "its results do not add up to its games",
            ),
            (
                self.decided == won && sum(self.by_player) == Some(won) && self.first_wins <= won,
                "its wins do not add up",
            ),
            (
                sum(self.length_counts.values().copied()) == won.checked_add(self.draws),
                "its lengths do not count its finished games",
            ),
            (
                self.turns <= games.saturating_mul(u64::from(max_plies))
                    && lasted.is_some_and(|l| l <= self.turns),
                "its games last more turns than they could",
            ),
            (
                self.fired.iter().all(|&f| f <= self.turns)
                    && self.unconserved.is_none_or(|u| u <= self.turns),
                "a rule fired in more turns than were played",
            ),
            (
                sum(self.ends.iter().map(|e| e.1)).is_some_and(|e| e <= self.rounds),
                "its ends count more than its rounds",
            ),
            (
                self.choices <= self.turns.saturating_mul(u64::from(self.widest)),
                "its turns to choose from are more than its widest choice allows",
            ),
        ];
        checks
            .into_iter()
            .find(|(holds, _)| !holds)
            .map(|(_, why)| why)
    }

    /// Whether another part's figures are of the same variant's rules.
    fn fits(&self, o: &Figures) -> bool {
        self.fired.len() == o.fired.len()
            && self.unconserved.is_some() == o.unconserved.is_some()
            && self
                .ends
                .iter()
                .map(|e| &e.0)
                .eq(o.ends.iter().map(|e| &e.0))
    }

    /// Works out what follows from the sums, once every game is in.
    fn finish(&mut self, seats: usize) {
        self.lengths = Lengths::of(&self.length_counts);
        if seats == 2 && self.decided > 0 {
            self.interval = wilson(self.first_wins, self.decided);
            self.verdict = if self.interval.0 > 0.5 {
                Verdict::FavoursFirst
            } else if self.interval.1 < 0.5 {
                Verdict::FavoursSecond
            } else {
                Verdict::Balanced
            };
        }
    }
}

fn no_interval() -> (f64, f64) {
    (0.0, 1.0)
}

fn no_verdict() -> Verdict {
    Verdict::Unknown
}

impl Report<'_> {
    fn figures(&self) -> &Figures {
        &self.totals
    }

    /// The rules that never fired (but could, under the options in force),
    /// and the end rules that never ended a game or round.
    fn never_fired(&self, f: &Figures) -> Vec<String> {
        let (e, r) = (&self.variant.engine, &self.variant.engine.rules);
        let rules = (r.rules.iter().zip(&f.fired).enumerate())
            .filter(|&(i, (_, &n))| n == 0 && !e.switched_off(i))
            .map(|(_, x)| x);
        let ends = f.ends.iter().filter(|e| e.1 == 0 && e.0 != ENDLESS);
        rules
            .map(|(rule, _)| format!("rule {}", rule.name))
            .chain(ends.map(|e| format!("end {}", e.0)))
            .collect()
    }

    /// The rules the options in force switch off.
    fn switched_off(&self) -> Vec<String> {
        let (e, r) = (&self.variant.engine, &self.variant.engine.rules);
        (0..r.rules.len())
            .filter(|&i| e.switched_off(i))
            .map(|i| r.rules[i].name.clone())
            .collect()
    }

    /// The players' names; with their levels (`mcts:3`, as
    /// [`ai::computer_named`] reads them) where only the levels differ.
    fn players(&self) -> [String; 2] {
        let p = &self.plan;
        let levelled = p.players[0] == p.players[1] && p.players_differ();
        [0, 1].map(|k| match levelled {
            true => format!("{}:{}", p.players[k].name(), p.levels[k]),
            false => p.players[k].name().to_string(),
        })
    }

    /// The report for programs.
    pub fn json(&self) -> Value {
        let f = self.figures();
        let r = &self.variant.engine.rules;
        let share = |n: u64| n as f64 / f.played.max(1) as f64;
        let mut results = crate::json::wins(r, f.wins, f.draws);
        results.insert("unfinished".into(), f.unfinished.into());
        results.insert("too_long".into(), f.too_long.into());
        let length = f.lengths.as_ref().map_or(Value::Null, |l| {
            json!({
                "mean": l.mean, "median": l.median, "p95": l.p95, "min": l.min, "max": l.max,
                "histogram": l.bins.iter().map(|&(from, to, games)| json!({"from": from, "to": to, "games": games})).collect::<Vec<_>>(),
            })
        });
        let rules: Vec<Value> = r
            .rules
            .iter()
            .zip(&f.fired)
            .map(|(rule, &n)| json!({"name": rule.name, "moment": rule.moment.name(), "turns": n}))
            .collect();
        let ends: Vec<Value> = f
            .ends
            .iter()
            .map(|(name, n)| json!({"name": name, "ended": n}))
            .collect();
        let mut out = json!({
            "variant": self.variant.name(),
            "games": f.played,
            "asked": self.plan.games,
            "seed": self.plan.seed,
            "players": self.players(),
            "level": match self.plan.levels {
                [a, b] if a == b => json!(a),
                both => json!(both),
            },
            "max_plies": self.plan.max_plies,
            "interrupted": self.interrupted,
            "results": results,
            "first_player": {
                "wins": f.first_wins, "decided": f.decided,
                "rate": (f.decided > 0).then(|| f.first_wins as f64 / f.decided as f64),
                "interval": [f.interval.0, f.interval.1],
                "verdict": f.verdict.word(),
            },
            "players_won": f.by_player,
            "draw_rate": share(f.draws),
            "turns": f.turns,
            "length": length,
            "branching": {
                "mean": f.choices as f64 / f.turns.max(1) as f64,
                "max": f.widest,
            },
            "endless": {"turns": f.endless, "policy": endless_word(r.endless)},
            "seeds_conserved": match f.unconserved {
                Some(n) => json!({"checked": true, "positions_off": n}),
                None => json!({"checked": false}),
            },
            "coverage": {
                "rules": rules, "ends": ends,
                "never_fired": self.never_fired(f), "off": self.switched_off(),
            },
        });
        if r.rounds.is_some() {
            out["rounds"] = f.rounds.into();
        }
        out
    }

    /// The report for people.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let f = self.figures();
        let r = &self.variant.engine.rules;
        let mut s = String::new();
        let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
        let [a, b] = self.players();
        let _ = writeln!(
            s,
            "{} games of {} ({a} against {b}{}, seed {}){}",
            f.played,
            self.variant.name(),
            if self.plan.players.iter().any(|&p| p != Seat::Random) {
                match self.plan.levels {
                    [a, b] if a == b => format!(", level {a}"),
                    [a, b] => format!(", levels {a} and {b}"),
                }
            } else {
                String::new()
            },
            self.plan.seed,
            if self.interrupted {
                format!(": stopped by Ctrl-C, of {} asked", self.plan.games)
            } else {
                String::new()
            },
        );
        let tally: Vec<String> = r
            .players
            .iter()
            .zip(f.wins)
            .map(|(name, n)| format!("{name} won {n}"))
            .collect();
        let _ = writeln!(
            s,
            "results: {}, {} drawn ({:.1}%), {} unfinished after {} turns, {} stopped by a turn past the engine's limit",
            tally.join(", "),
            f.draws,
            pct(f.draws, f.played),
            f.unfinished,
            self.plan.max_plies,
            f.too_long
        );
        if r.seats() == 2 {
            let _ = match f.verdict {
                Verdict::Unknown => writeln!(s, "first player: no game was decided"),
                v => writeln!(
                    s,
                    "first player: won {} of {} decided games, {:.1}% (95% interval {:.1}–{:.1}%): {}",
                    f.first_wins,
                    f.decided,
                    pct(f.first_wins, f.decided),
                    100.0 * f.interval.0,
                    100.0 * f.interval.1,
                    match v {
                        Verdict::Balanced => "balanced at this confidence",
                        Verdict::FavoursFirst => "favours the first player",
                        Verdict::FavoursSecond => "favours the second player",
                        Verdict::Unknown => "",
                    }
                ),
            };
        }
        if self.plan.players_differ() {
            let _ = writeln!(
                s,
                "players: {a} won {}, {b} won {} (each took the first seat in half the games)",
                f.by_player[0], f.by_player[1]
            );
        }
        if r.rounds.is_some() {
            let _ = writeln!(s, "rounds: {} played to their end", f.rounds);
        }
        match &f.lengths {
            None => {
                let _ = writeln!(s, "length: no game finished");
            }
            Some(l) => {
                let _ = writeln!(
                    s,
                    "length of finished games, in turns: mean {:.1}, median {}, 95th percentile {}, shortest {}, longest {}",
                    l.mean, l.median, l.p95, l.min, l.max
                );
                let most = l.bins.iter().map(|b| b.2).max().unwrap_or(1).max(1);
                for &(from, to, n) in &l.bins {
                    let bar = "#".repeat(((n * 40).div_ceil(most)) as usize);
                    let _ = writeln!(s, "  {from:>5}–{to:<5} {n:>6} {bar}");
                }
            }
        }
        let _ = writeln!(
            s,
            "branching: {:.2} turns to choose from on average, {} at most",
            f.choices as f64 / f.turns.max(1) as f64,
            f.widest
        );
        let _ = writeln!(
            s,
            "turns that never end: {} met ({})",
            f.endless,
            match r.endless {
                Endless::Forbid => "not legal: left out of the turns to choose from",
                Endless::Draw => "playing one ends the game drawn",
                Endless::Loss => "playing one loses the game",
            }
        );
        let _ = match f.unconserved {
            Some(0) => writeln!(s, "seeds: conserved in every position"),
            Some(n) => writeln!(s, "seeds: NOT conserved in {n} positions"),
            None => writeln!(s, "seeds: not checked (the rules take seeds out of play)"),
        };
        let _ = writeln!(s, "rule coverage ({} turns):", f.turns);
        let width = r.rules.iter().map(|x| x.name.len()).max().unwrap_or(0);
        for (rule, &n) in r.rules.iter().zip(&f.fired) {
            let _ = writeln!(
                s,
                "  {:<width$}  {:<7} {n:>9} turns {:>6.1}%",
                rule.name,
                rule.moment.name(),
                pct(n, f.turns)
            );
        }
        let _ = writeln!(s, "end conditions:");
        let width = f.ends.iter().map(|x| x.0.len()).max().unwrap_or(0);
        for (name, n) in &f.ends {
            let _ = writeln!(s, "  {name:<width$}  ended {n}");
        }
        let off = self.switched_off();
        if !off.is_empty() {
            let _ = writeln!(
                s,
                "off under the options in force ({}): rule {}",
                r.options_text(),
                off.join(", rule ")
            );
        }
        for dead in self.never_fired(f) {
            let _ = writeln!(s, "warning: {dead} never fired in {} games", f.played);
        }
        s
    }
}

fn endless_word(e: Endless) -> &'static str {
    match e {
        Endless::Forbid => "forbid",
        Endless::Draw => "draw",
        Endless::Loss => "loss",
    }
}

/// Some of a plan's games, played and summed: games `from` to `to`
/// (not counting `to`), on one machine or one worker of many. Parts that
/// cover a plan's games make the report one run of them all makes
/// ([`Report::merged`]), however the games were split.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Part {
    /// The variant played: its name and a fingerprint of its rules with
    /// the options in force.
    pub variant: String,
    /// The whole run's plan.
    pub plan: Plan,
    /// The first game played.
    pub from: u64,
    /// The game after the last played (short of the asked end when
    /// Ctrl-C stopped the part).
    pub to: u64,
    /// Whether Ctrl-C stopped the part.
    pub interrupted: bool,
    figures: Figures,
    /// The games, in order (with [`Plan::keep`]; never carried in the
    /// part's JSON).
    #[serde(skip)]
    games: Vec<Played>,
}

/// Plays the plan's games `games` (each from its own seed, as in the
/// whole run) on `jobs` threads, showing progress unless `quiet`.
pub fn analyze_part(
    variant: &Variant,
    start: &Game,
    plan: Plan,
    games: std::ops::Range<u64>,
    jobs: usize,
    quiet: bool,
) -> Part {
    let (from, end) = (games.start, games.end.min(plan.games).max(games.start));
    let progress = runs::Progress::new(end - from, "games", quiet);
    let mut kept = Vec::new();
    let mut figures = Figures::new(&variant.engine.rules);
    let shared = runs::Start::new(&variant.engine, start);
    let start_position = start.position().clone();
    let done = runs::in_order(
        end - from,
        jobs,
        &progress,
        // Each thread's new game, and the game it plays from it; a game
        // whose start runs past the engine's limit is one stopped so.
        || shared.games(),
        |games, i| match games {
            Some((fresh, game)) => play_one(fresh, game, &plan, from + i),
            None => {
                let mut p = Played::new(&start_position, 0, false);
                p.result = Ending::TooLong;
                Some(p)
            }
        },
        |_, g| {
            figures.add(&g);
            if plan.keep {
                kept.push(g);
            }
            true
        },
    );
    Part {
        variant: identity(variant),
        plan,
        from,
        to: from + done,
        interrupted: from + done < end,
        figures,
        games: kept,
    }
}

/// A variant's name and a fingerprint (FNV-1a) of its rules as one file
/// with the options in force: the same for the same rules on any machine.
fn identity(variant: &Variant) -> String {
    let fnv = crate::load::show(variant)
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("{} {fnv:016x}", variant.name())
}

/// How two runs' plans differ, in the words of the command line.
fn differences(a: &Plan, b: &Plan) -> String {
    let mut out = Vec::new();
    let mut differ = |what: &str, x: String, y: String| {
        if x != y {
            out.push(format!("{what} {x} and {y}"));
        }
    };
    differ("games", a.games.to_string(), b.games.to_string());
    differ("seed", a.seed.to_string(), b.seed.to_string());
    differ(
        "players",
        format!("{:?}", a.players.map(Seat::name)),
        format!("{:?}", b.players.map(Seat::name)),
    );
    differ(
        "levels",
        format!("{:?}", a.levels),
        format!("{:?}", b.levels),
    );
    differ(
        "max plies",
        a.max_plies.to_string(),
        b.max_plies.to_string(),
    );
    differ("keep", a.keep.to_string(), b.keep.to_string());
    out.join(", ")
}

/// Plays the plan's games on `jobs` threads (the same games whatever
/// `jobs` is), showing progress unless `quiet`.
pub fn analyze<'a>(
    variant: &'a Variant,
    start: &Game,
    plan: Plan,
    jobs: usize,
    quiet: bool,
) -> Report<'a> {
    let games = 0..plan.games;
    let p = analyze_part(variant, start, plan, games, jobs, quiet);
    Report::of(variant, p.plan, p.figures, p.games, p.to)
}

impl<'a> Report<'a> {
    /// The report of parts of one plan's games that, put in order, follow
    /// on from the first game: the same report one run of those games
    /// makes. Parts of different plans or variants, or with games missing
    /// or twice, are refused, saying which.
    pub fn merged(variant: &'a Variant, mut parts: Vec<Part>) -> Result<Report<'a>, String> {
        parts.sort_by_key(|p| (p.from, p.to));
        let first = parts.first().ok_or("no parts to put together")?;
        let plan = first.plan.clone();
        let mut totals = Figures::new(&variant.engine.rules);
        let mut games = Vec::new();
        let (mut next, mut interrupted) = (0, false);
        for p in parts {
            if interrupted {
                // After a part stopped by Ctrl-C, the games that follow
                // are left out, as one run stopped so leaves them.
                break;
            }
            if p.plan != plan {
                let how = differences(&plan, &p.plan);
                return Err(format!("the parts are of different runs: {how}"));
            }
            if p.variant != identity(variant) || !totals.fits(&p.figures) {
                let (name, theirs) = (variant.name(), p.variant.split(' ').next().unwrap_or(""));
                return Err(match theirs == name {
                    true => format!(
                        "games {}..{} are of {name} under other rules or options",
                        p.from, p.to
                    ),
                    false => format!("games {}..{} are of {theirs}, not {name}", p.from, p.to),
                });
            }
            if p.from > p.to || p.to > plan.games {
                return Err(format!(
                    "games {}..{} are not a part of {} games",
                    p.from, p.to, plan.games
                ));
            }
            if let Some(why) = p.figures.contradiction(p.to - p.from, plan.max_plies) {
                return Err(format!(
                    "the part of games {}..{} contradicts itself: {why}",
                    p.from, p.to
                ));
            }
            if p.from < next {
                return Err(format!("games {}..{} are in two parts", p.from, next));
            }
            if p.from > next {
                return Err(format!("games {}..{} are in no part", next, p.from));
            }
            totals.merge(&p.figures);
            games.extend(p.games);
            next = p.to;
            interrupted = p.interrupted;
        }
        if next < plan.games && !interrupted {
            return Err(format!("games {}..{} are in no part", next, plan.games));
        }
        Ok(Report::of(variant, plan, totals, games, next))
    }

    /// The report of a plan's first `done` games, summed in `totals`.
    fn of(
        variant: &'a Variant,
        plan: Plan,
        mut totals: Figures,
        games: Vec<Played>,
        done: u64,
    ) -> Report<'a> {
        totals.finish(variant.engine.rules.seats());
        Report {
            variant,
            interrupted: done < plan.games,
            plan,
            games,
            totals,
        }
    }
}
