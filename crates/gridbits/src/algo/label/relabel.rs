//! How the writers of the [`ValueLabeller`](super::ValueLabeller) turn the labels pass 1
//! left by run into the output's: as they are (one thread), or for one band of a labelling
//! in bands, plus the band's offset or through its table of final labels.

/// The final label of each label that pass 1 gave a run.
#[derive(Clone, Copy, Debug)]
pub(super) enum Relabel<'a> {
    /// The label plus an offset (0: the label itself).
    Offset(u32),
    /// `table[label]`.
    Table(&'a [u32]),
}

impl Relabel<'_> {
    /// Appends the final labels of `labels` to `table`.
    #[inline(always)]
    pub(super) fn extend<T: From<u32>>(self, table: &mut Vec<T>, labels: &[u32]) {
        match self {
            Relabel::Offset(0) => table.extend(labels.iter().map(|&l| T::from(l))),
            Relabel::Offset(base) => table.extend(labels.iter().map(|&l| T::from(l + base))),
            Relabel::Table(map) => table.extend(labels.iter().map(|&l| T::from(map[l as usize]))),
        }
    }
}
