//! A turn shown step by step (the playground's sowing, seed by seed): the
//! board after each pit lifted, each seed sown and each rule that moved
//! seeds. Noted only while a game is asked to ([`super::Game::show_turns`]);
//! a turn played otherwise never looks here.

use super::position::Position;

/// What a step of a turn did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// A pit's seeds lifted to be sown.
    Lift,
    /// A seed sown into a cell.
    Sow,
    /// Held seeds put into a pit (a `put`), all at once.
    Put,
    /// A pit's seeds taken out of the game (a `take`), all at once.
    Take,
    /// A rule's actions moved seeds: captures and the like. Its cells are
    /// the pits that lost seeds.
    Rule,
}

/// The board after one step of a turn.
#[derive(Debug, Clone)]
pub struct Frame {
    /// What the step did.
    pub kind: StepKind,
    /// The cells the step acted on (a pit or store by index in the
    /// position's `cells`).
    pub at: Vec<u16>,
    /// The seeds in every cell after it.
    pub cells: Vec<u32>,
    /// The seeds in each player's hand after it.
    pub hands: [u32; 2],
}

/// The steps of the turn played last.
#[derive(Debug, Clone, Default)]
pub struct Shown {
    /// The steps, in order.
    pub frames: Vec<Frame>,
    /// Steps past [`crate::limits::MAX_FRAMES`] were not noted.
    pub cut: bool,
}

impl Shown {
    /// Notes a step (cold: only a shown turn comes here).
    #[cold]
    #[inline(never)]
    pub(crate) fn note(&mut self, kind: StepKind, at: &[u16], pos: &Position) {
        if self.frames.len() >= crate::limits::MAX_FRAMES {
            self.cut = true;
            return;
        }
        self.frames.push(Frame {
            kind,
            at: at.to_vec(),
            cells: pos.cells.clone(),
            hands: pos.hands,
        });
    }

    /// Notes a rule's actions: the pits that hold fewer seeds than
    /// `before` (the cells before they ran), where any cell changed.
    #[cold]
    #[inline(never)]
    pub(crate) fn note_rule(&mut self, before: &[u32], pits: usize, pos: &Position) {
        if before == &pos.cells[..] {
            return;
        }
        let lost: Vec<u16> = (0..pits.min(before.len()))
            .filter(|&c| pos.cells[c] < before[c])
            .map(|c| c as u16)
            .collect();
        self.note(StepKind::Rule, &lost, pos);
    }
}
