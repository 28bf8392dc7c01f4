//! One band of a BFS in row bands ([`Band`]): its units (its rows and a ghost row above and
//! below), masks, distances and frontier lists, and its step of a layer.

use super::super::cells::{own_bits, prefetch_rows_at, write_layer, UNREACHED};
use super::super::frontier::{predecessors, push_word, slots, Cons, Next, Pad, Unit};
use super::super::frontier::{FAR_UNITS_BYTES, LIST_AHEAD, OPEN};
use super::super::units::prefetch_around;
use super::job::{lock, lock_front, Job, Part};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// A band's BFS between layers: its units (its rows, a ghost row above and below), masks,
/// distances and frontier lists.
pub(super) struct Band<'a> {
    pub(super) b: usize,
    pub(super) top: usize,
    pub(super) rows: usize,
    pub(super) pad: Pad,
    pub(super) store: Vec<u64>,
    pub(super) cons: Option<Cons>,
    pub(super) dist: &'a mut [u32],
    /// The frontier words of the current layer (`count` of them) and the buffer of the next.
    pub(super) list: Vec<(usize, usize)>,
    pub(super) count: usize,
    pub(super) next: Vec<(usize, usize)>,
    /// With owners: the words of the layer before (`prev_count`, their slot kept until the
    /// owners of this layer are combined from it), the ghost units holding the bands
    /// beside's words of that layer, and this layer's words of the first and last rows
    /// (word index, bits), for the bands beside.
    pub(super) prev: Vec<(usize, usize)>,
    pub(super) prev_count: usize,
    pub(super) ghost_prev: Vec<usize>,
    pub(super) edge: [Vec<(usize, u64)>; 2],
    /// Units beyond the second-level cache: prefetched ahead, as in the one-thread BFS.
    pub(super) far: bool,
    /// The deepest layer with a cell of this band.
    pub(super) deepest: u32,
}

impl<'a> Band<'a> {
    /// The band of `part`, its cells reached so far out of its open cells, those at the
    /// job's start its frontier (with owners, the cells with an owner are reached, and the
    /// frontier and its predecessors are the job's [`Front`](super::super::frontier::Front)).
    pub(super) fn new(job: &Job<'_>, part: Part<'a>) -> Self {
        let Part { b, top, rows, dist } = part;
        let passable = job.passable;
        let pad = Pad::rows(passable, rows);
        let w = pad.w;
        let mut store = pad.unit_store();
        let units = pad.units_rows(&mut store, passable, top);
        let mut cons: Option<Cons> = job
            .con
            .map(|c| std::array::from_fn(|k| pad.copy_rows(&c[k], top)));
        // The ghost rows: the passable cells of the rows beside, where there are some (their
        // distances are the other bands' to write), and with masks their masks (which moves
        // reach this band's cells: the owners' predecessors).
        let mut ghosts = Vec::new();
        if b > 0 {
            ghosts.push((usize::MAX, top - 1));
        }
        if b + 1 < job.bands {
            ghosts.push((rows, top + rows));
        }
        for &(ghost, y) in &ghosts {
            let at = pad.unit(ghost, 0);
            for (i, &word) in passable.row_words(y).iter().enumerate() {
                units[at + i].0[OPEN] = word;
            }
            if let (Some(cons), Some(con)) = (cons.as_mut(), job.con) {
                for (padded, mask) in cons.iter_mut().zip(con) {
                    padded[at..at + pad.n].copy_from_slice(mask.row_words(y));
                }
            }
        }
        let (ck, _, pk) = slots(job.start);
        let mut list: Vec<(usize, usize)> = Vec::new();
        let (mut prev, mut ghost_prev) = (Vec::new(), Vec::new());
        if let Some(owned) = job.owned {
            // The cells with an owner leave the open cells; the front's words are the
            // frontier and (in the ghost rows too) its predecessors.
            let owner = &owned.owner[top * w..(top + rows) * w];
            for (y, row) in owner.chunks_exact(w).enumerate() {
                for (i, cells) in row.chunks(64).enumerate() {
                    let mut seen = 0u64;
                    for (k, o) in cells.iter().enumerate() {
                        seen |= u64::from(o.load(Relaxed) != UNREACHED) << k;
                    }
                    units[pad.unit(y, i)].0[OPEN] &= !seen;
                }
            }
            // A word of row `y`, as this band's row (`usize::MAX` the ghost row above).
            let at = |cell: usize| ((cell / w).wrapping_sub(top), cell % w / 64);
            for &(cell, bits) in &owned.front.cur {
                let (y, i) = at(cell);
                if y < rows {
                    let u = pad.unit(y, i);
                    units[u].0[OPEN] &= !bits;
                    units[u].0[ck] = bits;
                    list.push((u, y * w + i * 64));
                }
            }
            for &(cell, bits) in &owned.front.prev {
                let (y, i) = at(cell);
                if y < rows {
                    let u = pad.unit(y, i);
                    units[u].0[pk] = bits;
                    prev.push((u, y * w + i * 64));
                } else if ghosts.iter().any(|&(ghost, _)| ghost == y) {
                    let u = pad.unit(y, i);
                    units[u].0[pk] = bits;
                    ghost_prev.push(u);
                }
            }
        } else {
            // The cells reached so far leave the open cells; those at `start` are the
            // frontier.
            for (y, row) in dist.chunks_exact(w).enumerate() {
                for (i, cells) in row.chunks(64).enumerate() {
                    let (mut seen, mut front) = (0u64, 0u64);
                    for (k, &d) in cells.iter().enumerate() {
                        seen |= u64::from(d != UNREACHED) << k;
                        front |= u64::from(d == job.start) << k;
                    }
                    let u = pad.unit(y, i);
                    units[u].0[OPEN] &= !seen;
                    if front != 0 {
                        units[u].0[ck] = front;
                        list.push((u, y * w + i * 64));
                    }
                }
            }
        }
        Band {
            b,
            top,
            rows,
            pad,
            store,
            cons,
            dist,
            count: list.len(),
            list,
            next: Vec::new(),
            prev_count: prev.len(),
            prev,
            ghost_prev,
            edge: Default::default(),
            far: pad.len() * std::mem::size_of::<Unit>() >= FAR_UNITS_BYTES,
            // With owners the job's start is not written yet.
            deepest: job.start - u32::from(job.owned.is_some()),
        }
    }

    /// Adds the words the bands beside pushed into this band's edge rows, for layer `layer`
    /// (slot `ck`), to its frontier.
    pub(super) fn take_pushes(&mut self, job: &Job<'_>, layer: u32) {
        let Band {
            b,
            rows,
            pad,
            store,
            list,
            count,
            ..
        } = self;
        let units = pad.view(store);
        let (ck, _, _) = slots(layer);
        let parity = (layer % 2) as usize;
        for (side, y) in [(0, 0), (1, *rows - 1)] {
            let mut words = lock(&job.shared.inbox[*b][side][parity]);
            for &(i, bits) in words.iter() {
                let u = pad.unit(y, i);
                let unit = &mut units[u].0;
                let add = bits & unit[OPEN];
                unit[OPEN] ^= add;
                let was = unit[ck];
                unit[ck] = was | add;
                if was == 0 && add != 0 {
                    let entry = (u, y * pad.w + i * 64);
                    if *count < list.len() {
                        list[*count] = entry;
                    } else {
                        list.push(entry);
                    }
                    *count += 1;
                }
            }
            words.clear();
        }
    }

    /// Layer `layer` of the band: the words handed over from the bands beside join the
    /// frontier (with owners, their edge rows' words of the layer before join the ghost
    /// rows), each frontier word writes its cells' distances (and owners) and pushes into
    /// the next frontier, and the ghost rows' new words (and the edge rows' words) go to
    /// the bands beside. Whether the band has a next layer (its frontier, or words it
    /// handed over).
    pub(super) fn layer<const EIGHT: bool, const CON: bool, const OWN: bool>(
        &mut self,
        job: &Job<'_>,
        layer: u32,
    ) -> bool {
        let (ck, nk, pk) = slots(layer);
        if layer > job.start {
            self.take_pushes(job, layer);
            if OWN {
                // The edge rows of the bands beside at the layer before: the predecessors
                // of this band's edge cells.
                let parity = (layer % 2) as usize;
                let units = self.pad.view(&mut self.store);
                for (side, ghost) in [(0, usize::MAX), (1, self.rows)] {
                    let mut words = lock(&job.shared.edges[self.b][side][parity]);
                    for &(i, bits) in words.iter() {
                        let u = self.pad.unit(ghost, i);
                        units[u].0[pk] = bits;
                        self.ghost_prev.push(u);
                    }
                    words.clear();
                }
            }
        }
        let Band {
            b,
            top,
            rows,
            pad,
            store,
            cons,
            dist,
            list,
            count,
            next: spare,
            prev,
            prev_count,
            ghost_prev,
            edge,
            far,
            deepest,
        } = self;
        let (b, top, rows, pad) = (*b, *top, *rows, *pad);
        let Pad { w, n, s, .. } = pad;
        let shared = job.shared;
        let units = pad.view(store);
        let empty: Cons = Default::default();
        let c = cons.as_ref().unwrap_or(&empty);
        let mut owner: &[AtomicU32] = job.owned.map_or(&[], |o| o.owner);
        // The first cell of this band in the owner array.
        let owner_at = owner.as_ptr().cast::<u32>().wrapping_add(top * w);
        // The band's own units, and those of its first and last rows.
        let (first, end) = (pad.unit(0, 0), pad.unit(rows, 0));
        let (first_end, last_start) = (first + s, end - s);
        let mut next = Next {
            slot: nk,
            list: std::mem::take(spare),
            len: 0,
            // The line a new frontier cell's distance (or without distances its owner)
            // will be written to.
            dist: if dist.is_empty() {
                owner_at
            } else {
                dist.as_ptr()
            },
            prefetch: job.prefetch,
        };
        let need = (*count * if EIGHT { 9 } else { 5 }).min(pad.len()) + 1;
        if next.list.len() < need {
            next.list.resize(need, (0, 0));
        }
        let ahead = *far && *count > 2 * LIST_AHEAD;
        let mut edges = 0u8;
        let mut cells = false;
        for (i, &(u, base)) in list[..*count].iter().enumerate() {
            if ahead {
                // As in the one-thread BFS: the units of the word `2 * LIST_AHEAD` on, and
                // with owners the owner lines of the word `LIST_AHEAD` on.
                let (v, _) = list.get(i + 2 * LIST_AHEAD).copied().unwrap_or_default();
                prefetch_around(units, v, s);
                if OWN {
                    let (v, at) = list.get(i + LIST_AHEAD).copied().unwrap_or_default();
                    let bits = units.get(v).map_or(0, |unit| unit.0[ck]);
                    prefetch_rows_at(owner_at, at.wrapping_add(bits.trailing_zeros() as usize), w);
                }
            }
            // Ghost units are listed when pushed into; they are handed over below.
            if u < first || u >= end {
                continue;
            }
            let (top_row, bottom_row) = (u < first_end, u >= last_start);
            edges |= u8::from(top_row) | (u8::from(bottom_row) << 1);
            cells = true;
            let f = units[u].0[ck];
            if OWN {
                // Kept a layer longer: the next layer's owners are read from it.
                let from = predecessors::<EIGHT, CON>(units, pk, c, u, s);
                own_bits::<EIGHT, _>(&from, w, f, top * w + base, &mut owner);
                if top_row {
                    edge[0].push((u - first, f));
                }
                if bottom_row {
                    edge[1].push((u - last_start, f));
                }
            } else {
                units[u].0[ck] = 0;
            }
            if !dist.is_empty() {
                write_layer(dist, base, f, layer);
            }
            push_word::<EIGHT, CON>(units, &mut next, c, u, base, f, s, w);
        }
        if cells {
            *deepest = layer;
        }
        // Hand the ghost rows' new words to the bands beside, for their next layer, and
        // with owners this layer's words of the edge rows (the predecessors beside).
        let parity = ((layer + 1) % 2) as usize;
        for (side, ghost, to) in [(1, usize::MAX, b.wrapping_sub(1)), (0, rows, b + 1)] {
            let row = &mut edge[1 - side];
            if to >= job.bands {
                row.clear();
                continue;
            }
            if OWN && !row.is_empty() {
                lock(&shared.edges[to][side][parity]).append(row);
            }
            let pushed = if side == 1 { edges & 1 } else { edges & 2 };
            if pushed == 0 {
                continue;
            }
            let mut words = lock(&shared.inbox[to][side][parity]);
            for i in 0..n {
                let slot = &mut units[pad.unit(ghost, i)].0[nk];
                if *slot != 0 {
                    words.push((i, *slot));
                    *slot = 0;
                }
            }
        }
        // Ghost words listed count: a band that handed words over has a next layer.
        let active = next.len > 0;
        if OWN {
            // The layer before's slot is read for the last time: clean for the next layer.
            for &(u, _) in &prev[..*prev_count] {
                units[u].0[pk] = 0;
            }
            for u in ghost_prev.drain(..) {
                units[u].0[pk] = 0;
            }
            *spare = std::mem::replace(prev, std::mem::replace(list, next.list));
            *prev_count = *count;
        } else {
            *spare = std::mem::replace(list, next.list);
        }
        *count = next.len;
        active
    }

    /// With owners, after layer `layer` when the bands give up: the words pushed into this
    /// band for the next layer join its frontier, and its words of `layer` and of the next
    /// go to the frontier handed back to one thread.
    pub(super) fn hand_back(&mut self, job: &Job<'_>, layer: u32) {
        self.take_pushes(job, layer + 1);
        let (ck, nk, _) = slots(layer);
        let (first, end) = (self.pad.unit(0, 0), self.pad.unit(self.rows, 0));
        let units = self.pad.view(&mut self.store);
        let at = self.top * self.pad.w;
        let words = |list: &[(usize, usize)], k: usize| {
            list.iter()
                .filter(|&&(u, _)| (first..end).contains(&u))
                .map(|&(u, base)| (at + base, units[u].0[k]))
                .filter(|&(_, bits)| bits != 0)
                .collect::<Vec<_>>()
        };
        let (prev, cur) = (
            words(&self.prev[..self.prev_count], ck),
            words(&self.list[..self.count], nk),
        );
        let mut back = lock_front(&job.shared.back);
        back.prev.extend(prev);
        back.cur.extend(cur);
    }
}
