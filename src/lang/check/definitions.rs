//! Definitions (`let`), variables (`var`) and phases (`phase`).

use super::*;

impl Checker {
    pub(super) fn definition(&mut self, s: &Statement) {
        self.no_block(s);
        let (name, params, span) = match s.args.as_slice() {
            [Expr {
                kind: ExprKind::Word(w),
                span,
            }] => (w.clone(), Vec::new(), *span),
            [Expr {
                kind: ExprKind::Call(n, args),
                span,
            }] => {
                let params: Option<Vec<String>> = args
                    .iter()
                    .map(|a| a.as_word().map(str::to_string))
                    .collect();
                match params {
                    Some(p) if (1..p.len()).any(|i| p[..i].contains(&p[i])) => {
                        self.err(
                            Diagnostic::at(
                                *span,
                                "a parameter is named twice",
                                "duplicate parameter",
                            )
                            .hint("give each parameter its own name"),
                        );
                        return;
                    }
                    Some(p) => (n.name.clone(), p, *span),
                    None => {
                        self.err(
                            Diagnostic::at(*span, "parameters are plain names", "not a name")
                                .hint("write `let name(p) = …`"),
                        );
                        return;
                    }
                }
            }
            _ => {
                self.err(
                    Diagnostic::at(
                        s.span,
                        "`let` takes a name, `=` and an expression",
                        "expected `let NAME = EXPR`",
                    )
                    .hint("write `let capturable = seeds(last) in 2..3`"),
                );
                return;
            }
        };
        let body = match tail(s) {
            [e] => e.clone(),
            _ => {
                self.err(
                    Diagnostic::at(
                        s.span,
                        "a definition has one expression after `=`",
                        "expected `= EXPR`",
                    )
                    .hint("write `let capturable = seeds(last) in 2..3`"),
                );
                return;
            }
        };
        if self.declare(&name, span, "definition") {
            self.lets.insert(name, Definition { params, body, span });
        }
    }

    /// `var NAME per player|pit|game: value value …`
    pub(super) fn var(&mut self, s: &Statement) {
        self.no_block(s);
        let usage = "write `var NAME per player: first second …` (or `per pit`, `per game`), the first value where it starts, or `var NAME per player: 0..10` for a number";
        let (name, scope) = match s.args.as_slice() {
            [n, per, sc] if per.as_word() == Some("per") => {
                let scope = match sc.as_word() {
                    Some("player") => VarScope::Player,
                    Some("pit") => VarScope::Pit,
                    Some("game") => VarScope::Game,
                    _ => {
                        self.err(
                            Diagnostic::at(
                                sc.span,
                                "a variable is held `per player`, `per pit` or `per game`",
                                "unknown scope",
                            )
                            .hint(usage),
                        );
                        return;
                    }
                };
                match n.as_word() {
                    Some(w) => ((w.to_string(), n.span), scope),
                    None => {
                        self.err(
                            Diagnostic::at(
                                n.span,
                                "a variable's name is a plain name",
                                "not a name",
                            )
                            .hint(usage),
                        );
                        return;
                    }
                }
            }
            _ => {
                self.err(
                    Diagnostic::at(
                        s.span,
                        "malformed variable",
                        "expected `var NAME per SCOPE: values`",
                    )
                    .hint(usage),
                );
                return;
            }
        };
        let mut values: Vec<String> = Vec::new();
        let mut numbers = None;
        if let [e] = tail(s) {
            numbers = match self.whole_range(e, "a variable's") {
                Some(Ok(range)) => Some(range),
                Some(Err(())) => return,
                None if !matches!(e.kind, ExprKind::Binary(BinaryOp::Range, ..)) => None,
                None => {
                    self.err(
                        Diagnostic::at(
                            e.span,
                            format!(
                                "a variable's numbers are whole numbers from 0 to {}",
                                crate::limits::MAX_NUMBER
                            ),
                            "not a range of whole numbers",
                        )
                        .hint("write the lowest and the highest it can hold: `0..10`"),
                    );
                    return;
                }
            };
        }
        for e in tail(s).iter().filter(|_| numbers.is_none()) {
            match e.as_word() {
                Some(v) if values.iter().any(|x| x == v) => {
                    self.err(
                        Diagnostic::at(e.span, format!("`{v}` is listed twice"), "duplicate value")
                            .hint("list each value once"),
                    );
                }
                Some(v) => values.push(v.to_string()),
                None => self.err(
                    Diagnostic::at(e.span, "a variable's values are plain names", "not a name")
                        .hint(usage),
                ),
            }
        }
        if values.len() < 2 && numbers.is_none() {
            self.err(
                Diagnostic::at(
                    s.span,
                    "a variable needs at least two values",
                    "too few values",
                )
                .hint(usage),
            );
            return;
        }
        let slots = |scope: VarScope| match scope {
            VarScope::Game => 1,
            VarScope::Player => 2,
            VarScope::Pit => self.pits.len(),
        };
        let held: usize = self.vars.iter().map(|v| slots(v.scope)).sum();
        if held + slots(scope) > MAX_VAR_SLOTS {
            self.err(
                Diagnostic::limit(
                    s.span,
                    format!("the variables would hold more than {MAX_VAR_SLOTS} values"),
                    "one variable too many",
                )
                .hint(
                    "a per-pit variable holds one value per pit; every position carries them all",
                ),
            );
            return;
        }
        if self.declare(&name.0, name.1, "variable") {
            self.vars.push(Var {
                name: name.0,
                scope,
                values,
                numbers,
            });
        }
    }

    /// `phase NAME [when CONDITION]`, lowered: its condition sees the
    /// position only.
    pub(super) fn phase<'x>(
        &mut self,
        s: &Statement,
        scope: &dyn Fn(Context) -> Scope<'x>,
        phases: &mut Vec<Phase>,
    ) {
        self.no_block(s);
        let mut lw = Lowerer::new(scope(Context {
            sees: Sees::PHASE,
            what: "in a phase's condition",
        }));
        match s.args.as_slice() {
            [n] if n.as_word().is_some() => phases.push(Phase {
                name: n.as_word().unwrap_or_default().to_string(),
                when: Cond::True,
            }),
            [n, w, c] if n.as_word().is_some() && w.as_word() == Some("when") => {
                if let Some(when) = lw.cond(c) {
                    phases.push(Phase {
                        name: n.as_word().unwrap_or_default().to_string(),
                        when,
                    });
                }
            }
            _ => lw.diagnostics.push(
                Diagnostic::at(s.span, "a phase is `phase NAME [when CONDITION]`", "malformed phase")
                    .hint("write `phase entering when hand(mover) > 0`; the last phase may have no condition"),
            ),
        }
        self.diagnostics.append(&mut lw.diagnostics);
    }
}
