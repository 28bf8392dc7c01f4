//! The word-frontier BFS of `BitGrid` (distance maps, Voronoi planes and depths, and the
//! many-player owner array `voronoi_owners`) against the naive oracle: random densities,
//! mazes, rooms and serpentines, widths around the word size, single rows and columns,
//! empty and full grids, every kind of moves, with and without connection masks, and up to
//! hundreds of players. The engine is monomorphised per neighbourhood (`Four`, `Eight`),
//! masks (with, without) and owners (with: Voronoi with two or more players and
//! `voronoi_owners`; without: distance maps and one player): every test below runs all of
//! them, and sliding moves run the whole-grid engine.

use crate::common::{check, config, maze, SplitMix};
use gridbits::algo::distance::{
    distance_map, distance_map_with, Connections, DistanceMap, FrontierLayers,
};
use gridbits::algo::voronoi::{
    try_voronoi_owners, voronoi, voronoi_depths, voronoi_owners, voronoi_owners_with_distances,
    Owners,
};
use gridbits::naive::{fill as nf, NaiveGrid};
use gridbits::parallel::with_threads;
use gridbits::{BitGrid, Moves};
use gridbits_testkit::serpentine;
use proptest::prelude::*;

const ALL_MOVES: [Moves; 5] = [
    Moves::Four,
    Moves::Eight,
    Moves::Rook,
    Moves::Bishop,
    Moves::Queen,
];

/// A small xorshift stream for building grids inside a test case.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pct(&mut self, p: u32) -> bool {
        self.next() % 100 < p as u64
    }
}

fn grid(w: usize, h: usize, rng: &mut Rng, pct: u32) -> BitGrid {
    BitGrid::from_fn(w, h, |_, _| rng.pct(pct)).unwrap()
}

/// `count` distinct-or-not random cells per player (players may share cells, sources may be
/// walls).
fn players(w: usize, h: usize, n: usize, rng: &mut Rng) -> Vec<Vec<(usize, usize)>> {
    (0..n)
        .map(|_| {
            let k = 1 + (rng.next() % 2) as usize;
            (0..k)
                .map(|_| {
                    (
                        (rng.next() % w as u64) as usize,
                        (rng.next() % h as u64) as usize,
                    )
                })
                .collect()
        })
        .collect()
}

fn plane(w: usize, h: usize, cells: &[(usize, usize)]) -> BitGrid {
    let mut g = BitGrid::new(w, h);
    for &(x, y) in cells {
        g.set(x, y);
    }
    g
}

/// Checks distance maps, Voronoi planes and depths and owners on one grid against the oracle.
fn check_grid(passable: &BitGrid, rng: &mut Rng, player_counts: &[usize], all_moves: bool) {
    let (w, h) = passable.size();
    let np = NaiveGrid::from_view(passable);
    let con: Connections<BitGrid> = std::array::from_fn(|_| grid(w, h, rng, 75));
    let ncon: nf::NaiveConnections = std::array::from_fn(|k| NaiveGrid::from_view(&con[k]));
    let moves_list: &[Moves] = if all_moves {
        &ALL_MOVES
    } else {
        &[Moves::Four, Moves::Eight]
    };
    for &moves in moves_list {
        for with_con in [false, true] {
            let (c, nc) = (with_con.then_some(&con), with_con.then_some(&ncon));
            let ctx = format!("{w}x{h} {moves:?} con={with_con}");
            // Distance map from a few sources.
            let src = plane(
                w,
                h,
                &players(w, h, 1 + (rng.next() % 3) as usize, rng).concat(),
            );
            let want = nf::distance_map(&NaiveGrid::from_view(&src), &np, moves, nc);
            let got = distance_map(&src, passable, moves, c);
            assert_eq!(got.width(), w);
            for (k, d) in want.iter().enumerate() {
                assert_eq!(
                    got.get(k % w, k / w),
                    *d,
                    "{ctx} distance at {:?}",
                    (k % w, k / w)
                );
            }
            // The BFS layers held in the slots, and thin, throughout: the same map.
            for layers in [FrontierLayers::Slots, FrontierLayers::Thin] {
                let other = distance_map_with(&src, passable, moves, c, layers);
                assert!(other == got, "{ctx} {layers:?}: the maps differ");
                assert_eq!(other.max(), got.max(), "{ctx} {layers:?}");
            }
            for &n in player_counts {
                let cells = players(w, h, n, rng);
                let planes: Vec<BitGrid> = cells.iter().map(|c| plane(w, h, c)).collect();
                let nplanes: Vec<NaiveGrid> = planes.iter().map(NaiveGrid::from_view).collect();
                let want = nf::voronoi(&nplanes, &np, moves, nc);
                let ctx = format!("{ctx} players={n}");
                // The plane-per-player API.
                let (v, depth) = voronoi_depths(&planes, passable, moves, c);
                assert_eq!(v, voronoi(&planes, passable, moves, c), "{ctx}");
                for p in 0..n {
                    assert_eq!(
                        NaiveGrid::from_view(&v.owned[p]),
                        want.owned[p],
                        "{ctx} p{p}"
                    );
                }
                assert_eq!(NaiveGrid::from_view(&v.contested), want.contested, "{ctx}");
                let reached = want.depth.iter().filter(|d| d.is_some()).count() as u64;
                assert_eq!(v.reached.count(), reached, "{ctx} reached");
                let max = want.depth.iter().flatten().max().copied().unwrap_or(0);
                assert_eq!(v.depth, max, "{ctx} depth");
                // The owner array, alone and with the distance map: the same owners.
                let o = voronoi_owners(&cells, passable, moves, c);
                let od = voronoi_owners_with_distances(&cells, passable, moves, c);
                assert!(o.distances().is_none(), "{ctx}");
                assert_eq!(o.as_slice(), od.as_slice(), "{ctx} owners with distances");
                assert_eq!(
                    (o.counts(), o.contested(), o.unreached(), o.depth()),
                    (od.counts(), od.contested(), od.unreached(), od.depth()),
                    "{ctx} owners with distances"
                );
                let od = od.distances().expect("a distance map");
                for (k, d) in want.depth.iter().enumerate() {
                    let (x, y) = (k % w, k / w);
                    assert_eq!(depth.get(x, y), *d, "{ctx} depth at {x},{y}");
                    assert_eq!(od.get(x, y), *d, "{ctx} owners depth at {x},{y}");
                    let code = want.owner_code(x, y);
                    assert_eq!(o.as_slice()[k], code, "{ctx} owner at {x},{y}");
                    assert_eq!(o.owner(x, y), (code < Owners::CONTESTED).then_some(code));
                }
                let counts: Vec<u64> = want.owned.iter().map(|g| g.count()).collect();
                assert_eq!(o.counts(), counts, "{ctx} counts");
                assert_eq!(o.contested(), want.contested.count(), "{ctx}");
                let unreached = (0..w * h)
                    .filter(|&k| np.get(k % w, k / w) && want.depth[k].is_none())
                    .count() as u64;
                assert_eq!(o.unreached(), unreached, "{ctx} unreached");
                assert_eq!(o.depth(), max, "{ctx} owners depth");
            }
        }
    }
}

/// Sizes at the edges of the word layout: 1x1, single rows and columns, widths 63/64/65,
/// exactly 64 and 128 cells.
const EDGE_SIZES: [(usize, usize); 14] = [
    (1, 1),
    (1, 9),
    (9, 1),
    (64, 1),
    (1, 64),
    (128, 1),
    (64, 2),
    (8, 8),
    (16, 8),
    (63, 5),
    (64, 5),
    (65, 5),
    (129, 3),
    (2, 70),
];

#[test]
fn edge_sizes_every_density_every_move() {
    let mut rng = Rng(0x5eed_0001);
    for (w, h) in EDGE_SIZES {
        for pct in [0, 30, 50, 65, 80, 100] {
            let g = grid(w, h, &mut rng, pct);
            check_grid(&g, &mut rng, &[0, 1, 2, 5], true);
        }
    }
}

#[test]
fn random_sizes_and_densities() {
    check(
        config(48),
        (1usize..140, 1usize..40, 0u32..=100, any::<u64>())
            .prop_map(|(w, h, pct, seed)| (w, h, pct, seed | 1))
            .boxed(),
        &|(w, h, pct, seed)| {
            let mut rng = Rng(seed);
            let g = grid(w, h, &mut rng, pct);
            check_grid(&g, &mut rng, &[2, 7], false);
            Ok(())
        },
    );
}

#[test]
fn mazes_rooms_and_serpentines() {
    let mut rng = Rng(0x5eed_0002);
    let mut shapes = vec![
        maze(&mut SplitMix(rng.next()), 2 * 33 - 1, 2 * 20 - 1),
        maze(&mut SplitMix(rng.next()), 1, 2 * 40 - 1),
        maze(&mut SplitMix(rng.next()), 2 * 40 - 1, 1),
        BitGrid::full(70, 30),
        serpentine(65, 33),
        serpentine(130, 12),
    ];
    shapes.push(grid(130, 40, &mut rng, 60));
    // Long runs (the row sweeps of distance maps): halls split by walls with gaps, whose
    // shortest paths turn up and down (the sweeps may run out of budget and hand over to the
    // frontier BFS), and a room with pillars.
    shapes.push(BitGrid::from_fn(150, 50, |x, y| x % 17 != 3 || y % 9 == 0).unwrap());
    shapes.push(BitGrid::from_fn(129, 65, |x, y| x % 23 != 5 || y % 31 == (x / 23) % 31).unwrap());
    shapes.push(BitGrid::from_fn(100, 64, |x, y| x % 6 != 2 || y % 5 != 1).unwrap());
    for g in shapes {
        check_grid(&g, &mut rng, &[1, 3, 12], false);
    }
}

#[test]
fn hundreds_of_players() {
    let mut rng = Rng(0x5eed_0003);
    for (w, h, pct) in [(40, 30, 80), (65, 20, 100), (100, 9, 60)] {
        let g = grid(w, h, &mut rng, pct);
        check_grid(&g, &mut rng, &[150, 400], false);
    }
}

#[test]
fn owners_rules_by_example() {
    // A corridor: players at both ends meet in the middle cell; a third player walled off.
    let free = !BitGrid::parse("......\n######\n#.####").unwrap();
    let o = voronoi_owners(
        &[vec![(0, 0)], vec![(4, 0)], vec![(1, 2)]],
        &free,
        Moves::Four,
        None,
    );
    assert_eq!(o.counts(), [2, 3, 1]);
    assert_eq!(o.contested(), 1);
    assert!(o.is_contested(2, 0));
    assert_eq!(o.owner(5, 0), Some(1));
    assert_eq!(o.unreached(), 0);
    assert_eq!(o.depth(), 2);
    // Contested propagates: beyond a tie, cells are contested too.
    let free = !BitGrid::parse("...\n...\n.#.").unwrap();
    let o = voronoi_owners(&[[(0, 0)], [(2, 0)]], &free, Moves::Four, None);
    assert!(o.is_contested(1, 0) && o.is_contested(1, 1));
    assert_eq!(o.counts(), [3, 3]);
    // A cell that is a source of two players is contested; off-grid and mismatched masks are
    // errors.
    let o = voronoi_owners(&[[(0, 0)], [(0, 0)]], &free, Moves::Eight, None);
    assert_eq!((o.contested(), o.counts()), (8, &[0u64, 0][..]));
    assert!(try_voronoi_owners(&[[(0, 3)]], &free, Moves::Four, None).is_err());
    let bad: Connections<BitGrid> = std::array::from_fn(|_| BitGrid::full(3, 4));
    let err = try_voronoi_owners(&[[(0, 0)]], &free, Moves::Four, Some(&bad)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a connection mask is 3x4, expected 3x3 (the size of passable)"
    );
    // No players: nothing reached.
    let none: [[(usize, usize); 0]; 0] = [];
    let o = voronoi_owners(&none, &free, Moves::Four, None);
    assert_eq!((o.depth(), o.unreached(), o.contested()), (0, 8, 0));
}

/// A distance map of 4 Mi cells, where the engine prefetches the map's lines a layer ahead,
/// equals a plain queue BFS: a maze (the thinnest frontier) and 35% walls.
#[test]
fn maps_large_enough_to_prefetch() {
    let (w, h) = (2048usize, 2048usize);
    let mut rng = Rng(0x5EED_2048);
    let maze = maze(&mut SplitMix(77), w, h);
    for passable in [maze, grid(w, h, &mut rng, 65)] {
        let (w, h) = (passable.width(), passable.height());
        let start = passable.iter().next().unwrap_or((0, 0));
        let mut seed = passable.empty_like();
        seed.set(start.0, start.1);
        let got = distance_map(&seed, &passable, Moves::Four, None);
        // The plain BFS: a flat queue over row-major cells.
        let mut want = vec![u32::MAX; w * h];
        let mut queue = vec![start.1 * w + start.0];
        want[queue[0]] = 0;
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            let (x, y) = (c % w, c / w);
            let near = [
                (x > 0).then(|| c - 1),
                (x + 1 < w).then(|| c + 1),
                (y > 0).then(|| c - w),
                (y + 1 < h).then(|| c + w),
            ];
            for n in near.into_iter().flatten() {
                if want[n] == u32::MAX && passable.get(n % w, n / w) {
                    want[n] = want[c] + 1;
                    queue.push(n);
                }
            }
        }
        assert!(got.as_slice() == want, "the maps differ");
        assert_eq!(
            got.max(),
            want.iter().filter(|&&d| d != u32::MAX).max().copied()
        );
    }
}

/// Large grids, where the BFS runs in row bands (from 2 Mi cells and 3 threads: 3 and 7
/// threads, distances alone and with owners) and a second thread writes the distances or the
/// owners (2 threads): the same maps and owner arrays as on one thread, whose engine the
/// tests above check against the oracle. Shapes at the edges of the word layout (one row,
/// one column, widths 63, 64 and 65) and mazes, 4- and 8-moves, with and without connection
/// masks.
#[test]
fn writer_thread_results_equal_one_thread() {
    let mut rng = Rng(0x5eed_7777);
    for (cells, owners) in [(1usize << 21, false), (1 << 21, true)] {
        let side = 1 << (cells.trailing_zeros() / 2);
        let mut shapes: Vec<BitGrid> = [cells, 1, 63, 64, 65]
            .into_iter()
            .map(|w| {
                let h = cells.div_ceil(w);
                grid(w, h, &mut rng, if w == 1 || h == 1 { 100 } else { 68 })
            })
            .collect();
        // One more than the side: the maze's cells reach the threshold too.
        shapes.push(maze(&mut SplitMix(rng.next()), side + 1, side + 1));
        // Open enough for frontiers of more than 1024 words: the distances go on in bands
        // (with 3 and 7 threads).
        shapes.push(grid(2048, cells / 2048, &mut rng, 90));
        for g in &shapes {
            let (w, h) = g.size();
            for moves in [Moves::Four, Moves::Eight] {
                for with_con in [false, true] {
                    // Masks on a single row or column: every move allowed (random masks
                    // would cut it after a few cells). With masks a distance map never takes
                    // the row sweeps, so the full row goes through the BFS and its writer.
                    let open = if w == 1 || h == 1 { 100 } else { 90 };
                    let con: Option<Connections<BitGrid>> =
                        with_con.then(|| std::array::from_fn(|_| grid(w, h, &mut rng, open)));
                    let players = players(w, h, if owners { 40 } else { 3 }, &mut rng);
                    let sources = plane(w, h, &players.concat());
                    let run = |threads| {
                        with_threads(threads, || {
                            if owners {
                                // Half the shapes with the distance map, half without.
                                let o = if (moves == Moves::Four) == with_con {
                                    voronoi_owners_with_distances(&players, g, moves, con.as_ref())
                                } else {
                                    voronoi_owners(&players, g, moves, con.as_ref())
                                };
                                (
                                    o.as_slice().to_vec(),
                                    o.distances()
                                        .cloned()
                                        .unwrap_or_else(|| DistanceMap::new(0, 0)),
                                    o.counts().to_vec(),
                                    (o.contested(), o.unreached()),
                                )
                            } else {
                                let d = distance_map(&sources, g, moves, con.as_ref());
                                (Vec::new(), d, Vec::new(), (0, 0))
                            }
                        })
                        .unwrap()
                    };
                    let one = run(1);
                    // Bands with owners only where a frontier can get wide (1024 words).
                    let counts: &[usize] = if owners && w < 1024 { &[2] } else { &[2, 3, 7] };
                    for &threads in counts {
                        let two = run(threads);
                        let ctx = format!(
                            "{w}x{h} {moves:?} masks={with_con} owners={owners} threads={threads}"
                        );
                        assert!(one.0 == two.0, "{ctx}: the owners differ");
                        assert!(one.1 == two.1, "{ctx}: the distances differ");
                        assert_eq!(one.1.max(), two.1.max(), "{ctx}");
                        assert_eq!(one.2, two.2, "{ctx}");
                        assert_eq!(one.3, two.3, "{ctx}: contested and unreached");
                    }
                }
            }
        }
    }
}

/// The owners by a plain queue BFS from every source (the rules of `voronoi_owners`
/// without connection masks): distances first, then each cell in BFS order takes the single
/// owner of its neighbours one step nearer, or contested when they differ or one is.
fn plain_owners(g: &BitGrid, players: &[Vec<(usize, usize)>], eight: bool) -> Vec<u32> {
    let (w, h) = g.size();
    let mut dist = vec![u32::MAX; w * h];
    let mut owner = vec![Owners::UNREACHED; w * h];
    let mut queue = Vec::new();
    for (p, cells) in players.iter().enumerate() {
        for &(x, y) in cells {
            let i = y * w + x;
            if dist[i] == u32::MAX {
                (dist[i], owner[i]) = (0, p as u32);
                queue.push(i);
            } else if owner[i] != p as u32 {
                owner[i] = Owners::CONTESTED;
            }
        }
    }
    let steps: &[(isize, isize)] = if eight {
        &[
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ]
    } else {
        &[(0, -1), (-1, 0), (1, 0), (0, 1)]
    };
    let near = |c: usize| {
        let (x, y) = ((c % w) as isize, (c / w) as isize);
        steps.iter().filter_map(move |&(dx, dy)| {
            let (nx, ny) = (x + dx, y + dy);
            (nx >= 0 && ny >= 0 && nx < w as isize && ny < h as isize)
                .then(|| ny as usize * w + nx as usize)
        })
    };
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head];
        head += 1;
        for n in near(c) {
            if dist[n] == u32::MAX && g.get(n % w, n / w) {
                dist[n] = dist[c] + 1;
                queue.push(n);
            }
        }
    }
    for &c in &queue {
        if dist[c] == 0 {
            continue;
        }
        let mut o = None;
        for n in near(c).filter(|&n| dist[n].wrapping_add(1) == dist[c]) {
            o = match o {
                Some(v) if v != owner[n] => Some(Owners::CONTESTED),
                Some(v) => Some(v),
                None => Some(owner[n]),
            };
        }
        owner[c] = o.unwrap_or(Owners::CONTESTED);
    }
    owner
}

/// Owners of a thousand players on one thread on a grid large enough (2 Mi cells) that the
/// BFS prefetches its words and owner lines ahead: the plain owner BFS's, 4- and 8-moves.
#[test]
fn owners_prefetched_on_one_thread_equal_a_plain_bfs() {
    let mut rng = Rng(0x5eed_1448);
    let (w, h) = (1448usize, 1448usize);
    let g = grid(w, h, &mut rng, 80);
    let players = players(w, h, 1000, &mut rng);
    for (moves, eight) in [(Moves::Four, false), (Moves::Eight, true)] {
        let o = with_threads(1, || voronoi_owners(&players, &g, moves, None)).unwrap();
        assert!(
            o.as_slice() == plain_owners(&g, &players, eight).as_slice(),
            "{moves:?}: the owners differ from the plain BFS"
        );
    }
}

/// The tally of owners on two threads (split in halves when there are few players per
/// cell) equals the one on one thread, with few players and with very many.
#[test]
fn owner_counts_on_two_threads_equal_one_thread() {
    let mut rng = Rng(0x5eed_2222);
    let (w, h) = (1448usize, 1448usize);
    let g = grid(w, h, &mut rng, 80);
    for n in [1000usize, 100_000] {
        let players = players(w, h, n, &mut rng);
        let run = |threads| {
            with_threads(threads, || {
                let o = voronoi_owners(&players, &g, Moves::Four, None);
                (o.counts().to_vec(), o.contested(), o.unreached())
            })
            .unwrap()
        };
        assert_eq!(run(1), run(2), "{n} players");
    }
}
