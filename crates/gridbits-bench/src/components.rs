//! Bench workloads of the `components` topic.
//!
//! - one 6x12 colour plane at 25% and 50% density split into all its 4-connected
//!   components: the fast path (with its AVX-512 byte-row engine where the CPU has it)
//!   against its scalar code, the row-pair lookup table of the article "Fast Connected
//!   Components for 6x12 bitboard", the plain bit-BFS its later version recommends, and the
//!   naive queue BFS;
//! - the groups-of-4 mask (Puyo vanish mask) of one colour plane of random four-colour 6x12
//!   boards, against enumerating components and against the naive BFS;
//! - 2048x2048 labelling (8-connected; noise at 30/50/70% and a blobby image; 4-connected
//!   on 50% noise), in ns per pixel: labels written into a reused image (raster order, and
//!   with 8-connectivity also the scan's row-pair order, which skips the renumbering; and
//!   with the AVX2 writer where the CPU has the AVX-512 one, and with cache-resident and
//!   streaming stores of the image, the automatic choice's alternatives), the
//!   summary path (sizes, boxes and centroid sums, no image), the naive BFS, imageproc's `connected_components`, and the
//!   memory floor: writing a u32 image of the same size. `--quick` runs use 1024x1024
//!   images and time the naive BFS on one of them only.

use crate::Bench;
use gridbits::algo::components::{components, components_plain, groups_at_least, table};
use gridbits::algo::label::{
    ComponentStats, LabelOrder, LabelStores, LabelWriter, Labeller, Labels,
};
use gridbits::cpu::{self, Level};
use gridbits::naive::{components as nc, NaiveGrid};
use gridbits::{BitGrid, Board6x12, Connectivity};
use gridbits_testkit::{discs, random_boards, SplitMix};
use std::cell::OnceCell;
use std::hint::black_box;

/// Boards per timed call for the 6x12 rows.
const BATCH: usize = 256;
/// Boards per timed call for the naive 6x12 rows (it is slow).
const NAIVE_BATCH: usize = 32;
/// Side of the labelling images (`--quick`: 1024, to keep the run short).
const SIDE: usize = 2048;
const QUICK_SIDE: usize = 1024;

/// Folds a component into a checksum so that no work can be skipped.
#[inline(always)]
fn mix(acc: u64, c: Board6x12) -> u64 {
    let w = c.words();
    acc.rotate_left(5) ^ w[0].wrapping_add(w[1].rotate_left(17))
}

fn split_rows(bench: &mut Bench, rng: &mut SplitMix) {
    for density in [25u32, 50] {
        let boards = random_boards::<6, 12, 2>(rng, BATCH, f64::from(density) / 100.0);
        let naive: Vec<NaiveGrid> = boards[..NAIVE_BATCH]
            .iter()
            .map(NaiveGrid::from_view)
            .collect();
        let conn = Connectivity::Four;
        bench
            .workload(&format!("components 6x12 split {density}%"), "fast")
            .case("fast", BATCH as u64, || {
                boards
                    .iter()
                    .fold(0, |acc, &b| components(black_box(b), conn).fold(acc, mix))
            })
            .alternative("scalar", BATCH as u64, || {
                // The fast path without its byte-row engine (the automatic choice where
                // the CPU has AVX-512 VL, or AVX2 and a fast `pdep`): the scalar u128 and
                // split forms.
                cpu::with_level(Level::Bmi, || {
                    boards
                        .iter()
                        .fold(0, |acc, &b| components(black_box(b), conn).fold(acc, mix))
                })
            })
            .alternative("row-pair-table", BATCH as u64, || {
                boards.iter().fold(0, |mut acc, &b| {
                    table::for_each_component(black_box(b), conn, |c| acc = mix(acc, c));
                    acc
                })
            })
            .alternative("bit-bfs", BATCH as u64, || {
                boards.iter().fold(0, |acc, &b| {
                    components_plain(black_box(b), conn).fold(acc, mix)
                })
            })
            .case("naive", NAIVE_BATCH as u64, || {
                naive
                    .iter()
                    .map(|g| {
                        nc::components(black_box(g), conn)
                            .iter()
                            .map(|c| c.count() * 31 + c.lowest().map_or(0, |p| p.0 as u64))
                            .sum::<u64>()
                    })
                    .sum()
            })
            .case("naive-cells", NAIVE_BATCH as u64, || {
                naive
                    .iter()
                    .map(|g| {
                        nc::component_cells(black_box(g), conn)
                            .iter()
                            .map(|c| c.len() as u64 * 31 + c[0].0 as u64)
                            .sum::<u64>()
                    })
                    .sum()
            })
            .finish();
    }
}

fn groups_rows(bench: &mut Bench, rng: &mut SplitMix) {
    // Random four-colour boards: each cell empty (1 in 5) or one of four colours.
    let planes: Vec<Board6x12> = (0..BATCH / 4)
        .flat_map(|_| {
            let colours: Vec<u64> = (0..72).map(|_| rng.next_u64() % 5).collect();
            (1..=4u64)
                .map(|c| Board6x12::from_fn(|x, y| colours[y * 6 + x] == c))
                .collect::<Vec<_>>()
        })
        .collect();
    let naive: Vec<NaiveGrid> = planes[..NAIVE_BATCH]
        .iter()
        .map(NaiveGrid::from_view)
        .collect();
    let conn = Connectivity::Four;
    bench
        .workload("groups>=4 mask 6x12 4-colour", "fast")
        .case("fast", planes.len() as u64, || {
            planes.iter().fold(0, |acc, &p| {
                mix(acc, groups_at_least(black_box(p), 4, conn))
            })
        })
        .case("enumerate", planes.len() as u64, || {
            planes.iter().fold(0, |acc, &p| {
                let mask = components(black_box(p), conn)
                    .filter(|c| c.count() >= 4)
                    .fold(Board6x12::EMPTY, |m, c| m | c);
                mix(acc, mask)
            })
        })
        .case("naive", NAIVE_BATCH as u64, || {
            naive
                .iter()
                .map(|g| nc::groups_at_least(black_box(g), 4, conn).count())
                .sum()
        })
        .finish();
}

/// A blobby binary image: random discs of many sizes, about half the pixels set.
pub(crate) fn blobby(rng: &mut SplitMix, side: usize) -> BitGrid {
    let mut g = BitGrid::new(side, side);
    discs(rng, side, |x, y| g.set(x, y));
    g
}

fn label_rows(bench: &mut Bench, rng: &mut SplitMix) {
    let quick = bench.quick();
    let side = if quick { QUICK_SIDE } else { SIDE };
    let px = (side * side) as u64;
    let mut images: Vec<(String, BitGrid, Connectivity)> = Vec::new();
    for density in [30u32, 50, 70] {
        let g = gridbits_testkit::random_grid(rng, side, side, f64::from(density) / 100.0);
        images.push((format!("noise {density}%"), g, Connectivity::Eight));
    }
    let blobs = blobby(rng, side);
    images.push(("blobby".to_string(), blobs, Connectivity::Eight));
    let noise50 = images[1].1.clone();
    images.push(("noise 50%".to_string(), noise50, Connectivity::Four));

    for (what, g, conn) in &images {
        let conn = *conn;
        let c = if conn == Connectivity::Four { 4 } else { 8 };
        let name = format!("label {side}x{side} {what} {c}-conn (ns/px)");
        // The naive BFS takes a quarter of a second a call on 2048x2048: in quick runs only
        // on one image.
        let with_naive = !quick || (what == "noise 50%" && conn == Connectivity::Eight);
        // The baselines' inputs are built on first use, so a filtered-out row costs nothing.
        let naive: OnceCell<NaiveGrid> = OnceCell::new();
        let mut labeller = Labeller::new();
        let mut image = Labels::new();
        let mut labeller2 = Labeller::new();
        let mut avx2 = Labeller::new().with_level(Level::Avx2);
        let mut avx2_image = Labels::new();
        let mut cached = Labeller::new().with_stores(LabelStores::Cached);
        let mut cached_image = Labels::new();
        let mut streaming = Labeller::new().with_stores(LabelStores::Streaming);
        let mut streaming_image = Labels::new();
        let mut cells = Labeller::new().with_writer(LabelWriter::Cells);
        let mut cells_image = Labels::new();
        let mut pairs = Labeller::new().with_order(LabelOrder::RowPairs);
        let mut pairs_image = Labels::new();
        let mut stats: Vec<ComponentStats> = Vec::new();
        let mut floor: Vec<u32> = Vec::new();
        #[cfg(feature = "peers")]
        let gray: OnceCell<image::GrayImage> = OnceCell::new();
        let w = bench
            .workload(&name, "gridbits")
            .warm_up()
            .case("gridbits", px, || {
                u64::from(labeller.label(g, conn, &mut image).unwrap_or(0))
                    + u64::from(image.as_slice()[side * side / 2])
            })
            .alternative("avx2-writer", px, || {
                u64::from(avx2.label(g, conn, &mut avx2_image).unwrap_or(0))
                    + u64::from(avx2_image.as_slice()[side * side / 2])
            })
            .alternative("cached-stores", px, || {
                u64::from(cached.label(g, conn, &mut cached_image).unwrap_or(0))
                    + u64::from(cached_image.as_slice()[side * side / 2])
            })
            .alternative("streaming-stores", px, || {
                u64::from(streaming.label(g, conn, &mut streaming_image).unwrap_or(0))
                    + u64::from(streaming_image.as_slice()[side * side / 2])
            })
            .alternative("cells-writer", px, || {
                u64::from(cells.label(g, conn, &mut cells_image).unwrap_or(0))
                    + u64::from(cells_image.as_slice()[side * side / 2])
            })
            .case("row-pair-order", px, || {
                u64::from(pairs.label(g, conn, &mut pairs_image).unwrap_or(0))
                    + u64::from(pairs_image.as_slice()[side * side / 2])
            })
            .case("summary", px, || {
                u64::from(labeller2.stats(g, conn, &mut stats).unwrap_or(0))
                    + stats.first().map_or(0, |s| s.size)
            })
            .case("u32-write", px, || {
                // The memory floor: every label written once, nothing computed.
                let v = black_box(7u32);
                floor.resize(side * side, 0);
                floor.fill(v);
                u64::from(floor[side * side / 3])
            });
        let w = if with_naive {
            w.case("naive", px, || {
                let naive = naive.get_or_init(|| NaiveGrid::from_view(g));
                let (labels, n) = nc::label(naive, conn);
                u64::from(n) + u64::from(labels[side * side / 2])
            })
        } else {
            w
        };
        #[cfg(feature = "peers")]
        let w = {
            use imageproc::region_labelling::{connected_components, Connectivity as IpConn};
            let ic = if conn == Connectivity::Four {
                IpConn::Four
            } else {
                IpConn::Eight
            };
            let gray = &gray;
            w.case("imageproc", px, move || {
                let gray = gray.get_or_init(|| {
                    image::GrayImage::from_fn(side as u32, side as u32, |x, y| {
                        image::Luma([if g.get(x as usize, y as usize) {
                            255
                        } else {
                            0
                        }])
                    })
                });
                let out = connected_components(gray, ic, image::Luma([0u8]));
                u64::from(out.get_pixel(side as u32 / 2, side as u32 / 2).0[0])
            })
        };
        w.finish();
    }
}

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    split_rows(bench, rng);
    groups_rows(bench, rng);
    label_rows(bench, rng);
}
