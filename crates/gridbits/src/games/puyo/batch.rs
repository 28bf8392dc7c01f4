//! Many fields at once, on every core: [`simulate_many`], and [`simulate_many_scores`] for
//! callers that need only the scores.

use super::{Chain, ChainEngine, Field};
use crate::parallel::fill_slice;
use core::mem::MaybeUninit;

/// Runs the chain of every field ([`Field::simulate`]) and returns the chains in the order
/// of the fields. With the feature `parallel` the fields are shared out over the threads of
/// the current pool ([`crate::parallel`]); without it they run one after the other. The
/// result is the same either way.
///
/// The engine is chosen once, on the calling thread ([`ChainEngine::best`], under the
/// calling thread's [`with_level`](crate::cpu::with_level) cap), not once per field. Each
/// engine writes its chain straight into the result (the length, the score, the final
/// field and only the steps the chain has), so per field the batch costs what
/// [`Field::simulate`] costs plus the memory traffic of the result (each `Chain` has room
/// for [`MAX_CHAIN`](super::MAX_CHAIN) steps; a chain of `n` steps writes about
/// `124 + 24 * n` of its bytes).
///
/// ```
/// use gridbits::games::puyo::{simulate_many, Field, Rules};
/// let empty = Field::new(Rules::SmashTheCode);
/// let four = Field::parse(
///     "......\n......\n......\n......\n......\n......\n\
///      ......\n......\n......\n......\n......\n1111..\n",
///     Rules::SmashTheCode,
/// ).unwrap();
/// let chains = simulate_many(&[empty, four]);
/// assert_eq!(chains.iter().map(|c| c.chain).collect::<Vec<_>>(), [0, 1]);
/// assert_eq!(chains[1].score, 40);
/// ```
pub fn simulate_many(fields: &[Field]) -> Vec<Chain> {
    simulate_many_with(fields, ChainEngine::best())
}

/// [`simulate_many`] with a chosen engine ([`Field::simulate_with`]).
pub fn simulate_many_with(fields: &[Field], engine: ChainEngine) -> Vec<Chain> {
    let n = fields.len();
    let mut chains = Vec::with_capacity(n);
    fill_slice(fields, &mut chains.spare_capacity_mut()[..n], |f, out| {
        engine.run_into(f, out);
    });
    // SAFETY: `fill_slice` ran the engine on every slot of the first `n` (it returns only
    // when all have run), and each run writes the whole chain.
    unsafe { chains.set_len(n) };
    chains
}

/// The score of every field's chain ([`Chain::score`] of [`Field::simulate`]), in the order
/// of the fields: [`simulate_many`] for a caller that keeps only the scores (a bot ranking
/// candidate fields, a reward). Each chain is run into a chain on the stack of the thread
/// that runs it and only its score is written out, 8 bytes a field where [`simulate_many`]
/// writes a whole [`Chain`]; per field it costs what a loop of `simulate().score` costs, and
/// it shares the fields out over the threads as [`simulate_many`] does (the same result on
/// any number of threads).
///
/// ```
/// use gridbits::games::puyo::{simulate_many_scores, Field, Rules};
/// let four = Field::parse(
///     "......\n......\n......\n......\n......\n......\n\
///      ......\n......\n......\n......\n......\n1111..\n",
///     Rules::SmashTheCode,
/// ).unwrap();
/// assert_eq!(simulate_many_scores(&[Field::new(Rules::SmashTheCode), four]), [0, 40]);
/// ```
pub fn simulate_many_scores(fields: &[Field]) -> Vec<u64> {
    simulate_many_scores_with(fields, ChainEngine::best())
}

/// [`simulate_many_scores`] with a chosen engine ([`Field::simulate_with`]).
pub fn simulate_many_scores_with(fields: &[Field], engine: ChainEngine) -> Vec<u64> {
    let mut scores = vec![0; fields.len()];
    fill_slice(fields, &mut scores, |f, out| {
        let mut chain = MaybeUninit::uninit();
        engine.run_into(f, &mut chain);
        // SAFETY: `run_into` writes the whole chain (its length, score, field and the steps
        // up to the length), so its score is initialised.
        *out = unsafe { chain.assume_init_ref() }.score;
    });
    scores
}
