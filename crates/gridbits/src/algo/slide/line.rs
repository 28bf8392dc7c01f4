//! The one-dimensional problem of "Sub-linear bitfield flood fill with galloping": a line of
//! up to 64 or 128 cells in one integer, walls and queen-like pieces, and the cells the
//! pieces reach moving right or left.

use super::{auto_gallop_speed, Method};

/// The cells reached on a line: towards larger bit indices (`right`) and smaller (`left`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct LineReach<T> {
    /// Cells reached moving towards larger indices (bit `i + 1` is right of bit `i`).
    pub right: T,
    /// Cells reached moving towards smaller indices.
    pub left: T,
}

macro_rules! line_impl {
    ($t:ty, $name:ident, $name_with:ident, $bits:expr) => {
        /// The one-dimensional problem of "Sub-linear bitfield flood fill with galloping" on a
        /// line of `n` cells (bit `i` is cell `i`; `n` is at most
        #[doc = concat!(stringify!($bits), "; larger values are clamped):")]
        /// every cell a queen-like piece of `pieces` (those on the line) reaches moving right
        /// (towards larger indices) or left, stopping before a wall. Pieces do not block each other (add them
        /// to `walls` if they should); a piece's own cell counts only when another piece
        /// reaches it; walls and bits at `n` and above are never reached.
        ///
        /// Right is the subtraction `o ^ (o - 2g)`, left galloping (the article's algorithm);
        #[doc = concat!("[`", stringify!($name_with), "`] picks the method.")]
        ///
        /// Example: pieces on cells 1 and 9, walls on 4 and 12, a 16-cell line. (The article's
        /// own example is a picture that its text does not include.)
        ///
        /// ```
        #[doc = concat!("use gridbits::algo::slide::", stringify!($name), ";")]
        /// // cell:  0123456789012345
        /// // line:  .Q..#....Q..#...
        /// let walls = 1 << 4 | 1 << 12;
        /// let pieces = 1 << 1 | 1 << 9;
        #[doc = concat!("let r = ", stringify!($name), "(walls, pieces, 16);")]
        /// assert_eq!(r.right, 0b0000_1100_0000_1100); // 2, 3 and 10, 11
        /// assert_eq!(r.left, 0b0000_0001_1110_0001); // 0 and 5, 6, 7, 8
        /// ```
        pub fn $name(walls: $t, pieces: $t, n: u32) -> LineReach<$t> {
            let n = n.min($bits);
            let mask: $t = if n >= $bits { !0 } else { ((1 as $t) << n) - 1 };
            let pass = !walls & mask;
            let pieces = pieces & mask;
            LineReach {
                right: {
                    let o = !pass | pieces;
                    (o ^ o.wrapping_sub(pieces << 1)) & pass
                },
                left: {
                    // Galloping at speed 2 with one accelerating step, as in the article.
                    let mut g = (pieces >> 1) & pass;
                    g |= (g >> 1) & pass;
                    let p2 = pass & (pass >> 1);
                    loop {
                        let next = g | ((g >> 2) & p2);
                        if next == g {
                            break g;
                        }
                        g = next;
                    }
                },
            }
        }

        #[doc = concat!("[`", stringify!($name), "`] with a chosen [`Method`] for both directions")]
        /// ([`Method::Sweep`] and [`Method::Auto`] are the subtraction).
        ///
        /// ```
        #[doc = concat!("use gridbits::algo::slide::{", stringify!($name_with), ", Method};")]
        /// for m in Method::ALL {
        #[doc = concat!("    let r = ", stringify!($name_with), "(0b1000_0000, 0b10, 10, m);")]
        ///     assert_eq!((r.right, r.left), (0b0111_1100, 0b1));
        /// }
        /// ```
        pub fn $name_with(walls: $t, pieces: $t, n: u32, method: Method) -> LineReach<$t> {
            let n = n.min($bits);
            let mask: $t = if n >= $bits { !0 } else { ((1 as $t) << n) - 1 };
            let pass = !walls & mask;
            let pieces = pieces & mask;
            let len = (n as usize).saturating_sub(1);
            let rev = |x: $t| x.reverse_bits();
            let one = |g: $t, p: $t, right: bool| -> $t {
                let sh = |x: $t, k: usize| -> $t {
                    if k >= $bits {
                        0
                    } else if right {
                        x << k
                    } else {
                        x >> k
                    }
                };
                match method {
                    Method::Dumb7 => {
                        let mut front = sh(g, 1) & p;
                        let mut acc = front;
                        while front != 0 {
                            front = sh(front, 1) & p;
                            acc |= front;
                        }
                        acc
                    }
                    Method::Gallop => {
                        let speed = 1usize << auto_gallop_speed(len);
                        let mut acc = sh(g, 1) & p;
                        let (mut pj, mut j) = (p, 1);
                        while j < speed {
                            acc |= pj & sh(acc, j);
                            pj &= sh(pj, j);
                            j *= 2;
                        }
                        loop {
                            let next = acc | (pj & sh(acc, j));
                            if next == acc {
                                break acc;
                            }
                            acc = next;
                        }
                    }
                    Method::KoggeStone => {
                        let mut acc = sh(g, 1) & p;
                        let (mut pj, mut j, mut covered) = (p, 1, 1);
                        while covered < len {
                            if covered + j < len && 2 * j <= covered {
                                pj &= sh(pj, j);
                                j *= 2;
                            }
                            acc |= pj & sh(acc, j);
                            covered += j;
                        }
                        acc
                    }
                    Method::Subtract | Method::Sweep | Method::Auto => {
                        if right {
                            let o = !p | g;
                            (o ^ o.wrapping_sub(g << 1)) & p
                        } else {
                            let (g, p) = (rev(g), rev(p));
                            let o = !p | g;
                            rev((o ^ o.wrapping_sub(g << 1)) & p)
                        }
                    }
                }
            };
            LineReach {
                right: one(pieces, pass, true),
                left: one(pieces, pass, false),
            }
        }
    };
}

line_impl!(u64, line_reach_u64, line_reach_u64_with, 64);
line_impl!(u128, line_reach_u128, line_reach_u128_with, 128);
