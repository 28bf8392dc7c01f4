//! [`skeletonize`]: Zhang–Suen style thinning with scikit-image's deletion table, as word-wide
//! boolean formulas.

use super::engine::{self, Rule};
use super::neighbours::Neighbours;
use crate::BitGrid;

/// scikit-image's 2D skeletonize rule
/// ([`naive::skeleton::skeletonize_deletes`](crate::naive::skeleton::skeletonize_deletes)):
/// each sub-iteration's 256-entry table written as a sum of products (prime implicants of
/// the table, found by Quine–McCluskey and covered greedily). The unit test below checks
/// both formulas on all 256 neighbourhoods.
pub(crate) struct ZhangSuen;

impl Rule for ZhangSuen {
    #[inline(always)]
    fn first(nb: &Neighbours) -> u64 {
        let (n, ne, e, se, s, sw, w, nw) = nb.parts();
        (n & w & !e & !se & !s)
            | (n & e & !se & !s & !sw & !w)
            | (nw & s & sw & w & !ne & !e)
            | (nw & n & ne & e & !s & !sw)
            | (ne & e & !nw & !s & !sw & !w)
            | (nw & n & !e & !se & !s & !sw)
            | (se & s & sw & !nw & !n & !ne & !w)
            | (s & w & !n & !ne & !e & !se & !sw)
            | (ne & e & se & s & !nw & !n & !w)
            | (n & ne & !e & !se & !s & !sw)
            | (nw & n & ne & w & !se & !s)
            | (nw & sw & w & !ne & !e & !se)
            | (nw & n & sw & w & !e & !se)
            | (se & s & sw & w & !n & !ne & !e)
            | (e & s & !nw & !n & !ne & !se & !sw & !w)
    }

    #[inline(always)]
    fn second(nb: &Neighbours) -> u64 {
        let (n, ne, e, se, s, sw, w, nw) = nb.parts();
        (e & se & s & !nw & !n & !w)
            | (se & s & sw & w & !n & !ne)
            | (sw & w & !n & !ne & !e & !se)
            | (n & ne & e & se & !sw & !w)
            | (s & sw & !nw & !n & !ne & !w)
            | (e & se & !nw & !s & !sw & !w)
            | (s & w & !nw & !n & !ne & !e)
            | (nw & n & ne & !e & !se & !s & !sw)
            | (nw & n & sw & w & !e & !se & !s)
            | (e & se & s & sw & !nw & !n)
            | (ne & e & se & s & !nw & !w)
            | (e & s & sw & !nw & !n & !w)
            | (e & s & !nw & !n & !ne & !w)
            | (nw & n & ne & e & !s & !sw & !w)
            | (n & e & !nw & !ne & !s & !sw & !w)
            | (n & w & !nw & !ne & !e & !se & !s & !sw)
    }
}

/// The skeleton of `grid`, pixel for pixel what `skimage.morphology.skeletonize` returns for
/// a 2D image (its default method, Zhang–Suen style with scikit-image's deletion table).
///
/// Thinning alternates two sub-iterations, each deciding every pixel on the image as the
/// sub-iteration found it (a parallel step), until a whole iteration deletes nothing. Pixels
/// outside the grid are background. Each sub-iteration is a handful of ANDs and ORs per
/// 64 pixels of the eight neighbour words of a row word.
///
/// ```
/// use gridbits::algo::skeleton::skeletonize;
/// use gridbits::BitGrid;
/// let bar = BitGrid::parse(".......\n.#####.\n.#####.\n.#####.\n.......\n").unwrap();
/// // scikit-image's table keeps this line (not the middle row Zhang–Suen would keep).
/// assert_eq!(
///     skeletonize(&bar).to_text(),
///     ".......\n....#..\n.###...\n.......\n.......\n"
/// );
/// ```
pub fn skeletonize(grid: &BitGrid) -> BitGrid {
    let mut out = grid.clone();
    engine::run::<ZhangSuen>(&mut out, None);
    out
}

#[cfg(test)]
mod tests {
    use super::{Rule, ZhangSuen};
    use crate::naive::skeleton::skeletonize_deletes;

    #[test]
    fn formulas_match_the_table_on_every_neighbourhood() {
        super::super::neighbours::check_rule(
            ZhangSuen::first,
            ZhangSuen::second,
            skeletonize_deletes,
        );
    }
}
