//! Shifts in the eight directions, dilation and erosion of a [`Board`].

use super::Board;
use crate::dir::{Connectivity, Dir};

#[inline(always)]
const fn shl_words<const N: usize>(w: &[u64; N], k: usize) -> [u64; N] {
    let mut out = [0u64; N];
    let q = k / 64;
    let r = k % 64;
    let mut i = N;
    while i > q {
        i -= 1;
        let src = i - q;
        let mut v = w[src] << r;
        if r != 0 && src > 0 {
            v |= w[src - 1] >> (64 - r);
        }
        out[i] = v;
    }
    out
}

#[inline(always)]
const fn shr_words<const N: usize>(w: &[u64; N], k: usize) -> [u64; N] {
    let mut out = [0u64; N];
    let q = k / 64;
    let r = k % 64;
    let mut i = 0;
    while i + q < N {
        let src = i + q;
        let mut v = w[src] >> r;
        if r != 0 && src + 1 < N {
            v |= w[src + 1] << (64 - r);
        }
        out[i] = v;
        i += 1;
    }
    out
}

impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    /// Raw shift towards higher bit indices (no masking; bits may land in guard columns).
    #[inline(always)]
    pub(crate) const fn shl_raw(self, k: usize) -> Self {
        Board {
            words: shl_words(&self.words, k),
        }
    }

    /// Raw shift towards lower bit indices (no masking).
    #[inline(always)]
    pub(crate) const fn shr_raw(self, k: usize) -> Self {
        Board {
            words: shr_words(&self.words, k),
        }
    }

    /// One step north (`y - 1`); row 0 falls off.
    #[inline(always)]
    pub const fn north(self) -> Self {
        // Bits only ever move to lower rows of the same column: nothing can leave the board.
        self.shr_raw(Self::STRIDE)
    }

    /// One step south (`y + 1`); the last row falls off.
    #[inline(always)]
    pub const fn south(self) -> Self {
        self.shl_raw(Self::STRIDE).and(Self::FULL)
    }

    /// One step east (`x + 1`); the last column falls off.
    #[inline(always)]
    pub const fn east(self) -> Self {
        self.shl_raw(1).and(Self::NOT_FIRST_COL)
    }

    /// One step west (`x - 1`); column 0 falls off.
    #[inline(always)]
    pub const fn west(self) -> Self {
        self.shr_raw(1).and(Self::NOT_LAST_COL)
    }

    /// One step north-east.
    #[inline(always)]
    pub const fn north_east(self) -> Self {
        self.shr_raw(Self::STRIDE - 1).and(Self::NOT_FIRST_COL)
    }

    /// One step north-west.
    #[inline(always)]
    pub const fn north_west(self) -> Self {
        self.shr_raw(Self::STRIDE + 1).and(Self::NOT_LAST_COL)
    }

    /// One step south-east.
    #[inline(always)]
    pub const fn south_east(self) -> Self {
        self.shl_raw(Self::STRIDE + 1).and(Self::NOT_FIRST_COL)
    }

    /// One step south-west.
    #[inline(always)]
    pub const fn south_west(self) -> Self {
        self.shl_raw(Self::STRIDE - 1).and(Self::NOT_LAST_COL)
    }

    /// Every cell moved one step in `dir`; cells pushed off the board vanish, nothing wraps.
    #[inline(always)]
    pub const fn shift(self, dir: Dir) -> Self {
        match dir {
            Dir::N => self.north(),
            Dir::NE => self.north_east(),
            Dir::E => self.east(),
            Dir::SE => self.south_east(),
            Dir::S => self.south(),
            Dir::SW => self.south_west(),
            Dir::W => self.west(),
            Dir::NW => self.north_west(),
        }
    }

    /// Every cell moved `k` steps in `dir`; cells pushed off the board vanish.
    ///
    /// ```
    /// use gridbits::{Board8x8, Dir};
    /// let b = Board8x8::cell(1, 6);
    /// assert_eq!(b.shift_by(Dir::NE, 3), Board8x8::cell(4, 3));
    /// assert!(b.shift_by(Dir::W, 2).is_empty());
    /// ```
    pub const fn shift_by(self, dir: Dir, k: usize) -> Self {
        if k == 0 {
            return self;
        }
        let (dx, dy) = dir.delta();
        if (dx != 0 && k >= W) || (dy != 0 && k >= H) {
            return Self::EMPTY;
        }
        // Destination columns that a k-step horizontal move can reach.
        let cols = if dx > 0 {
            Self::rect_mask(k, W, 0, H)
        } else if dx < 0 {
            Self::rect_mask(0, W - k, 0, H)
        } else {
            Self::FULL
        };
        let delta = dy * Self::STRIDE as isize + dx;
        let moved = if delta >= 0 {
            self.shl_raw(k * delta as usize)
        } else {
            self.shr_raw(k * (-delta) as usize)
        };
        moved.and(cols)
    }

    /// Dilation: every set cell plus its neighbours under `conn`.
    #[inline]
    pub const fn dilate(self, conn: Connectivity) -> Self {
        match conn {
            Connectivity::Four => self
                .or(self.north())
                .or(self.south())
                .or(self.east())
                .or(self.west()),
            Connectivity::Eight => {
                let h = self.or(self.east()).or(self.west());
                h.or(h.north()).or(h.south())
            }
        }
    }

    /// Dilation clipped to `mask`: one step of a flood fill through `mask`.
    #[inline]
    pub const fn dilate_within(self, conn: Connectivity, mask: Self) -> Self {
        self.dilate(conn).and(mask)
    }

    /// Erosion: the set cells whose every neighbour under `conn` is set. Cells off the board
    /// count as empty, so cells on the border never survive.
    #[inline]
    pub const fn erode(self, conn: Connectivity) -> Self {
        match conn {
            Connectivity::Four => self
                .and(self.north())
                .and(self.south())
                .and(self.east())
                .and(self.west()),
            Connectivity::Eight => {
                let h = self.and(self.east()).and(self.west());
                h.and(h.north()).and(h.south())
            }
        }
    }

    /// Erosion restricted to `mask`: the cells of `self & mask` whose neighbours under `conn`
    /// are all in `self`.
    pub const fn erode_within(self, conn: Connectivity, mask: Self) -> Self {
        self.erode(conn).and(mask)
    }
}
