//! The options of a variant (`option NAME default VALUE: VALUES`) and
//! the values given to them from outside the file.

use super::*;

impl Checker {
    /// First pass: names, players, the board, regions, named pits and
    /// definitions, which everything else refers to.
    /// `option NAME default VALUE: VALUES`, where VALUES are words or a
    /// range `LOW..HIGH`; then the values given from outside the file.
    pub(super) fn options(&mut self, statements: &[Statement], given: &[(String, String)]) {
        for s in statements.iter().filter(|s| s.word.name == "option") {
            self.no_block(s);
            let usage =
                "write `option grand_slam default capture_nothing: capture_nothing forbidden`, \
                         `option seeds default 4: 1..12`, or `option seeds = 5` for a value the variant fixes";
            // `option NAME = VALUE`: a value the variant fixes (a
            // variant of another sets its base's parameter so).
            if let ([n], true, [v]) = (s.args.as_slice(), s.equals, tail(s)) {
                let value = match &v.kind {
                    ExprKind::Word(w) => Some((w.clone(), Choices::Words(vec![w.clone()]))),
                    ExprKind::Int(k) if (0..=crate::limits::MAX_NUMBER).contains(k) => {
                        Some((k.to_string(), Choices::Range(*k, *k)))
                    }
                    _ => None,
                };
                if let (Some(name), Some((value, choices))) = (n.as_word(), value) {
                    if !self.settings.iter().any(|o| o.name == name) {
                        self.settings.push(Setting {
                            name: name.to_string(),
                            choices,
                            value,
                        });
                    }
                    continue;
                }
            }
            let (name, default) = match s.args.as_slice() {
                [n, d, v] if d.as_word() == Some("default") && n.as_word().is_some() => {
                    let v = match &v.kind {
                        ExprKind::Word(w) => Some(w.clone()),
                        ExprKind::Int(k) => Some(k.to_string()),
                        _ => None,
                    };
                    (n.as_word().unwrap_or_default(), v)
                }
                _ => (
                    s.args.first().and_then(Expr::as_word).unwrap_or_default(),
                    None,
                ),
            };
            let choices = match tail(s) {
                [e] if matches!(e.kind, ExprKind::Binary(BinaryOp::Range, ..)) => {
                    match self.whole_range(e, "an option's") {
                        Some(Ok((lo, hi))) => Some(Choices::Range(lo, hi)),
                        Some(Err(())) => continue,
                        None => None,
                    }
                }
                words if !words.is_empty() && words.iter().all(|w| w.as_word().is_some()) => {
                    Some(Choices::Words(
                        words
                            .iter()
                            .filter_map(Expr::as_word)
                            .map(str::to_string)
                            .collect(),
                    ))
                }
                _ => None,
            };
            let (Some(default), Some(choices)) = (default, choices) else {
                self.err(
                    Diagnostic::at(
                        s.span,
                        "an option is `option NAME default VALUE: VALUES` or `option NAME = VALUE`",
                        "malformed option",
                    )
                    .hint(usage),
                );
                continue;
            };
            if !choices.allows(&default) {
                self.err(
                    Diagnostic::at(
                        s.args[2].span,
                        format!("the default `{default}` is not one of the option's values"),
                        "not a value",
                    )
                    .hint(format!("`{name}` takes {}", choices.describe())),
                );
                continue;
            }
            // Declared (and a duplicate reported) in file order with the
            // other names, by `declarations`.
            if !self.settings.iter().any(|o| o.name == name) {
                self.settings.push(Setting {
                    name: name.to_string(),
                    choices,
                    value: default,
                });
            }
        }
        if given.len() > crate::limits::MAX_GIVEN_OPTIONS {
            self.err(
                Diagnostic::new(format!(
                    "{} options are given: at most {} are",
                    given.len(),
                    crate::limits::MAX_GIVEN_OPTIONS
                ))
                .hint(format!(
                    "give the options the variant has ({} of them)",
                    self.settings.len()
                ))
                .kind(Kind::Limit),
            );
            return;
        }
        let mut seen = std::collections::HashSet::new();
        for (name, value) in given {
            if !seen.insert(name.as_str()) {
                self.err(
                    Diagnostic::new(format!("option `{name}` is given twice"))
                        .hint("give each option one value")
                        .kind(Kind::Option(name.as_str().into())),
                );
                continue;
            }
            let Some(setting) = self.settings.iter_mut().find(|o| o.name == *name) else {
                let names: Vec<&str> = self.settings.iter().map(|o| o.name.as_str()).collect();
                let d = Diagnostic::new(format!("the variant has no option `{name}`"));
                let otherwise = if names.is_empty() {
                    "this variant has no options".to_string()
                } else {
                    format!("its options are: {}", names.join(", "))
                };
                let d = d.suggest(name, names.iter().copied(), otherwise);
                self.err(d.kind(Kind::Option(name.as_str().into())));
                continue;
            };
            let Some(value) = setting.choices.value_of(value) else {
                let d = Diagnostic::new(format!("`{value}` is not a value of option `{name}`"));
                let d = match &setting.choices {
                    Choices::Words(w) => d.suggest(
                        value,
                        w.iter().map(String::as_str),
                        format!("`{name}` takes {}", setting.choices.describe()),
                    ),
                    Choices::Range(lo, hi) if lo == hi => {
                        d.hint(format!("this variant fixes `{name}` at {lo}"))
                    }
                    Choices::Range(..) => d.hint(format!(
                        "`{name}` takes a number in {}",
                        setting.choices.describe()
                    )),
                };
                self.err(d.kind(Kind::Option(name.as_str().into())));
                continue;
            };
            setting.value = value;
        }
    }

    /// The value in force of the option a word names, if it names one.
    /// A range of whole numbers, `LOW..HIGH`, as an option or a number
    /// variable declares its values (`whose` names them in a message: "an
    /// option's"): its ends; `Err` where it is empty or past the limit
    /// (said); `None` where `e` is no range of whole numbers.
    pub(super) fn whole_range(&mut self, e: &Expr, whose: &str) -> Option<Result<(i64, i64), ()>> {
        let ExprKind::Binary(BinaryOp::Range, lo, hi) = &e.kind else {
            return None;
        };
        let (ExprKind::Int(lo), ExprKind::Int(hi)) = (&lo.kind, &hi.kind) else {
            return None;
        };
        if *hi > crate::limits::MAX_NUMBER {
            self.err(
                Diagnostic::at(
                    e.span,
                    format!("{whose} numbers are at most {}", crate::limits::MAX_NUMBER),
                    "too large",
                )
                .hint("counts in a variant are at most 1000000"),
            );
            return Some(Err(()));
        }
        if lo > hi {
            self.err(
                Diagnostic::at(
                    e.span,
                    format!("the range {lo}..{hi} is empty"),
                    "no number lies in it",
                )
                .hint(format!("a range runs from low to high: `{hi}..{lo}`")),
            );
            return Some(Err(()));
        }
        Some(Ok((*lo, *hi)))
    }

    /// A number known when the file is read: a whole number, a number
    /// option's value, or arithmetic on such numbers (`2 * holes * holes`),
    /// worked out as the engine works out numbers in play.
    pub(super) fn fixed_number(&self, e: &Expr) -> Option<i64> {
        use crate::ir::ArithOp;
        match &e.kind {
            ExprKind::Int(n) => Some(*n),
            ExprKind::Word(_) => self.option_value(e)?.parse().ok(),
            ExprKind::Unary(crate::syntax::ast::UnaryOp::Neg, x) => {
                Some(self.fixed_number(x)?.saturating_neg())
            }
            ExprKind::Binary(op, x, y) => {
                let op = match op {
                    BinaryOp::Add => ArithOp::Add,
                    BinaryOp::Sub => ArithOp::Sub,
                    BinaryOp::Mul => ArithOp::Mul,
                    BinaryOp::Div => ArithOp::Div,
                    BinaryOp::Rem => ArithOp::Rem,
                    BinaryOp::Or
                    | BinaryOp::And
                    | BinaryOp::Eq
                    | BinaryOp::Ne
                    | BinaryOp::Lt
                    | BinaryOp::Le
                    | BinaryOp::Gt
                    | BinaryOp::Ge
                    | BinaryOp::In
                    | BinaryOp::Range => return None,
                };
                let (x, y) = (self.fixed_number(x)?, self.fixed_number(y)?);
                Some(op.apply(x, y))
            }
            ExprKind::Unary(crate::syntax::ast::UnaryOp::Not, _)
            | ExprKind::Str(_)
            | ExprKind::Call(..) => None,
        }
    }

    pub(super) fn option_value(&self, e: &Expr) -> Option<&str> {
        let w = e.as_word()?;
        self.settings
            .iter()
            .find(|o| o.name == w)
            .map(|o| o.value.as_str())
    }
}
