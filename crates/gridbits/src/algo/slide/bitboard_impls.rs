//! `impl BitBoard` for the crate's two board types, [`Board`] and [`BitGrid`]. They sit here,
//! not next to the trait, because their [`BitBoard::slide_ray`] is this module's
//! [`Method::Auto`] engine: the trait (in `bitboard`) knows nothing of the engines, and the
//! engines know only the trait, so every arrow points down.

use super::{Method, Slide};
use crate::dir::{Connectivity, Dir};
use crate::{BitBoard, BitGrid, Board};

impl<const W: usize, const H: usize, const N: usize> BitBoard for Board<W, H, N> {
    #[inline(always)]
    fn empty_like(&self) -> Self {
        Self::EMPTY
    }
    #[inline(always)]
    fn full_like(&self) -> Self {
        Self::FULL
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        Board::is_empty(*self)
    }
    #[inline(always)]
    fn set(&mut self, x: usize, y: usize) {
        Board::set(self, x, y)
    }
    #[inline(always)]
    fn clear(&mut self, x: usize, y: usize) {
        Board::clear(self, x, y)
    }
    #[inline(always)]
    fn lowest(&self) -> Option<(usize, usize)> {
        Board::lowest(*self)
    }
    #[inline(always)]
    fn lowest_bit(&self) -> Self {
        Board::lowest_bit(*self)
    }
    #[inline(always)]
    fn and_assign(&mut self, other: &Self) {
        *self = self.and(*other)
    }
    #[inline(always)]
    fn or_assign(&mut self, other: &Self) {
        *self = self.or(*other)
    }
    #[inline(always)]
    fn xor_assign(&mut self, other: &Self) {
        *self = self.xor(*other)
    }
    #[inline(always)]
    fn and_not_assign(&mut self, other: &Self) {
        *self = Board::and_not(*self, *other)
    }
    #[inline(always)]
    fn complement_assign(&mut self) {
        *self = self.complement()
    }
    #[inline(always)]
    fn is_subset(&self, other: &Self) -> bool {
        Board::is_subset(*self, *other)
    }
    #[inline(always)]
    fn shift(&self, dir: Dir) -> Self {
        Board::shift(*self, dir)
    }
    #[inline(always)]
    fn shift_by(&self, dir: Dir, k: usize) -> Self {
        Board::shift_by(*self, dir, k)
    }
    #[inline(always)]
    fn dilate(&self, conn: Connectivity) -> Self {
        Board::dilate(*self, conn)
    }
    #[inline(always)]
    fn dilate_within(&self, conn: Connectivity, mask: &Self) -> Self {
        Board::dilate_within(*self, conn, *mask)
    }
    #[inline(always)]
    fn erode(&self, conn: Connectivity) -> Self {
        Board::erode(*self, conn)
    }
    fn cells(&self) -> Vec<(usize, usize)> {
        self.iter().collect()
    }
    #[inline]
    fn slide_ray(&self, passable: &Self, dir: Dir) -> Self {
        Slide::ray_with(self, passable, dir, Method::Auto)
    }
}

impl BitBoard for BitGrid {
    fn empty_like(&self) -> Self {
        BitGrid::empty_like(self)
    }
    fn full_like(&self) -> Self {
        let mut g = BitGrid::empty_like(self);
        g.complement_assign();
        g
    }
    fn is_empty(&self) -> bool {
        BitGrid::is_empty(self)
    }
    fn set(&mut self, x: usize, y: usize) {
        BitGrid::set(self, x, y)
    }
    fn clear(&mut self, x: usize, y: usize) {
        BitGrid::clear(self, x, y)
    }
    fn lowest(&self) -> Option<(usize, usize)> {
        BitGrid::lowest(self)
    }
    fn lowest_bit(&self) -> Self {
        let mut g = BitGrid::empty_like(self);
        if let Some((x, y)) = BitGrid::lowest(self) {
            g.set(x, y);
        }
        g
    }
    fn and_assign(&mut self, other: &Self) {
        BitGrid::and_assign(self, other)
    }
    fn or_assign(&mut self, other: &Self) {
        BitGrid::or_assign(self, other)
    }
    fn xor_assign(&mut self, other: &Self) {
        BitGrid::xor_assign(self, other)
    }
    fn and_not_assign(&mut self, other: &Self) {
        BitGrid::and_not_assign(self, other)
    }
    fn complement_assign(&mut self) {
        BitGrid::complement_assign(self)
    }
    fn is_subset(&self, other: &Self) -> bool {
        BitGrid::is_subset(self, other)
    }
    fn shift(&self, dir: Dir) -> Self {
        BitGrid::shift(self, dir)
    }
    fn shift_by(&self, dir: Dir, k: usize) -> Self {
        BitGrid::shift_by(self, dir, k)
    }
    fn dilate(&self, conn: Connectivity) -> Self {
        BitGrid::dilate(self, conn)
    }
    fn dilate_within(&self, conn: Connectivity, mask: &Self) -> Self {
        BitGrid::dilate_within(self, conn, mask)
    }
    fn erode(&self, conn: Connectivity) -> Self {
        BitGrid::erode(self, conn)
    }
    fn cells(&self) -> Vec<(usize, usize)> {
        self.iter().collect()
    }
    fn slide_ray(&self, passable: &Self, dir: Dir) -> Self {
        Slide::ray_with(self, passable, dir, Method::Auto)
    }
}
