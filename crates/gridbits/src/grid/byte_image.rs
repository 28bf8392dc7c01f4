//! A strided 8-bit image read as a grid, without packing it first: [`ByteImage`].

use super::convert::{check_image, ImageError};
use super::pack::{self, ByteKernel, Rows};
use super::BitGrid;
use crate::SizeError;

/// A strided 8-bit image (a camera frame, a mask from `numpy`, a decoded PNG) read as a grid:
/// a pixel is set where its byte is greater than `threshold` (`0` for "nonzero"), as
/// [`BitGrid::from_bytes`] reads it. The image is only borrowed and checked; nothing is
/// packed until it is read.
///
/// [`Labeller::label_bytes`](crate::algo::label::Labeller::label_bytes) labels it without a
/// packed copy of the whole image: on large images each row stripe is packed by the thread
/// that labels it, right before its scan. It also works wherever a
/// [`LabelInput`](crate::algo::label::LabelInput) does (packed once, then labelled).
///
/// ```
/// use gridbits::grid::ByteImage;
/// use gridbits::algo::label::{Labeller, Labels};
/// use gridbits::Connectivity;
/// // Two rows of 3 pixels, stride 4 (one padding byte per row).
/// let pixels = [0, 200, 90, 7, 255, 0, 128, 7];
/// let image = ByteImage::new(&pixels, 3, 2, 4, 100).unwrap();
/// assert_eq!(image.to_bit_grid().unwrap().to_string(), ".#.\n#.#\n");
/// let mut labels = Labels::new();
/// let n = Labeller::new().label_bytes(&image, Connectivity::Eight, &mut labels).unwrap();
/// assert_eq!((n, labels.as_slice()), (1, &[0, 1, 0, 1, 0, 1][..]));
/// ```
#[derive(Clone, Copy, Debug)]
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
    /// As [`BitGrid::from_bytes`]: [`ImageError::Size`] for a zero width or height,
    /// [`ImageError::Stride`] when `stride < width`, [`ImageError::TooShort`] when `pixels`
    /// does not hold every row (the last row needs only `width` bytes). A size too large to
    /// allocate is reported when the image is read.
    pub fn new(
        pixels: &'a [u8],
        width: usize,
        height: usize,
        stride: usize,
        threshold: u8,
    ) -> Result<Self, ImageError> {
        if width == 0 || height == 0 {
            let why = "width and height must be at least 1";
            return Err(ImageError::Size(SizeError::new(
                "byte image",
                width,
                height,
                why,
            )));
        }
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

    /// The width in pixels.
    pub fn width(&self) -> usize {
        self.rows.width
    }

    /// The height in pixels.
    pub fn height(&self) -> usize {
        self.rows.height
    }

    /// The threshold: a pixel is set where its byte is greater.
    pub fn threshold(&self) -> u8 {
        self.threshold
    }

    /// The image packed into a grid of its own: [`BitGrid::from_bytes`].
    ///
    /// # Errors
    /// When the grid cannot be allocated.
    pub fn to_bit_grid(&self) -> Result<BitGrid, SizeError> {
        let mut g = BitGrid::new(self.width(), self.height())?;
        self.pack_rows(0, &mut g);
        Ok(g)
    }

    /// Packs the rows `y0..y0 + into.height()` into `into` (every word overwritten), with
    /// the fastest kernel of this CPU.
    ///
    /// # Panics
    /// When `into` is not as wide as the image or those rows are not all in it.
    pub(crate) fn pack_rows(&self, y0: usize, into: &mut BitGrid) {
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
        pack::pack(
            ByteKernel::best(),
            pixels,
            rows,
            self.threshold,
            &mut into.words,
        );
    }
}
