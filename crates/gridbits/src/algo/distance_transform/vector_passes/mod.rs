//! City-block and chessboard distances by scipy's two raster passes, vectorised across the
//! row in `i16` lanes.
//!
//! The forward pass gives each cell `f[x] = min(g[x], f[x-1] + 1)` with
//! `g[x] = min(init, u + 1)`: `init` 0 on a background cell and "far" on a set one, `u` the
//! row above's cell (city block) or the smallest of its three cells up-left, up and up-right
//! (chessboard). `g` is plain lane-wise work over contiguous cells; the dependency on the
//! left neighbour is a min-plus prefix with slope 1,
//! `f[x] = min over j <= x of (g[j] + x - j)`, done in a register by a log-step scan
//! (`v = min(v, lanes shifted by k + k)` for `k = 1, 2, 4, ...`, "far" shifted in) and the
//! carry of the previous register (`v[i] = min(v[i], c + i + 1)`, `c` its last lane). The
//! backward pass is the same mirrored, reading the forward pass's row and the row below's
//! final values, and writes each output cell once, widened to `i32` or `f32` as it stores.
//!
//! The forward values go to an `i16` scratch plane (half the bytes of the output); the
//! sums saturate at `i16::MAX` ("far"), so the lanes are exact while every distance is
//! below it: for grids whose width plus height is below [`LANE_LIMIT`] (the callers take the
//! other engines past it). The two-pass 3 x 3 chamfer transform is exact for city block
//! and chessboard (see [`chamfer`](super::chamfer)).
//!
//! Three kernels, chosen at run time through [`cpu`](crate::cpu): AVX-512 BW (32 lanes a
//! register, the initial values straight from 32 bits by a masked move), AVX2 (16 lanes),
//! and a portable one that runs the same passes cell by cell; the tests check each against
//! the per-cell reference.

use super::sweeps::Distance;
use crate::error::try_vec;
use crate::{BitGrid, SizeError};

mod portable;
#[cfg(target_arch = "x86_64")]
mod x86;

/// "Far": no background cell reached yet. Saturating sums stay here.
const FAR: i16 = i16::MAX;

/// The lanes are exact while the grid's width plus height is below this (every city-block
/// or chessboard distance is then at most `w + h - 2 < i16::MAX`).
pub(super) const LANE_LIMIT: usize = i16::MAX as usize;

/// Cells a row is processed in: the AVX-512 register's lanes (the AVX2 kernel takes two
/// registers of 16 per step), so every kernel shares one scratch layout.
const LANES: usize = 32;

/// An output distance the kernels can widen `i16` lanes into: `i32` (scipy) or `f32`
/// (OpenCV).
pub(super) trait Widened: Distance {
    /// Whether the lanes are stored as `f32` (else as `i32`); read by the x86-64 kernels.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    const FLOAT: bool;
}

impl Widened for i32 {
    const FLOAT: bool = false;
}

impl Widened for f32 {
    const FLOAT: bool = true;
}

/// Which kernel runs the passes (the vector ones exist on x86-64 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) enum Kernel {
    /// Cell by cell, plain Rust.
    Portable,
    /// 16 `i16` lanes a register.
    Avx2,
    /// 32 `i16` lanes a register.
    Avx512,
}

impl Kernel {
    /// The fastest kernel the CPU (and the calling thread's [`cpu`](crate::cpu) cap) allows.
    pub(super) fn best() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            use crate::cpu::{has, Features};
            if has(Features::AVX512F | Features::AVX512BW | Features::AVX2) {
                return Kernel::Avx512;
            }
            if has(Features::AVX2) {
                return Kernel::Avx2;
            }
        }
        Kernel::Portable
    }
}

/// The row layout shared by the scratch plane and the row buffers: `stride` cells a row,
/// cell `x` at `1 + x`, "far" at 0 and from `1 + w` on (the vectors at `x0 - 1`, `x0`,
/// `x0 + 1` never leave the row).
#[derive(Clone, Copy)]
struct Layout {
    w: usize,
    h: usize,
    /// `w` rounded up to whole vectors (for the x86-64 kernels).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    r: usize,
    /// Cells a row: `r + LANES`.
    stride: usize,
}

/// Writes every cell's city-block (`diagonal` false) or chessboard distance into `out`
/// (`w * h` cells on return, row-major), with `kernel`. The grid must hold an unset cell
/// and its width plus height must be below [`LANE_LIMIT`].
///
/// # Errors
///
/// A [`SizeError`] if the scratch plane or the output cannot be had.
pub(super) fn vector_distances<T: Widened>(
    grid: &BitGrid,
    diagonal: bool,
    kernel: Kernel,
) -> Result<Vec<T>, SizeError> {
    let (w, h) = grid.size();
    debug_assert!(w + h < LANE_LIMIT);
    let mut out: Vec<T> = try_vec("chamfer distances", w, h, (w * h) as u128)?;
    if w == 0 || h == 0 {
        return Ok(out);
    }
    let r = w.div_ceil(LANES) * LANES;
    let lay = Layout {
        w,
        h,
        r,
        stride: r + LANES,
    };
    let mut scratch: Vec<i16> =
        try_vec("chamfer scratch", w, h, (lay.stride as u128) * (h as u128))?;
    // A row of "far" (above the first row, below the last) and two buffers for the
    // backward pass's rows; each with a spare cell at the end.
    let mut rows = vec![FAR; 3 * (lay.stride + 1)];
    #[cfg(target_arch = "x86_64")]
    {
        use crate::cpu::{has, Features};
        let avx512 = Features::AVX512F | Features::AVX512BW | Features::AVX2;
        let kernel = if kernel == Kernel::Avx512 && has(avx512) {
            Kernel::Avx512
        } else if kernel != Kernel::Portable && has(Features::AVX2) {
            Kernel::Avx2
        } else {
            Kernel::Portable
        };
        if kernel != Kernel::Portable {
            let s = scratch.spare_capacity_mut().as_mut_ptr().cast::<i16>();
            let dst = out.spare_capacity_mut().as_mut_ptr().cast::<T>();
            let (inf_row, bufs) = rows.split_at_mut(lay.stride + 1);
            let (a, b) = bufs.split_at_mut(lay.stride + 1);
            let bufs = [a.as_mut_ptr(), b.as_mut_ptr()];
            // SAFETY: the kernel's features were checked just above; `s` has capacity for
            // `stride * h` cells and `dst` for `w * h`; the row buffers hold `stride + 1`
            // cells each, all "far". The kernels write every scratch cell of a row before
            // it is read and every output cell once (see `x86`), so the output's first
            // `w * h` cells are initialised when they return.
            unsafe {
                if kernel == Kernel::Avx512 {
                    x86::passes_avx512::<T>(grid, diagonal, lay, s, inf_row, bufs, dst);
                } else {
                    x86::passes_avx2::<T>(grid, diagonal, lay, s, inf_row, bufs, dst);
                }
                out.set_len(w * h);
            }
            return Ok(out);
        }
    }
    let _ = kernel;
    scratch.resize(lay.stride * h, FAR);
    portable::passes::<T>(grid, diagonal, lay, &mut scratch, &mut rows, &mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::distance_transform::two_pass_chamfer;
    use crate::naive::NaiveGrid;

    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn kernels() -> Vec<Kernel> {
        let mut k = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            use crate::cpu::{has, Features};
            if has(Features::AVX2) {
                k.push(Kernel::Avx2);
            }
            if has(Features::AVX512F | Features::AVX512BW | Features::AVX2) {
                k.push(Kernel::Avx512);
            }
        }
        k
    }

    fn check(g: &BitGrid) {
        if g.count() as usize == g.width() * g.height() {
            return;
        }
        let ng = NaiveGrid::from_view(g);
        for diagonal in [false, true] {
            let structure = if diagonal {
                [[true; 3]; 3]
            } else {
                [
                    [false, true, false],
                    [true, true, true],
                    [false, true, false],
                ]
            };
            let want = two_pass_chamfer(&ng, structure).0;
            for k in kernels() {
                let got = vector_distances::<i32>(g, diagonal, k).unwrap();
                assert_eq!(
                    got,
                    want,
                    "{k:?} diagonal {diagonal} {}x{}",
                    g.width(),
                    g.height()
                );
                let got = vector_distances::<f32>(g, diagonal, k).unwrap();
                let wf: Vec<f32> = want.iter().map(|&d| d as f32).collect();
                assert_eq!(got, wf, "{k:?} f32 diagonal {diagonal}");
            }
        }
    }

    #[test]
    fn kernels_equal_the_naive_passes() {
        let mut rng = XorShift(0x5eed_cafe);
        let widths = [1usize, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 97, 130];
        let heights = [1usize, 2, 3, 17, 40];
        for &w in &widths {
            for &h in &heights {
                for percent in [0u64, 30, 70, 95, 99, 100] {
                    let mut g = BitGrid::new(w, h);
                    for y in 0..h {
                        for x in 0..w {
                            if rng.next() % 100 < percent {
                                g.set(x, y);
                            }
                        }
                    }
                    check(&g);
                }
                // Full but one cell: the deepest distances, at each corner.
                for (x, y) in [(0, 0), (w - 1, h - 1), (w / 2, 0), (0, h - 1)] {
                    let mut g = BitGrid::full(w, h);
                    g.clear(x, y);
                    check(&g);
                }
            }
        }
    }

    /// Distances near the lanes' limit: a long grid with one background cell at an end.
    #[test]
    fn large_distances_stay_exact() {
        for (w, h) in [(32_000usize, 3usize), (2, 16_000)] {
            let mut g = BitGrid::full(w, h);
            g.clear(0, 0);
            g.clear(w - 1, h - 1);
            let mut g2 = BitGrid::full(w, h);
            g2.clear(0, 0);
            for g in [g, g2] {
                for diagonal in [false, true] {
                    for k in kernels() {
                        let got = vector_distances::<i32>(&g, diagonal, k).unwrap();
                        for y in 0..h {
                            for x in 0..w {
                                let a = if diagonal { x.max(y) } else { x + y };
                                let b = if g.get(w - 1, h - 1) {
                                    usize::MAX
                                } else {
                                    let (dx, dy) = (w - 1 - x, h - 1 - y);
                                    if diagonal {
                                        dx.max(dy)
                                    } else {
                                        dx + dy
                                    }
                                };
                                assert_eq!(got[y * w + x], a.min(b) as i32, "{k:?} {x} {y}");
                            }
                        }
                    }
                }
            }
        }
    }
}
