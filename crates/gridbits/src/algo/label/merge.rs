//! Labels of an image labelled in pieces (tiles, Dask chunks), made global: the labels that
//! touch across a seam are merged ([`merge_labels`]) and each piece's local labels are
//! rewritten as the merged ones ([`relabel`]).

use crate::algo::runs::union_find::union;
use crate::SizeError;
use std::fmt;

/// A label that names no label of the table it indexes: a pair of [`merge_labels`] outside
/// `1..=total`, or a label plus its offset past the mapping in [`relabel`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownLabel {
    /// Where it stands: the index of the pair in [`merge_labels`], of the label in
    /// [`relabel`].
    pub at: usize,
    /// The label as looked up (in [`relabel`], after its offset was added).
    pub label: i64,
    /// The largest label the table holds.
    pub last: u64,
}

impl fmt::Display for UnknownLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "label {} is outside 1..={}", self.label, self.last)
    }
}

impl std::error::Error for UnknownLabel {}

/// Why [`merge_labels`] gave no mapping.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MergeError {
    /// A pair names a label outside `1..=total`.
    Unknown(UnknownLabel),
    /// The table of `total + 1` entries could not be had.
    Size(SizeError),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown(e) => e.fmt(f),
            Self::Size(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MergeError {}

/// Merges provisional labels `1..=total` joined by `pairs` (labels that touch across a
/// seam) and numbers the merged sets `1..=n` in the order of their smallest provisional
/// label. Returns `(mapping, n)` with `mapping.len() == total + 1`, `mapping[0] == 0` and
/// `mapping[l]` the final label of provisional label `l`.
///
/// With provisional labels numbered piece after piece in raster order of the pieces, the
/// final labels keep the order of the first cells, as one labelling of the whole image.
///
/// ```
/// use gridbits::algo::label::merge_labels;
/// // Labels 1..=5; 2 touches 4, and 4 touches 5.
/// let (mapping, n) = merge_labels([(2, 4), (5, 4)], 5).unwrap();
/// assert_eq!((mapping, n), (vec![0, 1, 2, 3, 2, 2], 3));
/// assert!(merge_labels([(0, 1)], 5).is_err()); // 0 is the background
/// ```
pub fn merge_labels(
    pairs: impl IntoIterator<Item = (u32, u32)>,
    total: u32,
) -> Result<(Vec<u32>, u32), MergeError> {
    let len = total as usize + 1;
    let mut parent: Vec<u32> = Vec::new();
    parent.try_reserve_exact(len).map_err(|_| {
        MergeError::Size(SizeError::memory(
            "label table",
            len,
            1,
            len as u128 * 4,
            "not enough memory",
        ))
    })?;
    parent.extend(0..=total);
    for (at, (a, b)) in pairs.into_iter().enumerate() {
        for l in [a, b] {
            if l == 0 || l > total {
                return Err(MergeError::Unknown(UnknownLabel {
                    at,
                    label: i64::from(l),
                    last: u64::from(total),
                }));
            }
        }
        union(&mut parent, a, b);
    }
    // One forward pass: a parent has a smaller index, so its entry already holds its final
    // label (the label of its whole set) when its child is reached.
    let mut n = 0;
    for l in 1..len {
        let p = parent[l] as usize;
        if p == l {
            n += 1;
            parent[l] = n;
        } else {
            parent[l] = parent[p];
        }
    }
    Ok((parent, n))
}

/// Rewrites a piece's local labels in place: every nonzero `l` becomes
/// `mapping[l + offset]` (background `0` stays). `offset` is the piece's first provisional
/// label minus one, and `mapping` comes from [`merge_labels`] (in any integer type that
/// holds the labels). Running it again on the rewritten labels is a mistake the caller must
/// avoid: they are final labels, no longer local ones.
///
/// ```
/// use gridbits::algo::label::relabel;
/// let mut piece = [0i32, 1, 2, 2];
/// relabel(&mut piece, 3, &[0i32, 1, 2, 3, 2, 2]).unwrap();
/// assert_eq!(piece, [0, 2, 2, 2]);
/// ```
pub fn relabel<T>(labels: &mut [T], offset: i64, mapping: &[T]) -> Result<(), UnknownLabel>
where
    T: Copy + Default + PartialEq + Into<i64>,
{
    let zero = T::default();
    for (at, l) in labels.iter_mut().enumerate() {
        if *l != zero {
            let label = (*l).into().saturating_add(offset);
            *l = *usize::try_from(label)
                .ok()
                .and_then(|i| mapping.get(i))
                .ok_or(UnknownLabel {
                    at,
                    label,
                    last: mapping.len().saturating_sub(1) as u64,
                })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_numbers_sets_by_their_smallest_label() {
        assert_eq!(merge_labels([], 0).unwrap(), (vec![0], 0));
        assert_eq!(merge_labels([], 3).unwrap(), (vec![0, 1, 2, 3], 3));
        assert_eq!(
            merge_labels([(3, 1), (1, 1)], 3).unwrap(),
            (vec![0, 1, 2, 1], 2)
        );
        assert_eq!(
            merge_labels([(4, 2), (3, 1), (2, 1)], 5).unwrap(),
            (vec![0, 1, 1, 1, 1, 2], 2)
        );
        assert_eq!(
            merge_labels([(2, 6)], 5),
            Err(MergeError::Unknown(UnknownLabel {
                at: 0,
                label: 6,
                last: 5
            }))
        );
    }

    /// Against the closure of the pairs, numbered by smallest label, on random pair lists
    /// (chains of several links, out of order, as the seams of Dask chunks give them).
    #[test]
    fn merge_equals_the_closure_numbered_in_order() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(n)) as u32 + 1
        };
        for total in [1u32, 2, 5, 9, 40, 200] {
            for round in 0..30 {
                let pairs: Vec<(u32, u32)> = (0..(total as usize * round / 10))
                    .map(|_| (next(total), next(total)))
                    .collect();
                // The closure: repeat until no pair joins two sets.
                let mut set: Vec<u32> = (0..=total).collect();
                loop {
                    let mut changed = false;
                    for &(a, b) in &pairs {
                        let (sa, sb) = (set[a as usize], set[b as usize]);
                        if sa != sb {
                            let (lo, hi) = (sa.min(sb), sa.max(sb));
                            set.iter_mut().filter(|s| **s == hi).for_each(|s| *s = lo);
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                let mut want = vec![0u32; total as usize + 1];
                let mut n = 0;
                for l in 1..=total as usize {
                    if set[l] as usize == l {
                        n += 1;
                        want[l] = n;
                    } else {
                        want[l] = want[set[l] as usize];
                    }
                }
                assert_eq!(
                    merge_labels(pairs.iter().copied(), total).unwrap(),
                    (want, n)
                );
            }
        }
    }

    #[test]
    fn relabel_refuses_labels_past_the_mapping() {
        let mut piece = [1u32, 0, 2];
        let e = relabel(&mut piece, 1, &[0u32, 5, 6]).unwrap_err();
        assert_eq!(
            e,
            UnknownLabel {
                at: 2,
                label: 3,
                last: 2
            }
        );
        assert_eq!(e.to_string(), "label 3 is outside 1..=2");
        let mut piece = [-4i32];
        assert!(relabel(&mut piece, 0, &[0i32]).is_err());
    }
}
