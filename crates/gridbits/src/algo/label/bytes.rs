//! Labelling byte images ([`ByteImage`]) without a packing pass of their own.

use super::source::Source;
use super::{ComponentStats, Labeller, Labels};
use crate::grid::ByteImage;
use crate::{BitGrid, Connectivity, SizeError};

impl Labeller {
    /// Labels a byte image ([`ByteImage`]: a pixel is set where its byte is greater than the
    /// threshold) into `out` and returns the number of components: the labels of
    /// [`label`](Self::label) on [`ByteImage::to_bit_grid`], without a packing pass before
    /// the labelling and without a new grid per call. A large image labelled in row stripes
    /// (two threads or more) has each stripe packed by the thread that labels it, right
    /// before its scan, into the stripe's grid; otherwise the image is packed into one
    /// grid. Either way the grids stay with this labeller for the next call.
    ///
    /// # Errors
    /// As [`label`](Self::label): the label image, the packed grid or the scratch space
    /// cannot be allocated, or the image has 2^32 runs or more.
    ///
    /// ```
    /// use gridbits::algo::label::{Labeller, Labels};
    /// use gridbits::grid::ByteImage;
    /// use gridbits::Connectivity;
    /// // A 4x3 grey image: the pixels above 128 form two blobs.
    /// let pixels = [
    ///     200, 210, 0, 0, //
    ///     0, 0, 0, 250, //
    ///     0, 10, 0, 255,
    /// ];
    /// let image = ByteImage::new(&pixels, 4, 3, 4, 128);
    /// let (mut labeller, mut labels) = (Labeller::new(), Labels::new());
    /// let n = labeller.label_bytes(&image, Connectivity::Four, &mut labels).unwrap();
    /// assert_eq!(n, 2);
    /// assert_eq!(labels.row(2), &[0, 0, 0, 2]);
    /// ```
    pub fn label_bytes(
        &mut self,
        image: &ByteImage<'_>,
        conn: Connectivity,
        out: &mut Labels,
    ) -> Result<u32, SizeError> {
        if let Some(rows) = self.stripe_rows(image.size(), conn) {
            return self.striped(Source::Bytes(image), conn, rows, Some(out), None);
        }
        self.packed(image, |l, g| l.label(g, conn, out))
    }

    /// [`label_bytes`](Self::label_bytes) and the size and bounding box of every component
    /// (`stats[label - 1]`), as [`label_with_stats`](Self::label_with_stats) gives them.
    ///
    /// # Errors
    /// As [`label_with_stats`](Self::label_with_stats).
    ///
    /// ```
    /// use gridbits::algo::label::{Labeller, Labels};
    /// use gridbits::grid::ByteImage;
    /// use gridbits::Connectivity;
    /// let pixels = [9, 9, 0, 0, 0, 0, 0, 9];
    /// let image = ByteImage::new(&pixels, 4, 2, 4, 0);
    /// let (mut labels, mut stats) = (Labels::new(), Vec::new());
    /// let n = Labeller::new()
    ///     .label_bytes_with_stats(&image, Connectivity::Eight, &mut labels, &mut stats)
    ///     .unwrap();
    /// assert_eq!((n, stats[0].size, stats[1].bbox()), (2, 2, (3, 1, 1, 1)));
    /// ```
    pub fn label_bytes_with_stats(
        &mut self,
        image: &ByteImage<'_>,
        conn: Connectivity,
        out: &mut Labels,
        stats: &mut Vec<ComponentStats>,
    ) -> Result<u32, SizeError> {
        if let Some(rows) = self.stripe_rows(image.size(), conn) {
            return self.striped(Source::Bytes(image), conn, rows, Some(out), Some(stats));
        }
        self.packed(image, |l, g| l.label_with_stats(g, conn, out, stats))
    }

    /// The statistics of [`stats`](Self::stats) for a byte image, without a label image
    /// and without a packing pass of their own (as [`label_bytes`](Self::label_bytes)).
    /// Returns the number of components.
    ///
    /// # Errors
    /// As [`stats`](Self::stats).
    pub fn stats_bytes(
        &mut self,
        image: &ByteImage<'_>,
        conn: Connectivity,
        stats: &mut Vec<ComponentStats>,
    ) -> Result<u32, SizeError> {
        if let Some(rows) = self.stripe_rows(image.size(), conn) {
            return self.striped(Source::Bytes(image), conn, rows, None, Some(stats));
        }
        self.packed(image, |l, g| l.stats(g, conn, stats))
    }

    /// Packs `image` into the grid this labeller keeps for byte images (made again only for
    /// another size) and runs `f` on it.
    fn packed(
        &mut self,
        image: &ByteImage<'_>,
        f: impl FnOnce(&mut Self, &BitGrid) -> Result<u32, SizeError>,
    ) -> Result<u32, SizeError> {
        let (w, h) = image.size();
        let mut g = match self.packed.take() {
            Some(g) if g.size() == (w, h) => g,
            _ => BitGrid::try_new(w, h)?,
        };
        image.pack_rows(0, &mut g);
        let result = f(self, &g);
        self.packed = Some(g);
        result
    }
}
