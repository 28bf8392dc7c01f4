//! Shifts, dilation and erosion of a [`BitGrid`].

use super::{row_east, row_west, tail_mask, BitGrid};
use crate::dir::{Connectivity, Dir};

impl BitGrid {
    /// Every cell moved one step in `dir`; cells pushed off the grid vanish.
    pub fn shift(&self, dir: Dir) -> Self {
        self.shift_by(dir, 1)
    }

    /// Every cell moved `k` steps in `dir`; cells pushed off the grid vanish.
    ///
    /// ```
    /// use gridbits::{BitGrid, Dir};
    /// let mut g = BitGrid::new(100, 3);
    /// g.set(10, 2);
    /// let s = g.shift_by(Dir::NE, 2);
    /// assert_eq!(s.lowest(), Some((12, 0)));
    /// ```
    pub fn shift_by(&self, dir: Dir, k: usize) -> Self {
        let mut out = self.empty_like();
        let (dx, dy) = dir.delta();
        if k == 0 {
            return self.clone();
        }
        if (dx != 0 && k >= self.width) || (dy != 0 && k >= self.height) {
            return out;
        }
        let wpr = self.wpr;
        let tail = tail_mask(self.width);
        let (q, r) = (k / 64, k % 64);
        for y in 0..self.height {
            let sy = y as isize - dy * k as isize;
            if sy < 0 || sy as usize >= self.height {
                continue;
            }
            let src = self.row_words(sy as usize);
            let dst = &mut out.words[y * wpr..(y + 1) * wpr];
            match dx {
                0 => dst.copy_from_slice(src),
                1 => {
                    // Towards larger x: dst[i] = src[i - q] << r | src[i - q - 1] >> (64 - r).
                    for i in q..wpr {
                        let mut v = src[i - q] << r;
                        if r != 0 && i > q {
                            v |= src[i - q - 1] >> (64 - r);
                        }
                        dst[i] = v;
                    }
                    dst[wpr - 1] &= tail;
                }
                _ => {
                    for i in 0..wpr - q {
                        let mut v = src[i + q] >> r;
                        if r != 0 && i + q + 1 < wpr {
                            v |= src[i + q + 1] << (64 - r);
                        }
                        dst[i] = v;
                    }
                }
            }
        }
        out
    }

    /// Dilation: every set cell plus its neighbours under `conn`, in one pass over the rows.
    pub fn dilate(&self, conn: Connectivity) -> Self {
        let mut out = self.empty_like();
        self.dilate_into(conn, None, &mut out);
        out
    }

    /// Dilation clipped to `mask`: one step of a flood fill.
    ///
    /// # Panics
    /// If the sizes differ ([`check_same_size`](Self::check_same_size) tells beforehand).
    pub fn dilate_within(&self, conn: Connectivity, mask: &Self) -> Self {
        self.assert_same_size(mask);
        let mut out = self.empty_like();
        self.dilate_into(conn, Some(mask), &mut out);
        out
    }

    /// Writes the dilation of `self` (clipped to `mask` if given) into `out`, which must have
    /// the same size; no allocation.
    ///
    /// # Panics
    /// If the sizes differ ([`check_same_size`](Self::check_same_size) tells beforehand).
    pub fn dilate_into(&self, conn: Connectivity, mask: Option<&Self>, out: &mut Self) {
        self.morph_into(conn, mask, out, false)
    }

    /// Erosion: the set cells whose every neighbour under `conn` is set; cells off the grid
    /// count as empty, so border cells never survive.
    pub fn erode(&self, conn: Connectivity) -> Self {
        let mut out = self.empty_like();
        self.morph_into(conn, None, &mut out, true);
        out
    }

    /// Erosion clipped to `mask`.
    ///
    /// # Panics
    /// If the sizes differ ([`check_same_size`](Self::check_same_size) tells beforehand).
    pub fn erode_within(&self, conn: Connectivity, mask: &Self) -> Self {
        self.assert_same_size(mask);
        let mut out = self.empty_like();
        self.morph_into(conn, Some(mask), &mut out, true);
        out
    }

    /// Shared row loop of dilation (OR of neighbours) and erosion (AND of neighbours).
    ///
    /// Per row it forms the horizontal combination `h = row op east(row) op west(row)` (for
    /// 8-connectivity) and combines it with the rows above and below, so each output word is
    /// a handful of word operations.
    fn morph_into(&self, conn: Connectivity, mask: Option<&Self>, out: &mut Self, erode: bool) {
        self.assert_same_size(out);
        if let Some(m) = mask {
            self.assert_same_size(m);
        }
        let (w, h, wpr) = (self.width, self.height, self.wpr);
        let tail = tail_mask(w);
        // Horizontal combinations of the previous, current and next row.
        let mut hp = vec![0u64; wpr];
        let mut hc = vec![0u64; wpr];
        let mut hn = vec![0u64; wpr];
        let mut e = vec![0u64; wpr];
        let mut wv = vec![0u64; wpr];
        let horiz = |src: &[u64], dst: &mut [u64], e: &mut [u64], wv: &mut [u64]| {
            row_east(src, e, tail);
            row_west(src, wv);
            for i in 0..wpr {
                dst[i] = if erode {
                    src[i] & e[i] & wv[i]
                } else {
                    src[i] | e[i] | wv[i]
                };
            }
        };
        // Value of an off-grid row: empty for both (erosion treats outside as empty).
        let eight = conn == Connectivity::Eight;
        for y in 0..h {
            let cur = self.row_words(y);
            if y == 0 {
                if eight {
                    horiz(cur, &mut hc, &mut e, &mut wv);
                } else {
                    hc.copy_from_slice(cur);
                }
            }
            if y + 1 < h {
                let next = self.row_words(y + 1);
                if eight {
                    horiz(next, &mut hn, &mut e, &mut wv);
                } else {
                    hn.copy_from_slice(next);
                }
            } else {
                hn.fill(0);
            }
            // Above row: hp (zero at y == 0).
            if !eight {
                row_east(cur, &mut e, tail);
                row_west(cur, &mut wv);
            }
            let dst = &mut out.words[y * wpr..(y + 1) * wpr];
            for i in 0..wpr {
                let up = if y > 0 { hp[i] } else { 0 };
                let mut v = if eight {
                    if erode {
                        hc[i] & up & hn[i]
                    } else {
                        hc[i] | up | hn[i]
                    }
                } else if erode {
                    cur[i] & e[i] & wv[i] & up & hn[i]
                } else {
                    cur[i] | e[i] | wv[i] | up | hn[i]
                };
                if let Some(m) = mask {
                    v &= m.words[y * wpr + i];
                }
                dst[i] = v;
            }
            // Rotate: previous <- current <- next.
            std::mem::swap(&mut hp, &mut hc);
            std::mem::swap(&mut hc, &mut hn);
        }
    }
}
