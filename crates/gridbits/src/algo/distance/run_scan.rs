//! The exact 1D distance transform along a run of free cells, for the row sweeps of
//! `distance_sweeps.rs`: every cell takes the smallest of its own value and its neighbours'
//! plus the steps between them.
//!
//! Written as a chain (`t = min(v[x], t + 1)`), each cell waits for the one before. Offset
//! by the index instead, it is a plain prefix (or suffix) minimum: `v[x] + i` for the cells
//! in order from the far end, minimised, then the offset taken off again. With SSE4.1
//! (detected at run time) four cells are scanned per step: two shifted minimums within a
//! register and one with the carry from the register before.

/// Values are at most this (`FAR` of the sweeps, the cap of unreached cells), and a run is
/// shorter than it, so a value plus an offset fits in a `u32`.
pub(super) const CAP: u32 = 1 << 31;

/// `v[i] = min over j <= i of v[j] + (i - j)`, for values at most [`CAP`] and a run shorter
/// than [`CAP`].
pub(super) fn forward(v: &mut [u32], kernel: Kernel) {
    #[cfg(target_arch = "x86_64")]
    if kernel.sse41 {
        // SAFETY: `kernel.sse41` is true only in a `Kernel` made by `Kernel::detect`, after
        // it detected SSE4.1, the only requirement of `forward_sse41`; that function keeps
        // its loads and stores inside `v`.
        unsafe { forward_sse41(v) };
        return;
    }
    let _ = kernel;
    forward_from(v, 0, u32::MAX);
}

/// `v[i] = min over j >= i of v[j] + (j - i)`, as [`forward`] mirrored.
pub(super) fn backward(v: &mut [u32], kernel: Kernel) {
    #[cfg(target_arch = "x86_64")]
    if kernel.sse41 {
        // SAFETY: as in `forward`: SSE4.1 was detected by `Kernel::detect`.
        unsafe { backward_sse41(v) };
        return;
    }
    let _ = kernel;
    backward_to(v, v.len(), u32::MAX);
}

/// Which form of the scans runs: the SSE4.1 one only in a value made by [`Kernel::detect`]
/// on a CPU that has it (the field is private to this file, so no other code can claim it).
#[derive(Clone, Copy, Debug)]
pub(super) struct Kernel {
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    sse41: bool,
}

impl Kernel {
    /// The portable scans, on any CPU.
    pub(super) const PORTABLE: Kernel = Kernel { sse41: false };

    /// The fastest scans this CPU runs.
    pub(super) fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(crate::cpu::Features::SSE41) {
            return Kernel { sse41: true };
        }
        Kernel::PORTABLE
    }

    /// Whether this is the SSE4.1 form.
    #[cfg(test)]
    pub(super) fn is_sse41(self) -> bool {
        self.sse41
    }
}

/// The portable [`forward`] from index `start`, with `carry` the running minimum (in the
/// offset form: `v[j] + (len - 1 - j)`) of the cells before.
fn forward_from(v: &mut [u32], start: usize, carry: u32) {
    let last = v.len().wrapping_sub(1);
    let mut m = carry;
    for (i, x) in v.iter_mut().enumerate().skip(start) {
        let off = (last - i) as u32;
        m = m.min(*x + off);
        *x = m - off;
    }
}

/// The portable [`backward`] on `v[..end]`, with `carry` the running minimum (in the offset
/// form: `v[j] + j`) of the cells from `end` on.
fn backward_to(v: &mut [u32], end: usize, carry: u32) {
    let mut m = carry;
    for (i, x) in v[..end].iter_mut().enumerate().rev() {
        m = m.min(*x + i as u32);
        *x = m - i as u32;
    }
}

/// [`forward`], four cells per step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
fn forward_sse41(v: &mut [u32]) {
    use std::arch::x86_64::*;
    let n = v.len();
    let steps = n / 4;
    let ones = _mm_set1_epi32(-1);
    let mut carry = ones;
    // The offsets `len - 1 - j` of the four cells of the step.
    let last = n as i32 - 1;
    let mut off = _mm_setr_epi32(last, last - 1, last - 2, last - 3);
    let four = _mm_set1_epi32(4);
    for k in 0..steps {
        let p = v[4 * k..4 * k + 4].as_mut_ptr().cast::<__m128i>();
        // SAFETY: `p` points at four `u32`s of `v` (the slice above); unaligned accesses.
        let x = unsafe { _mm_loadu_si128(p) };
        let e = _mm_add_epi32(x, off);
        // Prefix minimum within the register: lanes shifted up by one, then by two, with
        // all-ones (the largest u32) shifted in.
        let mut m = _mm_min_epu32(e, _mm_alignr_epi8::<12>(e, ones));
        m = _mm_min_epu32(m, _mm_alignr_epi8::<8>(m, ones));
        m = _mm_min_epu32(m, carry);
        carry = _mm_shuffle_epi32::<0xFF>(m);
        // SAFETY: as the load.
        unsafe { _mm_storeu_si128(p, _mm_sub_epi32(m, off)) };
        off = _mm_sub_epi32(off, four);
    }
    forward_from(v, 4 * steps, _mm_cvtsi128_si32(carry) as u32);
}

/// [`backward`], four cells per step, from the end.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
fn backward_sse41(v: &mut [u32]) {
    use std::arch::x86_64::*;
    let n = v.len();
    let steps = n / 4;
    let ones = _mm_set1_epi32(-1);
    let mut carry = ones;
    let four = _mm_set1_epi32(4);
    // The first cell of the last step, and the offsets `j` of its four cells.
    let mut at = n;
    let base = n as i32 - 4;
    let mut off = _mm_setr_epi32(base, base + 1, base + 2, base + 3);
    for _ in 0..steps {
        at -= 4;
        let p = v[at..at + 4].as_mut_ptr().cast::<__m128i>();
        // SAFETY: `p` points at four `u32`s of `v` (the slice above); unaligned accesses.
        let x = unsafe { _mm_loadu_si128(p) };
        let e = _mm_add_epi32(x, off);
        // Suffix minimum within the register: lanes shifted down by one, then by two.
        let mut m = _mm_min_epu32(e, _mm_alignr_epi8::<4>(ones, e));
        m = _mm_min_epu32(m, _mm_alignr_epi8::<8>(ones, m));
        m = _mm_min_epu32(m, carry);
        carry = _mm_shuffle_epi32::<0x00>(m);
        // SAFETY: as the load.
        unsafe { _mm_storeu_si128(p, _mm_sub_epi32(m, off)) };
        off = _mm_sub_epi32(off, four);
    }
    backward_to(v, at, _mm_cvtsi128_si32(carry) as u32);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chain form, the definition.
    fn chains(v: &[u32]) -> (Vec<u32>, Vec<u32>) {
        let (mut f, mut b) = (v.to_vec(), v.to_vec());
        let mut t = u64::MAX;
        for x in f.iter_mut() {
            t = (*x as u64).min(t.saturating_add(1));
            *x = t as u32;
        }
        t = u64::MAX;
        for x in b.iter_mut().rev() {
            t = (*x as u64).min(t.saturating_add(1));
            *x = t as u32;
        }
        (f, b)
    }

    /// Both scans, portable and (where the CPU has it) SSE4.1, equal the chains on every
    /// length up to 40 (every tail of a step) and values from 0 to the cap.
    #[test]
    fn scans_equal_the_chains() {
        let mut rng = crate::test_rng::XorShift(0x9E37_79B9_7F4A_7C15);
        let kernels = [Kernel::PORTABLE, Kernel::detect()];
        for n in 0..=40usize {
            for round in 0..30 {
                let v: Vec<u32> = (0..n)
                    .map(|_| {
                        let s = rng.next_u64();
                        match (s >> 60, round % 3) {
                            (0..=4, _) => CAP,
                            (_, 0) => (s % 50) as u32,
                            (_, 1) => CAP - (s % 9) as u32,
                            _ => (s % 1000) as u32,
                        }
                    })
                    .collect();
                let (f, b) = chains(&v);
                for kernel in kernels {
                    let sse41 = kernel.is_sse41();
                    let mut got = v.clone();
                    forward(&mut got, kernel);
                    assert_eq!(got, f, "forward n={n} sse41={sse41} {v:?}");
                    let mut got = v.clone();
                    backward(&mut got, kernel);
                    assert_eq!(got, b, "backward n={n} sse41={sse41} {v:?}");
                }
            }
        }
    }
}
