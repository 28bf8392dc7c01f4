//! Property tests of the fixed-size [`Board`] against the naive oracle, one module per size.
//!
//! Every check also asserts the storage invariant: no bit outside the board is ever set.
//! The checks are generic over the size: deterministic ones in `checks`, properties in
//! `properties`; the `board_suite!` modules below run them all for each size.

mod checks;
mod properties;

use checks::*;
use properties::*;

use crate::common::*;
use gridbits::Board;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// One module per size.

macro_rules! board_suite {
    ($name:ident, $ty:ty, $w:literal x $h:literal, n = $n:literal, guard = $guard:literal) => {
        mod $name {
            use super::*;

            const W: usize = $w;
            const H: usize = $h;
            const N: usize = $n;
            /// The type under test (an alias where the crate has one).
            type B = $ty;

            #[test]
            fn type_is_the_requested_size() {
                // The alias must be exactly Board<W, H, N>.
                use std::any::TypeId;
                assert_eq!(TypeId::of::<B>(), TypeId::of::<Board<W, H, N>>());
            }

            #[test]
            fn layout() {
                super::layout::<W, H, N>($guard);
            }

            #[test]
            fn cells_and_bits() {
                super::cells_and_bits::<W, H, N>();
            }

            #[test]
            fn off_board_panics() {
                super::off_board_panics::<W, H, N>();
            }

            #[test]
            fn shifts_at_every_edge() {
                super::shifts_at_every_edge::<W, H, N>();
            }

            // The properties: `check` compiles the proptest runner once per value type, not
            // once per size; the cases are the ones `proptest!` would draw.

            #[test]
            fn bitwise() {
                check(
                    config(96),
                    (pattern(W, H), pattern(W, H)).boxed(),
                    &|(a, b)| {
                        super::bitwise::<W, H, N>(&a, &b);
                        Ok(())
                    },
                );
            }

            #[test]
            fn iteration() {
                check(config(96), (pattern(W, H),).boxed(), &|(a,)| {
                    super::iteration::<W, H, N>(&a);
                    Ok(())
                });
            }

            #[test]
            fn mutation() {
                let ops = proptest::collection::vec((0..W, 0..H, 0u8..5), 0..40);
                check(config(96), (pattern(W, H), ops).boxed(), &|(a, ops)| {
                    super::mutation::<W, H, N>(&a, &ops);
                    Ok(())
                });
            }

            #[test]
            fn shifts() {
                check(config(96), (pattern(W, H),).boxed(), &|(a,)| {
                    super::shifts::<W, H, N>(&a);
                    Ok(())
                });
            }

            #[test]
            fn morphology() {
                check(
                    config(96),
                    (pattern(W, H), pattern(W, H)).boxed(),
                    &|(a, m)| {
                        super::morphology::<W, H, N>(&a, &m);
                        Ok(())
                    },
                );
            }

            #[test]
            fn words() {
                let raw = proptest::collection::vec(
                    prop_oneof![any::<u64>(), Just(0u64), Just(!0u64)],
                    N,
                );
                check(config(96), (raw,).boxed(), &|(raw,)| {
                    super::words::<W, H, N>(&raw);
                    Ok(())
                });
            }

            #[test]
            fn text() {
                check(
                    config(96),
                    (pattern(W, H), 0x21u8..=0x7e).boxed(),
                    &|(a, c)| {
                        let c = if c == b'.' { b'#' } else { c };
                        super::text::<W, H, N>(&a, c);
                        Ok(())
                    },
                );
            }

            #[test]
            fn rect_mask() {
                let strategy = (0..W + 3, 0..W + 3, 0..H + 3, 0..H + 3);
                check(config(96), strategy.boxed(), &|(x0, x1, y0, y1)| {
                    super::rect::<W, H, N>(x0, x1, y0, y1);
                    Ok(())
                });
            }
        }
    };
}

board_suite!(b1x1, Board<1, 1, 1>, 1 x 1, n = 1, guard = true);
board_suite!(b1x32, Board<1, 32, 1>, 1 x 32, n = 1, guard = true);
board_suite!(b1x40, Board<1, 40, 1>, 1 x 40, n = 1, guard = false);
board_suite!(b1x64, Board<1, 64, 1>, 1 x 64, n = 1, guard = false);
board_suite!(b40x1, Board<40, 1, 1>, 40 x 1, n = 1, guard = true);
board_suite!(b63x1, Board<63, 1, 1>, 63 x 1, n = 1, guard = true);
board_suite!(b64x1, Board<64, 1, 1>, 64 x 1, n = 1, guard = false);
board_suite!(b7x8, Board<7, 8, 1>, 7 x 8, n = 1, guard = true);
board_suite!(b8x8, gridbits::Board8x8, 8 x 8, n = 1, guard = false);
board_suite!(b8x8_n2, Board<8, 8, 2>, 8 x 8, n = 2, guard = true);
board_suite!(b65x1, Board<65, 1, 2>, 65 x 1, n = 2, guard = true);
board_suite!(b128x1, Board<128, 1, 2>, 128 x 1, n = 2, guard = false);
board_suite!(b1x128, Board<1, 128, 2>, 1 x 128, n = 2, guard = false);
board_suite!(b64x2, Board<64, 2, 2>, 64 x 2, n = 2, guard = false);
board_suite!(b6x12, gridbits::Board6x12, 6 x 12, n = 2, guard = true);
board_suite!(b6x13, gridbits::Board6x13, 6 x 13, n = 2, guard = true);
board_suite!(b16x8, Board<16, 8, 2>, 16 x 8, n = 2, guard = false);
board_suite!(b9x9, gridbits::Board9x9, 9 x 9, n = 2, guard = true);
board_suite!(b10x10, gridbits::Board10x10, 10 x 10, n = 2, guard = true);
board_suite!(b10x40, gridbits::Board10x40, 10 x 40, n = 7, guard = true);
board_suite!(b19x19, gridbits::Board19x19, 19 x 19, n = 6, guard = true);
board_suite!(b30x20, gridbits::Board30x20, 30 x 20, n = 10, guard = true);
board_suite!(b10x10_n3, Board<10, 10, 3>, 10 x 10, n = 3, guard = true);
