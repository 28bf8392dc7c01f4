//! Flood fill, distance maps and layers, Voronoi territory: every engine against
//! `gridbits::naive::fill`.

use crate::boards::{assert_same, board_pair, on_any_board, AnyBoard, BoardCheck};
use crate::bytes::Bytes;
use gridbits::algo::distance::{connections_from_walls, distance_map, layers, Connections, Wall};
use gridbits::algo::fill::{self, fill_dilate, try_fill};
use gridbits::algo::voronoi::{
    voronoi, voronoi_depths, voronoi_n, voronoi_owners, voronoi_owners_with_distances,
};
use gridbits::naive::{fill as nf, NaiveGrid};
use gridbits::{BitGrid, Connectivity, Dir, Moves};
use std::any::Any;

const MOVES: [Moves; 5] = [
    Moves::Four,
    Moves::Eight,
    Moves::Rook,
    Moves::Bishop,
    Moves::Queen,
];

fn conn_of(bytes: &mut Bytes<'_>) -> Connectivity {
    if bytes.bool() {
        Connectivity::Eight
    } else {
        Connectivity::Four
    }
}

/// Flood fill of a board from seeds: `fill`, `fill_dilate`, and on runtime grids the row
/// sweep, the run stack and the run union-find (portable and detected), and `fill_from` from
/// the first seed.
pub fn check_fill(data: &[u8]) {
    struct Check;
    impl BoardCheck for Check {
        fn run<B: AnyBoard>(&mut self, w: usize, h: usize, bytes: &mut Bytes<'_>) {
            let conn = conn_of(bytes);
            let (passable, np) = board_pair::<B>(w, h, bytes);
            let (seeds, ns) = board_pair::<B>(w, h, bytes);
            let want = nf::fill(&ns, &np, conn);
            assert_same(&fill::fill(&seeds, &passable, conn), &want, "fill");
            assert_same(&fill_dilate(&seeds, &passable, conn), &want, "fill_dilate");
            let tried = try_fill(&seeds, &passable, conn).expect("same sizes");
            assert_same(&tried, &want, "try_fill");
            if let Some(seeds) = (&seeds as &dyn Any).downcast_ref::<BitGrid>() {
                let passable = (&passable as &dyn Any)
                    .downcast_ref::<BitGrid>()
                    .expect("one type");
                for (name, f) in [
                    ("fill_sweep", fill::fill_sweep as fn(&_, &_, _) -> BitGrid),
                    ("fill_runs", fill::fill_runs),
                    ("fill_union", fill::fill_union),
                    ("fill_union portable", fill_union_portable),
                ] {
                    assert_same(&f(seeds, passable, conn), &want, name);
                }
                // From one cell: the first seed.
                if let Some(start) = seeds.iter().next() {
                    let mut one = seeds.empty_like();
                    one.set(start.0, start.1);
                    let want = nf::fill(&NaiveGrid::from_view(&one), &np, conn);
                    let got = fill::fill_from(passable, start, conn);
                    assert_same(&got, &want, "fill_from");
                }
            }
        }
    }
    on_any_board(&mut Bytes::new(data), &mut Check);
}

/// Connection masks from the input: none, random masks, or masks built from walls (checked
/// against the naive construction).
fn connections<B: AnyBoard>(
    w: usize,
    h: usize,
    like: &B,
    bytes: &mut Bytes<'_>,
) -> Option<(Connections<B>, nf::NaiveConnections)> {
    match bytes.byte() % 3 {
        0 => None,
        1 => {
            let pairs: Vec<(B, NaiveGrid)> = (0..8).map(|_| board_pair(w, h, bytes)).collect();
            let con = std::array::from_fn(|i| pairs[i].0.clone());
            let ncon = std::array::from_fn(|i| pairs[i].1.clone());
            Some((con, ncon))
        }
        _ => {
            // The naive construction scans every wall per cell: keep it small.
            let n = if w * h <= 4096 { bytes.byte() } else { 0 };
            let mut walls = Vec::new();
            let mut nwalls = Vec::new();
            for _ in 0..n {
                let (x, y) = (bytes.below(w), bytes.below(h));
                let dir = Dir::ALL[bytes.below(8)];
                walls.push(Wall { x, y, dir });
                nwalls.push((x, y, dir));
            }
            let con = connections_from_walls(like, &walls);
            let ncon = nf::connections_from_walls(w, h, &nwalls);
            for d in Dir::ALL {
                assert_same(&con[d.index()], &ncon[d.index()], "connections_from_walls");
            }
            Some((con, ncon))
        }
    }
}

/// Distance maps and BFS layers for every move kind, with and without connection masks.
pub fn check_distance(data: &[u8]) {
    struct Check;
    impl BoardCheck for Check {
        fn run<B: AnyBoard>(&mut self, w: usize, h: usize, bytes: &mut Bytes<'_>) {
            let moves = MOVES[bytes.below(MOVES.len())];
            let (passable, np) = board_pair::<B>(w, h, bytes);
            let (sources, ns) = board_pair::<B>(w, h, bytes);
            let con = connections(w, h, &passable, bytes);
            let (c, nc) = match &con {
                Some((c, nc)) => (Some(c), Some(nc)),
                None => (None, None),
            };
            let want = nf::distance_map(&ns, &np, moves, nc);
            let got = distance_map(&sources, &passable, moves, c);
            assert_eq!((got.width(), got.height()), (w, h));
            for y in 0..h {
                for x in 0..w {
                    assert_eq!(
                        got.get(x, y),
                        want[y * w + x],
                        "distance {moves:?} at ({x}, {y})"
                    );
                }
            }
            assert_eq!(got.max(), want.iter().flatten().max().copied());
            // Layers: exactly the cells at each distance, in order.
            let mut seen = 0u64;
            for (depth, front) in layers(&sources, &passable, moves, c) {
                let layer = NaiveGrid::from_fn(w, h, |x, y| want[y * w + x] == Some(depth));
                assert_same(&front, &layer, "layer");
                seen += front.count();
            }
            assert_eq!(seen, want.iter().flatten().count() as u64, "layers");
        }
    }
    on_any_board(&mut Bytes::new(data), &mut Check);
}

/// Voronoi territory of 0 to 8 players: planes, depths, the two-player engine and (runtime
/// grids) the owner array.
pub fn check_voronoi(data: &[u8]) {
    struct Check;
    impl BoardCheck for Check {
        fn run<B: AnyBoard>(&mut self, w: usize, h: usize, bytes: &mut Bytes<'_>) {
            let moves = MOVES[bytes.below(MOVES.len())];
            let players = bytes.below(9);
            let (passable, np) = board_pair::<B>(w, h, bytes);
            let cells: Vec<Vec<(usize, usize)>> = (0..players)
                .map(|_| {
                    (0..1 + bytes.below(3))
                        .map(|_| (bytes.below(w), bytes.below(h)))
                        .collect()
                })
                .collect();
            let nsrc: Vec<NaiveGrid> = cells
                .iter()
                .map(|c| NaiveGrid::from_fn(w, h, |x, y| c.contains(&(x, y))))
                .collect();
            let sources: Vec<B> = nsrc
                .iter()
                .map(|n| {
                    let flat: Vec<bool> = (0..w * h).map(|k| n.get(k % w, k / w)).collect();
                    B::make(w, h, &flat)
                })
                .collect();
            let con = connections(w, h, &passable, bytes);
            let (c, nc) = match &con {
                Some((c, nc)) => (Some(c), Some(nc)),
                None => (None, None),
            };
            let want = nf::voronoi(&nsrc, &np, moves, nc);
            let (got, depth) = voronoi_depths(&sources, &passable, moves, c);
            for p in 0..players {
                assert_same(&got.owned[p], &want.owned[p], "voronoi owned");
            }
            assert_same(&got.contested, &want.contested, "voronoi contested");
            let reached = NaiveGrid::from_fn(w, h, |x, y| want.depth[y * w + x].is_some());
            assert_same(&got.reached, &reached, "voronoi reached");
            let max = want.depth.iter().flatten().max().copied().unwrap_or(0);
            assert_eq!(got.depth, max, "voronoi depth");
            for y in 0..h {
                for x in 0..w {
                    assert_eq!(depth.get(x, y), want.depth[y * w + x], "depth ({x}, {y})");
                }
            }
            assert_eq!(voronoi(&sources, &passable, moves, c), got);
            if players == 2 {
                let two = [sources[0].clone(), sources[1].clone()];
                let n = voronoi_n(&two, &passable, moves, c);
                assert_eq!(
                    (&n.owned[..], &n.contested, n.depth),
                    (&got.owned[..], &got.contested, got.depth),
                    "voronoi_n"
                );
            }
            if let Some(passable) = (&passable as &dyn Any).downcast_ref::<BitGrid>() {
                let c = con.as_ref().map(|(c, _)| {
                    (c as &dyn Any)
                        .downcast_ref::<Connections<BitGrid>>()
                        .expect("one type")
                });
                let o = voronoi_owners_with_distances(&cells, passable, moves, c);
                let alone = voronoi_owners(&cells, passable, moves, c);
                assert!(alone.distances().is_none(), "owners without distances");
                assert_eq!(alone.as_slice(), o.as_slice(), "owners without distances");
                assert_eq!(
                    (
                        alone.counts(),
                        alone.contested(),
                        alone.unreached(),
                        alone.depth()
                    ),
                    (o.counts(), o.contested(), o.unreached(), o.depth()),
                    "owners without distances"
                );
                for y in 0..h {
                    for x in 0..w {
                        let k = y * w + x;
                        let code = want.owner_code(x, y);
                        assert_eq!(o.as_slice()[k], code, "owner at ({x}, {y})");
                        let depth = o.distances().and_then(|d| d.get(x, y));
                        assert_eq!(depth, want.depth[k], "owners depth");
                    }
                }
                let counts: Vec<u64> = want.owned.iter().map(|g| g.count()).collect();
                assert_eq!(o.counts(), counts, "owners counts");
                assert_eq!(o.contested(), want.contested.count());
                assert_eq!(o.depth(), max);
            }
        }
    }
    on_any_board(&mut Bytes::new(data), &mut Check);
}

/// [`fill::fill_union`] on the portable code (the x86-64 copy turned off by the CPU override).
fn fill_union_portable(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    gridbits::cpu::with_level(gridbits::cpu::Level::Portable, || {
        fill::fill_union(seeds, passable, conn)
    })
}
