//! The column heights in the form the straight drops run on ([`Heights`]): one byte a
//! column, in an SSE2 register on x86-64 ([`super::drop_rows_x86`]) or in the portable byte
//! lanes [`Lanes`] (SIMD within a register), and one orientation's landing rows from them.
//! The rule they compute and why it is exact are in [`straight_drops`](super::straight_drops).

/// The column heights, in the form the straight drops run on: one byte a column in an SSE2
/// register (x86-64, matrices up to 16 wide: [`super::drop_rows_x86`]), else the portable
/// byte lanes [`Lanes`] (tested against each other under [`crate::cpu::Level::Portable`]).
pub(super) enum Heights<const W: usize> {
    #[cfg(target_arch = "x86_64")]
    Sse2(std::arch::x86_64::__m128i),
    Lanes(Lanes<W>),
}

impl<const W: usize> Heights<W> {
    /// The heights of `cols`. Always inlined: into the straight drops compiled with LZCNT
    /// it counts with `lzcnt`, where a call compiled for the baseline took `bsr` (several
    /// cycles each, ten a piece: a third of a straight drop's time, measured).
    #[inline(always)]
    pub(super) fn new(cols: &[u64; W]) -> Self {
        #[cfg(target_arch = "x86_64")]
        if W <= super::drop_rows_x86::MAX_WIDTH && crate::cpu::has(crate::cpu::Features::SSE2) {
            // SAFETY: SSE2 is present (checked just above); the function touches no memory
            // but its arguments.
            return Heights::Sse2(unsafe { super::drop_rows_x86::heights(cols) });
        }
        // Column heights plus BIAS, one lane each (at most 64 + BIAS: below 128).
        let mut heights = Lanes::ZERO;
        for (x, c) in cols.iter().enumerate() {
            heights.0[x / 8] |= u64::from(64 - c.leading_zeros() + BIAS) << (8 * (x % 8));
        }
        Heights::Lanes(heights)
    }

    /// One orientation's straight drops (runs with the lowest cells `bottoms` rows above the
    /// tight box's bottom, `n` tight columns on the matrix, `land_top` the matrix height less
    /// the box's): the landing rows from the top written into `out` (NONE past `n`), and the
    /// highest resting row counted from the floor returned. The landing rows are exact where
    /// the caller keeps them (the returned maximum within `land_top`).
    #[inline(always)]
    pub(super) fn drop_rows(
        &self,
        bottoms: &[u8],
        n: usize,
        land_top: usize,
        out: &mut [u8; W],
    ) -> u32 {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `new` chose this form where SSE2 is present and `W` at most 16.
            Heights::Sse2(v) => unsafe {
                super::drop_rows_x86::drop_rows(*v, bottoms, n, land_top as u8, out)
            },
            Heights::Lanes(heights) => {
                // Each column's resting row from the floor plus BIAS, run by run of the
                // piece (lane cx: the highest of height[cx + k] - bottom_k; the run bottoms
                // are at most 2 < BIAS, so no lane of a column on the matrix goes below 0).
                let valid = Lanes::<W>::below(n);
                let mut rest = Lanes::ZERO;
                for (k, &bottom) in bottoms.iter().enumerate() {
                    let col = heights.down(k).sub_each(u64::from(bottom));
                    rest = rest.max(&col);
                }
                let rest = rest.and(&valid).max(&Lanes::splat(BIAS));
                // Landing rows from the top: land_top - rest (exact where the caller keeps
                // them); the columns past the last one the piece fits in get NONE.
                let land = Lanes::splat(land_top as u32 + BIAS)
                    .sub(&rest)
                    .or_not(&valid);
                land.write(out);
                rest.highest() - BIAS
            }
        }
    }
}

/// Added to every column height in [`Lanes`], above every run bottom (at most 2), so that
/// subtracting a bottom keeps a lane at or above 0.
const BIAS: u32 = 3;
/// Byte lanes: 1 in every lane, the high bit of every lane.
const LANE_ONE: u64 = 0x0101_0101_0101_0101;
const LANE_HIGH: u64 = 0x8080_8080_8080_8080;

/// One byte per column, lane `x` in byte `x % 8` of word `x / 8` (SIMD within a register).
/// Values on the matrix's columns stay below 128; the lanes past them (up to 64) hold what
/// the arithmetic leaves there, and a borrow only moves up from a lane to the next, so they
/// never disturb the lanes below them.
#[derive(Clone, Copy)]
pub(super) struct Lanes<const W: usize>([u64; 8]);

impl<const W: usize> Lanes<W> {
    const ZERO: Self = Lanes([0; 8]);
    /// Words holding the `W` lanes.
    const WORDS: usize = W.div_ceil(8);

    /// `v` (below 128) in every lane.
    fn splat(v: u32) -> Self {
        Lanes([u64::from(v) * LANE_ONE; 8])
    }

    /// All ones in the lanes below `n`, 0 in the others.
    fn below(n: usize) -> Self {
        let mut out = Self::ZERO;
        for (i, o) in out.0.iter_mut().enumerate().take(Self::WORDS) {
            let bytes = n.saturating_sub(8 * i).min(8);
            *o = if bytes == 8 {
                !0
            } else {
                (1u64 << (8 * bytes)) - 1
            };
        }
        out
    }

    /// Lane `x` takes lane `x + k` (`k` below 8); lanes past the last word read 0.
    #[inline(always)]
    fn down(&self, k: usize) -> Self {
        if k == 0 {
            return *self;
        }
        let mut out = Self::ZERO;
        for i in 0..Self::WORDS {
            let next = if i + 1 < Self::WORDS {
                self.0[i + 1]
            } else {
                0
            };
            out.0[i] = self.0[i] >> (8 * k) | next << (64 - 8 * k);
        }
        out
    }

    /// Every lane less `v` (lanes at or above `v` stay exact).
    #[inline(always)]
    fn sub_each(&self, v: u64) -> Self {
        let mut out = *self;
        for o in &mut out.0[..Self::WORDS] {
            *o = o.wrapping_sub(v * LANE_ONE);
        }
        out
    }

    /// Lane by lane `self - o` (exact where `self >= o`).
    #[inline(always)]
    fn sub(&self, o: &Self) -> Self {
        let mut out = *self;
        for (a, b) in out.0[..Self::WORDS].iter_mut().zip(&o.0) {
            *a = a.wrapping_sub(*b);
        }
        out
    }

    /// Lane by lane maximum (exact in the lanes below 128 in both).
    #[inline(always)]
    fn max(&self, o: &Self) -> Self {
        let mut out = *self;
        for (a, &b) in out.0[..Self::WORDS].iter_mut().zip(&o.0) {
            *a = max_lanes(*a, b);
        }
        out
    }

    #[inline(always)]
    fn and(&self, o: &Self) -> Self {
        let mut out = *self;
        for (a, &b) in out.0.iter_mut().zip(&o.0) {
            *a &= b;
        }
        out
    }

    /// `self | !o`.
    #[inline(always)]
    fn or_not(&self, o: &Self) -> Self {
        let mut out = *self;
        for (a, &b) in out.0.iter_mut().zip(&o.0) {
            *a |= !b;
        }
        out
    }

    /// The highest lane (every lane below 128).
    #[inline(always)]
    fn highest(&self) -> u32 {
        let mut x = self.0[..Self::WORDS]
            .iter()
            .fold(0, |a, &b| max_lanes(a, b));
        x = max_lanes(x, x >> 32);
        x = max_lanes(x, x >> 16);
        x = max_lanes(x, x >> 8);
        (x & 0xFF) as u32
    }

    /// Lane `x` into `out[x]`.
    #[inline(always)]
    fn write(&self, out: &mut [u8; W]) {
        for (x, o) in out.iter_mut().enumerate() {
            *o = (self.0[x / 8] >> (8 * (x % 8))) as u8;
        }
    }
}

/// Lane by lane maximum of two words of byte lanes, exact in the lanes where both are below
/// 128: `(a | 128) - b` keeps its high bit where `a >= b` and borrows from no lane.
#[inline(always)]
fn max_lanes(a: u64, b: u64) -> u64 {
    let ge = ((a | LANE_HIGH).wrapping_sub(b) & LANE_HIGH) >> 7;
    let m = ge * 0xFF;
    (a & m) | (b & !m)
}

#[cfg(test)]
mod tests {
    use super::super::{Piece, Rotation};
    use super::*;
    use crate::games::rng::GameRng;

    /// The byte lanes against plain per-column arithmetic, on random values below 128 and
    /// widths across word boundaries.
    fn lanes_agree<const W: usize>(rng: &mut GameRng) {
        for _ in 0..200 {
            let a: [u32; W] = std::array::from_fn(|_| rng.below(128) as u32);
            let b: [u32; W] = std::array::from_fn(|_| rng.below(128) as u32);
            let pack = |v: &[u32; W]| {
                let mut l = Lanes::<W>::ZERO;
                for (x, &v) in v.iter().enumerate() {
                    l.0[x / 8] |= u64::from(v) << (8 * (x % 8));
                }
                l
            };
            let lane = |l: &Lanes<W>, x: usize| (l.0[x / 8] >> (8 * (x % 8))) as u8 as u32;
            let (la, lb) = (pack(&a), pack(&b));
            let max = la.max(&lb);
            for x in 0..W {
                assert_eq!(lane(&max, x), a[x].max(b[x]), "max, W {W} x {x}");
            }
            assert_eq!(la.highest(), a.iter().copied().max().unwrap_or(0));
            let k = rng.below(4) as usize;
            let down = la.down(k);
            let n = W.saturating_sub(k);
            for x in 0..n {
                assert_eq!(lane(&down, x), a[x + k], "down {k}, W {W} x {x}");
            }
            // A subtraction that borrows in the lanes past `n` leaves those below exact.
            let bottom = rng.below(3) as u32;
            let sub = la.sub_each(u64::from(bottom));
            for x in 0..W {
                if a[x] >= bottom && (0..x).all(|y| a[y] >= bottom) {
                    assert_eq!(lane(&sub, x), a[x] - bottom, "sub, W {W} x {x}");
                }
            }
            let valid = Lanes::<W>::below(n);
            for x in 0..W {
                assert_eq!(lane(&valid, x), if x < n { 0xFF } else { 0 });
            }
        }
    }

    #[test]
    fn byte_lanes_equal_per_column_arithmetic() {
        let mut rng = GameRng::new(11);
        lanes_agree::<1>(&mut rng);
        lanes_agree::<7>(&mut rng);
        lanes_agree::<8>(&mut rng);
        lanes_agree::<9>(&mut rng);
        lanes_agree::<10>(&mut rng);
        lanes_agree::<16>(&mut rng);
        lanes_agree::<63>(&mut rng);
        lanes_agree::<64>(&mut rng);
    }

    /// Both forms of [`Heights`] give the same landing rows and maximum, on random column
    /// heights (0 to `h`), every piece's runs and widths across the 16-wide SSE2 limit.
    fn heights_forms_agree<const W: usize>(rng: &mut GameRng) {
        for _ in 0..300 {
            let h = 1 + rng.below(64) as usize;
            let cols: [u64; W] = std::array::from_fn(|_| {
                let top = rng.below(h as u64 + 1);
                if top == 0 {
                    0
                } else {
                    (rng.next_u64() | 1 << (top - 1)) & (u64::MAX >> (64 - top))
                }
            });
            let fast = Heights::new(&cols);
            let plain = crate::cpu::with_level(crate::cpu::Level::Portable, || Heights::new(&cols));
            assert!(matches!(plain, Heights::Lanes(_)));
            for p in Piece::ALL {
                for r in Rotation::ALL {
                    let s = p.shape(r);
                    let (w, gh) = (usize::from(s.w), usize::from(s.h));
                    if w > W || gh > h {
                        continue;
                    }
                    let (mut a, mut b) = ([0u8; W], [0u8; W]);
                    let n = W + 1 - w;
                    let ha = fast.drop_rows(&s.bottom[..w], n, h - gh, &mut a);
                    let hb = plain.drop_rows(&s.bottom[..w], n, h - gh, &mut b);
                    assert_eq!(ha, hb, "{p} {r:?} W {W} h {h}");
                    // Per column the plain rule, where the caller keeps the rows (the
                    // highest within `h - gh`), and NONE past the last column.
                    let rest: Vec<u32> = (0..n)
                        .map(|cx| {
                            (0..w)
                                .map(|k| {
                                    let hk = 64 - cols[cx + k].leading_zeros();
                                    hk.saturating_sub(u32::from(s.bottom[k]))
                                })
                                .max()
                                .unwrap_or(0)
                        })
                        .collect();
                    let high = rest.iter().copied().max().unwrap_or(0);
                    assert_eq!(ha, high, "{p} {r:?} W {W} h {h}");
                    for cx in n..W {
                        assert_eq!((a[cx], b[cx]), (0xFF, 0xFF));
                    }
                    if high as usize <= h - gh {
                        for (cx, &rest) in rest.iter().enumerate() {
                            let want = (h - gh - rest as usize) as u8;
                            assert_eq!((a[cx], b[cx]), (want, want), "{p} {r:?} cx {cx}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn heights_forms_agree_with_the_plain_rule() {
        let mut rng = GameRng::new(12);
        heights_forms_agree::<1>(&mut rng);
        heights_forms_agree::<4>(&mut rng);
        heights_forms_agree::<8>(&mut rng);
        heights_forms_agree::<9>(&mut rng);
        heights_forms_agree::<10>(&mut rng);
        heights_forms_agree::<16>(&mut rng);
        heights_forms_agree::<17>(&mut rng);
        heights_forms_agree::<63>(&mut rng);
        heights_forms_agree::<64>(&mut rng);
    }
}
