//! Connected components of fixed boards and labelling of any grid, against
//! `gridbits::naive::components`.

use crate::boards::{assert_same, board_pair, on_any_board, AnyBoard, BoardCheck};
use crate::bytes::Bytes;
use gridbits::algo::components::{
    component_at, components, components_by_class, components_plain, count_components_many,
    groups_at_least, groups_at_least_any, isolated, table,
};
use gridbits::algo::label::{
    self, count, label, label_classes, label_with_stats, stats, ComponentStats, LabelOrder,
    Labeller, Labels,
};
use gridbits::cpu::Level;
use gridbits::naive::{components as nc, NaiveGrid};
use gridbits::{BitGrid, Board, Connectivity};

fn conn_of(bytes: &mut Bytes<'_>) -> Connectivity {
    if bytes.bool() {
        Connectivity::Eight
    } else {
        Connectivity::Four
    }
}

/// Components of a fixed board: the fast path, the plain bit-BFS, the row-pair table (up to
/// 8 wide), groups of K or more, isolated cells, the component at a cell, and per class.
pub fn check_components(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let b = &mut bytes;
    match b.byte() % 12 {
        0 => fixed::<1, 1, 1>(b, Some(table::components)),
        1 => fixed::<64, 1, 1>(b, None),
        2 => fixed::<1, 128, 2>(b, Some(table::components)),
        3 => fixed::<5, 3, 1>(b, Some(table::components)),
        4 => fixed::<7, 9, 1>(b, Some(table::components)),
        5 | 6 => fixed::<6, 12, 2>(b, Some(table::components)),
        7 => fixed::<8, 8, 1>(b, Some(table::components)),
        8 => fixed::<10, 10, 2>(b, None),
        9 => fixed::<6, 13, 2>(b, Some(table::components)),
        10 => fixed::<19, 19, 6>(b, None),
        _ => fixed::<30, 20, 10>(b, None),
    }
}

/// The row-pair table's components (boards up to 8 wide).
type TableFn<B> = fn(B, Connectivity) -> Vec<B>;

fn fixed<const W: usize, const H: usize, const N: usize>(
    bytes: &mut Bytes<'_>,
    table: Option<TableFn<Board<W, H, N>>>,
) {
    let conn = conn_of(bytes);
    let (plane, np) = board_pair::<Board<W, H, N>>(W, H, bytes);
    let want = nc::components(&np, conn);
    let fast: Vec<Board<W, H, N>> = components(plane, conn).collect();
    let mut sorted = fast.clone();
    sorted.sort_by_key(|c| c.lowest_index());
    let sorted: Vec<NaiveGrid> = sorted.iter().map(NaiveGrid::from_view).collect();
    assert!(sorted == want, "components {conn:?}\n{plane}");
    let plain: Vec<NaiveGrid> = components_plain(plane, conn)
        .map(|c| NaiveGrid::from_view(&c))
        .collect();
    assert!(plain == want, "components_plain {conn:?}\n{plane}");
    assert_eq!(
        count_components_many(&[plane], conn),
        [want.len() as u32],
        "count_components_many"
    );
    if let Some(table) = table {
        let mut t = table(plane, conn);
        t.sort_by_key(|c| c.lowest_index());
        let t: Vec<NaiveGrid> = t.iter().map(NaiveGrid::from_view).collect();
        assert!(t == want, "row-pair table {conn:?}\n{plane}");
    }
    let k = bytes.below(10);
    assert_same(
        &groups_at_least(plane, k, conn),
        &nc::groups_at_least(&np, k, conn),
        &format!("groups_at_least {k} {conn:?}"),
    );
    assert_same(
        &isolated(plane, conn),
        &nc::groups_at_least(&np, 2, conn).xor(&np),
        "isolated",
    );
    let (x, y) = (bytes.below(W), bytes.below(H));
    let at = want
        .iter()
        .find(|c| c.get(x, y))
        .cloned()
        .unwrap_or_else(|| NaiveGrid::new(W, H));
    assert_same(&component_at(plane, x, y, conn), &at, "component_at");

    // Per class: three planes from a class map (disjoint planes).
    let classes: Vec<u32> = (0..W * H).map(|_| bytes.below(4) as u32).collect();
    let planes: Vec<Board<W, H, N>> = (1..=3)
        .map(|c| Board::from_fn(|x, y| classes[y * W + x] == c))
        .collect();
    let (labels, classes_of) = nc::label_classes(W, H, &classes, conn);
    let mut want: Vec<(usize, NaiveGrid)> = classes_of
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let g = NaiveGrid::from_fn(W, H, |x, y| labels[y * W + x] == i as u32 + 1);
            (c as usize - 1, g)
        })
        .collect();
    let mut got: Vec<(usize, NaiveGrid)> = components_by_class(&planes, conn)
        .map(|(c, b)| (c, NaiveGrid::from_view(&b)))
        .collect();
    want.sort_by_key(|e| e.1.lowest());
    got.sort_by_key(|e| e.1.lowest());
    assert!(got == want, "components_by_class {conn:?}");
    let mut any = NaiveGrid::new(W, H);
    for (_, g) in want.iter().filter(|(_, g)| g.count() >= 4) {
        any = any.or(g);
    }
    assert_same(
        &groups_at_least_any(&planes, 4, conn),
        &any,
        "groups_at_least_any",
    );
}

fn naive_stats(g: &NaiveGrid, conn: Connectivity) -> Vec<ComponentStats> {
    nc::stats(g, conn)
        .into_iter()
        .map(|s| ComponentStats {
            size: s.size,
            min_x: s.min_x,
            min_y: s.min_y,
            max_x: s.max_x,
            max_y: s.max_y,
            sum_x: s.sum_x,
            sum_y: s.sum_y,
        })
        .collect()
}

/// `got` is `want` up to the numbering of labels (1..=n, a bijection).
fn same_partition(got: &[u32], want: &[u32], what: &str) {
    let n = want.iter().copied().max().unwrap_or(0) as usize;
    let mut perm = vec![0u32; n + 1];
    let mut used = vec![false; n + 1];
    for (i, (&a, &b)) in got.iter().zip(want).enumerate() {
        assert_eq!(a == 0, b == 0, "{what}: cell {i}");
        if b == 0 {
            continue;
        }
        assert!(a as usize <= n, "{what}: label {a} of {n}");
        if perm[b as usize] == 0 {
            assert!(!used[a as usize], "{what}: components merged");
            used[a as usize] = true;
            perm[b as usize] = a;
        }
        assert_eq!(perm[b as usize], a, "{what}: cell {i} splits a component");
    }
}

/// Labelling: the label image, statistics and counts through every entry point (detected and
/// portable code, raster and row-pair order, stripes of a few rows), on fixed boards and
/// runtime grids; and multi-class labelling.
pub fn check_label(data: &[u8]) {
    struct Check;
    impl BoardCheck for Check {
        fn run<B: AnyBoard>(&mut self, w: usize, h: usize, bytes: &mut Bytes<'_>) {
            let conn = conn_of(bytes);
            let (board, ng) = board_pair::<B>(w, h, bytes);
            let g = BitGrid::from_fn(w, h, |x, y| ng.get(x, y)).expect("a bounded size");
            let (want, n) = nc::label(&ng, conn);
            let want_stats = naive_stats(&ng, conn);
            let got = label(&board, conn).expect("labels");
            assert_eq!((got.width(), got.height(), got.count()), (w, h, n));
            assert!(got.as_slice() == want, "label {conn:?}\n{g}");
            assert_eq!(label(&g, conn).expect("labels"), got);
            let (l2, s2) = label_with_stats(&board, conn).expect("labels");
            assert_eq!(l2, got);
            assert_eq!(s2, want_stats, "label_with_stats");
            assert_eq!(stats(&board, conn).expect("stats"), want_stats);
            assert_eq!(count(&board, conn).expect("count"), n);
            let parts = label::grid_components(&board, conn).expect("components");
            assert_eq!(parts.stats(), want_stats);
            let parts: Vec<NaiveGrid> = parts.map(|p| NaiveGrid::from_view(&p)).collect();
            assert!(parts == nc::components(&ng, conn), "label::grid_components");

            let stripe = 1 + bytes.below(8);
            for (name, mut l) in [
                ("detected", Labeller::new()),
                ("portable", Labeller::new().with_level(Level::Portable)),
                ("stripes", Labeller::new().with_stripes(0, stripe)),
                (
                    "portable stripes",
                    Labeller::new()
                        .with_level(Level::Portable)
                        .with_stripes(0, stripe),
                ),
            ] {
                let mut img = Labels::new();
                let mut st = vec![want_stats.first().copied().unwrap_or(ComponentStats {
                    size: 9,
                    min_x: 9,
                    min_y: 9,
                    max_x: 9,
                    max_y: 9,
                    sum_x: 9,
                    sum_y: 9,
                })];
                assert_eq!(l.label(&g, conn, &mut img).expect("labels"), n, "{name}");
                assert!(img.as_slice() == want, "{name} {conn:?}\n{g}");
                assert_eq!(
                    l.label_with_stats(&g, conn, &mut img, &mut st)
                        .expect("labels"),
                    n
                );
                assert!(img.as_slice() == want, "{name} with stats");
                assert_eq!(st, want_stats, "{name} stats");
                assert_eq!(l.stats(&g, conn, &mut st).expect("stats"), n);
                assert_eq!(st, want_stats, "{name} summary");
                assert_eq!(l.count(&g, conn).expect("count"), n, "{name} count");
                let mut pairs = l.with_order(LabelOrder::RowPairs);
                assert_eq!(pairs.label(&g, conn, &mut img).expect("labels"), n);
                same_partition(img.as_slice(), &want, &format!("{name} row pairs {conn:?}"));
            }

            // Multi-class: up to 3 classes.
            let classes: Vec<u32> = (0..w * h)
                .map(|k| {
                    if ng.get(k % w, k / w) {
                        1 + bytes.below(3) as u32
                    } else {
                        0
                    }
                })
                .collect();
            let planes: Vec<BitGrid> = (1..=3)
                .map(|c| BitGrid::from_fn(w, h, |x, y| classes[y * w + x] == c).expect("size"))
                .collect();
            let (want, want_classes) = nc::label_classes(w, h, &classes, conn);
            let (got, got_classes) = label_classes(&planes, conn).expect("labels");
            assert!(got.as_slice() == &want[..], "label_classes {conn:?}");
            let got_classes: Vec<u32> = got_classes.iter().map(|c| c + 1).collect();
            assert_eq!(got_classes, want_classes, "label_classes classes");
        }
    }
    on_any_board(&mut Bytes::new(data), &mut Check);
}
