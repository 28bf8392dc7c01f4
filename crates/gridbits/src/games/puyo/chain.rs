//! The result of a chain: [`Chain`] and its [`Step`]s.

use super::{Field, MAX_CHAIN};

/// One step of a chain: what vanished and what it scored (see the scoring of Puyo in
/// docs/games.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Step {
    /// Coloured cells that vanished (`B` of the score).
    pub cleared: u32,
    /// Garbage cells that vanished with them.
    pub garbage: u32,
    /// Groups of 4 or more that vanished.
    pub groups: u32,
    /// Distinct colours among them.
    pub colors: u32,
    /// Sum of the group bonuses.
    pub group_bonus: u32,
    /// Score of the step.
    pub score: u32,
}

/// The result of a whole chain: [`Field::simulate`] and [`Field::play`] return it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chain {
    /// Number of steps that vanished something (at most [`MAX_CHAIN`]).
    pub chain: u32,
    /// Total score.
    pub score: u64,
    pub(super) steps: [Step; MAX_CHAIN],
    /// The field after the chain.
    pub field: Field,
}

impl Chain {
    /// The steps, first to last.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.chain as usize]
    }
}
