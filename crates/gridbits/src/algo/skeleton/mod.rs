//! Skeletons of binary images: [`skeletonize`](fn@skeletonize) and [`thin`](fn@thin), equal
//! pixel for pixel to `skimage.morphology.skeletonize` (2D) and `skimage.morphology.thin`.
//!
//! Both thin by two alternating *parallel* sub-iterations: each decides every pixel from its
//! 3x3 neighbourhood in the image as the sub-iteration found it, then deletes all the chosen
//! pixels at once (scikit-image does the same: a copy of the image per sub-iteration in
//! `skeletonize`, a correlation of the whole image in `thin`). Pixels outside the grid are
//! background. Here a sub-iteration handles 64 pixels per step: the eight neighbour words
//! of a row word go through the rule's boolean formula, a sum of products
//! of the neighbour words derived from the rule's table and checked on all 256
//! neighbourhoods. Words and rows whose neighbourhood did not change since the last
//! sub-iteration of the same kind are skipped, and rows that still have many words to decide go through a
//! branch-free loop the compiler vectorises (AVX2 and AVX-512 copies chosen by
//! [`cpu`](crate::cpu)).
//!
//! The per-pixel reference is [`naive::skeleton`](crate::naive::skeleton).
//!
//! ```
//! use gridbits::algo::skeleton::{skeletonize, thin};
//! use gridbits::BitGrid;
//! let plus = BitGrid::parse("..#..\n.###.\n#####\n.###.\n..#..\n").unwrap();
//! assert!(skeletonize(&plus).count() < plus.count());
//! assert!(thin(&plus, None).count() < plus.count());
//! ```

mod engine;
mod neighbours;
mod skeletonize;
mod thin;

pub use skeletonize::skeletonize;
pub use thin::thin;
