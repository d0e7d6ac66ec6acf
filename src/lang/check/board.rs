//! The players and the board: rows (and row groups), stores, marks;
//! named regions and pits.

use super::*;

impl Checker {
    pub(super) fn players_stmt(&mut self, s: &Statement) {
        self.no_block(s);
        let names: Vec<Option<String>> = s
            .args
            .iter()
            .map(|e| e.as_word().map(str::to_string))
            .collect();
        for (n, e) in names.iter().zip(&s.args) {
            if let Some(n) = n.as_ref().filter(|n| n.chars().count() > MAX_NAME) {
                self.err(
                    Diagnostic::at(
                        e.span,
                        format!(
                            "`{}…` is too long for a player's name",
                            n.chars().take(8).collect::<String>()
                        ),
                        format!("more than {MAX_NAME} characters"),
                    )
                    .hint("write `players south north`"),
                );
                return;
            }
            if let Some(n) = n {
                if n == "draw"
                    || expr::WORDS.contains(&n.as_str())
                    || expr::FUNCTIONS.contains(&n.as_str())
                {
                    self.err(
                        Diagnostic::at(e.span, format!("`{n}` cannot name a player"), "a reserved word")
                            .hint("`draw` and the built-in words (mover, opponent, player, …) mean something else"),
                    );
                    return;
                }
            }
        }
        match names.as_slice() {
            // Two players, or one (a solitaire: who moves every turn).
            [Some(a), Some(b)] if a != b => self.set_players(s, vec![a.clone(), b.clone()]),
            [Some(one)] => self.set_players(s, vec![one.clone()]),
            [Some(a), Some(_)] => self.err(
                Diagnostic::at(
                    s.span,
                    format!("`players` names `{a}` twice"),
                    "the same name",
                )
                .hint("give the players two different names: `players south north`"),
            ),
            _ => self.err(
                Diagnostic::at(
                    s.span,
                    "`players` takes one name (a solitaire) or two different names",
                    "expected one or two names",
                )
                .hint("write `players south north`: the first sits at the bottom of the board"),
            ),
        }
    }

    /// The players, declared once.
    fn set_players(&mut self, s: &Statement, names: Vec<String>) {
        if self.players.is_some() {
            self.err(
                Diagnostic::at(
                    s.span,
                    "the players are declared twice",
                    "second declaration",
                )
                .hint("keep one `players` line"),
            );
        }
        self.players = Some(names);
    }

    pub(super) fn board(&mut self, s: &Statement) {
        let body = self.block(s);
        let mut store_spans: [Option<Span>; 2] = [None, None];
        // Each row's length as written, runs counted out (a rejected label
        // still takes its place).
        let mut written: Vec<(usize, Span)> = Vec::new();
        for st in body {
            match st.word.name.as_str() {
                "row" if st.block.is_some() => self.shared_row(st, &mut written),
                "row" => {
                    let (owner, group) = match st.args.as_slice() {
                        [o] => (self.player(o), None),
                        [o, g] => match g.as_word() {
                            Some(g) => (self.player(o), Some((g.to_string(), st.args[1].span))),
                            None => {
                                self.err(
                                    Diagnostic::at(g.span, "a row group is a name", "not a name")
                                        .hint("write `row south inner: A1 A2 …`"),
                                );
                                (None, None)
                            }
                        },
                        _ => {
                            self.err(
                                Diagnostic::at(
                                    st.span,
                                    "`row` takes its owner and, optionally, a group name",
                                    "expected `row OWNER [GROUP]: labels`",
                                )
                                .hint("write `row south: A B C D E F`, or `row GROUP { north: …  south: … }` for a row the players share"),
                            );
                            (None, None)
                        }
                    };
                    if st.tail.is_none() || tail(st).is_empty() {
                        self.err(Diagnostic::at(st.span, "a row needs its pit labels", "no labels")
                            .hint("write the labels after `:`, left to right as drawn: `row south: A B C D E F`"));
                        continue;
                    }
                    let said = self.diagnostics.len();
                    let labels = self.label_list(tail(st));
                    if self.diagnostics.len() == said {
                        // (A run that cannot be read has no length to compare.)
                        written.push((labels.len(), st.span));
                    }
                    let Some(owner) = owner else { continue };
                    let row = self.rows.len();
                    let ids = self.row_pits(&labels, owner, row, 0);
                    if let Some((g, span)) = &group {
                        self.group_part(g, *span, owner, &ids);
                    }
                    self.rows.push(Row {
                        group: group.map(|g| g.0),
                        owner: Some(owner),
                        pits: ids,
                    });
                }
                "store" => {
                    self.no_block(st);
                    match st.args.as_slice() {
                        [o, side] => {
                            let owner = self.player(o);
                            let where_ = match side.as_word() {
                                Some("left") => Some(Store::Left),
                                Some("right") => Some(Store::Right),
                                _ => {
                                    self.err(
                                        Diagnostic::at(
                                            side.span,
                                            "a store is drawn `left` or `right`",
                                            "expected `left` or `right`",
                                        )
                                        .hint("write `store south right`"),
                                    );
                                    None
                                }
                            };
                            if let (Some(o), Some(w)) = (owner, where_) {
                                if let Some(first) = store_spans[o as usize] {
                                    self.err(
                                        Diagnostic::at(
                                            st.span,
                                            "this player's store is declared twice",
                                            "second store",
                                        )
                                        .related(first, "first store here"),
                                    );
                                }
                                store_spans[o as usize] = Some(st.span);
                                self.stores[o as usize] = Some(w);
                            }
                        }
                        _ => self.err(
                            Diagnostic::at(
                                st.span,
                                "`store` takes its owner and a side",
                                "expected `store OWNER left|right`",
                            )
                            .hint("write `store south right`"),
                        ),
                    }
                }
                "mark" => self.mark_statements.push(st.clone()),
                _ => self.unknown(st, &["row", "store", "mark"], "board statement"),
            }
        }
        if self.rows.is_empty() {
            self.err(
                Diagnostic::at(s.span, "the board has no rows", "empty board").hint(format!(
                    "add `row {}: A B C D E F`",
                    self.players.as_ref().map_or("south", |p| p[0].as_str())
                )),
            );
            return;
        }
        let width = written.first().map_or(0, |w| w.0);
        for &(len, span) in &written {
            if len != width {
                self.diagnostics.push(
                    Diagnostic::at(
                        span,
                        format!("this row has {len} pits, the first row {width}"),
                        "rows differ in length",
                    )
                    .hint("every row of the board has the same number of pits"),
                );
            }
        }
        for p in 0..self.seats() as u8 {
            if !self.pits.iter().any(|pit| pit.owner == p) {
                let name = self
                    .players
                    .as_ref()
                    .map_or(String::new(), |ps| ps[p as usize].clone());
                self.err(
                    Diagnostic::at(
                        s.word.span,
                        format!("`{name}` owns no row"),
                        "incomplete board",
                    )
                    .hint(format!("add `row {name}: …`")),
                );
            }
        }
    }

    /// `row [GROUP] { OWNER: labels  OWNER: labels }`: a row the players
    /// share, each part its owner's, left to right as drawn (the middle
    /// row of a three-row board, each half a player's). A group names
    /// each player's part, as a row group does.
    fn shared_row(&mut self, st: &Statement, written: &mut Vec<(usize, Span)>) {
        let group = match st.args.as_slice() {
            [] => None,
            [g] if g.as_word().is_some() => {
                Some((g.as_word().expect("a word").to_string(), g.span))
            }
            _ => {
                self.err(
                    Diagnostic::at(
                        st.span,
                        "a shared row takes, optionally, a group name",
                        "expected `row [GROUP] { OWNER: labels … }`",
                    )
                    .hint("write `row centre { north: c3 c2 c1  south: C1 C2 C3 }`, each player's part left to right as drawn"),
                );
                return;
            }
        };
        if st.tail.is_some() {
            self.err(
                Diagnostic::at(st.span, "a shared row gives its labels in its block", "labels after `:`")
                    .hint("write each player's part on a line of the block: `row { north: c3 c2 c1  south: C1 C2 C3 }`"),
            );
        }
        let row = self.rows.len();
        let said = self.diagnostics.len();
        let (mut ids, mut length) = (Vec::new(), 0);
        let mut parts: [Option<Span>; 2] = [None, None];
        for part in self.block(st) {
            self.no_block(part);
            let Some(owner) = self.player(&part.word_expr()) else {
                continue;
            };
            if let Some(first) = parts[owner as usize].replace(part.span) {
                self.err(
                    Diagnostic::at(
                        part.span,
                        "this player's part of the row is given twice",
                        "second part",
                    )
                    .related(first, "first part here")
                    .hint("a row holds one part per player: write its pits on one line"),
                );
                continue;
            }
            if tail(part).is_empty() {
                self.err(
                    Diagnostic::at(
                        part.span,
                        "no pits for this player's part of the row",
                        "no labels after `:`",
                    )
                    .hint(format!("write `{}: C1 C2 C3`", part.word.name)),
                );
                continue;
            }
            let labels = self.label_list(tail(part));
            length += labels.len();
            let mine = self.row_pits(&labels, owner, row, ids.len());
            if let Some((g, span)) = &group {
                self.group_part(g, *span, owner, &mine);
            }
            ids.extend(mine);
        }
        if parts.iter().filter(|p| p.is_some()).count() < 2 {
            self.err(
                Diagnostic::at(
                    st.span,
                    "a shared row has a part for each player",
                    "one owner",
                )
                .hint("a row of one player's is written `row south: A B C`"),
            );
            return;
        }
        if self.diagnostics.len() == said {
            written.push((length, st.span));
        }
        self.rows.push(Row {
            group: group.map(|g| g.0),
            owner: None,
            pits: ids,
        });
    }

    /// The pits of a row's labels, owned by `owner`, in row `row` from
    /// column `first`; each label declared once.
    fn row_pits(&mut self, labels: &[Expr], owner: Player, row: usize, first: usize) -> Vec<PitId> {
        let mut ids = Vec::new();
        for (i, e) in labels.iter().enumerate() {
            let Some(label) = e.as_word() else {
                self.err(
                    Diagnostic::at(e.span, "a pit label is a name", "not a label")
                        .hint("labels are letters and digits, such as `A` or `a1`"),
                );
                continue;
            };
            if self.pits.len() >= MAX_PITS {
                self.err(Diagnostic::limit(
                    e.span,
                    format!("a board has at most {MAX_PITS} pits"),
                    "one too many",
                ));
                break;
            }
            if label.chars().count() > MAX_NAME {
                self.err(
                    Diagnostic::limit(
                        e.span,
                        format!("a pit label is at most {MAX_NAME} characters"),
                        "too long",
                    )
                    .hint("labels are what players type: `A`, `a1`, `B8`"),
                );
                continue;
            }
            if label == crate::notation::PASS {
                self.err(
                    Diagnostic::at(e.span, "`pass` cannot label a pit", "a reserved word").hint(
                        "`pass` is how a pass is written in a game's turns: choose another label",
                    ),
                );
                continue;
            }
            if !self.declare(label, e.span, "label") {
                continue;
            }
            let id = self.pits.len() as PitId;
            self.pits.push(Pit {
                label: label.to_string(),
                owner,
                row,
                column: first + i,
            });
            self.labels.insert(label.to_string(), id);
            self.label_spans.push(e.span);
            ids.push(id);
        }
        ids
    }

    /// A row group's part for `owner`: the region the group names.
    fn group_part(&mut self, g: &str, span: Span, owner: Player, ids: &[PitId]) {
        match self.region_index.get(g).copied() {
            Some(i) => {
                if !self.regions[i].pits[owner as usize].is_empty() {
                    self.err(
                        Diagnostic::at(
                            span,
                            format!("`{g}` already has a row of this player"),
                            "second row in the group",
                        )
                        .hint("a row group holds one row per player"),
                    );
                }
                self.regions[i].pits[owner as usize] = ids.to_vec();
            }
            None => {
                if self.declare(g, span, "row group") {
                    let mut pits: [Vec<PitId>; 2] = [Vec::new(), Vec::new()];
                    pits[owner as usize] = ids.to_vec();
                    self.region_index.insert(g.to_string(), self.regions.len());
                    self.regions.push(NamedRegion {
                        name: g.to_string(),
                        pits,
                    });
                }
            }
        }
    }

    /// `owner follows VAR`: a pit's owner is the player its per-pit
    /// variable names, where it names one.
    pub(super) fn owner_follows(
        &mut self,
        s: &Statement,
        players: &[String],
        owner: &mut Option<usize>,
    ) {
        self.no_block(s);
        let usage = "write `owner follows child`, after `var child per pit: none south north`";
        if owner.is_some() {
            return self.err(
                Diagnostic::at(s.word.span, "`owner` is declared twice", "second `owner`")
                    .hint("keep one `owner follows VAR`"),
            );
        }
        let [f, v] = s.args.as_slice() else {
            return self.err(
                Diagnostic::at(s.span, "malformed `owner`", "expected `owner follows VAR`")
                    .hint(usage),
            );
        };
        let name = v.as_word().unwrap_or_default();
        let found = self.vars.iter().position(|x| x.name == name);
        match (f.as_word(), found) {
            (Some("follows"), Some(i)) => {
                let var = &self.vars[i];
                if var.scope != VarScope::Pit {
                    return self.err(
                        Diagnostic::at(
                            v.span,
                            format!("`{name}` is not a per-pit variable"),
                            "one value for each pit needed",
                        )
                        .hint(usage),
                    );
                }
                if let Some(p) = players.iter().find(|p| !var.values.contains(p)) {
                    return self.err(
                        Diagnostic::at(v.span, format!("`{name}` cannot name `{p}`: its values are {}", var.values.join(", ")), "not every player among its values")
                            .hint(format!("name its values after the players, with one for none: `var {name} per pit: none {}`", players.join(" "))),
                    );
                }
                *owner = Some(i);
            }
            (Some("follows"), None) => {
                let known: Vec<&str> = self.vars.iter().map(|x| x.name.as_str()).collect();
                self.err(Diagnostic::unknown(
                    Some(v.span),
                    name,
                    format!("`{name}` is not a variable"),
                    "expected a per-pit variable",
                    known.iter().copied(),
                    usage,
                ));
            }
            _ => self.err(
                Diagnostic::at(s.span, "malformed `owner`", "expected `owner follows VAR`")
                    .hint(usage),
            ),
        }
    }

    /// `region NAME { OWNER: labels… }` and `pit NAME { OWNER: label }`.
    pub(super) fn per_player(
        &mut self,
        s: &Statement,
        what: &str,
    ) -> Option<(String, [Vec<PitId>; 2])> {
        let name = match s.args.as_slice() {
            [e] if e.as_word().is_some() => e.as_word().expect("a word").to_string(),
            _ => {
                self.err(
                    Diagnostic::at(
                        s.span,
                        format!("`{}` takes one name", s.word.name),
                        "expected a name",
                    )
                    .hint(format!("write `{} NAME {{ south: …  }}`", s.word.name)),
                );
                return None;
            }
        };
        let body = self.block(s);
        let mut pits: [Vec<PitId>; 2] = [Vec::new(), Vec::new()];
        let mut seen: [bool; 2] = [false, false];
        for st in body {
            let Some(owner) = self.player(&st.word_expr()) else {
                continue;
            };
            if seen[owner as usize] {
                self.err(
                    Diagnostic::at(
                        st.span,
                        format!("this player's part of `{name}` is given twice"),
                        "second line",
                    )
                    .hint("one line per player"),
                );
            }
            seen[owner as usize] = true;
            for e in &self.label_list(tail(st)) {
                if let Some(id) = self.label(e) {
                    pits[owner as usize].push(id);
                }
            }
            if tail(st).is_empty() {
                self.err(
                    Diagnostic::at(
                        st.span,
                        format!("no pits for this player's {what}"),
                        "no labels after `:`",
                    )
                    .hint(format!("write `{}: A5`", st.word.name)),
                );
            }
        }
        for p in 0..self.seats() {
            if !seen[p] {
                let pname = self
                    .players
                    .as_ref()
                    .map_or(String::new(), |ps| ps[p].clone());
                self.err(
                    Diagnostic::at(
                        s.span,
                        format!("`{name}` has no part for `{pname}`"),
                        "incomplete",
                    )
                    .hint(format!("add `{pname}: …` inside the block")),
                );
            }
        }
        if !self.declare(&name, s.args[0].span, what) {
            return None;
        }
        Some((name, pits))
    }

    pub(super) fn region(&mut self, s: &Statement) {
        if let Some((name, pits)) = self.per_player(s, "region") {
            self.region_index.insert(name.clone(), self.regions.len());
            self.regions.push(NamedRegion { name, pits });
        }
    }

    pub(super) fn named_pit(&mut self, s: &Statement) {
        if let Some((name, pits)) = self.per_player(s, "named pit") {
            if pits.iter().any(|p| p.len() != 1) {
                self.err(
                    Diagnostic::at(
                        s.span,
                        format!("`{name}` must name exactly one pit per player"),
                        "not one pit each",
                    )
                    .hint("use `region` for a set of pits"),
                );
                return;
            }
            self.named_index.insert(name.clone(), self.named_pits.len());
            self.named_pits.push(NamedPit {
                name,
                pits: [pits[0][0], pits[1][0]],
            });
        }
    }

    /// The board's `mark` lines, lowered once every name is known.
    pub(super) fn marks<'x>(&mut self, scope: &dyn Fn(Context) -> Scope<'x>) -> Vec<Mark> {
        let mut marks = Vec::new();
        for st in std::mem::take(&mut self.mark_statements) {
            self.no_block(&st);
            let mut lw = Lowerer::new(scope(Context {
                sees: Sees::MARK,
                what: "in a `mark`",
            }));
            match st.args.as_slice() {
                [Expr {
                    kind: ExprKind::Str(symbol),
                    ..
                }, w, c]
                    if w.as_word() == Some("when")
                        && !symbol.is_empty()
                        && symbol.chars().count() <= MAX_NAME =>
                {
                    if let Some(when) = lw.cond(c) {
                        marks.push(Mark {
                            symbol: symbol.clone(),
                            when,
                        });
                    }
                }
                _ => lw.diagnostics.push(
                    Diagnostic::at(
                        st.span,
                        "a mark is `mark \"SYMBOL\" when CONDITION`",
                        "malformed mark",
                    )
                    .hint("write `mark \"^\" when here == house(owner(here))`"),
                ),
            }
            self.diagnostics.append(&mut lw.diagnostics);
        }
        marks
    }
}
