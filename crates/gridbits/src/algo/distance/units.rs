//! The padded word layout shared by the word-frontier BFS (`frontier.rs`), its thin layers
//! (`thin.rs`) and its row bands (`bands/`), and the push of a frontier word into its
//! neighbour words.
//!
//! The grids are copied into a padded layout (one zero word after each row, one zero row above
//! and below), so every neighbour of a real word exists and needs no bounds check. Each padded
//! word position (a *unit*) keeps its four words side by side, 32 bytes: the cells not yet
//! visited and three frontier slots that take turns as the previous, current and next layer.
//! A push into a neighbour then touches one cache line, not one per array, which is what a
//! thin frontier scattered over a large grid pays for.

use super::cells::prefetch;
use crate::{BitGrid, Dir};

/// The padded word layout of a `w x h` grid: one zero word first, then `h + 2` rows of
/// `s = n + 1` words (the last word of each row zero; rows `0` and `h + 1` zero), then one
/// zero word: every word of the grid has its eight neighbours.
#[derive(Clone, Copy)]
pub(super) struct Pad {
    pub(super) w: usize,
    pub(super) h: usize,
    pub(super) n: usize,
    pub(super) s: usize,
}

impl Pad {
    pub(super) fn new(g: &BitGrid) -> Self {
        Self::rows(g, g.height())
    }

    /// The layout of `h` rows of `g` (a band of its rows).
    pub(super) fn rows(g: &BitGrid, h: usize) -> Self {
        let n = g.words_per_row();
        Pad {
            w: g.width(),
            h,
            n,
            s: n + 1,
        }
    }

    /// Number of padded words.
    pub(super) fn len(&self) -> usize {
        (self.h + 2) * self.s + 2
    }

    /// The unit of word `i` of row `y` (`y` may be `h`, the zero row below, or `usize::MAX`,
    /// the zero row above).
    pub(super) fn unit(&self, y: usize, i: usize) -> usize {
        y.wrapping_add(1) * self.s + i + 1
    }

    /// A padded copy of `g`'s words.
    pub(super) fn copy(&self, g: &BitGrid) -> Vec<u64> {
        self.copy_rows(g, 0)
    }

    /// A padded copy of the words of `g`'s rows `top..top + h`.
    pub(super) fn copy_rows(&self, g: &BitGrid, top: usize) -> Vec<u64> {
        let mut out = vec![0u64; self.len()];
        for y in 0..self.h {
            let at = self.unit(y, 0);
            out[at..at + self.n].copy_from_slice(g.row_words(top + y));
        }
        out
    }

    /// Zeroed memory for the units of `g` (with one unit to spare for alignment): pages of
    /// the allocator's zeroes, which a small region in a large grid never touches.
    pub(super) fn unit_store(&self) -> Vec<u64> {
        let words = 4 * (self.len() + 1);
        crate::huge_pages::zeroed(words).unwrap_or_else(|| {
            // As `vec!` does when memory runs out (the fallible entry points checked first).
            std::alloc::handle_alloc_error(std::alloc::Layout::new::<Unit>())
        })
    }

    /// The units in `store` (from [`Pad::unit_store`]), aligned, with `g`'s words as the
    /// open cells (slot [`OPEN`]) and the frontier slots zero.
    pub(super) fn units<'a>(&self, store: &'a mut [u64], g: &BitGrid) -> &'a mut [Unit] {
        self.units_rows(store, g, 0)
    }

    /// The units in `store` (from [`Pad::unit_store`]), aligned, as they are.
    pub(super) fn view<'a>(&self, store: &'a mut [u64]) -> &'a mut [Unit] {
        let len = self.len();
        assert!(store.len() >= 4 * (len + 1), "a unit store of this pad");
        // The first word at a multiple of 32 bytes: at most 3 words in (words are 8-aligned).
        let skip = store.as_ptr().align_offset(std::mem::align_of::<Unit>());
        assert!(skip <= 3);
        // SAFETY: `skip + 4 * len <= 3 + 4 * len < store.len()` words, so the `len` units lie
        // inside `store`, whose mutable borrow they take over for `'a`; the start is aligned
        // for `Unit` (`align_offset` above); `Unit` is four `u64`s (`repr(C)`), so any bits
        // of the words are a valid unit.
        unsafe { std::slice::from_raw_parts_mut(store.as_mut_ptr().add(skip).cast::<Unit>(), len) }
    }

    /// [`Pad::units`] of `g`'s rows `top..top + h` (a band of its rows).
    pub(super) fn units_rows<'a>(
        &self,
        store: &'a mut [u64],
        g: &BitGrid,
        top: usize,
    ) -> &'a mut [Unit] {
        let units = self.view(store);
        for y in 0..self.h {
            let at = self.unit(y, 0);
            for (u, &word) in units[at..at + self.n].iter_mut().zip(g.row_words(top + y)) {
                u.0[OPEN] = word;
            }
        }
        units
    }
}

/// The four words of a unit: the open (not yet visited, passable) cells, then three frontier
/// slots (previous, current and next layer, in turn). Aligned to its 32 bytes, so that a
/// unit never straddles two cache lines.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct Unit(pub(crate) [u64; 4]);

/// The slot of the open cells in a [`Unit`].
pub(super) const OPEN: usize = 0;

/// The slots of layer `layer`'s frontier, the next one and the previous one.
#[inline(always)]
pub(super) fn slots(layer: u32) -> (usize, usize, usize) {
    let k = (layer % 3) as usize;
    (1 + k, 1 + (k + 1) % 3, 1 + (k + 2) % 3)
}

/// The masks a move in each direction may start from, padded (only with connection masks).
pub(super) type Cons = [Vec<u64>; 8];

/// The word of `con` for direction `d` at unit `u`, all ones without masks.
#[inline(always)]
pub(super) fn cw<const CON: bool>(con: &Cons, d: Dir, u: usize) -> u64 {
    if CON {
        con[d.index()][u]
    } else {
        !0
    }
}

/// Where [`push_word`] puts the cells it reaches: each push claims `bits` minus the visited
/// cells of unit `t` (whose first cell is `base`) for the next layer.
pub(super) trait Claim {
    /// Claims `bits` at unit `t`, without a branch on whether any is new.
    fn push(&mut self, units: &mut [Unit], t: usize, base: usize, bits: u64);

    /// [`Claim::push`] for the one bit carried into the word beside: rarely set, so a
    /// branch (well predicted) skips the push.
    #[inline(always)]
    fn push_carry(&mut self, units: &mut [Unit], t: usize, base: usize, bit: u64) {
        if bit != 0 {
            self.push(units, t, base, bit);
        }
    }
}

/// Pushes the frontier word `f` at unit `u` (first cell `base`; `s` units and `w` cells a
/// row) into its neighbour words of the next layer, through `next` (the slots of
/// [`Next`](super::frontier::Next), or the entries of a thin layer).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn push_word<const EIGHT: bool, const CON: bool>(
    units: &mut [Unit],
    next: &mut impl Claim,
    c: &Cons,
    u: usize,
    base: usize,
    f: u64,
    s: usize,
    w: usize,
) {
    // Moves west (towards bit 0, and bit 0 into bit 63 of the word before), east,
    // north and south, each from the cells whose mask allows it.
    let (fw, fe) = (f & cw::<CON>(c, Dir::W, u), f & cw::<CON>(c, Dir::E, u));
    let (up, down) = (u - s, u + s);
    let (bup, bdown) = (base.wrapping_sub(w), base.wrapping_add(w));
    let (bl, br) = (base.wrapping_sub(64), base.wrapping_add(64));
    next.push(units, u, base, (fw >> 1) | (fe << 1));
    next.push_carry(units, u - 1, bl, fw << 63);
    next.push_carry(units, u + 1, br, fe >> 63);
    let fnn = f & cw::<CON>(c, Dir::N, u);
    let fs = f & cw::<CON>(c, Dir::S, u);
    if EIGHT {
        let fnw = f & cw::<CON>(c, Dir::NW, u);
        let fne = f & cw::<CON>(c, Dir::NE, u);
        let fsw = f & cw::<CON>(c, Dir::SW, u);
        let fse = f & cw::<CON>(c, Dir::SE, u);
        let (l, r) = (bup.wrapping_sub(64), bup.wrapping_add(64));
        next.push(units, up, bup, fnn | (fnw >> 1) | (fne << 1));
        next.push_carry(units, up - 1, l, fnw << 63);
        next.push_carry(units, up + 1, r, fne >> 63);
        let (l, r) = (bdown.wrapping_sub(64), bdown.wrapping_add(64));
        next.push(units, down, bdown, fs | (fsw >> 1) | (fse << 1));
        next.push_carry(units, down - 1, l, fsw << 63);
        next.push_carry(units, down + 1, r, fse >> 63);
    } else {
        next.push(units, up, bup, fnn);
        next.push(units, down, bdown, fs);
    }
}

/// Asks for the lines of the units a frontier word at unit `v` reads and pushes into (`s`
/// units a row): the units beside it, whose lines cover the unit itself (two units a line).
/// Any index is harmless: a prefetch never faults.
#[inline(always)]
pub(super) fn prefetch_around(units: &[Unit], v: usize, s: usize) {
    let at = units.as_ptr().wrapping_add(v);
    for p in [
        at.wrapping_sub(s),
        at.wrapping_sub(1),
        at.wrapping_add(1),
        at.wrapping_add(s),
    ] {
        prefetch(p.cast());
    }
}
