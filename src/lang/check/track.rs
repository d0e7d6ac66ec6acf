//! The sowing tracks (`track [OWNER]: places`).

use super::*;

impl Checker {
    pub(super) fn slots(&mut self, s: &Statement) -> Vec<Slot> {
        let mut out = Vec::new();
        let mut seen: HashMap<Slot, Span> = HashMap::new();
        if tail(s).is_empty() {
            self.err(
                Diagnostic::at(s.span, "a track needs its places", "no places after `:`")
                    .hint("list the pits in sowing order: `track: A B C D E F a b c d e f`"),
            );
        }
        for e in &self.label_list(tail(s)) {
            let slot = match &e.kind {
                ExprKind::Call(n, args) if n.name == "store" && args.len() == 1 => {
                    let Some(p) = self.player(&args[0]) else {
                        continue;
                    };
                    if self.stores[p as usize].is_none() {
                        self.err(
                            Diagnostic::at(e.span, "this player has no store", "undeclared store")
                                .hint("declare it in `board`: `store PLAYER left|right`"),
                        );
                        continue;
                    }
                    Slot::Store(p)
                }
                _ => match self.label(e) {
                    Some(id) => Slot::Pit(id),
                    None => continue,
                },
            };
            if let Some(first) = seen.get(&slot) {
                self.err(
                    Diagnostic::at(e.span, "a place appears twice in this track", "second time")
                        .related(*first, "first time"),
                );
                continue;
            }
            seen.insert(slot, e.span);
            out.push(slot);
        }
        out
    }

    /// `track [OWNER]: places`: one shared, or one per player.
    pub(super) fn track(&mut self, s: &Statement, players: &[String], tracks: &mut Tracks) {
        self.no_block(s);
        let owner = match s.args.as_slice() {
            [] => None,
            [o] => match self.player(o) {
                Some(p) => Some(p),
                None => return,
            },
            _ => {
                self.err(
                    Diagnostic::at(
                        s.span,
                        "`track` takes at most an owner before `:`",
                        "expected `track [OWNER]: slots`",
                    )
                    .hint(
                        "write `track: A B C …` (shared) or `track south: A1 A2 …` (one player's)",
                    ),
                );
                return;
            }
        };
        let slots = self.slots(s);
        let which: Vec<usize> = match owner {
            None => (0..players.len()).collect(),
            Some(p) => vec![p as usize],
        };
        for p in which {
            if let Some((_, first)) = &tracks[p] {
                self.err(
                    Diagnostic::at(
                        s.span,
                        format!("`{}` has two tracks", players[p]),
                        "second track",
                    )
                    .related(*first, "first track here")
                    .hint("declare one shared `track:` or one `track PLAYER:` per player"),
                );
            }
            tracks[p] = Some((slots.clone(), s.span));
        }
    }

    /// Each player's track, once every statement is read: one for each,
    /// holding a pit of theirs, and a place to sow into beside the origin
    /// when it is skipped.
    pub(super) fn tracks(
        &mut self,
        players: &[String],
        mut tracks: Tracks,
        sowing: &Sowing,
    ) -> Option<[Vec<Slot>; 2]> {
        if players.len() == 1 {
            // A solitaire's second seat, which never moves, keeps the
            // player's track: the engine's tables stay whole.
            tracks[1] = tracks[0].clone();
        }
        let [Some((a, sa)), Some((b, sb))] = tracks else {
            for (p, t) in tracks.iter().enumerate().take(players.len()) {
                if t.is_none() {
                    self.err(
                        Diagnostic::new(format!("`{}` has no sowing track", players[p]))
                            .hint("add `track: …` (shared by both players) or `track PLAYER: …`"),
                    );
                }
            }
            return None;
        };
        for (p, (t, span)) in [(&a, sa), (&b, sb)]
            .into_iter()
            .enumerate()
            .take(players.len())
        {
            if !t.iter().any(|slot| matches!(slot, Slot::Pit(id) if self.pits[*id as usize].owner == p as Player)) {
                self.err(
                    Diagnostic::at(span, format!("`{}` has none of their pits on their track", players[p]), "nothing to sow from")
                        .hint("a player's track holds the pits they may start a turn from"),
                );
            }
            // The places a sowing can put a seed in: the stores it passes
            // over are not among them.
            let sown = t
                .iter()
                .filter(|slot| match slot {
                    Slot::Store(owner) => !sowing
                        .skip
                        .iter()
                        .any(|sk| sk.store(p as Player) == Some(*owner)),
                    Slot::Pit(_) => true,
                })
                .count();
            let skipped = sowing
                .skip
                .iter()
                .find(|sk| matches!(sk, Skip::Origin | Skip::Lifted));
            if let (true, Some(sk)) = (sown < 2, skipped) {
                let word = if *sk == Skip::Origin {
                    "origin"
                } else {
                    "lifted"
                };
                self.err(
                    Diagnostic::at(span, format!("`{}`'s track has one place to sow into: with `skip {word}` a sowing has nowhere to go", players[p]), "too short")
                        .hint("a track needs at least two places a sowing does not pass over"),
                );
            }
        }
        Some([a, b])
    }
}
