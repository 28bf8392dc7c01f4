//! The one union-find of the crate, over `u32` indices in a plain `parent` slice: runs of
//! cells in the labeller and the fill engines, border labels in the stripe joins, and
//! labels of separately labelled pieces in [`merge_labels`](crate::algo::label::merge_labels).
//!
//! The rule every caller keeps: **a parent never has a larger index than its child**, so
//! the root of a set is its smallest index. Labels numbered in scan order stay in scan
//! order, and one forward pass ([`flatten`]) makes every entry its root.

/// Joins the sets of `a` and `b`: Rem's algorithm with splicing (each step hangs the branch
/// with the larger parent below the smaller parent, which both links and compresses).
/// `parent` must keep the rule of the module; afterwards it still does.
#[inline(always)]
pub(crate) fn union(parent: &mut [u32], a: u32, b: u32) {
    let (mut x, mut y) = (a as usize, b as usize);
    loop {
        let (px, py) = (parent[x] as usize, parent[y] as usize);
        if px == py {
            return;
        }
        if px < py {
            parent[y] = px as u32;
            if py == y {
                return;
            }
            y = py;
        } else {
            parent[x] = py as u32;
            if px == x {
                return;
            }
            x = px;
        }
    }
}

/// Makes every entry its root in one forward pass (a parent, having a smaller index, is
/// flattened before its child). `offset` is the index of `parent[0]`: a slice of a larger
/// table whose entries below `offset` are already roots.
#[inline(always)]
pub(crate) fn flatten(parent: &mut [u32], offset: usize) {
    for i in 0..parent.len() {
        let p = parent[i] as usize;
        if p >= offset {
            parent[i] = parent[p - offset];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The root of `a`'s set, halving the path on the way.
    #[inline]
    fn find(parent: &mut [u32], mut a: u32) -> u32 {
        while parent[a as usize] != a {
            let up = parent[parent[a as usize] as usize];
            parent[a as usize] = up;
            a = up;
        }
        a
    }

    /// The sets of a brute-force closure of the same pairs.
    fn naive_roots(n: usize, pairs: &[(u32, u32)]) -> Vec<u32> {
        let mut root: Vec<u32> = (0..n as u32).collect();
        loop {
            let mut changed = false;
            for &(a, b) in pairs {
                let m = root[a as usize].min(root[b as usize]);
                for r in [a, b] {
                    if root[r as usize] != m {
                        let old = root[r as usize];
                        for x in root.iter_mut() {
                            if *x == old {
                                *x = m;
                            }
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                return root;
            }
        }
    }

    #[test]
    fn union_find_flatten_match_the_closure() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in [1usize, 2, 3, 17, 64, 65, 200] {
            for round in 0..20 {
                let pairs: Vec<(u32, u32)> = (0..(n * round / 10))
                    .map(|_| ((next() % n as u64) as u32, (next() % n as u64) as u32))
                    .collect();
                let mut parent: Vec<u32> = (0..n as u32).collect();
                for &(a, b) in &pairs {
                    union(&mut parent, a, b);
                    assert!(parent.iter().enumerate().all(|(i, &p)| p as usize <= i));
                }
                let want = naive_roots(n, &pairs);
                let mut found = parent.clone();
                let roots: Vec<u32> = (0..n as u32).map(|i| find(&mut found, i)).collect();
                assert_eq!(roots, want);
                flatten(&mut parent, 0);
                assert_eq!(parent, want);
            }
        }
    }

    #[test]
    fn flatten_with_an_offset_reads_earlier_roots() {
        // Entries 0..2 (already roots) and the slice 2..5 whose parents point back.
        let mut table = vec![0u32, 1, 1, 2, 0];
        let (_, tail) = table.split_at_mut(2);
        // Only entries at or past the offset are looked up in the slice.
        flatten(tail, 2);
        assert_eq!(table, [0, 1, 1, 1, 0]);
    }
}
