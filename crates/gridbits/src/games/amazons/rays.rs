//! Single-square queen reach on the [`Board10x10`](crate::Board10x10) u128 layout (bit
//! `y * 11 + x`), by ray tables and the first blocker of each ray, and the bit-parallel sum of
//! the queen mobilities of a set of cells (the counting kernel of the move generator).

/// Bits from one row to the next.
const STRIDE: i32 = 11;

/// `(dx, dy)` of the 8 directions: the 4 with a positive bit offset (E, SW, S, SE: the first
/// blocker of a ray is its lowest bit) then their opposites in the same order (W, NE, N, NW:
/// the highest bit); y grows downwards.
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

/// `Σ_c m(c) · |queen reach of c ∩ e|` for a multiset of cells `m` given by its bit planes
/// (`m(c) = c0 + 2 c1 + 4 c2`), bit-parallel: in direction `d`, the set `E_k` of the cells
/// with at least `k` empty cells in a row in that direction is `E_{k-1}` and `e` shifted back
/// by `k` steps; a cell's ray length is the number of `E_k` it belongs to, so the sum is the
/// weighted popcounts of the planes in every `E_k`. The `E_k` depend on the position only,
/// and their shifts of `e` do not depend on each other.
#[inline(always)]
pub(super) fn mobility_sum(c0: u128, c1: u128, c2: u128, e: u128) -> u32 {
    if c2 == 0 {
        planes_sum::<false>([c0, c1, 0], e)
    } else {
        planes_sum::<true>([c0, c1, c2], e)
    }
}

/// [`mobility_sum`], every direction and step spelled out so that each shift is by a constant;
/// `C2`: whether the third plane can be non-empty.
#[inline(always)]
fn planes_sum<const C2: bool>(c: [u128; 3], e: u128) -> u32 {
    dir_sum::<1, C2>(c, e)
        + dir_sum::<{ STRIDE - 1 }, C2>(c, e)
        + dir_sum::<STRIDE, C2>(c, e)
        + dir_sum::<{ STRIDE + 1 }, C2>(c, e)
        + dir_sum::<-1, C2>(c, e)
        + dir_sum::<{ 1 - STRIDE }, C2>(c, e)
        + dir_sum::<{ -STRIDE }, C2>(c, e)
        + dir_sum::<{ -STRIDE - 1 }, C2>(c, e)
}

/// The part of [`mobility_sum`] in the direction of bit offset `D`. The sets `E_1 ⊇ E_2 ⊇
/// ... ⊇ E_9` (restricted to the counted cells) are a thermometer code of each cell's ray
/// length `L`, so its binary digits are xors of them: bit 0 is the parity `E_1 ^ ... ^ E_9`,
/// bit 1 is `E_2 ^ E_4 ^ E_6 ^ E_8`, bit 2 is `E_4 ^ E_8`, bit 3 is `E_8` (a ray has at most
/// 9 cells). Then `Σ m(c) L(c)` is 4 weighted popcounts per plane.
#[inline(always)]
fn dir_sum<const D: i32, const C2: bool>([c0, c1, c2]: [u128; 3], e: u128) -> u32 {
    let e1 = shift(e, -D) & (c0 | c1 | c2);
    let e2 = e1 & shift(e, -2 * D);
    let e3 = e2 & shift(e, -3 * D);
    let e4 = e3 & shift(e, -4 * D);
    let e5 = e4 & shift(e, -5 * D);
    let e6 = e5 & shift(e, -6 * D);
    let e7 = e6 & shift(e, -7 * D);
    let e8 = e7 & shift(e, -8 * D);
    let e9 = e8 & shift(e, -9 * D);
    let b1 = e2 ^ e4 ^ e6 ^ e8;
    let b0 = e1 ^ e3 ^ e5 ^ e7 ^ e9 ^ b1;
    let b2 = e4 ^ e8;
    let weigh = |plane: u128| {
        (b0 & plane).count_ones()
            + 2 * (b1 & plane).count_ones()
            + 4 * (b2 & plane).count_ones()
            + 8 * (e8 & plane).count_ones()
    };
    let mut total = weigh(c0) + 2 * weigh(c1);
    if C2 {
        total += 4 * weigh(c2);
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
