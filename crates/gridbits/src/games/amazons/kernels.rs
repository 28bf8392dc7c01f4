//! The u128 kernels of the Amazons evaluator, on the [`Board10x10`] layout: bit `y * 11 + x`,
//! a guard bit ending every row (see "How it is fast" in the [module documentation](super)).

use super::{Territory, TerritoryMap};
use crate::Board10x10;

const STRIDE: i32 = 11;

/// Bit offsets of one step in the seven directions filled by Kogge-Stone (east is the
/// subtraction): W, then the pairs S/N, SW/NE, SE/NW.
const DELTAS: [i32; 7] = [
    -1,
    STRIDE,
    -STRIDE,
    STRIDE - 1,
    1 - STRIDE,
    STRIDE + 1,
    -STRIDE - 1,
];

#[inline(always)]
const fn shift(x: u128, d: i32) -> u128 {
    if d > 0 {
        x << d
    } else {
        x >> -d
    }
}

/// Per-position propagators of the Kogge-Stone fills: for each direction, the empty cells
/// with 2 (`p2`) and 4 (`p4`) empty cells in a row ending there; and how many jumps (1, 2,
/// 4, 2 cells) the longest run of empty cells in any direction needs.
#[derive(Clone, Copy)]
pub(super) struct Smears {
    e: u128,
    not_e: u128,
    p2: [u128; 7],
    p4: [u128; 7],
    jumps: u8,
}

impl Smears {
    #[inline(always)]
    pub(super) fn new(e: u128) -> Self {
        let mut p2 = [0; 7];
        let mut p4 = [0; 7];
        // West: runs along rows.
        p2[0] = e & (e >> 1);
        p4[0] = p2[0] & (p2[0] >> 2);
        let mut p8_any = p4[0] & (p4[0] >> 4);
        let mut i = 1;
        while i < 7 {
            // A pair (d, -d), d > 0: the run ending at c going -d is the run ending at c + d
            // going d, shifted.
            let d = DELTAS[i];
            p2[i] = e & (e << d);
            p4[i] = p2[i] & (p2[i] << (2 * d));
            p2[i + 1] = p2[i] >> d;
            p4[i + 1] = p4[i] >> (3 * d);
            p8_any |= p4[i] & (p4[i] << (4 * d));
            i += 2;
        }
        let any = |ps: &[u128; 7]| ps.iter().fold(0, |a, p| a | p) != 0;
        let jumps = if p8_any != 0 {
            4
        } else if any(&p4) {
            3
        } else if any(&p2) {
            2
        } else {
            1
        };
        Smears {
            e,
            not_e: !e,
            p2,
            p4,
            jumps,
        }
    }

    /// `v` and every cell a queen move from `v` reaches through the empty cells (plus, for
    /// east, the first blocker of each ray; callers mask with the empty cells), with `J`
    /// Kogge-Stone jumps (1, 2, 4, 2 cells: rays of up to 1, 3, 7 or 9 cells).
    #[inline(always)]
    fn queen<const J: u8>(&self, v: u128) -> u128 {
        let e = self.e;
        let o = self.not_e | v;
        let mut acc = v | (o ^ o.wrapping_sub(v << 1));
        let mut i = 0;
        while i < 7 {
            let d = DELTAS[i];
            let mut g = v;
            g |= e & shift(g, d);
            if J >= 2 {
                g |= self.p2[i] & shift(g, 2 * d);
            }
            if J >= 3 {
                g |= self.p4[i] & shift(g, 4 * d);
            }
            if J >= 4 {
                g |= self.p2[i] & shift(g, 2 * d);
            }
            acc |= g;
            i += 1;
        }
        acc
    }

    /// [`Smears::queen`] with the number of jumps this position needs.
    #[inline]
    pub(super) fn queen_any(&self, v: u128) -> u128 {
        match self.jumps {
            4 => self.queen::<4>(v),
            3 => self.queen::<3>(v),
            2 => self.queen::<2>(v),
            _ => self.queen::<1>(v),
        }
    }
}

/// `v` and its 8 neighbours (guard bits included; callers mask with the empty cells).
#[inline(always)]
pub(super) const fn king(v: u128) -> u128 {
    let h = v | (v << 1) | (v >> 1);
    h | (h << STRIDE) | (h >> STRIDE)
}

/// The lockstep search of both sides under one metric: `[claimed, white's, contested]`.
/// Each layer expands every cell a side has visited (rays pass through visited and claimed
/// cells); a cell is claimed the first time either side reaches it. `done` (if not 0) is the
/// set of all cells that will be claimed, so the search can stop without an empty layer.
#[inline(always)]
pub(super) fn lockstep(
    w: u128,
    b: u128,
    e: u128,
    done: u128,
    expand: impl Fn(u128) -> u128,
) -> [u128; 3] {
    let (mut vw, mut vb) = (w, b);
    let (mut claimed, mut own_w, mut contested) = (0u128, 0u128, 0u128);
    loop {
        let nw = expand(vw) & e;
        let nb = expand(vb) & e;
        let new = (nw | nb) & !claimed;
        if new == 0 {
            break;
        }
        own_w |= new & !nb;
        contested |= new & nw & nb;
        claimed |= new;
        if claimed == done {
            break;
        }
        vw |= nw;
        vb |= nb;
    }
    [claimed, own_w, contested]
}

#[inline(always)]
pub(super) fn territory(e: u128, [claimed, own_w, contested]: [u128; 3]) -> Territory {
    Territory {
        white: own_w.count_ones(),
        black: (claimed & !own_w & !contested).count_ones(),
        contested: contested.count_ones(),
        unreachable: (e & !claimed).count_ones(),
    }
}

pub(super) fn territory_map(e: u128, [claimed, own_w, contested]: [u128; 3]) -> TerritoryMap {
    TerritoryMap {
        white: Board10x10::from_u128(own_w),
        black: Board10x10::from_u128(claimed & !own_w & !contested),
        contested: Board10x10::from_u128(contested),
        unreachable: Board10x10::from_u128(e & !claimed),
    }
}

/// Both metrics from the raw words: king first (its claimed set bounds the queen search).
#[inline(always)]
pub(super) fn evaluate_raw(w: u128, b: u128, e: u128) -> ([u128; 3], [u128; 3]) {
    let k = lockstep(w, b, e, 0, king);
    let q = if k[0] == 0 {
        [0; 3]
    } else {
        let sm = Smears::new(e);
        match sm.jumps {
            4 => lockstep(w, b, e, k[0], |v| sm.queen::<4>(v)),
            3 => lockstep(w, b, e, k[0], |v| sm.queen::<3>(v)),
            2 => lockstep(w, b, e, k[0], |v| sm.queen::<2>(v)),
            _ => lockstep(w, b, e, k[0], |v| sm.queen::<1>(v)),
        }
    };
    (q, k)
}

/// The breadth-first layers of one side (layer 0 = its amazons).
pub(super) fn layers(
    start: u128,
    e: u128,
    expand: impl Fn(u128) -> u128,
) -> impl Iterator<Item = u128> {
    let mut visited = 0u128;
    let mut front = start;
    std::iter::from_fn(move || {
        if front == 0 {
            return None;
        }
        let layer = front;
        visited |= front;
        front = expand(visited) & e & !visited;
        Some(layer)
    })
}
