//! Lists of pits as a file writes them (a row, a track, a region's or a
//! named pit's line, a setup's `seeds … :`): labels one by one, and runs.
//! A run `COUNT from LABEL` is COUNT labels counted on from LABEL (`7 from
//! A`: A B C D E F G; `8 from a1`: a1 … a8), listed the other way round
//! with `reversed` after it (`7 from a reversed`: g f … a). COUNT is known
//! when the file is read: a number option gives a board its size, and a
//! variant of another sets that one number (`option holes = 8`).

use super::*;

/// The word that starts a run's first label, and the one that turns it.
const FROM: &str = "from";
const REVERSED: &str = "reversed";

impl Checker {
    /// The list with every run written out as its labels, each at the
    /// run's place in the file; a run that cannot be read is reported and
    /// left out.
    pub(super) fn label_list(&mut self, list: &[Expr]) -> Vec<Expr> {
        let mut out = Vec::with_capacity(list.len());
        let mut i = 0;
        while i < list.len() {
            let is_from = |j: usize| list.get(j).and_then(Expr::as_word) == Some(FROM);
            if is_from(i) {
                self.err(
                    Diagnostic::at(
                        list[i].span,
                        "`from` starts a run after its count",
                        "no count before it",
                    )
                    .hint("write `7 from A` for the labels A B C D E F G"),
                );
                i += 1;
                continue;
            }
            if !is_from(i + 1) {
                out.push(list[i].clone());
                i += 1;
                continue;
            }
            let reversed = list.get(i + 3).and_then(Expr::as_word) == Some(REVERSED);
            let end = if reversed { i + 4 } else { i + 3 };
            let span = list[i].span.to(list[end.min(list.len()) - 1].span);
            if let Some(labels) = self.run(&list[i], list.get(i + 2), span) {
                let mut labels: Vec<Expr> = labels
                    .into_iter()
                    .map(|l| Expr {
                        kind: ExprKind::Word(l),
                        span,
                    })
                    .collect();
                if reversed {
                    labels.reverse();
                }
                out.extend(labels);
            }
            i = end;
        }
        out
    }

    /// The labels of the run `count from first`, in counting order.
    fn run(&mut self, count: &Expr, first: Option<&Expr>, span: Span) -> Option<Vec<String>> {
        let usage = "write `7 from A` (A B C D E F G), `holes from a reversed` (… c b a) or `8 from a1` (a1 … a8)";
        let Some(first) = first.and_then(|f| f.as_word().map(|w| (w, f.span))) else {
            self.err(
                Diagnostic::at(span, "a run needs its first label after `from`", "no label")
                    .hint(usage),
            );
            return None;
        };
        let n = match self.fixed_number(count) {
            Some(n) if (1..=MAX_PITS as i64).contains(&n) => n as usize,
            Some(n) => {
                self.err(
                    Diagnostic::at(
                        count.span,
                        format!("a run has 1 to {MAX_PITS} labels"),
                        format!("is {n}"),
                    )
                    .hint(usage),
                );
                return None;
            }
            None => {
                self.err(
                    Diagnostic::at(
                        count.span,
                        "a run's count is known when the file is read",
                        "not a fixed number",
                    )
                    .hint(format!(
                        "give a number, a number option's name or arithmetic on them: {usage}"
                    )),
                );
                return None;
            }
        };
        let mut labels = vec![first.0.to_string()];
        while labels.len() < n {
            let last = labels.last().expect("the first label");
            let Some(next) = following(last) else {
                self.err(
                    Diagnostic::at(
                        first.1,
                        format!("{n} labels from `{}` run past `{last}`", first.0),
                        "no label follows",
                    )
                    .hint("a run counts on the number at a label's end (`a1`, `a2`, …) or its last letter, up to `z` or `Z`"),
                );
                return None;
            };
            labels.push(next);
        }
        Some(labels)
    }
}

/// The label after `label` in a run: its number at the end counted on
/// (`a9` → `a10`; as wide as it is written, `A007` → `A008`, `A099` →
/// `A100`), or else its last letter (`b` → `c`, `Ab` → `Ac`); none
/// after `z` or `Z`.
fn following(label: &str) -> Option<String> {
    let digits = label.len() - label.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (stem, number) = label.split_at(label.len() - digits);
    if !number.is_empty() {
        let n: u64 = number.parse().ok()?;
        let width = number.len();
        return Some(format!("{stem}{:0width$}", n.checked_add(1)?));
    }
    let last = stem.chars().last()?;
    let next = match last {
        'a'..='y' | 'A'..='Y' => char::from(last as u8 + 1),
        _ => return None,
    };
    Some(format!("{}{next}", &stem[..stem.len() - last.len_utf8()]))
}

#[cfg(test)]
mod tests {
    use super::following;

    #[test]
    fn a_label_is_followed_by_its_number_or_its_letter_counted_on() {
        assert_eq!(following("A").as_deref(), Some("B"));
        assert_eq!(following("y").as_deref(), Some("z"));
        assert_eq!(following("a9").as_deref(), Some("a10"));
        // (Issue 42: `10 from A007` counted A007 A8 … A16.)
        assert_eq!(following("A007").as_deref(), Some("A008"));
        assert_eq!(following("A099").as_deref(), Some("A100"));
        assert_eq!(following("a0").as_deref(), Some("a1"));
        assert_eq!(following("a09").as_deref(), Some("a10"));
        assert_eq!(following("Ab").as_deref(), Some("Ac"));
        assert_eq!(following("z"), None);
        assert_eq!(following("Z"), None);
        assert_eq!(following("_"), None);
    }
}
