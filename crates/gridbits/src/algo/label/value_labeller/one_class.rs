//! The multi-class labeller's route for images of one class ([`ValueLabeller`]'s binary route): the
//! one-class check of byte images before pass 1 (the bytes packed to bits while their values are
//! folded), the bits labelled by the bit-parallel binary [`Labeller`](super::super::Labeller) into
//! its `u32` image, and that image widened into the caller's labels, in bands of rows on several
//! threads. When the route pays is `value_route.rs`'s rule.

use super::super::value_route::zero_background_bytes;
use super::super::LabelStores;
#[cfg(target_arch = "x86_64")]
use super::as_u64_cells;
use super::ValueLabeller;
#[cfg(target_arch = "x86_64")]
use crate::cpu::Features;
use crate::grid::{pack_row_with, ByteKernel, ByteValues};
use crate::parallel::share;
use crate::{BitGrid, Connectivity, SizeError};
use std::mem::MaybeUninit;

impl ValueLabeller {
    /// The one-class check of byte images before pass 1: for `u8` values with the
    /// background 0, packs the rows into `self.grid` (a bit a cell, set where the byte is
    /// not 0) while folding the bytes' largest and smallest nonzero value ([`ByteValues`],
    /// in the packing loop), and returns whether every nonzero byte is one value (the image
    /// is one class, its bits packed). Stops at the first row that holds a second value
    /// (a multi-class image pays the packing of the rows up to it only). `false` for other
    /// types and backgrounds: they take pass 1.
    #[inline(always)]
    pub(super) fn pack_one_class<T: Copy + PartialEq + Send + Sync + 'static>(
        &mut self,
        values: &[T],
        width: usize,
        height: usize,
        background: Option<T>,
    ) -> Result<bool, SizeError> {
        let Some(bytes) = zero_background_bytes(values, background) else {
            return Ok(false);
        };
        let grid = match &mut self.grid {
            Some(g) if g.size() == (width, height) => g,
            slot => slot.insert(BitGrid::try_new(width, height)?),
        };
        let kernel = ByteKernel::best();
        let mut seen = ByteValues::NONE;
        for (y, row) in bytes.chunks_exact(width).enumerate() {
            pack_row_with::<true>(kernel, row, 0, grid.row_words_mut(y), &mut seen);
            if !seen.two_valued() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Labels the bits of `self.grid` with the bit-parallel binary
    /// [`Labeller`](super::super::Labeller) into a `u32` image, then widens it into `out`.
    #[inline(always)]
    pub(super) fn widen_binary<O: Copy + From<u32> + Send + 'static>(
        &mut self,
        conn: Connectivity,
        out: &mut [MaybeUninit<O>],
    ) -> Result<u32, SizeError> {
        let Some(grid) = &self.grid else {
            return Ok(0);
        };
        let bands = self.band_rows(grid.size());
        let labels = &mut self.labels;
        // The `u32` image is read right after (widened): through the cache, where the
        // widening finds it, on CPUs without the AVX-512 writer (docs/benchmarks.md, "v2w":
        // 8-connected, streamed it cost the widening a read from memory, 1.5-1.8x the
        // time of the route); with AVX-512 the measured default stays.
        #[cfg(target_arch = "x86_64")]
        let stores = if crate::cpu::has(crate::algo::label::AVX512_WRITER) {
            LabelStores::Auto
        } else {
            LabelStores::Cached
        };
        #[cfg(not(target_arch = "x86_64"))]
        let stores = LabelStores::Cached;
        self.binary = std::mem::take(&mut self.binary).with_stores(stores);
        let count = self.binary.label(grid, conn, labels)?;
        // On several threads in bands, as pass 2 of the other routes.
        let (width, height) = grid.size();
        let labels = &labels.as_slice()[..width * height];
        let out = &mut out[..width * height];
        match bands {
            Some(rows) => share(
                labels
                    .chunks(rows * width)
                    .zip(out.chunks_mut(rows * width)),
                |(l, o)| widen(l, o),
            ),
            None => widen(labels, out),
        }
        Ok(count)
    }

    /// Labels an image of one class whose set cells are in `self.set` (a bit image: the
    /// rows' blocks are the words of a [`BitGrid`]) with the bit-parallel binary
    /// [`Labeller`](super::super::Labeller) into a `u32` image, then widens it into `out`.
    #[inline(always)]
    pub(super) fn label_binary<O: Copy + From<u32> + Send + 'static>(
        &mut self,
        width: usize,
        height: usize,
        conn: Connectivity,
        out: &mut [MaybeUninit<O>],
    ) -> Result<u32, SizeError> {
        let bpr = width.div_ceil(64);
        let grid = match &mut self.grid {
            Some(g) if g.size() == (width, height) => g,
            slot => slot.insert(BitGrid::try_new(width, height)?),
        };
        for y in 0..height {
            grid.row_words_mut(y)
                .copy_from_slice(&self.set[y * bpr..(y + 1) * bpr]);
        }
        self.widen_binary(conn, out)
    }
}

/// `labels` widened into `out` (as long), by the fastest widening for the CPU and the
/// output type.
fn widen<O: Copy + From<u32> + Send + 'static>(labels: &[u32], out: &mut [MaybeUninit<O>]) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has(crate::algo::label::AVX512_WRITER) {
        if let Some(out) = as_u64_cells(out) {
            // SAFETY: `cpu::has(AVX512_WRITER)` checked AVX-512 F and AVX2 (among others)
            // just above: the features `widen_avx512` is compiled for, its only requirement.
            unsafe { crate::algo::label::value_writer::widen_avx512(labels, out) };
            return;
        }
    }
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has(Features::AVX2) {
        if let Some(out) = as_u64_cells(out) {
            // SAFETY: `cpu::has(AVX2)` checked AVX2 just above: the feature `widen_avx2` is
            // compiled for, its only requirement.
            unsafe { crate::algo::label::value_writer::widen_avx2(labels, out) };
            return;
        }
    }
    for (o, &l) in out.iter_mut().zip(labels) {
        o.write(O::from(l));
    }
}
