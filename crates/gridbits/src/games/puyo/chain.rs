//! The result of a chain ([`Chain`], [`Step`]) and the chain driver of the generic kernel.

use super::kernel::{Kernel, Plane};
use super::{Field, MAX_CHAIN};

/// One step of a chain: what vanished and what it scored (see the
/// [module documentation](super#scoring)).
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

/// The whole chain on planes of type `P` (`BMI2`: gravity by `pext`/`pdep`); the engines'
/// common driver.
#[inline(always)]
pub(super) fn simulate_impl<P: Plane, const BMI2: bool>(field: &Field) -> Chain {
    let rules = field.rules;
    let mut k = Kernel::<P>::load(field);
    let mut steps = [Step::default(); MAX_CHAIN];
    let mut n = 0;
    let mut score = 0u64;
    let mut dirty = !0u32;
    while let Some(s) = k.step::<BMI2>(n as u32 + 1, rules, &mut dirty) {
        score += u64::from(s.score);
        if n < MAX_CHAIN {
            steps[n] = s;
        }
        n += 1;
    }
    let mut out = *field;
    k.store(&mut out);
    Chain {
        chain: n.min(MAX_CHAIN) as u32,
        score,
        steps,
        field: out,
    }
}
