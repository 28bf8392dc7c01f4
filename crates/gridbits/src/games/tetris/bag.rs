//! The seeded piece generator: the guideline 7-bag, or uniform draws.
//!
//! - [`Randomizer::Bag7`] (the default, the Tetris Guideline "Random Generator"): the seven
//!   pieces are dealt in bags; each bag is a permutation of `I O T S Z J L` shuffled by
//!   Fisher-Yates (for `i` from 6 down to 1, swap entry `i` with entry
//!   [`below(i + 1)`](GameRng::below)), and a new bag is shuffled when one runs out.
//! - [`Randomizer::Uniform`]: each piece independently, `Piece::ALL[below(7)]`.
//!
//! Draws come from [`GameRng`] (xoshiro256\*\*), so a seed gives the same sequence on every
//! platform.
//!
//! ```
//! use gridbits::games::tetris::{PieceGen, Randomizer};
//! let mut g = PieceGen::new(1, Randomizer::Bag7);
//! let mut bag: Vec<_> = (0..7).map(|_| g.next_piece()).collect();
//! bag.sort_by_key(|p| *p as u8);
//! assert_eq!(bag, gridbits::games::tetris::Piece::ALL); // every piece once per bag
//! ```

use super::Piece;
use crate::games::rng::GameRng;

/// How pieces are drawn (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Randomizer {
    /// The guideline 7-bag: each run of seven is a shuffled permutation of the seven.
    #[default]
    Bag7,
    /// Every piece drawn uniformly and independently.
    Uniform,
}

/// A seeded stream of pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceGen {
    rng: GameRng,
    kind: Randomizer,
    bag: [Piece; 7],
    /// Pieces of `bag` already dealt.
    dealt: u8,
}

impl PieceGen {
    /// The stream of `seed` under `kind`.
    pub fn new(seed: u64, kind: Randomizer) -> Self {
        PieceGen {
            rng: GameRng::new(seed),
            kind,
            bag: Piece::ALL,
            dealt: 7,
        }
    }

    /// The randomizer.
    pub const fn randomizer(&self) -> Randomizer {
        self.kind
    }

    /// The next piece.
    #[inline]
    pub fn next_piece(&mut self) -> Piece {
        match self.kind {
            Randomizer::Uniform => Piece::ALL[self.rng.below(7) as usize],
            Randomizer::Bag7 => {
                if self.dealt == 7 {
                    self.bag = Piece::ALL;
                    for i in (1..7).rev() {
                        let j = self.rng.below(i as u64 + 1) as usize;
                        self.bag.swap(i, j);
                    }
                    self.dealt = 0;
                }
                let p = self.bag[usize::from(self.dealt)];
                self.dealt += 1;
                p
            }
        }
    }
}
