//! Shared helpers of the property tests: the proptest configuration, random board patterns,
//! and the checks that compare a bitboard with the naive oracle and its storage invariants.
//!
//! Every module of the suite uses a different subset of these helpers.
#![allow(dead_code)]

use gridbits::algo::morph::{morph_bytes, ByteOutput, Footprint, Step};
use gridbits::grid::ByteImage;
use gridbits::naive::{morph as nm, NaiveGrid};
use gridbits::{BitGrid, Board, Connectivity, Dir};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// The fixed-seed configuration of every property test in the suite.
pub fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x9e37_79b9),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Runs the property `test` on `config.cases` values of `strategy`, exactly as `proptest!`
/// does (the same runner, the same fixed seed and so the same cases, shrinking and the same
/// failure message), but through a boxed strategy and a `dyn` test: the runner is compiled once
/// per value type instead of once per test. Properties repeated over many board sizes use it,
/// so that only the const-generic code under test is compiled per size.
pub fn check<T: std::fmt::Debug + 'static>(
    config: Config,
    strategy: BoxedStrategy<T>,
    test: &dyn Fn(T) -> Result<(), TestCaseError>,
) {
    let mut runner = proptest::test_runner::TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}\n{runner}");
    }
}

/// Both connectivities.
pub const CONNS: [Connectivity; 2] = [Connectivity::Four, Connectivity::Eight];

/// The seeded generators and shapes of the shared test kit (`gridbits-testkit`).
pub use gridbits_testkit::{density_bits, maze, SplitMix};

/// A random `w x h` pattern in row-major order (`bits[y * w + x]`): a mix of empty, full,
/// uniform, sparse (a few cells), dense (a few holes), density + seed, and row/column stripes
/// (which load the edges and word boundaries).
pub fn pattern(w: usize, h: usize) -> BoxedStrategy<Vec<bool>> {
    let n = w * h;
    prop_oneof![
        1 => Just(vec![false; n]),
        1 => Just(vec![true; n]),
        3 => proptest::collection::vec(any::<bool>(), n),
        2 => proptest::collection::vec(0..n, 1..=4).prop_map(move |idx| {
            let mut v = vec![false; n];
            idx.into_iter().for_each(|i| v[i] = true);
            v
        }),
        2 => proptest::collection::vec(0..n, 1..=4).prop_map(move |idx| {
            let mut v = vec![true; n];
            idx.into_iter().for_each(|i| v[i] = false);
            v
        }),
        3 => (0.0f64..=1.0, any::<u64>()).prop_map(move |(d, seed)| density_bits(n, d, seed)),
        2 => (
            proptest::collection::vec(any::<bool>(), w),
            proptest::collection::vec(any::<bool>(), h),
            any::<bool>(),
        )
            .prop_map(move |(cols, rows, xor)| {
                let mut v = Vec::with_capacity(n);
                for &r in &rows {
                    for &c in &cols {
                        v.push(if xor { r ^ c } else { r || c });
                    }
                }
                v
            }),
    ]
    .boxed()
}

/// A direction, uniformly.
pub fn any_dir() -> impl Strategy<Value = Dir> {
    proptest::sample::select(Dir::ALL.to_vec())
}

/// A connectivity, uniformly.
pub fn any_conn() -> impl Strategy<Value = Connectivity> {
    proptest::sample::select(CONNS.to_vec())
}

/// The naive grid of a row-major pattern.
pub fn naive_of(w: usize, h: usize, bits: &[bool]) -> NaiveGrid {
    assert_eq!(bits.len(), w * h);
    NaiveGrid::from_fn(w, h, |x, y| bits[y * w + x])
}

/// A naive grid with only `(x, y)` set.
pub fn naive_cell(w: usize, h: usize, x: usize, y: usize) -> NaiveGrid {
    let mut g = NaiveGrid::new(w, h);
    g.set(x, y, true);
    g
}

/// `(x, y) + k * dir.delta()` if it lies inside `w x h` (written independently of the crate).
pub fn step(x: usize, y: usize, dir: Dir, k: usize, w: usize, h: usize) -> Option<(usize, usize)> {
    let (dx, dy) = dir.delta();
    let nx = x as i128 + dx as i128 * k as i128;
    let ny = y as i128 + dy as i128 * k as i128;
    (nx >= 0 && ny >= 0 && nx < w as i128 && ny < h as i128).then_some((nx as usize, ny as usize))
}

/// Whether bit `i` of a word slice is set (`false` past its end).
pub fn bit(words: &[u64], i: usize) -> bool {
    words.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 != 0)
}

// ---------------------------------------------------------------------------------------------
// Board

/// A board from a row-major pattern, through `from_fn`.
pub fn board_of<const W: usize, const H: usize, const N: usize>(bits: &[bool]) -> Board<W, H, N> {
    assert_eq!(bits.len(), W * H);
    Board::from_fn(|x, y| bits[y * W + x])
}

/// Asserts that `b` holds exactly the cells of `expected` and that no bit outside the board is
/// set (no guard bit, no bit past the last row).
#[track_caller]
pub fn check_board<const W: usize, const H: usize, const N: usize>(
    b: Board<W, H, N>,
    expected: &NaiveGrid,
    what: &str,
) {
    assert_eq!((expected.width(), expected.height()), (W, H));
    let got = NaiveGrid::from_view(&b);
    assert_eq!(&got, expected, "{what}: cells differ from the naive oracle");
    let words = b.words();
    assert_eq!(
        Board::<W, H, N>::from_words(words).words(),
        words,
        "{what}: bits set outside the board: {words:#x?}"
    );
    for i in 0..64 * N {
        if bit(&words, i) {
            let c = Board::<W, H, N>::cell_of(i);
            assert!(c.is_some(), "{what}: bit {i} is set but is not a cell");
        }
    }
    assert_eq!(u64::from(b.count()), expected.count(), "{what}: count");
    assert_eq!(b.is_empty(), expected.is_empty(), "{what}: is_empty");
}

// ---------------------------------------------------------------------------------------------
// BitGrid

/// A grid from a row-major pattern, through `from_fn`.
pub fn grid_of(w: usize, h: usize, bits: &[bool]) -> BitGrid {
    assert_eq!(bits.len(), w * h);
    BitGrid::from_fn(w, h, |x, y| bits[y * w + x]).expect("valid size")
}

/// Asserts that `g` holds exactly the cells of `expected`, has the documented layout, and keeps
/// the bits past `width` in every row's last word zero.
#[track_caller]
pub fn check_grid(g: &BitGrid, expected: &NaiveGrid, what: &str) {
    let (w, h) = (expected.width(), expected.height());
    assert_eq!((g.width(), g.height()), (w, h), "{what}: size");
    let wpr = w.div_ceil(64);
    assert_eq!(g.words_per_row(), wpr, "{what}: words per row");
    assert_eq!(g.words().len(), wpr * h, "{what}: total words");
    let got = NaiveGrid::from_view(g);
    assert_eq!(&got, expected, "{what}: cells differ from the naive oracle");
    let tail = if w % 64 == 0 {
        !0u64
    } else {
        (1u64 << (w % 64)) - 1
    };
    for y in 0..h {
        let row = g.row_words(y);
        assert_eq!(row.len(), wpr, "{what}: row {y} length");
        let last = row[wpr - 1];
        assert_eq!(
            last & !tail,
            0,
            "{what}: row {y} has bits past width {w}: {last:#x}"
        );
        // The raw layout: bit x % 64 of word x / 64.
        for x in 0..w {
            assert_eq!(
                bit(row, x),
                expected.get(x, y),
                "{what}: raw bit ({x}, {y})"
            );
        }
    }
    assert_eq!(g.count(), expected.count(), "{what}: count");
    assert_eq!(g.is_empty(), expected.is_empty(), "{what}: is_empty");
}

/// A random value image (row-major `w x h`) with values `0..classes`, each made a `T` by
/// `cast`, where a cell copies its left or upper neighbour with probability `smooth`% (so
/// that large regions and holes appear).
pub fn smooth_values<T: Copy + Default>(
    rng: &mut gridbits_testkit::SplitMix,
    (w, h): (usize, usize),
    classes: u64,
    smooth: u32,
    cast: impl Fn(u64) -> T,
) -> Vec<T> {
    let mut v = vec![T::default(); w * h];
    for y in 0..h {
        for x in 0..w {
            v[y * w + x] = if x > 0 && rng.percent(smooth) {
                v[y * w + x - 1]
            } else if y > 0 && rng.percent(smooth) {
                v[(y - 1) * w + x]
            } else {
                cast(rng.below(classes))
            };
        }
    }
    v
}

/// The morphology engines' check: runs `morph_bytes` (output `stride` bytes per row, padding bytes 77, `set` 255 and
/// `empty` 3) and checks it against the reference cell by cell, padding untouched.
pub fn morph_check(
    image: &ByteImage<'_>,
    cells: &NaiveGrid,
    fp: &Footprint,
    steps: &[Step],
    what: &str,
) {
    let (w, h) = image.size();
    let want = nm::steps(cells, fp, steps);
    let os = w + 1;
    let mut out = vec![77u8; os * h];
    let dst = ByteOutput {
        pixels: &mut out,
        stride: os,
        set: 255,
        empty: 3,
    };
    morph_bytes(image, fp, steps, dst).expect("fits");
    for y in 0..h {
        for x in 0..w {
            let expect = if want.get(x, y) { 255 } else { 3 };
            assert_eq!(
                out[y * os + x],
                expect,
                "({x}, {y}) of {w}x{h} {what} steps {steps:?} by {}x{} centre {:?}",
                fp.width(),
                fp.height(),
                fp.center()
            );
        }
        assert_eq!(out[y * os + w], 77, "padding byte written");
    }
}
