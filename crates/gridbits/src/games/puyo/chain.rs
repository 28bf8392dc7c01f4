//! The result of a chain: [`Chain`] and its [`Step`]s.

use super::{Field, MAX_CHAIN};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::MaybeUninit;

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
///
/// Equality, hashing and `Debug` look at the chain length, the score, the [`steps`](Self::steps)
/// and the final field.
// In this order (`repr(C)`): what every chain writes (the field, the score and the length)
// in the first 124 bytes, then the steps, of which a chain writes only its own.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Chain {
    /// The field after the chain.
    pub field: Field,
    /// Total score.
    pub score: u64,
    /// Number of steps that vanished something (at most [`MAX_CHAIN`]).
    pub chain: u32,
    /// The steps: the first `chain` are written, the others never read. The engines write
    /// each step once, straight into the result, and leave the rest alone: no clearing of
    /// the 480 bytes of the twenty steps, so a short chain writes a short result.
    pub(super) steps: [MaybeUninit<Step>; MAX_CHAIN],
}

impl Chain {
    /// The steps, first to last.
    pub fn steps(&self) -> &[Step] {
        let n = (self.chain as usize).min(MAX_CHAIN);
        // SAFETY: every constructor writes the first `chain` steps (at most MAX_CHAIN), and
        // `MaybeUninit<Step>` has the layout of `Step`.
        unsafe { std::slice::from_raw_parts(self.steps.as_ptr().cast::<Step>(), n) }
    }
}

impl PartialEq for Chain {
    fn eq(&self, other: &Self) -> bool {
        self.chain == other.chain
            && self.score == other.score
            && self.steps() == other.steps()
            && self.field == other.field
    }
}

impl Eq for Chain {}

impl Hash for Chain {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.chain.hash(state);
        self.score.hash(state);
        self.steps().hash(state);
        self.field.hash(state);
    }
}

impl fmt::Debug for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chain")
            .field("chain", &self.chain)
            .field("score", &self.score)
            .field("steps", &self.steps())
            .field("field", &self.field)
            .finish()
    }
}
