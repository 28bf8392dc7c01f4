//! Voronoi owners with and without the distance map against the oracle, with players of no
//! cells, a cell of two players and a walled source listed twice; at the writer thread's size,
//! the plane-per-player Voronoi (no depth map) against the owner array and the tally (split in
//! two halves on two threads) against a recount of the owner array.

use gridbits::algo::distance::Connections;
use gridbits::algo::voronoi::{
    voronoi, voronoi_depths, voronoi_owners, voronoi_owners_with_distances, Owners,
};
use gridbits::naive::{fill as nf, NaiveGrid};
use gridbits::parallel::with_threads;
use gridbits::{BitGrid, Moves};

use crate::common::SplitMix as Rng;

fn grid(w: usize, h: usize, rng: &mut Rng, pct: u32) -> BitGrid {
    BitGrid::from_fn(w, h, |_, _| rng.percent(pct)).unwrap()
}

/// The tally recounted from the owner array: (counts, contested, unreached passable cells).
fn recount(o: &Owners, passable: &BitGrid, players: usize) -> (Vec<u64>, u64, u64) {
    let w = o.width();
    let mut counts = vec![0u64; players];
    let (mut contested, mut unreached) = (0, 0);
    for (k, &c) in o.as_slice().iter().enumerate() {
        match c {
            Owners::CONTESTED => contested += 1,
            Owners::UNREACHED => unreached += u64::from(passable.get(k % w, k / w)),
            p => counts[p as usize] += 1,
        }
    }
    (counts, contested, unreached)
}

/// Every move kind, with and without connection masks, on small shapes (one row, one column,
/// widths 64 and 65): the owners alone and with the map equal the oracle's, and their counts
/// a recount of the owner array.
#[test]
fn owners_with_empty_shared_and_walled_players_match_the_oracle() {
    let mut rng = Rng(0x7e57_0001);
    let moves_all = [
        Moves::Four,
        Moves::Eight,
        Moves::Rook,
        Moves::Bishop,
        Moves::Queen,
    ];
    for (w, h) in [
        (1, 1),
        (1, 13),
        (13, 1),
        (64, 1),
        (65, 3),
        (17, 9),
        (130, 5),
    ] {
        for pct in [0u32, 40, 75, 100] {
            let passable = grid(w, h, &mut rng, pct);
            let np = NaiveGrid::from_view(&passable);
            let con: Connections<BitGrid> = std::array::from_fn(|_| grid(w, h, &mut rng, 80));
            let ncon: nf::NaiveConnections = std::array::from_fn(|k| NaiveGrid::from_view(&con[k]));
            let wall = (0..w * h)
                .find(|&k| !passable.get(k % w, k / w))
                .map(|k| (k % w, k / w));
            let cell = |rng: &mut Rng| {
                (
                    (rng.next() % w as u64) as usize,
                    (rng.next() % h as u64) as usize,
                )
            };
            let shared = cell(&mut rng);
            // Player 0 and 3 have no cells; 1 and 2 share a cell; 4 sits on a wall (if any)
            // and also lists its cell twice; 5 is an ordinary player.
            let mut players: Vec<Vec<(usize, usize)>> = vec![
                vec![],
                vec![shared, cell(&mut rng)],
                vec![shared],
                vec![],
                wall.map(|c| vec![c, c]).unwrap_or_default(),
                vec![cell(&mut rng)],
            ];
            if rng.percent(50) {
                players.push(vec![]);
            }
            let n = players.len();
            let planes: Vec<NaiveGrid> = players
                .iter()
                .map(|c| NaiveGrid::from_fn(w, h, |x, y| c.contains(&(x, y))))
                .collect();
            for moves in moves_all {
                for with_con in [false, true] {
                    let (c, nc) = (with_con.then_some(&con), with_con.then_some(&ncon));
                    let ctx = format!("{w}x{h} {pct}% {moves:?} con={with_con}");
                    let want = nf::voronoi(&planes, &np, moves, nc);
                    let o = voronoi_owners(&players, &passable, moves, c);
                    let od = voronoi_owners_with_distances(&players, &passable, moves, c);
                    assert_eq!((o.width(), o.height()), (w, h), "{ctx}");
                    assert!(o.distances().is_none(), "{ctx}");
                    for (k, d) in want.depth.iter().enumerate() {
                        let (x, y) = (k % w, k / w);
                        let code = want.owner_code(x, y);
                        assert_eq!(o.as_slice()[k], code, "{ctx} owner at {x},{y}");
                        assert_eq!(od.distances().unwrap().get(x, y), *d, "{ctx} depth {x},{y}");
                    }
                    let counts: Vec<u64> = want.owned.iter().map(|g| g.count()).collect();
                    let unreached = (0..w * h)
                        .filter(|&k| np.get(k % w, k / w) && want.depth[k].is_none())
                        .count() as u64;
                    let max = want.depth.iter().flatten().max().copied().unwrap_or(0);
                    for x in [&o, &od] {
                        assert_eq!(x.counts(), counts, "{ctx} counts");
                        assert_eq!(x.contested(), want.contested.count(), "{ctx} contested");
                        assert_eq!(x.unreached(), unreached, "{ctx} unreached");
                        assert_eq!(x.depth(), max, "{ctx} depth");
                        assert_eq!(
                            recount(x, &passable, n),
                            (counts.clone(), x.contested(), unreached),
                            "{ctx}"
                        );
                    }
                    // The planes (no depth map on a BitGrid with two players or more): the
                    // reached cells are the oracle's.
                    let bplanes: Vec<BitGrid> = players
                        .iter()
                        .map(|c| BitGrid::from_fn(w, h, |x, y| c.contains(&(x, y))).unwrap())
                        .collect();
                    let v = voronoi(&bplanes, &passable, moves, c);
                    let reached = want.depth.iter().filter(|d| d.is_some()).count() as u64;
                    assert_eq!(v.reached.count(), reached, "{ctx} reached");
                    assert_eq!(v, voronoi_depths(&bplanes, &passable, moves, c).0, "{ctx}");
                }
            }
        }
    }
}

/// At the writer thread's size with owners (1 Mi cells) and two threads: the planes without
/// a depth map equal the owner array (reached = not unreached), and the tally (split in two
/// halves on two threads) equals a recount of the owner array, with empty players and none.
#[test]
fn writer_size_planes_and_split_tally() {
    let mut rng = Rng(0x7e57_0002);
    for (w, h) in [
        (1024usize, 1024usize),
        (1, 1 << 20),
        (1 << 20, 1),
        (1023, 1026),
    ] {
        let g = grid(w, h, &mut rng, if w == 1 || h == 1 { 100 } else { 70 });
        let mut players: Vec<Vec<(usize, usize)>> = (0..6)
            .map(|_| {
                vec![(
                    (rng.next() % w as u64) as usize,
                    (rng.next() % h as u64) as usize,
                )]
            })
            .collect();
        players[2].clear();
        players[4] = players[1].clone(); // one cell of two players: contested
        let none: Vec<Vec<(usize, usize)>> = Vec::new();
        for moves in [Moves::Four, Moves::Eight] {
            let ctx = format!("{w}x{h} {moves:?}");
            let (o2, od2, v2, empty2) = with_threads(2, || {
                let bplanes: Vec<BitGrid> = players
                    .iter()
                    .map(|c| {
                        let mut b = g.empty_like();
                        for &(x, y) in c {
                            b.set(x, y);
                        }
                        b
                    })
                    .collect();
                (
                    voronoi_owners(&players, &g, moves, None),
                    voronoi_owners_with_distances(&players, &g, moves, None),
                    voronoi(&bplanes, &g, moves, None),
                    voronoi_owners(&none, &g, moves, None),
                )
            })
            .unwrap();
            let o1 = with_threads(1, || voronoi_owners(&players, &g, moves, None)).unwrap();
            assert!(o1 == o2, "{ctx}: one thread and two differ");
            assert_eq!(o2.as_slice(), od2.as_slice(), "{ctx}");
            let (counts, contested, unreached) = recount(&o2, &g, players.len());
            assert_eq!(o2.counts(), counts, "{ctx}");
            assert_eq!(
                (o2.contested(), o2.unreached()),
                (contested, unreached),
                "{ctx}"
            );
            assert_eq!(o2.counts()[2], 0, "{ctx}");
            // The planes from the owner array.
            for y in 0..h {
                for x in 0..w {
                    let c = o2.as_slice()[y * w + x];
                    assert_eq!(
                        v2.reached.get(x, y),
                        c != Owners::UNREACHED,
                        "{ctx} reached {x},{y}"
                    );
                    assert_eq!(v2.contested.get(x, y), c == Owners::CONTESTED, "{ctx}");
                }
            }
            assert_eq!(v2.depth, o2.depth(), "{ctx}");
            assert_eq!(v2.counts(), o2.counts(), "{ctx}");
            // No players: nothing reached, the tally of an all-unreached array.
            assert!(empty2.counts().is_empty(), "{ctx}");
            assert_eq!(
                (empty2.contested(), empty2.unreached(), empty2.depth()),
                (0, g.count(), 0)
            );
        }
    }
}
