//! [`Footprint`]: the structuring element of binary morphology, a small boolean pattern with a
//! centre, and the row runs the engine works from.

use crate::SizeError;

/// The largest side of a footprint: a pattern wider or taller than this is refused.
pub const MAX_FOOTPRINT_SIDE: usize = 1 << 16;

/// A structuring element: a `width x height` pattern of cells and a centre.
///
/// Cell `(fx, fy)` (column, row within the pattern) stands for the offset
/// `(fx - cx, fy - cy)` from the centre `(cx, cy)`. The centre defaults to `(width / 2,
/// height / 2)`, the middle of an odd side and the cell after the middle of an even one
/// (scipy's and scikit-image's choice); [`with_center`](Self::with_center) moves it, even off
/// the pattern. The centre cell need not be set.
///
/// ```
/// use gridbits::algo::morph::Footprint;
/// let d = Footprint::disk(2);
/// assert_eq!((d.width(), d.height(), d.center()), (5, 5, (2, 2)));
/// assert_eq!(d.to_string(), "..#..\n.###.\n#####\n.###.\n..#..\n");
/// assert_eq!(Footprint::diamond(1), Footprint::cross());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Footprint {
    width: usize,
    height: usize,
    cells: Vec<bool>,
    center: (isize, isize),
}

/// One row of a footprint's offsets as horizontal runs: `dy` and `(dx, len)` pairs, the run
/// covering offsets `dx..dx + len`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RunRow {
    pub(crate) dy: isize,
    pub(crate) runs: Vec<(isize, usize)>,
}

impl Footprint {
    /// A footprint from a predicate on `(fx, fy)`, centred at `(width / 2, height / 2)`, or
    /// an error if a side is zero or larger than [`MAX_FOOTPRINT_SIDE`].
    ///
    /// ```
    /// use gridbits::algo::morph::Footprint;
    /// let l = Footprint::try_from_fn(2, 2, |x, y| x == 0 || y == 1).unwrap();
    /// assert_eq!(l.to_string(), "#.\n##\n");
    /// assert!(Footprint::try_from_fn(0, 3, |_, _| true).is_err());
    /// ```
    pub fn try_from_fn(
        width: usize,
        height: usize,
        mut f: impl FnMut(usize, usize) -> bool,
    ) -> Result<Self, SizeError> {
        if width == 0 || height == 0 {
            return Err(SizeError::new(
                "footprint",
                width,
                height,
                "width and height must be at least 1",
            ));
        }
        if width > MAX_FOOTPRINT_SIDE || height > MAX_FOOTPRINT_SIDE {
            return Err(SizeError::new(
                "footprint",
                width,
                height,
                "a side is larger than 65536",
            ));
        }
        // Up to 2^32 cells: reserved fallibly, so a pattern this machine cannot hold is an
        // error, not an abort.
        let mut cells =
            crate::error::try_vec("footprint", width, height, (width * height) as u128)?;
        for y in 0..height {
            for x in 0..width {
                cells.push(f(x, y));
            }
        }
        Ok(Footprint {
            width,
            height,
            cells,
            center: ((width / 2) as isize, (height / 2) as isize),
        })
    }

    /// A footprint from row-major cells (`cells.len() == width * height`), as
    /// [`try_from_fn`](Self::try_from_fn); a length that does not match is an error.
    pub fn try_from_cells(width: usize, height: usize, cells: &[bool]) -> Result<Self, SizeError> {
        if cells.len() as u128 != width as u128 * height as u128 {
            return Err(SizeError::new(
                "footprint",
                width,
                height,
                "the number of cells is not width * height",
            ));
        }
        Self::try_from_fn(width, height, |x, y| cells[y * width + x])
    }

    /// A full `width x height` rectangle, or an error for the sizes
    /// [`try_from_fn`](Self::try_from_fn) refuses.
    pub fn try_rect(width: usize, height: usize) -> Result<Self, SizeError> {
        Self::try_from_fn(width, height, |_, _| true)
    }

    /// A full `width x height` rectangle.
    ///
    /// # Panics
    ///
    /// With the [`SizeError`] message for a zero side or one past [`MAX_FOOTPRINT_SIDE`];
    /// [`try_rect`](Self::try_rect) returns it instead.
    #[track_caller]
    pub fn rect(width: usize, height: usize) -> Self {
        Self::try_rect(width, height).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A full `side x side` square (3: the 8-neighbourhood).
    ///
    /// # Panics
    ///
    /// As [`rect`](Self::rect); [`try_rect`](Self::try_rect) returns the error instead.
    #[track_caller]
    pub fn square(side: usize) -> Self {
        Self::rect(side, side)
    }

    /// The 3x3 cross: the centre and its 4 neighbours (scipy's default structure).
    pub fn cross() -> Self {
        Self::diamond(1)
    }

    /// The cells within Euclidean distance `radius` of the centre (`dx² + dy² <= r²`), a
    /// `(2r + 1)` square pattern: scikit-image's `disk(radius)`.
    ///
    /// # Panics
    ///
    /// If `2 * radius + 1` is past [`MAX_FOOTPRINT_SIDE`]; [`try_disk`](Self::try_disk)
    /// returns the error instead.
    #[track_caller]
    pub fn disk(radius: usize) -> Self {
        Self::try_disk(radius).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`disk`](Self::disk), or an error if the pattern would be too large.
    pub fn try_disk(radius: usize) -> Result<Self, SizeError> {
        let side = radius.saturating_mul(2).saturating_add(1);
        let r = radius as i128;
        Self::try_from_fn(side, side, |x, y| {
            let (dx, dy) = (x as i128 - r, y as i128 - r);
            dx * dx + dy * dy <= r * r
        })
    }

    /// The cells within `radius` 4-steps of the centre (`|dx| + |dy| <= r`): scikit-image's
    /// `diamond(radius)`; radius 1 is the cross.
    ///
    /// # Panics
    ///
    /// If `2 * radius + 1` is past [`MAX_FOOTPRINT_SIDE`]; [`try_diamond`](Self::try_diamond)
    /// returns the error instead.
    #[track_caller]
    pub fn diamond(radius: usize) -> Self {
        Self::try_diamond(radius).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`diamond`](Self::diamond), or an error if the pattern would be too large.
    pub fn try_diamond(radius: usize) -> Result<Self, SizeError> {
        let side = radius.saturating_mul(2).saturating_add(1);
        Self::try_from_fn(side, side, |x, y| {
            x.abs_diff(radius) + y.abs_diff(radius) <= radius
        })
    }

    /// The same pattern with its centre at `(cx, cy)` (pattern coordinates; it may lie off
    /// the pattern).
    pub fn with_center(mut self, cx: isize, cy: isize) -> Self {
        self.center = (cx, cy);
        self
    }

    /// The pattern's width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The pattern's height.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The centre `(cx, cy)` in pattern coordinates.
    pub fn center(&self) -> (isize, isize) {
        self.center
    }

    /// Whether pattern cell `(fx, fy)` is set; `false` off the pattern.
    pub fn get(&self, fx: usize, fy: usize) -> bool {
        fx < self.width && fy < self.height && self.cells[fy * self.width + fx]
    }

    /// The number of set cells.
    pub fn count(&self) -> usize {
        self.cells.iter().filter(|&&c| c).count()
    }

    /// The offsets `(dx, dy)` of the set cells from the centre, row by row.
    pub fn offsets(&self) -> Vec<(isize, isize)> {
        let (cx, cy) = self.center;
        let mut out = Vec::new();
        for fy in 0..self.height {
            for fx in 0..self.width {
                if self.get(fx, fy) {
                    out.push((fx as isize - cx, fy as isize - cy));
                }
            }
        }
        out
    }

    /// The point reflection through the centre: offset `(dx, dy)` becomes `(-dx, -dy)`.
    /// Dilation by a footprint gathers through its reflection.
    ///
    /// ```
    /// use gridbits::algo::morph::Footprint;
    /// let l = Footprint::try_from_fn(2, 1, |x, _| x == 0).unwrap(); // centre (1, 0)
    /// assert_eq!(l.offsets(), vec![(-1, 0)]);
    /// assert_eq!(l.reflected().offsets(), vec![(1, 0)]);
    /// ```
    pub fn reflected(&self) -> Self {
        let (w, h) = (self.width, self.height);
        let (cx, cy) = self.center;
        Footprint {
            width: w,
            height: h,
            cells: self.cells.iter().rev().copied().collect(),
            // Cell f maps to (w - 1 - f); offset f - c maps to (w - 1 - f) - c' = c - f.
            center: (w as isize - 1 - cx, h as isize - 1 - cy),
        }
    }

    /// The set cells as horizontal runs of offsets, one [`RunRow`] per pattern row that has
    /// any.
    pub(crate) fn run_rows(&self) -> Vec<RunRow> {
        let (cx, cy) = self.center;
        let mut rows = Vec::new();
        for fy in 0..self.height {
            let mut runs = Vec::new();
            let mut fx = 0;
            while fx < self.width {
                if !self.get(fx, fy) {
                    fx += 1;
                    continue;
                }
                let start = fx;
                while fx < self.width && self.get(fx, fy) {
                    fx += 1;
                }
                runs.push((start as isize - cx, fx - start));
            }
            if !runs.is_empty() {
                rows.push(RunRow {
                    dy: fy as isize - cy,
                    runs,
                });
            }
        }
        rows
    }

    /// Whether every cell of the pattern is set.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&c| c)
    }

    /// The pattern cut to the offsets that can join two cells of a `width x height` grid,
    /// `|dx| < width` and `|dy| < height`: the gather of any cell of the grid through any
    /// other offset reads only cells off the grid (the border value). Returns the cut
    /// pattern (`None` when nothing lies outside that window, the pattern as it is) and
    /// whether a set cell was cut off. The centre keeps its offset, so the cut pattern's
    /// offsets are exactly the kept ones; reflection commutes with the cut (the window is
    /// symmetric). A window that holds no cell of the pattern gives a 1x1 pattern with no
    /// set cell (no offsets).
    ///
    /// This bounds the engines' work and memory by the grid, not the footprint: a disk of
    /// radius 5000 on a 1x1 grid is one cell, not 10001 rows of tables.
    pub(crate) fn within(
        &self,
        width: usize,
        height: usize,
    ) -> Result<(Option<Footprint>, bool), SizeError> {
        let (cx, cy) = (self.center.0 as i128, self.center.1 as i128);
        // Pattern columns fx with |fx - cx| < width, clamped to the pattern: x0..x1.
        let clamp = |v: i128, hi: usize| v.clamp(0, hi as i128) as usize;
        let x0 = clamp(cx - width as i128 + 1, self.width);
        let x1 = clamp(cx + width as i128, self.width);
        let y0 = clamp(cy - height as i128 + 1, self.height);
        let y1 = clamp(cy + height as i128, self.height);
        if (x0, x1, y0, y1) == (0, self.width, 0, self.height) {
            return Ok((None, false));
        }
        let row = |fy: usize| &self.cells[fy * self.width..(fy + 1) * self.width];
        let dropped = (0..self.height).any(|fy| {
            let r = row(fy);
            if (y0..y1).contains(&fy) && x0 < x1 {
                r[..x0].contains(&true) || r[x1..].contains(&true)
            } else {
                r.contains(&true)
            }
        });
        if x0 >= x1 || y0 >= y1 {
            let none = Footprint {
                width: 1,
                height: 1,
                cells: vec![false],
                center: (0, 0),
            };
            return Ok((Some(none), dropped));
        }
        let (w, h) = (x1 - x0, y1 - y0);
        let mut cells = crate::error::try_vec("footprint", w, h, (w * h) as u128)?;
        for fy in y0..y1 {
            cells.extend_from_slice(&row(fy)[x0..x1]);
        }
        let cut = Footprint {
            width: w,
            height: h,
            cells,
            center: (self.center.0 - x0 as isize, self.center.1 - y0 as isize),
        };
        Ok((Some(cut), dropped))
    }
}

/// The pattern as text, one line per row, `#` set, `.` empty (the centre is not marked).
impl std::fmt::Display for Footprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for fy in 0..self.height {
            for fx in 0..self.width {
                f.write_str(if self.get(fx, fy) { "#" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}
