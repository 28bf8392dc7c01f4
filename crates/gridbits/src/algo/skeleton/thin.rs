//! [`thin`]: Guo and Hall's two-sub-iteration thinning, as word-wide boolean formulas.

use super::engine::{self, Rule};
use super::neighbours::Neighbours;
use crate::BitGrid;

/// Guo and Hall's rule as scikit-image's `thin` applies it
/// ([`naive::skeleton::thin_deletes`](crate::naive::skeleton::thin_deletes)): conditions G1
/// (one crossing), G2 (2 <= min(N1, N2) <= 3) and G3 / G3' of each sub-iteration, written as
/// a sum of products (prime implicants of their truth table, found by Quine–McCluskey and
/// covered greedily). The unit test below checks both on all 256 neighbourhoods.
pub(crate) struct GuoHall;

impl Rule for GuoHall {
    #[inline(always)]
    fn first(nb: &Neighbours) -> u64 {
        let (n, ne, e, se, s, sw, w, nw) = nb.parts();
        (n & w & !e & !se)
            | (w & s & !e & !ne)
            | (w & s & se & !ne & !n)
            | (e & s & se & !ne & !n & !nw)
            | (nw & w & sw & !e & !ne & !se)
            | (sw & s & se & !ne & !n & !nw)
            | (ne & n & nw & !e & !sw & !s & !se)
    }

    #[inline(always)]
    fn second(nb: &Neighbours) -> u64 {
        let (n, ne, e, se, s, sw, w, nw) = nb.parts();
        (e & s & !nw & !w)
            | (e & n & !w & !sw)
            | (e & n & nw & !sw & !s)
            | (ne & n & nw & !sw & !s & !se)
            | (e & ne & se & !nw & !w & !sw)
            | (n & nw & w & !sw & !s & !se)
            | (sw & s & se & !ne & !n & !nw & !w)
    }
}

/// `grid` thinned, pixel for pixel what `skimage.morphology.thin(image, max_num_iter)`
/// returns: Guo and Hall's algorithm, two parallel sub-iterations per iteration, until an
/// iteration deletes nothing or `max_iterations` iterations have run (`None`: no limit;
/// `Some(0)` returns the grid unchanged). Pixels outside the grid are background.
///
/// ```
/// use gridbits::algo::skeleton::thin;
/// use gridbits::BitGrid;
/// let square = BitGrid::parse("....\n.##.\n.##.\n....\n").unwrap();
/// // Guo–Hall thins a 2x2 square to one pixel.
/// assert_eq!(thin(&square, None).count(), 1);
/// assert_eq!(thin(&square, Some(0)), square);
/// ```
pub fn thin(grid: &BitGrid, max_iterations: Option<usize>) -> BitGrid {
    let mut out = grid.clone();
    engine::run::<GuoHall>(&mut out, max_iterations);
    out
}

#[cfg(test)]
mod tests {
    use super::{GuoHall, Rule};
    use crate::naive::skeleton::thin_deletes;

    #[test]
    fn formulas_match_guo_hall_on_every_neighbourhood() {
        super::super::neighbours::check_rule(GuoHall::first, GuoHall::second, thin_deletes);
    }
}
