//! Step 2 of striped labelling ([`super`]): the stripes' components joined across their
//! borders, and the first final label of each stripe's new components.

use super::super::scratch::Stripe;
use super::super::{memory_error, size_error, LABEL_SLACK};
use crate::algo::runs::union_find::union;
use crate::{Connectivity, SizeError};

/// Joins the components of the scanned `stripes` (top to bottom) across their borders, in
/// `uf` (a union-find over the border labels of every stripe, in order: the smallest id of
/// a set is its root). Sets each stripe's `border_base`, `joined` (its border labels whose
/// id is no root), `joined_final` (their final labels) and `first` (the final label of its
/// first new component, minus 1). Returns the number of components of the grid.
pub(super) fn join_borders(
    stripes: &mut [Stripe],
    uf: &mut Vec<u32>,
    conn: Connectivity,
    (w, h): (usize, usize),
) -> Result<u32, SizeError> {
    let (mut total, mut ids) = (0u64, 0usize);
    for s in stripes.iter_mut() {
        s.border_base = ids as u32;
        ids += s.border.len();
        total += u64::from(s.count);
        if total >= u64::from(u32::MAX) - LABEL_SLACK as u64 {
            return Err(size_error(w, h, "too many runs for u32 labels"));
        }
    }
    uf.clear();
    uf.try_reserve_exact(ids).map_err(|_| {
        memory_error::<u32>(w, h, ids, "not enough memory for the union-find table")
    })?;
    uf.extend(0..ids as u32);
    let eight = conn == Connectivity::Eight;
    for i in 1..stripes.len() {
        let (a, b) = (&stripes[i - 1], &stripes[i]);
        for x in 0..w {
            let lb = b.top[x];
            if lb == 0 {
                continue;
            }
            let ib = b.border_base + lb - 1;
            let near = if eight {
                x.saturating_sub(1)..(x + 2).min(w)
            } else {
                x..x + 1
            };
            for &la in &a.bottom[near] {
                if la != 0 {
                    union(uf, a.border_base + la - 1, ib);
                }
            }
        }
    }
    // The joined labels (border labels whose id is no root), and the first label of each
    // stripe's new components.
    let mut next = 0u32;
    for s in stripes.iter_mut() {
        s.joined.clear();
        for (id, &l) in (s.border_base..).zip(&s.border) {
            if uf[id as usize] != id {
                s.joined.push(l);
            }
        }
        s.first = next;
        next += s.count - s.joined.len() as u32;
    }
    // The final label of every joined label: its root's, a new label of this stripe or an
    // earlier one.
    for i in 0..stripes.len() {
        let mut finals = std::mem::take(&mut stripes[i].joined_final);
        finals.clear();
        let s = &stripes[i];
        for (id, &l) in (s.border_base..).zip(&s.border) {
            if uf[id as usize] == id {
                continue;
            }
            debug_assert!(s.joined.binary_search(&l).is_ok());
            let mut r = id;
            while uf[r as usize] != r {
                r = uf[r as usize];
            }
            let t = stripes[..=i].partition_point(|s| s.border_base <= r) - 1;
            let root = &stripes[t];
            let local = root.border[(r - root.border_base) as usize];
            let before = root.joined.partition_point(|&j| j < local) as u32;
            finals.push(root.first + local - before);
        }
        stripes[i].joined_final = finals;
    }
    Ok(next)
}
