//! # gridbits
//!
//! Bit-parallel algorithms on 2D grids. Every cell is one bit, and a whole board moves per
//! machine word with shifts, ANDs and ORs instead of per-cell loops: flood fill, BFS distance,
//! Voronoi territory, connected components, sliding-piece reach, line clears and gravity, and
//! the games built on them (Puyo, Tetris, Game of the Amazons). No dependencies.
//!
//! ## Map of the crate
//!
//! | module | what it holds |
//! |---|---|
//! | [`Board`], [`board`] | a `W x H` board fixed at compile time in `[u64; N]` (a `u64`, a `u128`, ...), with aliases such as [`Board6x12`], [`Board10x10`], [`Board30x20`] |
//! | [`BitGrid`], [`grid`] | a board sized at run time, rows of whole `u64` words, for maps and images; from `&[bool]`, byte images and text |
//! | [`BitBoard`] | the trait every algorithm is written against, so it runs on both kinds |
//! | [`algo::fill`] | flood fill of any region, with an engine per board kind and region shape |
//! | [`algo::distance`] | BFS layers and distance maps, with step or sliding moves and walls between cells |
//! | [`algo::voronoi`] | Voronoi territory for any number of players, as planes or an owner per cell |
//! | [`algo::slide`] | rook, bishop and queen reach through blockers (Dumb7Fill, galloping, Kogge-Stone, subtraction) |
//! | [`algo::components`] | connected components of fixed boards, the Puyo "groups of 4" mask |
//! | [`algo::label`] | labelling large binary images: a `u32` label image and per-component statistics |
//! | [`algo::lines`] | full-row detection, line clears and gravity in row-chunk and column layouts |
//! | [`algo::skeleton`] | skeletons of binary images: `skeletonize` and `thin`, pixel for pixel scikit-image's |
//! | [`games::puyo`], [`games::tetris`], [`games::amazons`] | game rules on top: chains and scores, pieces and placements, territory |
//! | [`naive`] | the plain per-cell reference of every operation: the test oracle and the benchmark baseline |
//! | [`text`], [`error`] | the text grid format with line/column errors; the shared error types |
//!
//! Conventions, the same everywhere: a cell is `(x, y)`, `x` the column from the left and `y`
//! the row **from the top**, both from 0 (game modules included). Neighbourhoods are
//! [`Connectivity`] (`Four`, `Eight`) and [`Moves`] (adds `Rook`, `Bishop`, `Queen`). What
//! usually comes from a program's input (sizes, a start or source cell, text) has an error
//! value: the `try_` forms of the fill family (`try_fill`, `try_fill_from`, `try_fill_count`,
//! `try_distance_map`, `try_voronoi_owners`, ...), the labeller's `Result`s, `BitGrid::try_new`
//! and `FromStr`. Every other function that can panic does so on a caller's mistake, as slice
//! indexing does (a row index past the grid, grids of different sizes handed to one engine),
//! and says so under `# Panics`. The text form of every board and game type goes through
//! `FromStr` and `Display`.
//!
//! Features, both off by default: `serde` adds `Serialize`/`Deserialize`; `parallel` (rayon)
//! labels, fills and measures distances on large grids with every core, and runs the batch
//! functions for many small boards on all cores, with results identical to one thread (see
//! [`parallel`] for the thread count).
//!
//! ## Boards
//!
//! ```
//! use gridbits::{bitboard, BitGrid, Board10x10, Connectivity, Dir};
//! let walls = bitboard!(Board10x10;
//!     "..........", "..........", "..#####...", "......#...", "......#...",
//!     "..........", "..........", "..........", "..........", "..........");
//! let free = !walls; // the complement stays inside the board
//! let mut region = Board10x10::cell(0, 0);
//! for _ in 0..3 {
//!     region = region.dilate_within(Connectivity::Four, free);
//! }
//! assert_eq!(region.count(), 10);
//! assert!(region.shift(Dir::S).get(0, 4)); // shifts never wrap across an edge
//!
//! // The same on a grid sized at run time, from a byte image (a pixel > 127 is set).
//! let pixels = [0u8, 255, 255, 0, 0, 0, 200, 0];
//! let g = BitGrid::from_bytes(&pixels, 4, 2, 4, 127).unwrap();
//! assert_eq!(g.to_string(), ".##.\n..#.\n");
//! assert_eq!((g.clone() | g.shift(Dir::W)).count(), 5);
//! ```
//!
//! ## Fill, distance, Voronoi
//!
//! ```
//! use gridbits::algo::distance::distance_map;
//! use gridbits::algo::fill::fill;
//! use gridbits::algo::voronoi::voronoi;
//! use gridbits::{BitGrid, Connectivity, Moves};
//! let walls: BitGrid = ".....\n.###.\n.....\n".parse().unwrap();
//! let free = !walls;
//! let mut me = BitGrid::new(5, 3);
//! me.set(0, 0);
//! assert_eq!(fill(&me, &free, Connectivity::Four), free);
//! let d = distance_map(&me, &free, Moves::Four, None);
//! assert_eq!(d.get(4, 2), Some(6));
//! let mut you = BitGrid::new(5, 3);
//! you.set(4, 2);
//! let v = voronoi(&[me, you], &free, Moves::Four, None);
//! assert_eq!(v.counts(), [5, 5]);
//! assert_eq!(v.contested.count(), 2);
//! ```
//!
//! ## Components and labelling
//!
//! ```
//! use gridbits::algo::components::{components, groups_at_least};
//! use gridbits::algo::label::label;
//! use gridbits::{bitboard, BitGrid, Board6x12, Connectivity};
//! let red = bitboard!(Board6x12;
//!     "......", "......", "......", "......", "......", "......",
//!     "......", "......", "#.....", "##....", ".#..#.", "....##");
//! let groups: Vec<Board6x12> = components(red, Connectivity::Four).collect();
//! assert_eq!(groups.len(), 2);
//! // The Puyo vanish mask: every cell in a group of 4 or more.
//! assert_eq!(groups_at_least(red, 4, Connectivity::Four).count(), 4);
//!
//! // Large images: labels numbered in raster order, as scipy.ndimage.label numbers them.
//! let image: BitGrid = "..#\n#..\n".parse().unwrap();
//! let labels = label(&image, Connectivity::Eight).unwrap();
//! assert_eq!((labels.row(0), labels.row(1)), (&[0, 0, 1][..], &[2, 0, 0][..]));
//! ```
//!
//! ## Sliding reach and Amazons
//!
//! ```
//! use gridbits::algo::slide::queen_reach;
//! use gridbits::games::amazons::Position;
//! use gridbits::{bitboard, Board8x8};
//! let blockers = bitboard!(Board8x8;
//!     "........", "........", "...#....", "........", "........", "........", "........", "........");
//! let queen = Board8x8::cell(3, 5);
//! let reach = queen_reach(&queen, &!(blockers | queen));
//! assert!(reach.get(3, 3) && !reach.get(3, 2) && !reach.get(3, 1));
//! assert_eq!(reach.count(), 22);
//!
//! let start = Position::start();
//! let e = start.evaluate(); // queen and king territory of both sides
//! assert_eq!(e.queen.white, e.queen.black);
//! ```
//!
//! ## Line clears, Tetris, Puyo
//!
//! ```
//! use gridbits::algo::lines::RowChunks;
//! use gridbits::games::puyo::{Field, Rules};
//! use gridbits::games::tetris::{Piece, Rotation, Tetris};
//! // Any full rows, anywhere, cleared in one call on the row-chunk layout.
//! let mut rows: RowChunks = "#.#\n###\n.#.\n###\n".parse().unwrap();
//! assert_eq!(rows.clear_full_lines(), 2);
//! assert_eq!(rows.to_string(), "...\n...\n#.#\n.#.\n");
//!
//! // Tetris: an O dropped in columns 4-5 lands on the floor (y from the top).
//! let mut t = Tetris::<10>::new(20);
//! t.drop_and_place(Piece::O, Rotation::Spawn, 4).unwrap();
//! assert!(t.get(4, 19) && t.get(5, 18));
//!
//! // Puyo Puyo Tsu: simulate the chain a field fires.
//! let field: Field = "\
//! ......\n......\n......\n......\n......\n......\n......\n\
//! ......\n......\n......\n.G....\n.RGG..\nRRRG..\n".parse().unwrap();
//! let chain = field.simulate();
//! assert_eq!(chain.chain, 2);
//! ```
//!
//! ## Speed and correctness
//!
//! Fixed boards compile to straight-line word code (`const fn` on `Copy` values; a 6x12 shift
//! and dilation is about 120 instructions, no branch). Runtime grids work per word and per
//! run. SIMD (SSE2, AVX2, AVX-512, BMI2, POPCNT) is used only behind run-time CPU detection
//! with a tested portable fallback. Every public operation is property-tested against
//! [`naive`] on many sizes, the word edges included; the benchmark harness
//! (`cargo run --release -p gridbits-bench`) measures each one against its baselines in one run.

#![warn(missing_docs)]

pub mod algo;
pub mod bitboard;
pub mod board;
pub mod cpu;
pub mod dir;
pub mod error;
pub mod games;
pub mod grid;
pub mod huge_pages;
pub mod naive;
pub mod parallel;
pub mod text;

#[cfg(feature = "serde")]
mod serde_impls;
#[cfg(test)]
mod test_rng;

pub use bitboard::BitBoard;
pub use board::{
    Board, Board10x10, Board10x40, Board19x19, Board30x20, Board6x12, Board6x13, Board8x8, Board9x9,
};
pub use dir::{Connectivity, Dir, Moves, NotAdjacency, UnknownName};
pub use error::{GridError, ImageError, OffGrid, SizeError, SizeMismatch};
pub use grid::{BitGrid, ByteImage};
pub use text::{CharGrid, ParseError};

/// Read access shared by every grid type: size and cells. Generic code (tests, renderers,
/// conversions) works through it.
pub trait GridView {
    /// Number of columns.
    fn width(&self) -> usize;
    /// Number of rows.
    fn height(&self) -> usize;
    /// Whether `(x, y)` is set; `false` off the grid.
    fn get(&self, x: usize, y: usize) -> bool;
    /// Number of set cells.
    fn count(&self) -> u64;
}

/// Draws any grid as text, one line per row, `set` and `empty` for the cells.
///
/// ```
/// let b = gridbits::Board::<2, 2, 1>::cell(1, 0);
/// assert_eq!(gridbits::render_text(&b, 'o', '.'), ".o\n..\n");
/// ```
pub fn render_text(view: &impl GridView, set: char, empty: char) -> String {
    let (w, h) = (view.width(), view.height());
    let mut out = String::with_capacity((w + 1) * h);
    for y in 0..h {
        for x in 0..w {
            out.push(if view.get(x, y) { set } else { empty });
        }
        out.push('\n');
    }
    out
}

/// The crate README's examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The repository README's Rust examples, compiled and run as doc tests (inside the
/// workspace only: `.cargo/config.toml` sets the `gridbits_workspace` cfg for rustdoc).
#[doc = include_str!("../../../README.md")]
#[cfg(all(doctest, gridbits_workspace))]
pub struct RepositoryReadmeDoctests;
