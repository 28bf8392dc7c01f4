//! Many positions at once, on every core: [`evaluate_many`].

use super::{Evaluation, Position};
use crate::parallel::map_slice;

/// Evaluates every position ([`Position::evaluate`]) and returns the evaluations in the
/// order of the positions. With the feature `parallel` the positions are shared out over
/// the threads of the current pool ([`crate::parallel`]); without it they run one after the
/// other. The result is the same either way.
///
/// ```
/// use gridbits::games::amazons::{evaluate_many, Position};
/// let start = Position::start();
/// let evals = evaluate_many(&[start, start]);
/// assert_eq!(evals, [start.evaluate(), start.evaluate()]);
/// ```
pub fn evaluate_many(positions: &[Position]) -> Vec<Evaluation> {
    map_slice(positions, Position::evaluate)
}
