//! [`ComponentStats`], the statistics of one component, and [`StatsSink`], where the passes
//! accumulate them.

/// Size, bounding box and centroid sums of one component, as
/// `cv2.connectedComponentsWithStats` reports them (area, box, centroid).
///
/// ```
/// use gridbits::algo::label::stats;
/// use gridbits::{BitGrid, Connectivity};
/// let g = BitGrid::parse("...\n.##\n.#.\n").unwrap();
/// let s = stats(&g, Connectivity::Four).unwrap()[0];
/// assert_eq!(s.size, 3);
/// assert_eq!(s.bbox(), (1, 1, 2, 2));
/// assert_eq!((s.width(), s.height()), (2, 2));
/// assert_eq!((s.sum_x, s.sum_y), (4, 4));
/// assert_eq!(s.centroid(), (4.0 / 3.0, 4.0 / 3.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComponentStats {
    /// Number of cells (the area).
    pub size: u64,
    /// Smallest `x` of a cell.
    pub min_x: usize,
    /// Smallest `y` of a cell.
    pub min_y: usize,
    /// Largest `x` of a cell.
    pub max_x: usize,
    /// Largest `y` of a cell.
    pub max_y: usize,
    /// Sum of the `x` of the cells.
    pub sum_x: u64,
    /// Sum of the `y` of the cells.
    pub sum_y: u64,
}

impl ComponentStats {
    pub(super) const EMPTY: ComponentStats = ComponentStats {
        size: 0,
        min_x: usize::MAX,
        min_y: usize::MAX,
        max_x: 0,
        max_y: 0,
        sum_x: 0,
        sum_y: 0,
    };

    /// Width of the bounding box: `max_x - min_x + 1`.
    pub fn width(&self) -> usize {
        self.max_x + 1 - self.min_x
    }

    /// Height of the bounding box: `max_y - min_y + 1`.
    pub fn height(&self) -> usize {
        self.max_y + 1 - self.min_y
    }

    /// The bounding box as `(x, y, width, height)`, the layout of OpenCV's `CC_STAT_LEFT`,
    /// `CC_STAT_TOP`, `CC_STAT_WIDTH`, `CC_STAT_HEIGHT`.
    pub fn bbox(&self) -> (usize, usize, usize, usize) {
        (self.min_x, self.min_y, self.width(), self.height())
    }

    /// The centroid `(x, y)`: the mean position of the cells, cell `(x, y)` counting as the
    /// point `(x, y)` (its centre in pixel coordinates, as OpenCV and scipy measure).
    pub fn centroid(&self) -> (f64, f64) {
        let n = self.size as f64;
        (self.sum_x as f64 / n, self.sum_y as f64 / n)
    }

    #[inline(always)]
    pub(super) fn add_run(&mut self, y: usize, start: usize, end: usize) {
        let n = (end - start) as u64;
        self.size += n;
        self.min_x = self.min_x.min(start);
        self.max_x = self.max_x.max(end - 1);
        self.min_y = self.min_y.min(y);
        self.max_y = y;
        // start + ... + (end - 1): an arithmetic series.
        self.sum_x += (start + end - 1) as u64 * n / 2;
        self.sum_y += y as u64 * n;
    }
}

/// Where the statistics of each label accumulate.
pub(super) trait StatsSink {
    /// The statistics of label `label` (from 1).
    fn at(&mut self, label: u32) -> &mut ComponentStats;
}

/// Label `l` at index `l - 1`.
impl StatsSink for [ComponentStats] {
    #[inline(always)]
    fn at(&mut self, label: u32) -> &mut ComponentStats {
        &mut self[label as usize - 1]
    }
}
