//! The statistics of the striped labelling's last pass: each stripe adds its runs to the
//! slots of its own new components in the result, and those of pieces of components that
//! start in an earlier stripe to side slots, merged into the result afterwards.

use super::super::component_stats::StatsSink;
use super::super::scratch::Stripe;
use super::super::{memory_error, ComponentStats};
use crate::{Connectivity, SizeError};

/// The slots of a stripe's runs: its own new components' slots of the result, and its side
/// slots for pieces of other stripes' components.
struct StripeSink<'a> {
    own: &'a mut [ComponentStats],
    side: &'a mut [ComponentStats],
    slot_of: &'a [u32],
}

impl StatsSink for StripeSink<'_> {
    #[inline(always)]
    fn at(&mut self, label: u32) -> &mut ComponentStats {
        let k = self.slot_of[label as usize] as usize;
        let own = self.own.len();
        if k < own {
            &mut self.own[k]
        } else {
            &mut self.side[k - own]
        }
    }
}

/// Adds the runs of a scanned stripe (its map made) to the statistics: those of its own new
/// components to `own` (initialised, the labels `first + 1..`), the others to its side slots.
pub(super) fn stripe_stats(
    s: &mut Stripe,
    conn: Connectivity,
    own: &mut [ComponentStats],
) -> Result<(), SizeError> {
    let g = s.grid.as_ref().expect("stripe grid made in the first pass");
    let (w, h) = g.size();
    let n = s.count as usize + 1;
    s.slot_of.clear();
    s.slot_of
        .try_reserve_exact(n)
        .map_err(|_| memory_error::<u32>(w, h, n, "not enough memory for the statistics"))?;
    s.side.clear();
    s.side.try_reserve_exact(s.joined.len()).map_err(|_| {
        let n = s.joined.len();
        memory_error::<ComponentStats>(w, h, n, "not enough memory for the statistics")
    })?;
    s.side.resize(s.joined.len(), ComponentStats::EMPTY);
    s.slot_of.push(0);
    let (mut k, own_len) = (0, own.len() as u32);
    debug_assert_eq!(s.map_base, 0, "the whole map");
    for (l, &f) in (1..).zip(&s.map[1..]) {
        let mine = f > s.first && f - s.first <= own_len;
        if s.joined.get(k) == Some(&l) {
            // Below 2^32: the own slots and the joined labels are distinct labels.
            s.slot_of.push(if mine {
                f - s.first - 1
            } else {
                own_len + k as u32
            });
            k += 1;
        } else {
            debug_assert!(mine);
            s.slot_of.push(f - s.first - 1);
        }
    }
    let mut sink = StripeSink {
        own,
        side: &mut s.side,
        slot_of: &s.slot_of,
    };
    s.labeller.accumulate(g, conn, s.y0, &mut sink);
    Ok(())
}

/// Adds the cells of `b` to `a`.
pub(super) fn merge(a: &mut ComponentStats, b: &ComponentStats) {
    a.size += b.size;
    a.min_x = a.min_x.min(b.min_x);
    a.min_y = a.min_y.min(b.min_y);
    a.max_x = a.max_x.max(b.max_x);
    a.max_y = a.max_y.max(b.max_y);
    a.sum_x += b.sum_x;
    a.sum_y += b.sum_y;
}
