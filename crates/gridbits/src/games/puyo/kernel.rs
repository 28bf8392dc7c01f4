//! The chain kernel shared by the portable and SSE2 engines: the register operations on one
//! plane ([`Plane`]), the vanish filter, the group split and the gravities, and one chain
//! step over the six planes held in registers, and the chain driver ([`simulate_impl`]).

#[cfg(target_arch = "x86_64")]
use super::rules::Tables;
use super::{Chain, Field, Rules, Step, ACTIVE, ALL, COLORS, GARBAGE, LANE, LANE_ONES, MAX_CHAIN};
use std::mem::MaybeUninit;

/// The register operations the chain kernel needs on one plane (column-major 16-bit lanes).
pub(super) trait Plane: Copy {
    fn from_u128(v: u128) -> Self;
    fn to_u128(self) -> u128;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn and_not(self, o: Self) -> Self;
    /// Row `y` to `y + 1` (the bit of the top row of a lane is dropped or leaks only into a
    /// bit that is always zero).
    fn up(self) -> Self;
    /// Row `y` to `y - 1`.
    fn down(self) -> Self;
    /// Column `x` to `x + 1`.
    fn right(self) -> Self;
    /// Column `x` to `x - 1`.
    fn left(self) -> Self;
    /// Lane-wise `self + 1` (lanes never overflow: bits 13-15 are zero).
    fn add_lane_ones(self) -> Self;
    /// Lane-wise `0 - self` (lanes below 0x8000).
    fn neg_lanes(self) -> Self;
    /// Lane-wise `self - 1` (lanes below 0x8000; a zero lane becomes 0xffff).
    fn sub_lane_ones(self) -> Self;
    fn is_zero(self) -> bool;
    fn zero() -> Self;
}

/// The cells of groups of 4+ in plane `x` (already restricted to the active rows): the
/// neighbour-count filter, then one dilation inside `x`.
#[inline(always)]
fn vanishing<P: Plane>(x: P) -> Option<P> {
    let u = x.and(x.down()); // has a same-colour neighbour above
    let d = x.and(x.up()); // ... below
    let l = x.and(x.right()); // ... to the left
    let r = x.and(x.left()); // ... to the right
    let ud_and = u.and(d);
    let lr_and = l.and(r);
    let ud_or = u.or(d);
    let lr_or = l.or(r);
    let threes = ud_and.and(lr_or).or(lr_and.and(ud_or));
    let twos = ud_and.or(lr_and).or(ud_or.and(lr_or));
    let two_pairs = twos
        .up()
        .or(twos.down())
        .or(twos.left())
        .or(twos.right())
        .and(twos);
    let seeds = threes.or(two_pairs);
    if seeds.is_zero() {
        return None;
    }
    Some(
        seeds
            .or(seeds.up())
            .or(seeds.down())
            .or(seeds.left())
            .or(seeds.right())
            .and(x),
    )
}

/// Splits a vanishing set of one colour into groups; returns (groups, group bonus).
#[cold]
#[inline(never)]
pub(super) fn split_groups(mut v: u128, rules: Rules) -> (u32, u32) {
    let mut groups = 0;
    let mut bonus = 0;
    while v != 0 {
        let mut g = v & v.wrapping_neg();
        loop {
            let n = (g | g << 1 | g >> 1 | g << LANE | g >> LANE) & v;
            if n == g {
                break;
            }
            g = n;
        }
        v &= !g;
        groups += 1;
        bonus += rules.group_bonus(g.count_ones());
    }
    (groups, bonus)
}

/// Gravity without BMI2: every floating cell falls one row per round.
#[inline(always)]
pub(super) fn gravity_portable<P: Plane>(planes: &mut [P; COLORS + 1], occ: &mut P) {
    gravity_falls(planes, occ, 0b11_1111);
}

/// Gravity by one-row falls of the planes in `present`; works on any field.
#[inline(always)]
fn gravity_falls<P: Plane>(planes: &mut [P; COLORS + 1], occ: &mut P, present: u32) {
    loop {
        // Cells resting on the floor through a solid stack: occ & !(occ + 1) per lane.
        let resting = occ.and_not(occ.add_lane_ones());
        let floating = occ.and_not(resting);
        if floating.is_zero() {
            return;
        }
        for (i, p) in planes.iter_mut().enumerate() {
            if present >> i & 1 != 0 {
                *p = p.and_not(floating).or(p.and(floating).down());
            }
        }
        *occ = resting.or(floating.down());
    }
}

/// Gravity on a settled field from which the cells `removed` were just taken: each round cuts
/// the lowest removed cell out of every column at once (rows above it move down one), so the
/// rounds are the most cells removed from one column.
#[inline(always)]
fn gravity_removed<P: Plane>(
    planes: &mut [P; COLORS + 1],
    occ: &mut P,
    mut removed: P,
    present: u32,
) {
    let all = P::from_u128(ALL);
    loop {
        let lowest = removed.and(removed.neg_lanes());
        let below = lowest.sub_lane_ones(); // all ones in lanes with nothing removed
                                            // Rows from the removed cell up (masked to the field: a u128 `down` pulls the next
                                            // lane's bit 0 into bit 15).
        let above = all.and_not(below);
        for (i, p) in planes.iter_mut().enumerate() {
            if present >> i & 1 != 0 {
                *p = p.and(below).or(p.down().and(above));
            }
        }
        *occ = occ.and(below).or(occ.down().and(above));
        removed = removed.down().and(above);
        if removed.is_zero() {
            return;
        }
    }
}

/// The settled occupancy of one word of four lanes: in each lane, as many low bits as the
/// lane has cells.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn settled_word(occ: u64) -> u64 {
    let mut t = 0u64;
    let mut i = 0;
    while i < 4 {
        let n = ((occ >> (16 * i)) as u16).count_ones();
        t |= ((1u64 << n) - 1) << (16 * i);
        i += 1;
    }
    t
}

/// Gravity with BMI2: each plane's words are `pdep(pext(word, occ), settled occ)`.
///
/// # Safety
/// The CPU must support BMI2: this is inlined into callers compiled with it enabled, which
/// run only after run-time detection.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn gravity_bmi2<P: Plane>(planes: &mut [P; COLORS + 1], occ: &mut P, present: u32) {
    use std::arch::x86_64::{_pdep_u64, _pext_u64};
    let o = occ.to_u128();
    let (olo, ohi) = (o as u64, (o >> 64) as u64);
    let (tlo, thi) = (settled_word(olo), settled_word(ohi));
    // Constant indices keep the planes in registers.
    for (i, plane) in planes.iter_mut().enumerate() {
        if present >> i & 1 != 0 {
            let p = plane.to_u128();
            let lo = _pdep_u64(_pext_u64(p as u64, olo), tlo);
            let hi = _pdep_u64(_pext_u64((p >> 64) as u64, ohi), thi);
            *plane = P::from_u128((u128::from(hi) << 64) | u128::from(lo));
        }
    }
    *occ = P::from_u128((u128::from(thi) << 64) | u128::from(tlo));
}

/// [`Field::settle`](super::Field::settle) by `pext`/`pdep`: a constant two dozen
/// instructions where the one-row falls take a round per row a cell falls.
///
/// # Safety
///
/// The CPU must have BMI1, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt")]
pub(super) unsafe fn settle_bmi2(planes: &mut [u128; COLORS + 1]) {
    let mut occ = planes.iter().fold(0, |o, p| o | p);
    // SAFETY: the caller guarantees BMI2.
    unsafe { gravity_bmi2::<u128>(planes, &mut occ, 0b11_1111) };
}

/// The field's planes held in registers for a chain.
pub(super) struct Kernel<P: Plane> {
    planes: [P; COLORS + 1],
    occ: P,
    /// Bit `i`: plane `i` is not empty.
    present: u32,
    /// No cell floats: gravity only has to close the gaps of removed cells.
    settled: bool,
}

impl<P: Plane> Kernel<P> {
    #[inline(always)]
    pub(super) fn load(f: &Field) -> Self {
        let planes = f.planes.map(P::from_u128);
        let occ = f.occupied();
        let resting = occ & !occ.wrapping_add(LANE_ONES);
        let mut present = 0;
        for (i, p) in f.planes.iter().enumerate() {
            present |= u32::from(*p != 0) << i;
        }
        Kernel {
            planes,
            occ: P::from_u128(occ),
            present,
            settled: resting == occ,
        }
    }

    #[inline(always)]
    pub(super) fn store(&self, f: &mut Field) {
        f.planes = self.planes.map(P::to_u128);
    }

    /// One step. Bit `c` of `dirty`: colour `c` moved since it was last checked (only such
    /// colours can have a new group). Updates `dirty` for the next step.
    #[inline(always)]
    pub(super) fn step<const BMI2: bool>(
        &mut self,
        step: u32,
        rules: Rules,
        dirty: &mut u32,
    ) -> Option<Step> {
        let active = P::from_u128(ACTIVE);
        let mut all = P::zero();
        let mut cleared = 0;
        let mut colors = 0;
        let mut groups = 0;
        let mut gb = 0;
        let check = *dirty & self.present;
        for c in 0..COLORS {
            if check >> c & 1 == 0 {
                continue;
            }
            let x = self.planes[c].and(active);
            if let Some(v) = vanishing(x) {
                let vb = v.to_u128();
                let n = vb.count_ones();
                cleared += n;
                colors += 1;
                if n < 8 {
                    groups += 1;
                    gb += rules.group_bonus(n);
                } else {
                    let (g, b) = split_groups(vb, rules);
                    groups += g;
                    gb += b;
                }
                all = all.or(v);
                self.planes[c] = self.planes[c].and_not(v);
                if self.planes[c].is_zero() {
                    self.present &= !(1 << c);
                }
            }
        }
        if colors == 0 {
            return None;
        }
        let mut removed = all;
        let mut garbage = 0;
        if self.present >> GARBAGE & 1 != 0 {
            let near = all
                .up()
                .or(all.down())
                .or(all.left())
                .or(all.right())
                .and(active);
            let g = self.planes[GARBAGE].and(near);
            garbage = g.to_u128().count_ones();
            self.planes[GARBAGE] = self.planes[GARBAGE].and_not(g);
            if self.planes[GARBAGE].is_zero() {
                self.present &= !(1 << GARBAGE);
            }
            removed = removed.or(g);
        }
        self.occ = self.occ.and_not(removed);
        if self.settled {
            // The cells that fall: above the lowest removed cell of their column.
            let lowest = removed.and(removed.neg_lanes());
            let falls = lowest.neg_lanes();
            *dirty = 0;
            for c in 0..COLORS {
                if self.present >> c & 1 != 0 && !self.planes[c].and(falls).is_zero() {
                    *dirty |= 1 << c;
                }
            }
        } else {
            *dirty = !0;
        }
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: the BMI2 kernel is only instantiated behind run-time detection.
            unsafe { gravity_bmi2(&mut self.planes, &mut self.occ, self.present) };
        } else if self.settled {
            gravity_removed(&mut self.planes, &mut self.occ, removed, self.present);
        } else {
            gravity_falls(&mut self.planes, &mut self.occ, self.present);
        }
        #[cfg(not(target_arch = "x86_64"))]
        if self.settled {
            gravity_removed(&mut self.planes, &mut self.occ, removed, self.present);
        } else {
            gravity_falls(&mut self.planes, &mut self.occ, self.present);
        }
        self.settled = true;
        Some(Step {
            cleared,
            garbage,
            groups,
            colors,
            group_bonus: gb,
            score: rules.step_score(step, cleared, colors, gb),
        })
    }
}

/// Groups and group bonus of the vanishing sets of the five colours: a set under 8 cells
/// is one group, a larger one is split by flood fill.
#[cold]
#[inline(never)]
#[cfg(target_arch = "x86_64")]
pub(super) fn groups_and_bonus(sets: &[u128; 5], t: &Tables, rules: Rules) -> (u32, u32) {
    count_groups(sets, t, rules)
}

/// [`groups_and_bonus`] inlined into the caller (the AVX-512 VL engine: a call there spills
/// every vector register); only sets of 8 cells or more call the flood-fill split.
#[inline(always)]
#[cfg(target_arch = "x86_64")]
pub(super) fn count_groups(sets: &[u128; 5], t: &Tables, rules: Rules) -> (u32, u32) {
    let (mut groups, mut gb) = (0, 0);
    for &v in sets {
        let k = v.count_ones();
        if k >= 8 {
            let (g, b) = split_groups(v, rules);
            groups += g;
            gb += b;
        } else if k != 0 {
            groups += 1;
            gb += t.group[k as usize];
        }
    }
    (groups, gb)
}

/// The steps and total score of a chain as the SIMD engines record them, step by step,
/// written straight into the caller's [`Chain`]: each step once, the unused steps never
/// (no clearing, no copy of a local record at the end).
#[cfg(target_arch = "x86_64")]
pub(super) struct Record<'t, 'o> {
    t: &'t Tables,
    out: &'o mut MaybeUninit<Chain>,
    n: usize,
    total: u64,
}

#[cfg(target_arch = "x86_64")]
impl<'t, 'o> Record<'t, 'o> {
    /// No step yet, under the scoring tables `t`; the chain goes to `out`.
    #[inline(always)]
    pub(super) fn new(t: &'t Tables, out: &'o mut MaybeUninit<Chain>) -> Self {
        Record {
            t,
            out,
            n: 0,
            total: 0,
        }
    }

    /// Scores and records the next step (steps past [`MAX_CHAIN`] count in the score only).
    #[inline(always)]
    pub(super) fn push(&mut self, cleared: u32, garbage: u32, groups: u32, colors: u32, gb: u32) {
        let t = self.t;
        let power = t.power[(self.n + 1).min(MAX_CHAIN)];
        let score = 10 * cleared * (power + t.color[colors as usize] + gb).clamp(1, 999);
        self.record(Step {
            cleared,
            garbage,
            groups,
            colors,
            group_bonus: gb,
            score,
        });
    }

    /// [`push`](Self::push) of a step whose groups are all of 4 cells, one per colour
    /// (`cleared == 4 * colors`: every group has 4 cells or more): one table look-up for
    /// the score.
    #[inline(always)]
    pub(super) fn push_fours(&mut self, cleared: u32, garbage: u32, colors: u32) {
        let score = cleared * self.t.fours[(self.n + 1).min(MAX_CHAIN)][colors as usize];
        self.record(Step {
            cleared,
            garbage,
            groups: colors,
            colors,
            group_bonus: 0,
            score,
        });
    }

    #[inline(always)]
    fn record(&mut self, step: Step) {
        if self.n < MAX_CHAIN {
            let c = self.out.as_mut_ptr();
            // SAFETY: `c` points to the caller's (possibly uninitialised) chain; the place
            // is a step of it (n < MAX_CHAIN), written without reading it.
            unsafe { (&raw mut (*c).steps[self.n]).write(MaybeUninit::new(step)) };
        }
        self.total += u64::from(step.score);
        self.n += 1;
    }

    /// Writes the chain's length, score and final `field`: the chain is then initialised.
    #[inline(always)]
    pub(super) fn finish(self, field: Field) {
        let c = self.out.as_mut_ptr();
        // SAFETY: the places are fields of the caller's chain, written without reading;
        // with the `chain` steps written by `push` every read part of the chain is set.
        unsafe {
            (&raw mut (*c).chain).write(self.n.min(MAX_CHAIN) as u32);
            (&raw mut (*c).score).write(self.total);
            (&raw mut (*c).field).write(field);
        }
    }
}

/// The whole chain on planes of type `P` (`BMI2`: gravity by `pext`/`pdep`), written to
/// `out`; the portable and SSE2 engines' driver.
#[inline(always)]
pub(super) fn simulate_impl<P: Plane, const BMI2: bool>(
    field: &Field,
    out: &mut MaybeUninit<Chain>,
) {
    let rules = field.rules;
    let mut k = Kernel::<P>::load(field);
    let mut steps = [MaybeUninit::<Step>::uninit(); MAX_CHAIN];
    let mut n = 0;
    let mut score = 0u64;
    let mut dirty = !0u32;
    while let Some(s) = k.step::<BMI2>(n as u32 + 1, rules, &mut dirty) {
        score += u64::from(s.score);
        if n < MAX_CHAIN {
            steps[n] = MaybeUninit::new(s);
        }
        n += 1;
    }
    let mut end = *field;
    k.store(&mut end);
    out.write(Chain {
        chain: n.min(MAX_CHAIN) as u32,
        score,
        steps,
        field: end,
    });
}
