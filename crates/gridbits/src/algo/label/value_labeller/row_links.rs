//! Pass 1's links between two rows of a value image ([`link_rows`]): one link per pair of
//! touching runs of equal value, found from the masks of 64 cells; used row by row by the
//! one-thread scan and, on the two rows of a border, by the bands' join (`bands.rs`).

use crate::algo::runs::masks::{shifted_eq, upto};
use crate::algo::runs::union_find::union;

/// Joins run `c` of the current row to run `u` of the row above. A run from `fresh` on has
/// no link yet, so its set is the run alone: it takes `u`'s parent (no search), and runs up
/// to it are no longer fresh; an earlier run unites.
#[inline(always)]
fn link(parent: &mut [u32], fresh: &mut u32, c: u32, u: u32) {
    if c >= *fresh {
        *fresh = c + 1;
        parent[c as usize] = parent[u as usize];
    } else {
        union(parent, c, u);
    }
}

/// What the links of a row read: the image, and the masks and run bases of pass 1.
pub(super) struct Rows<'a, T> {
    pub(super) values: &'a [T],
    pub(super) width: usize,
    pub(super) starts: &'a [u64],
    pub(super) set: &'a [u64],
    pub(super) row_base: &'a [u32],
}

/// Links the runs of row `y` to the touching runs of equal value in row `y - 1`: one link
/// per pair of touching runs, at the first cell of each stretch where the pair is the same,
/// the pairs another link already joins left out; a run's first link takes the other run's
/// parent ([`link`]).
#[inline(always)]
pub(super) fn link_rows<T: Copy + PartialEq + Send + Sync + 'static, const EIGHT: bool>(
    rows: &Rows<'_, T>,
    parent: &mut [u32],
    y: usize,
) {
    let (values, width) = (rows.values, rows.width);
    let bpr = width.div_ceil(64);
    let row = &values[y * width..(y + 1) * width];
    let above = &values[(y - 1) * width..y * width];
    let (cur_starts, up_starts) = (
        &rows.starts[y * bpr..(y + 1) * bpr],
        &rows.starts[(y - 1) * bpr..y * bpr],
    );
    let cur_set = &rows.set[y * bpr..(y + 1) * bpr];
    // Runs before the current block, in this row and the one above (global indices).
    let (mut rc, mut ru) = (rows.row_base[y], rows.row_base[y - 1]);
    // Runs of this row from `fresh` on have no link yet (their first one is free).
    let mut fresh = rows.row_base[y];
    // Carries: bit 63 of the previous block's masks, in bit 0.
    let (mut cv, mut cs, mut csu, mut cdl, mut cad, mut cset) = (0u64, 0, 0, 0, 0, 0);
    for j in 0..bpr {
        let x0 = j * 64;
        let n = (width - x0).min(64);
        let (sd, su, set) = (cur_starts[j], up_starts[j], cur_set[j]);
        let v = shifted_eq(row, above, x0, n, 0) & set;
        // A vertical link where the pair of runs changes: the first cell of a stretch of
        // equal cells, or a run start in either row.
        let lv = v & (!((v << 1) | cv) | sd | su);
        let (mut ldl, mut lad) = (0u64, 0u64);
        if EIGHT {
            let (v1, s1, su1) = ((v << 1) | cv, (sd << 1) | cs, (su << 1) | csu);
            // Up-left: cell x joins the run above x - 1.
            let dl = shifted_eq(row, above, x0, n, -1) & set;
            // Up-right seen from the right: the run above x joins the run of x - 1 (both
            // set where `above[x] == row[x - 1]` and x - 1 is set).
            let ad = shifted_eq(above, row, x0, n, -1) & ((set << 1) | cset);
            let (dl1, ad1) = ((dl << 1) | cdl, (ad << 1) | cad);
            // Pairs another link already joins: the same run pair as the vertical link at
            // x - 1 or x, or as the same diagonal at x - 1.
            ldl = dl & !((v1 & !sd) | (v & !su) | (dl1 & !sd & !su1));
            lad = ad & !((v1 & !su) | (v & !sd) | (ad1 & !s1 & !su));
            (cdl, cad) = (dl >> 63, ad >> 63);
        }
        // One loop per kind of link, so that no branch asks which kind a cell has. Ranks
        // up to x (global indices): the run of x is the rank minus 1.
        let (cur, up) = (
            |bit: u32| rc + (sd & upto(bit)).count_ones(),
            |bit: u32| ru + (su & upto(bit)).count_ones(),
        );
        let mut links = lv;
        while links != 0 {
            let bit = links.trailing_zeros();
            links &= links - 1;
            link(parent, &mut fresh, cur(bit) - 1, up(bit) - 1);
        }
        if EIGHT {
            let mut links = ldl;
            while links != 0 {
                let bit = links.trailing_zeros();
                links &= links - 1;
                // The run of x, the run above x - 1.
                let su_x = ((su >> bit) & 1) as u32;
                link(parent, &mut fresh, cur(bit) - 1, up(bit) - su_x - 1);
            }
            let mut links = lad;
            while links != 0 {
                let bit = links.trailing_zeros();
                links &= links - 1;
                // The run of x - 1, the run above x.
                let sd_x = ((sd >> bit) & 1) as u32;
                link(parent, &mut fresh, cur(bit) - sd_x - 1, up(bit) - 1);
            }
        }
        rc += sd.count_ones();
        ru += su.count_ones();
        (cv, cs, csu, cset) = (v >> 63, sd >> 63, su >> 63, set >> 63);
    }
}
