//! Boolean operations between grids of one size, and the `& | ^ !` operators on owned values
//! and references.
//!
//! Operators and the `*_assign` methods panic when the sizes differ, as indexing out of bounds
//! does; the `try_*` forms return a [`SizeMismatch`] instead.

use super::{tail_mask, BitGrid};
use crate::error::SizeMismatch;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

impl BitGrid {
    /// `Ok` when `other` has the same size as `self`.
    pub fn check_same_size(&self, other: &Self) -> Result<(), SizeMismatch> {
        SizeMismatch::check(self, "self", other, "other")
    }

    pub(crate) fn assert_same_size(&self, other: &Self) {
        if let Err(e) = self.check_same_size(other) {
            panic!("{e}");
        }
    }

    fn zip_words(&mut self, other: &Self, f: impl Fn(u64, u64) -> u64) {
        self.assert_same_size(other);
        self.words
            .iter_mut()
            .zip(&other.words)
            .for_each(|(a, &b)| *a = f(*a, b));
    }

    /// `self &= other`.
    ///
    /// # Panics
    /// If the sizes differ; [`try_and`](Self::try_and) returns an error instead.
    pub fn and_assign(&mut self, other: &Self) {
        self.zip_words(other, |a, b| a & b);
    }

    /// `self |= other`.
    ///
    /// # Panics
    /// If the sizes differ; [`try_or`](Self::try_or) returns an error instead.
    pub fn or_assign(&mut self, other: &Self) {
        self.zip_words(other, |a, b| a | b);
    }

    /// `self ^= other`.
    ///
    /// # Panics
    /// If the sizes differ; [`try_xor`](Self::try_xor) returns an error instead.
    pub fn xor_assign(&mut self, other: &Self) {
        self.zip_words(other, |a, b| a ^ b);
    }

    /// `self = self & !other`.
    ///
    /// # Panics
    /// If the sizes differ; [`try_and_not`](Self::try_and_not) returns an error instead.
    pub fn and_not_assign(&mut self, other: &Self) {
        self.zip_words(other, |a, b| a & !b);
    }

    /// The cells of `self` not in `other`.
    ///
    /// # Panics
    /// If the sizes differ; [`try_and_not`](Self::try_and_not) returns an error instead.
    pub fn and_not(&self, other: &Self) -> Self {
        let mut g = self.clone();
        g.and_not_assign(other);
        g
    }

    /// `self & other`, or an error when the sizes differ.
    pub fn try_and(&self, other: &Self) -> Result<Self, SizeMismatch> {
        self.check_same_size(other)?;
        Ok(self & other)
    }

    /// `self | other`, or an error when the sizes differ.
    pub fn try_or(&self, other: &Self) -> Result<Self, SizeMismatch> {
        self.check_same_size(other)?;
        Ok(self | other)
    }

    /// `self ^ other`, or an error when the sizes differ.
    pub fn try_xor(&self, other: &Self) -> Result<Self, SizeMismatch> {
        self.check_same_size(other)?;
        Ok(self ^ other)
    }

    /// `self & !other`, or an error when the sizes differ.
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// let a: BitGrid = "##.\n.##\n".parse().unwrap();
    /// let b: BitGrid = "#..\n..#\n".parse().unwrap();
    /// assert_eq!(a.try_and_not(&b).unwrap().to_string(), ".#.\n.#.\n");
    /// assert!(a.try_and_not(&BitGrid::new(2, 2)).is_err());
    /// ```
    pub fn try_and_not(&self, other: &Self) -> Result<Self, SizeMismatch> {
        self.check_same_size(other)?;
        Ok(self.and_not(other))
    }

    /// Complements in place, inside the grid.
    pub fn complement_assign(&mut self) {
        let (wpr, tail) = (self.wpr, tail_mask(self.width));
        for row in self.words.chunks_exact_mut(wpr) {
            row.iter_mut().for_each(|w| *w = !*w);
            if let Some(last) = row.last_mut() {
                *last &= tail;
            }
        }
    }

    /// The complement inside the grid.
    pub fn complement(&self) -> Self {
        let mut g = self.clone();
        g.complement_assign();
        g
    }

    /// Whether every cell of `self` is in `other`.
    ///
    /// # Panics
    /// If the sizes differ (see [`check_same_size`](Self::check_same_size)).
    pub fn is_subset(&self, other: &Self) -> bool {
        self.assert_same_size(other);
        self.words
            .iter()
            .zip(&other.words)
            .all(|(a, b)| a & !b == 0)
    }
}

/// Implements one binary operator for every mix of owned and borrowed grids. The owned left
/// operand is reused for the result, so `a & b` allocates nothing.
macro_rules! grid_binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $m:ident) => {
        impl $tr<&BitGrid> for &BitGrid {
            type Output = BitGrid;
            /// # Panics
            /// If the sizes differ.
            fn $f(self, rhs: &BitGrid) -> BitGrid {
                let mut g = self.clone();
                g.$m(rhs);
                g
            }
        }
        impl $tr<&BitGrid> for BitGrid {
            type Output = BitGrid;
            /// # Panics
            /// If the sizes differ.
            fn $f(mut self, rhs: &BitGrid) -> BitGrid {
                self.$m(rhs);
                self
            }
        }
        impl $tr<BitGrid> for BitGrid {
            type Output = BitGrid;
            /// # Panics
            /// If the sizes differ.
            fn $f(mut self, rhs: BitGrid) -> BitGrid {
                self.$m(&rhs);
                self
            }
        }
        impl $tr<BitGrid> for &BitGrid {
            type Output = BitGrid;
            /// # Panics
            /// If the sizes differ.
            fn $f(self, mut rhs: BitGrid) -> BitGrid {
                // All three operations are commutative.
                rhs.$m(self);
                rhs
            }
        }
        impl $atr<&BitGrid> for BitGrid {
            /// # Panics
            /// If the sizes differ.
            fn $af(&mut self, rhs: &BitGrid) {
                self.$m(rhs);
            }
        }
        impl $atr<BitGrid> for BitGrid {
            /// # Panics
            /// If the sizes differ.
            fn $af(&mut self, rhs: BitGrid) {
                self.$m(&rhs);
            }
        }
    };
}
grid_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, and_assign);
grid_binop!(BitOr, bitor, BitOrAssign, bitor_assign, or_assign);
grid_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, xor_assign);

impl Not for &BitGrid {
    type Output = BitGrid;
    /// Complement inside the grid.
    fn not(self) -> BitGrid {
        self.complement()
    }
}

impl Not for BitGrid {
    type Output = BitGrid;
    /// Complement inside the grid.
    fn not(mut self) -> BitGrid {
        self.complement_assign();
        self
    }
}
