//! Per-cell move distances: [`DistanceMap`] and [`distance_map`](super::distance_map).

use crate::algo::checks::cells_of;
use crate::{BitBoard, SizeError};

/// Move distances of every cell of a grid: `None` for cells never reached.
#[derive(Clone, Debug)]
pub struct DistanceMap {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) dist: Vec<u32>,
    /// The largest finite distance when the engine that wrote `dist` knows it (the last
    /// layer of a BFS), so that [`DistanceMap::max`] needs no pass over the map.
    pub(crate) known_max: Option<Option<u32>>,
}

impl PartialEq for DistanceMap {
    /// Maps are equal when their sizes and distances are (whether a maximum is cached or
    /// not).
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height) == (other.width, other.height) && self.dist == other.dist
    }
}

impl Eq for DistanceMap {}

impl DistanceMap {
    /// The value stored for unreachable cells in [`DistanceMap::as_slice`].
    pub const UNREACHABLE: u32 = u32::MAX;

    /// A map of the given size with every cell unreachable. Allocates like `Vec` (aborting
    /// if memory runs out); [`DistanceMap::try_new`] returns an error instead.
    pub fn new(width: usize, height: usize) -> Self {
        DistanceMap {
            width,
            height,
            dist: crate::huge_pages::filled(width * height, Self::UNREACHABLE),
            known_max: None,
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The distance of `(x, y)`, `None` if unreachable or off the grid.
    pub fn get(&self, x: usize, y: usize) -> Option<u32> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let d = self.dist[y * self.width + x];
        (d != Self::UNREACHABLE).then_some(d)
    }

    /// Row-major distances, [`DistanceMap::UNREACHABLE`] for unreachable cells.
    pub fn as_slice(&self) -> &[u32] {
        &self.dist
    }

    /// The largest finite distance, if any cell was reached: known without a pass over the
    /// map when the word-frontier BFS computed it (its last layer).
    pub fn max(&self) -> Option<u32> {
        if let Some(known) = self.known_max {
            debug_assert_eq!(known, self.scan_max());
            return known;
        }
        self.scan_max()
    }

    /// The largest finite distance, by a pass over the map.
    fn scan_max(&self) -> Option<u32> {
        self.dist
            .iter()
            .copied()
            .filter(|&d| d != Self::UNREACHABLE)
            .max()
    }

    /// Writes `depth` into every set cell of `cells`.
    pub(crate) fn paint(&mut self, cells: &impl BitBoard, depth: u32) {
        for (x, y) in cells.cells() {
            self.dist[y * self.width + x] = depth;
        }
    }
}

impl DistanceMap {
    /// [`DistanceMap::new`] that returns an error instead of aborting when the map (4 bytes
    /// per cell) cannot be allocated: more than [`MAX_CELLS`](crate::text::MAX_CELLS) cells,
    /// more bytes than the address space, or an allocator that refuses.
    ///
    /// ```
    /// use gridbits::algo::distance::DistanceMap;
    /// assert_eq!(DistanceMap::try_new(3, 2).unwrap().get(2, 1), None);
    /// // The byte count overflows a 64-bit usize: refused without allocating.
    /// let err = DistanceMap::try_new(usize::MAX, 2).unwrap_err();
    /// assert_eq!(err.bytes, 8 * usize::MAX as u128);
    /// ```
    pub fn try_new(width: usize, height: usize) -> Result<Self, SizeError> {
        let dist = cells_of("distance map", width, height, Self::UNREACHABLE)?;
        Ok(DistanceMap {
            width,
            height,
            dist,
            known_max: None,
        })
    }
}
