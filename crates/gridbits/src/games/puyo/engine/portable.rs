//! The portable engine: every plane a plain `u128`, on any CPU.

use super::super::kernel::{simulate_impl, Plane};
use super::super::{Chain, Field, LANE, LANE_HIGH, LANE_ONES};
use std::mem::MaybeUninit;

impl Plane for u128 {
    #[inline(always)]
    fn from_u128(v: u128) -> Self {
        v
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        self & !o
    }
    #[inline(always)]
    fn up(self) -> Self {
        self << 1
    }
    #[inline(always)]
    fn down(self) -> Self {
        self >> 1
    }
    #[inline(always)]
    fn right(self) -> Self {
        self << LANE
    }
    #[inline(always)]
    fn left(self) -> Self {
        self >> LANE
    }
    #[inline(always)]
    fn add_lane_ones(self) -> Self {
        self.wrapping_add(LANE_ONES)
    }
    #[inline(always)]
    fn neg_lanes(self) -> Self {
        // 0x8000 - v cannot borrow across lanes; XOR 0x8000 then makes it 0x10000 - v.
        LANE_HIGH.wrapping_sub(self) ^ LANE_HIGH
    }
    #[inline(always)]
    fn sub_lane_ones(self) -> Self {
        (self | LANE_HIGH).wrapping_sub(LANE_ONES) ^ LANE_HIGH
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn zero() -> Self {
        0
    }
}

/// The whole chain on `u128` planes; see [`Field::simulate`].
pub(super) fn simulate(field: &Field, out: &mut MaybeUninit<Chain>) {
    simulate_impl::<u128, false>(field, out)
}
