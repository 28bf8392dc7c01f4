//! Single-square queen reach on the [`Board10x10`](crate::Board10x10) u128 layout (bit
//! `y * 11 + x`), by ray tables and the first blocker of each ray, and the bit-parallel sum of
//! the queen mobilities of a set of cells (the counting kernel of the move generator).

/// Bits from one row to the next.
const STRIDE: i32 = 11;

/// Bit offsets of the 8 directions: the 4 with a positive offset (E, SW, S, SE: the first
/// blocker is the lowest bit) then their opposites in the same order (W, NE, N, NW: the
/// highest bit). `DELTAS[i + 4] == -DELTAS[i]`.
pub(super) const DELTAS: [i32; 8] = [
    1,
    STRIDE - 1,
    STRIDE,
    STRIDE + 1,
    -1,
    1 - STRIDE,
    -STRIDE,
    -STRIDE - 1,
];

/// `(dx, dy)` of each entry of [`DELTAS`] (y grows downwards).
const STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// Number of table rows: every bit index a u128 can report, plus one.
const ROWS: usize = 129;

/// `RAYS[b][d]`: the cells strictly beyond bit `b` in direction `d` up to the edge (0 for bits
/// that are not cells, and for index 128, the "no blocker" answer of `trailing_zeros`).
static RAYS: [[u128; 8]; ROWS] = rays();

const fn rays() -> [[u128; 8]; ROWS] {
    let mut t = [[0u128; 8]; ROWS];
    let mut b = 0;
    while b < 121 {
        let (x, y) = ((b % 11) as i32, (b / 11) as i32);
        if x < 10 && y < 10 {
            let mut d = 0;
            while d < 8 {
                let (dx, dy) = STEPS[d];
                let (mut cx, mut cy) = (x + dx, y + dy);
                let mut r = 0u128;
                while cx >= 0 && cx < 10 && cy >= 0 && cy < 10 {
                    r |= 1u128 << (cy * STRIDE + cx);
                    cx += dx;
                    cy += dy;
                }
                t[b][d] = r;
                d += 1;
            }
        }
        b += 1;
    }
    t
}

/// The rays of bit `s` (a cell) in the 8 directions, each stopped at (and including) its
/// first cell in `occ`.
#[inline(always)]
pub(super) fn rays_from(s: usize, occ: u128) -> [u128; 8] {
    let r = &RAYS[s];
    let mut out = [0u128; 8];
    let mut d = 0;
    while d < 4 {
        // Positive offsets: the first blocker is the lowest bit (128 when there is none, whose
        // table row is empty).
        let first = (r[d] & occ).trailing_zeros() as usize;
        out[d] = r[d] ^ RAYS[first][d];
        // Negative offsets: the highest bit; `| 1` turns "none" into bit 0, the cell (0, 0),
        // which has no ray in these directions, and which ends any ray through it anyway.
        let last = 127 - ((r[d + 4] & occ) | 1).leading_zeros() as usize;
        out[d + 4] = r[d + 4] ^ RAYS[last][d + 4];
        d += 1;
    }
    out
}

/// The queen reach of bit `s` through the cells not in `occ` (the first blocker of each ray
/// included: callers mask with the empty cells).
#[inline(always)]
pub(super) fn reach(s: usize, occ: u128) -> u128 {
    let r = rays_from(s, occ);
    (r[0] | r[1]) | (r[2] | r[3]) | ((r[4] | r[5]) | (r[6] | r[7]))
}

#[inline(always)]
const fn shift(x: u128, d: i32) -> u128 {
    if d > 0 {
        x << d
    } else {
        x >> -d
    }
}

/// `Σ_{c in set} |queen reach of c ∩ e|`, bit-parallel: in each direction, the set slides one
/// step at a time through `e`; the `k`-th slide holds one cell per cell of `set` with at least
/// `k` empty cells in a row in that direction, so the popcounts add up to the ray lengths.
#[inline(always)]
pub(super) fn mobility_sum(set: u128, e: u128) -> u32 {
    let mut total = 0;
    let mut d = 0;
    while d < 8 {
        let mut t = shift(set, DELTAS[d]) & e;
        while t != 0 {
            total += t.count_ones();
            t = shift(t, DELTAS[d]) & e;
        }
        d += 1;
    }
    total
}

/// `(x, y)` of a bit index (a cell of the layout).
#[inline(always)]
pub(super) const fn cell_of(b: usize) -> (u8, u8) {
    ((b % 11) as u8, (b / 11) as u8)
}

/// The bit index of `(x, y)`.
#[inline(always)]
pub(super) const fn bit_of(x: u8, y: u8) -> usize {
    y as usize * 11 + x as usize
}
