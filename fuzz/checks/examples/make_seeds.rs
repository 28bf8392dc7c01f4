//! Writes the seed corpus of the fuzz targets, `fuzz/corpus/TARGET/seed-*`: a few meaningful
//! inputs per target in the byte layout its check decodes (see `gridbits_fuzz_checks`).
//!
//! `cargo run -p gridbits-fuzz-checks --example make_seeds`

use gridbits_testkit::maze_cells as maze;
use image::{ImageBuffer, ImageFormat, Luma, LumaA, Rgb, Rgba};
use std::io::Cursor;
use std::path::{Path, PathBuf};

const CHAIN19: &str = ".G.BRG\nGBRRYR\nRRYYBY\nRGYRBR\nYGYRBY\nYGBGYR\nGRBGYR\nBRBYBY\nRYYBYY\n\
BRBYBR\nBGBYRR\nYGBGBG\nRBGBGG\n";

fn write(target: &str, name: &str, data: &[u8]) {
    let dir: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(target);
    std::fs::create_dir_all(&dir).expect("corpus folder");
    std::fs::write(dir.join(format!("seed-{name}")), data).expect("seed written");
}

fn u64le(v: u64) -> [u8; 8] {
    v.to_le_bytes()
}

/// Cells as a maze (pattern 4).
fn maze_cells(seed: u64) -> Vec<u8> {
    [&[4u8][..], &u64le(seed)].concat()
}

/// Cells at random, density d/255 (pattern 2).
fn random_cells(seed: u64, d: u8) -> Vec<u8> {
    [&[2u8][..], &u64le(seed), &[d]].concat()
}

/// Constant cells with toggles (pattern 3); coordinates as single bytes (sides up to 256).
fn constant(v: bool, toggles: &[(u8, u8)]) -> Vec<u8> {
    let mut out = vec![3, u8::from(v), toggles.len() as u8];
    for &(x, y) in toggles {
        out.extend([x, y]);
    }
    out
}

/// A runtime grid of `w x h` (sides up to 200) for `on_any_board`.
fn grid(w: u8, h: u8) -> Vec<u8> {
    vec![15, w - 1, h - 1]
}

fn text_to_maze(w: usize, h: usize, seed: u64) -> String {
    let m = maze(w, h, seed);
    let mut s = String::new();
    for y in 0..h {
        for x in 0..w {
            s.push(if m[y * w + x] { '.' } else { '#' });
        }
        s.push('\n');
    }
    s
}

fn png<P: image::Pixel<Subpixel = S> + image::PixelWithColorType, S: image::Primitive>(
    img: ImageBuffer<P, Vec<S>>,
) -> Vec<u8>
where
    [S]: image::EncodableLayout,
{
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, ImageFormat::Png)
        .expect("png encoded");
    out.into_inner()
}

fn main() {
    // Text grids: valid, CRLF, trailing blanks, ragged, a bad byte, game texts, a maze.
    write("text", "small", b"..#\n#..\n");
    write("text", "crlf", b"#.#\r\n.#.\r\n\r\n  \n");
    write("text", "ragged", b"...\n..\n");
    write("text", "bad-byte", b"..\t\n...\n");
    write("text", "tsu19", CHAIN19.as_bytes());
    write(
        "text",
        "amazons-start",
        gridbits::games::amazons::Position::start()
            .to_text()
            .as_bytes(),
    );
    write("text", "maze", text_to_maze(21, 11, 3).as_bytes());
    write("text", "empty", b"");

    // PBM: plain and raw, with a comment, and a truncated one.
    write(
        "pbm",
        "p1",
        b"P1\n# a comment\n5 3\n0 1 0 1 1\n1 0 0 0 1\n11100\n",
    );
    write("pbm", "p4", b"P4\n10 2\n\xa5\x40\xff\xc0");
    write("pbm", "p4-truncated", b"P4\n16 4\n\xff\x00\x0f");
    write("pbm", "p1-1x1", b"P1 1 1 1");

    // PNG: grey 8-bit, grey 16-bit, grey+alpha, RGB, RGBA.
    let grey = ImageBuffer::from_fn(13, 5, |x, y| Luma([((x * 37 + y * 91) % 256) as u8]));
    write("png", "grey8", &png(grey));
    let grey16 = ImageBuffer::from_fn(9, 3, |x, y| Luma([((x * 7919 + y * 4111) % 65536) as u16]));
    write("png", "grey16", &png(grey16));
    let ga = ImageBuffer::from_fn(5, 4, |x, y| LumaA([(x * 60) as u8, (y * 80) as u8]));
    write("png", "grey-alpha", &png(ga));
    let rgb = ImageBuffer::from_fn(7, 2, |x, y| Rgb([(x * 40) as u8, (y * 200) as u8, 30]));
    write("png", "rgb", &png(rgb));
    let rgba = ImageBuffer::from_fn(65, 2, |x, y| Rgba([x as u8 * 3, 0, 255, (y * 255) as u8]));
    write("png", "rgba-65", &png(rgba));

    // Fill: a maze from its corner; random 6x12; a full 64x64; a 65x3 grid of raw bits.
    write(
        "fill",
        "maze",
        &[
            grid(41, 31),
            vec![0],
            maze_cells(1),
            constant(false, &[(0, 0)]),
        ]
        .concat(),
    );
    write(
        "fill",
        "random-6x12",
        &[
            vec![5, 1],
            random_cells(7, 180),
            constant(false, &[(0, 0), (5, 11)]),
        ]
        .concat(),
    );
    write(
        "fill",
        "full-64x64",
        &[
            vec![14, 0],
            constant(true, &[]),
            constant(false, &[(63, 63)]),
        ]
        .concat(),
    );
    let raw: Vec<u8> = (0..25u32).map(|i| (i * 73 % 251) as u8).collect();
    write(
        "fill",
        "raw-65x3",
        &[grid(65, 3), vec![1, 0], raw, constant(false, &[(64, 2)])].concat(),
    );

    // Distance: a maze; a 10x10 queen board with walls; rook moves with random connections.
    write(
        "distance",
        "maze",
        &[
            grid(41, 31),
            vec![0],
            maze_cells(2),
            constant(false, &[(0, 0)]),
            vec![0],
        ]
        .concat(),
    );
    let mut walls = vec![2, 10];
    for i in 0..10u8 {
        walls.extend([i, 9 - i, i % 8]);
    }
    write(
        "distance",
        "queen-walls",
        &[
            vec![9, 4],
            random_cells(3, 200),
            constant(false, &[(1, 1), (8, 8)]),
            walls,
        ]
        .concat(),
    );
    let mut con = vec![1];
    for i in 0..8 {
        con.extend(random_cells(i, 220));
    }
    write(
        "distance",
        "rook-con",
        &[
            grid(70, 5),
            vec![2],
            random_cells(4, 170),
            constant(false, &[(3, 3)]),
            con,
        ]
        .concat(),
    );

    // Voronoi: Tron on 30x20; eight players in a maze.
    write(
        "voronoi",
        "tron",
        &[
            vec![13, 0, 2],
            random_cells(5, 230),
            vec![0, 3, 10, 0, 26, 10, 0],
        ]
        .concat(),
    );
    let mut players = vec![];
    for p in 0..8u8 {
        players.extend([0, (p * 5) % 41 / 2 * 2, (p * 7) % 31 / 2 * 2]);
    }
    write(
        "voronoi",
        "maze-8",
        &[grid(41, 31), vec![1, 8], maze_cells(6), players, vec![0]].concat(),
    );

    // Slide: queen rays on 10x10; a 129x4 grid.
    let line: Vec<u8> = (0..33u32).map(|i| (i * 151 % 256) as u8).collect();
    write(
        "slide",
        "10x10",
        &[
            vec![9, 2, 4],
            random_cells(8, 200),
            constant(false, &[(1, 1), (5, 5), (8, 2)]),
            line.clone(),
        ]
        .concat(),
    );
    write(
        "slide",
        "129x4",
        &[
            grid(129, 4),
            vec![5, 2],
            random_cells(9, 230),
            random_cells(10, 20),
            line,
        ]
        .concat(),
    );

    // Components: a Puyo-like 6x12 plane; 19x19 at half density.
    let classes: Vec<u8> = (0..72u32).map(|i| (i * 7 % 4) as u8).collect();
    write(
        "components",
        "6x12",
        &[vec![5, 0], random_cells(11, 120), vec![4, 2, 3], classes].concat(),
    );
    let classes: Vec<u8> = (0..361u32).map(|i| (i * 5 % 4) as u8).collect();
    write(
        "components",
        "19x19",
        &[vec![10, 1], random_cells(12, 128), vec![3, 5, 5], classes].concat(),
    );

    // Labelling: a 65x33 maze in stripes; rectangles on 127x99.
    write(
        "label",
        "maze",
        &[grid(65, 33), vec![1], maze_cells(13), vec![2]].concat(),
    );
    let mut rects = vec![5, 15];
    for i in 0..15u8 {
        rects.extend([i * 8, i * 6, 20, 10]);
    }
    write(
        "label",
        "rects",
        &[grid(127, 99), vec![0], rects, vec![7]].concat(),
    );

    // Lines: a 10x40 Tetris matrix as row chunks; 10 columns of 20 rows with gravity.
    write(
        "lines",
        "chunks-10x40",
        &[vec![0, 9, 39], random_cells(14, 200), random_cells(15, 60)].concat(),
    );
    let values: Vec<u8> = (0..200u32).map(|i| (i * 13 % 5) as u8).collect();
    write(
        "lines",
        "columns-10x20",
        &[
            vec![5, 19],
            random_cells(16, 200),
            random_cells(17, 80),
            u64le(0x5555).to_vec(),
            vec![3],
            values,
        ]
        .concat(),
    );

    // Tetris: a random 10x20 stack, every piece from the spawn; a 4-wide well.
    for p in 0..7u8 {
        write(
            "tetris_moves",
            &format!("10x20-piece{p}"),
            &[
                vec![2, 19],
                random_cells(18 + u64::from(p), 90),
                vec![p, p % 2, 1, 3, 2, 1, 4, 10, 5, 0, 2, 7, 3],
            ]
            .concat(),
        );
    }
    write(
        "tetris_moves",
        "padded-7",
        &[vec![4, 5, 39], random_cells(30, 60), vec![5, 0, 1]].concat(),
    );

    // Puyo: the Tsu 19-chain field (13 rows), then a pair.
    let mut field = vec![1, 0];
    for c in CHAIN19.bytes().filter(|&c| c != b'\n') {
        match b"RGBYP".iter().position(|&k| k == c) {
            Some(i) => field.extend([0, i as u8]),
            None => field.push(6),
        }
    }
    write("puyo", "tsu19", &[field, vec![0, 1, 2, 1]].concat());
    write(
        "puyo",
        "stc-random",
        &(0..160u32)
            .map(|i| (i * 97 % 256) as u8)
            .collect::<Vec<_>>(),
    );

    // Amazons: the start position, and a crowded middle game.
    let start = gridbits::games::amazons::Position::start();
    let mut cells = vec![0];
    for y in 0..10 {
        for x in 0..10 {
            cells.push(if start.white().get(x, y) {
                0
            } else if start.black().get(x, y) {
                8
            } else {
                255
            });
        }
    }
    write("amazons", "start", &[cells, vec![0, 17]].concat());
    let mid: Vec<u8> = (0..103u32)
        .map(|i| if i == 0 { 100 } else { (i * 89 % 256) as u8 })
        .collect();
    write("amazons", "middle", &mid);
}
