//! The row sweep of runtime grids: one pass over the rows in the direction of travel, each
//! row taking the passable cells of the shifted previous row (pieces plus cells reached), so a
//! vertical or diagonal ray costs one pass whatever its length. Rows themselves use the
//! subtraction.

use super::grid_steps::Geo;
use crate::Dir;

/// One pass over the rows in the direction of travel: row `y` gets the passable cells of
/// `shift(pieces | reached)` from the row before it. Needs a vertical component.
pub(super) fn rows_sweep(g: &[u64], p: &[u64], geo: Geo, d: Dir, out: &mut [u64]) {
    let (dx, dy) = d.delta();
    let Geo { h, wpr } = geo;
    let order: Box<dyn Iterator<Item = usize>> = if dy > 0 {
        Box::new(0..h)
    } else {
        Box::new((0..h).rev())
    };
    if wpr == 1 {
        let mut prev = 0u64; // pieces | reached of the previous row
        for y in order {
            let s = match dx {
                0 => prev,
                1 => prev << 1,
                _ => prev >> 1,
            };
            let r = s & p[y];
            out[y] = r;
            prev = r | g[y];
        }
        return;
    }
    let mut prev = vec![0u64; wpr];
    for y in order {
        let row = y * wpr;
        for i in 0..wpr {
            let s = match dx {
                0 => prev[i],
                1 => (prev[i] << 1) | if i > 0 { prev[i - 1] >> 63 } else { 0 },
                _ => (prev[i] >> 1) | if i + 1 < wpr { prev[i + 1] << 63 } else { 0 },
            };
            out[row + i] = s & p[row + i];
        }
        for i in 0..wpr {
            prev[i] = out[row + i] | g[row + i];
        }
    }
}
