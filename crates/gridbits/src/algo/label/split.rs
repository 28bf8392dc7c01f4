//! The components of a runtime-sized grid, one [`BitGrid`] each.

use super::{label_with_stats, ComponentStats, LabelInput, Labels};
use crate::{BitGrid, Connectivity, SizeError};

/// The connected components of `grid`, each as a [`BitGrid`] of the grid's size, in label
/// order (raster order of their first cell): the runtime-sized counterpart of
/// [`algo::components::components`](crate::algo::components::components), which works on
/// fixed-size boards without a label image.
///
/// The grid is labelled once ([`label_with_stats`]); each component is then copied out of
/// the label image within its bounding box, so taking all of them costs the labelling plus
/// one grid allocation and one bounding-box scan per component.
///
/// Errors as [`label`](super::label).
///
/// ```
/// use gridbits::algo::label::grid_components;
/// use gridbits::{BitGrid, Connectivity};
/// let g = BitGrid::parse("##.\n..#\n#.#\n").unwrap();
/// let parts: Vec<BitGrid> = grid_components(&g, Connectivity::Four).unwrap().collect();
/// assert_eq!(parts.len(), 3);
/// assert_eq!(parts[1].to_text(), "...\n..#\n..#\n");
/// let mut it = grid_components(&g, Connectivity::Eight).unwrap();
/// assert_eq!(it.len(), 2);
/// assert_eq!(it.stats()[0].size, 4);
/// assert_eq!(it.next().unwrap().count(), 4);
/// ```
pub fn grid_components<G: LabelInput + ?Sized>(
    grid: &G,
    conn: Connectivity,
) -> Result<GridComponents, SizeError> {
    let (labels, stats) = label_with_stats(grid, conn)?;
    Ok(GridComponents {
        labels,
        stats,
        next: 0,
    })
}

/// Iterator over the components of a runtime-sized grid, from [`grid_components`]: one
/// [`BitGrid`] per component, in label order.
#[derive(Clone, Debug)]
pub struct GridComponents {
    labels: Labels,
    stats: Vec<ComponentStats>,
    /// Index of the next component (its label minus one).
    next: usize,
}

impl GridComponents {
    /// The label image the components are taken from.
    pub fn labels(&self) -> &Labels {
        &self.labels
    }

    /// The statistics of every component, returned or not (`stats()[label - 1]`).
    pub fn stats(&self) -> &[ComponentStats] {
        &self.stats
    }
}

impl Iterator for GridComponents {
    type Item = BitGrid;

    fn next(&mut self) -> Option<BitGrid> {
        let s = self.stats.get(self.next)?;
        self.next += 1;
        let label = self.next as u32;
        let (w, h) = (self.labels.width(), self.labels.height());
        // The grid's size was made once already, so this cannot fail but for memory.
        let mut out = BitGrid::try_new(w, h).ok()?;
        for y in s.min_y..=s.max_y {
            let row = &self.labels.as_slice()[y * w + s.min_x..=y * w + s.max_x];
            for (i, &l) in row.iter().enumerate() {
                if l == label {
                    out.set(s.min_x + i, y);
                }
            }
        }
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.stats.len() - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for GridComponents {}

impl std::iter::FusedIterator for GridComponents {}
