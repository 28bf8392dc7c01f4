//! The label image type.

use super::{memory_error, CHUNK};
use crate::SizeError;
use std::mem::MaybeUninit;

/// A label image: one `u32` per cell, row-major, `0` for background and `1..=count` for the
/// components in raster order of their first cell.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) count: u32,
    /// From `offset` (which 64-byte aligns the cells, for streaming stores): `width *
    /// height` labels, then `CHUNK` spare cells for chunked writes.
    pub(super) data: Vec<u32>,
    pub(super) offset: usize,
}

impl PartialEq for Labels {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height, self.count) == (other.width, other.height, other.count)
            && self.as_slice() == other.as_slice()
    }
}

impl Eq for Labels {}

impl Labels {
    /// An empty label image, to be filled by [`Labeller::label`](super::Labeller::label) (which reuses its memory).
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of components: the largest label.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// All labels, row-major.
    pub fn as_slice(&self) -> &[u32] {
        &self.data[self.offset..self.offset + self.width * self.height]
    }

    /// The cells and the spare cells after them, for the writers.
    pub(super) fn cells_mut(&mut self) -> &mut [u32] {
        &mut self.data[self.offset..]
    }

    /// The labels of row `y`.
    ///
    /// # Panics
    ///
    /// When `y >= height`; [`get`](Self::get) reads any cell without panicking.
    pub fn row(&self, y: usize) -> &[u32] {
        assert!(y < self.height, "row off the image");
        &self.as_slice()[y * self.width..(y + 1) * self.width]
    }

    /// The label of `(x, y)`; 0 off the image.
    pub fn get(&self, x: usize, y: usize) -> u32 {
        if x < self.width && y < self.height {
            self.as_slice()[y * self.width + x]
        } else {
            0
        }
    }

    /// The buffer and where the image starts in it: cell `(x, y)` is
    /// `buffer[offset + y * width + x]`; the cells after the image are unspecified. Unlike
    /// [`into_vec`](Self::into_vec) this moves no label (the image starts 64-byte aligned
    /// in the buffer, for the streaming writer).
    ///
    /// ```
    /// use gridbits::algo::label::label;
    /// use gridbits::{BitGrid, Connectivity};
    /// let g = BitGrid::parse("#.#\n").unwrap();
    /// let (buffer, offset) = label(&g, Connectivity::Four).unwrap().into_raw_parts();
    /// assert_eq!(&buffer[offset..offset + 3], &[1, 0, 2]);
    /// ```
    pub fn into_raw_parts(self) -> (Vec<u32>, usize) {
        (self.data, self.offset)
    }

    /// The labels as a `Vec`, row-major.
    pub fn into_vec(mut self) -> Vec<u32> {
        self.data.truncate(self.offset + self.width * self.height);
        self.data.drain(..self.offset);
        self.data
    }

    /// Makes room for a `width x height` image.
    pub(super) fn resize(&mut self, width: usize, height: usize) -> Result<(), SizeError> {
        let cells = width * height;
        let need = cells + CHUNK + 15;
        if self.data.len() != need {
            self.data = Vec::new();
            self.data = crate::huge_pages::zeroed(need)
                .ok_or_else(|| memory_error::<u32>(width, height, need, "not enough memory"))?;
            let misalign = self.data.as_ptr() as usize % 64;
            self.offset = (64 - misalign) % 64 / 4;
        }
        self.width = width;
        self.height = height;
        self.count = 0;
        Ok(())
    }

    /// Makes room for a `width x height` image whose every cell the caller writes before
    /// [`set_written`](Self::set_written), and returns those cells (and the spare ones
    /// after them). A new buffer is not zeroed first: its image cells are uninitialised (the
    /// cells around them are zeros). The image is empty (0 x 0) until `set_written`, so an
    /// error in between leaves no cell unwritten in view.
    pub(super) fn resize_uninit(
        &mut self,
        width: usize,
        height: usize,
    ) -> Result<&mut [MaybeUninit<u32>], SizeError> {
        let cells = width * height;
        let need = cells + CHUNK + 15;
        (self.width, self.height, self.count) = (0, 0, 0);
        if self.data.len() == need {
            let cells = &mut self.data[self.offset..];
            // SAFETY: `MaybeUninit<u32>` has the layout of `u32`, and every value written
            // through the result is initialised (writes of `MaybeUninit::new` values only:
            // nothing can de-initialise a cell through `&mut [MaybeUninit<u32>]` without
            // `unsafe`, and the writers write only labels).
            return Ok(unsafe { &mut *(cells as *mut [u32] as *mut [MaybeUninit<u32>]) });
        }
        self.data = Vec::new();
        self.data
            .try_reserve_exact(need)
            .map_err(|_| memory_error::<u32>(width, height, need, "not enough memory"))?;
        crate::huge_pages::advise(&mut self.data);
        let misalign = self.data.as_ptr() as usize % 64;
        self.offset = (64 - misalign) % 64 / 4;
        let spare = &mut self.data.spare_capacity_mut()[..need];
        for c in &mut spare[..self.offset] {
            c.write(0);
        }
        for c in &mut spare[self.offset + cells..] {
            c.write(0);
        }
        Ok(&mut spare[self.offset..])
    }

    /// Declares written the `width x height` image of the last
    /// [`resize_uninit`](Self::resize_uninit), numbering `count` components.
    ///
    /// # Safety
    ///
    /// The last call of `resize_uninit` on `self` had these `width` and `height`, and every
    /// one of the first `width * height` cells it returned has been written since.
    pub(super) unsafe fn set_written(&mut self, width: usize, height: usize, count: u32) {
        let need = width * height + CHUNK + 15;
        debug_assert!(self.data.capacity() >= need);
        // SAFETY: `resize_uninit(width, height)` reserved `need` elements and initialised
        // those before `offset` and from `offset + width * height` on; the caller wrote
        // the others.
        unsafe { self.data.set_len(need) };
        (self.width, self.height, self.count) = (width, height, count);
    }
}
