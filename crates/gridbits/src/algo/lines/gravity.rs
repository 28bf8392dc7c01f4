//! Gravity: columns of [`ColumnBoard`] planes fall to close their gaps ([`settle_planes`]),
//! and any [`BitBoard`] settles towards its bottom row ([`settle_down`]).

#[cfg(target_arch = "x86_64")]
use super::PEXT;
use super::{remove_bits, shr, ColumnBoard};
#[cfg(target_arch = "x86_64")]
use crate::cpu::has;
use crate::{BitBoard, Dir};
use std::fmt;

/// The planes given to [`settle_planes`] do not all have the same height.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaneHeightsError {
    /// Index of the first plane whose height differs from plane 0's.
    pub plane: usize,
    /// Its height.
    pub height: usize,
    /// The height of plane 0.
    pub expected: usize,
}

impl fmt::Display for PlaneHeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "plane {} has {} rows, plane 0 has {}: planes that fall together need one height",
            self.plane, self.height, self.expected
        )
    }
}

impl std::error::Error for PlaneHeightsError {}

/// Gravity for several planes of the same size that fall together (e.g. the colours of a
/// Puyo field): in every column the cells of the union fall to the bottom row, keeping their
/// order, and each plane follows its own cells. An error (planes unchanged) when the heights
/// differ.
///
/// With BMI2 each plane's raw column is `pext(plane, union)`; without, each gap of the union
/// (found by trailing zeros) is cut out of every plane.
///
/// ```
/// use gridbits::algo::lines::{settle_planes, ColumnBoard};
/// let mut planes: [ColumnBoard<1>; 2] = [".\n.\n#\n.\n".parse().unwrap(), "#\n.\n.\n.\n".parse().unwrap()];
/// settle_planes(&mut planes).unwrap();
/// assert_eq!(planes[0].to_string(), ".\n.\n.\n#\n");
/// assert_eq!(planes[1].to_string(), ".\n.\n#\n.\n");
/// ```
pub fn settle_planes<const W: usize>(
    planes: &mut [ColumnBoard<W>],
) -> Result<(), PlaneHeightsError> {
    #[cfg(target_arch = "x86_64")]
    if has(PEXT) {
        // SAFETY: `has(PEXT)` detected BMI2 and POPCNT (the enabled features) just above.
        return unsafe { settle_planes_pext(planes) };
    }
    settle_planes_portable(planes)
}

/// [`settle_planes`] with `pext`.
///
/// # Safety
/// The CPU must support BMI2 and POPCNT (check with
/// [`cpu::has`](crate::cpu::has)`(`[`PEXT`]`)`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
pub unsafe fn settle_planes_pext<const W: usize>(
    planes: &mut [ColumnBoard<W>],
) -> Result<(), PlaneHeightsError> {
    use std::arch::x86_64::_pext_u64;
    check_heights(planes)?;
    for x in 0..W {
        let occ = planes.iter().fold(0, |a, p| a | p.cols[x]);
        for p in planes.iter_mut() {
            p.cols[x] = _pext_u64(p.cols[x], occ);
        }
    }
    Ok(())
}

/// [`settle_planes`] without BMI2: for each column, every gap of the union is cut out of
/// every plane, lowest gap first.
fn settle_planes_portable<const W: usize>(
    planes: &mut [ColumnBoard<W>],
) -> Result<(), PlaneHeightsError> {
    check_heights(planes)?;
    for x in 0..W {
        let mut occ = planes.iter().fold(0, |a, p| a | p.cols[x]);
        let mut base = 0;
        loop {
            let run = (occ >> base).trailing_ones() + base;
            let rest = shr(occ, run);
            if rest == 0 {
                break;
            }
            let gap = rest.trailing_zeros();
            for p in planes.iter_mut() {
                p.cols[x] = remove_bits(p.cols[x], run, gap);
            }
            occ = remove_bits(occ, run, gap);
            base = run;
        }
    }
    Ok(())
}

/// An error naming the first plane whose height differs from plane 0's.
fn check_heights<const W: usize>(planes: &[ColumnBoard<W>]) -> Result<(), PlaneHeightsError> {
    let Some(first) = planes.first() else {
        return Ok(());
    };
    match planes.iter().position(|p| p.height != first.height) {
        None => Ok(()),
        Some(plane) => Err(PlaneHeightsError {
            plane,
            height: planes[plane].height(),
            expected: first.height(),
        }),
    }
}

/// Gravity for any [`BitBoard`] whose rows are counted from the top: every set cell falls
/// towards the bottom row (`y = height - 1`) until it rests on the floor or another cell.
///
/// Each round moves, all at once, every cell that has an empty cell below it; a column with
/// `k` cells settles within `height` rounds.
///
/// ```
/// use gridbits::{algo::lines::settle_down, bitboard, Board};
/// type B = Board<3, 3, 1>;
/// let b = bitboard!(B; "#.#", "...", ".#.");
/// assert_eq!(settle_down(&b), bitboard!(B; "...", "..." , "###"));
/// ```
pub fn settle_down<B: BitBoard>(board: &B) -> B {
    let mut b = board.clone();
    loop {
        let mut empty = b.clone();
        empty.complement_assign();
        // Cells whose southern neighbour is empty (the bottom row has no such neighbour).
        let mut movers = empty.shift(Dir::N);
        movers.and_assign(&b);
        if movers.is_empty() {
            return b;
        }
        b.and_not_assign(&movers);
        b.or_assign(&movers.shift(Dir::S));
    }
}
