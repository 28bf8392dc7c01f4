//! A strided 8-bit image read as a grid, packed only where it is read: [`ByteImage`].

use super::pack::{self, ByteKernel, Rows};
use super::BitGrid;
use crate::error::check_image;
use crate::ImageError;
use crate::SizeError;

/// A strided 8-bit image (a camera frame, a mask from `numpy`, a decoded PNG) read as a grid:
/// a pixel is set where its byte is greater than `threshold` (`0` for "nonzero"), as
/// [`BitGrid::from_bytes`] reads it. The image is only borrowed and checked; nothing is
/// packed until it is read.
///
/// [`Labeller::label_bytes`](crate::algo::label::Labeller::label_bytes) labels it without a
/// packing pass of its own: on large images each row stripe is packed by the thread that
/// labels it, right before its scan, into the stripe's grid (kept by the labeller, as a
/// packed copy would be). It also works wherever a
/// [`LabelInput`](crate::algo::label::LabelInput) does (packed into a new grid, then
/// labelled).
///
/// ```
/// use gridbits::grid::ByteImage;
/// use gridbits::algo::label::{Labeller, Labels};
/// use gridbits::Connectivity;
/// // Two rows of 3 pixels, stride 4 (one padding byte per row).
/// let pixels = [0, 200, 90, 7, 255, 0, 128, 7];
/// let image = ByteImage::new(&pixels, 3, 2, 4, 100);
/// assert_eq!(image.to_bit_grid().unwrap().to_string(), ".#.\n#.#\n");
/// let mut labels = Labels::new();
/// let n = Labeller::new().label_bytes(&image, Connectivity::Eight, &mut labels).unwrap();
/// assert_eq!((n, labels.as_slice()), (1, &[0, 1, 0, 1, 0, 1][..]));
/// ```
#[derive(Clone, Copy)]
pub struct ByteImage<'a> {
    pixels: &'a [u8],
    rows: Rows,
    threshold: u8,
}

impl<'a> ByteImage<'a> {
    /// The `width x height` image whose row `y` starts at `pixels[y * stride]`; a pixel is
    /// set where its byte is greater than `threshold`.
    ///
    /// # Errors
    /// The errors [`BitGrid::from_bytes`] reports for the same arguments, in the same order:
    /// [`ImageError::Size`] for a zero width or height or more than 2^34 pixels,
    /// [`ImageError::Stride`] when `stride < width`, [`ImageError::TooShort`] when `pixels`
    /// does not hold every row (the last row needs only `width` bytes). Memory is only
    /// allocated where the image is read, which reports a size this machine cannot hold.
    ///
    /// ```
    /// use gridbits::grid::{ByteImage, ImageError};
    /// let pixels = [0u8; 8];
    /// assert!(matches!(ByteImage::try_new(&pixels, 5, 2, 4, 0), Err(ImageError::Stride { .. })));
    /// assert!(matches!(ByteImage::try_new(&pixels, 4, 3, 4, 0), Err(ImageError::TooShort { .. })));
    /// assert!(matches!(ByteImage::try_new(&pixels, 0, 2, 4, 0), Err(ImageError::Size(_))));
    /// ```
    pub fn try_new(
        pixels: &'a [u8],
        width: usize,
        height: usize,
        stride: usize,
        threshold: u8,
    ) -> Result<Self, ImageError> {
        BitGrid::check_size(width, height).map(drop)?;
        check_image(pixels.len(), width, height, stride)?;
        let rows = Rows {
            width,
            height,
            stride,
        };
        Ok(ByteImage {
            pixels,
            rows,
            threshold,
        })
    }

    /// The `width x height` image whose row `y` starts at `pixels[y * stride]`; a pixel is
    /// set where its byte is greater than `threshold`.
    ///
    /// # Panics
    ///
    /// With the [`ImageError`] message where [`try_new`](Self::try_new) returns one.
    #[track_caller]
    pub fn new(
        pixels: &'a [u8],
        width: usize,
        height: usize,
        stride: usize,
        threshold: u8,
    ) -> Self {
        Self::try_new(pixels, width, height, stride, threshold).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The width in pixels.
    pub fn width(&self) -> usize {
        self.rows.width
    }

    /// The height in pixels.
    pub fn height(&self) -> usize {
        self.rows.height
    }

    /// Width and height, as [`BitGrid::size`] gives them.
    pub fn size(&self) -> (usize, usize) {
        (self.rows.width, self.rows.height)
    }

    /// The elements from the start of a row to the start of the next.
    pub fn stride(&self) -> usize {
        self.rows.stride
    }

    /// The threshold: a pixel is set where its byte is greater.
    pub fn threshold(&self) -> u8 {
        self.threshold
    }

    /// The bytes the image was made from (row `y` starts at `y * stride`).
    pub fn pixels(&self) -> &'a [u8] {
        self.pixels
    }

    /// The image packed into a new grid: what [`BitGrid::from_bytes`] returns.
    ///
    /// # Errors
    /// When the grid cannot be allocated.
    pub fn to_bit_grid(&self) -> Result<BitGrid, SizeError> {
        let mut g = BitGrid::try_new(self.width(), self.height())?;
        self.pack_rows(0, &mut g);
        Ok(g)
    }

    /// Packs the rows `y0..y0 + into.height()` into `into` (every word overwritten), with
    /// the fastest kernel of this CPU.
    ///
    /// # Panics
    /// When `into` is not as wide as the image or those rows are not all in it.
    pub(crate) fn pack_rows(&self, y0: usize, into: &mut BitGrid) {
        self.pack_rows_with::<false>(y0, into, &mut super::ByteValues::default());
    }

    /// [`pack_rows`](Self::pack_rows), folding the bytes packed into `values` when `CHECK`
    /// (the two-value check, [`ByteValues`](super::ByteValues)).
    ///
    /// # Panics
    /// As [`pack_rows`](Self::pack_rows).
    pub(crate) fn pack_rows_with<const CHECK: bool>(
        &self,
        y0: usize,
        into: &mut BitGrid,
        values: &mut super::ByteValues,
    ) {
        let Rows { width, stride, .. } = self.rows;
        assert!(
            into.width() == width && y0 + into.height() <= self.height(),
            "rows inside the image"
        );
        let rows = Rows {
            width,
            height: into.height(),
            stride,
        };
        let pixels = &self.pixels[y0 * stride..];
        let (kernel, words) = (ByteKernel::best(), &mut into.words);
        if CHECK {
            pack::pack_checked(kernel, pixels, rows, self.threshold, words, values);
        } else {
            pack::pack(kernel, pixels, rows, self.threshold, words);
        }
    }
}

/// The size, stride, threshold and buffer length, not the pixels (millions of them on a
/// camera frame).
impl std::fmt::Debug for ByteImage<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ByteImage")
            .field("width", &self.width())
            .field("height", &self.height())
            .field("stride", &self.stride())
            .field("threshold", &self.threshold)
            .field("bytes", &self.pixels.len())
            .finish()
    }
}
