//! `gridbits demo`: the library's operations on built-in boards, then one section per command
//! (fills, Voronoi, components, Amazons, Tetris, Puyo).

use crate::render::{lines, side_by_side};
use gridbits::{bitboard, BitGrid, Board10x10, Board6x12, Connectivity, Dir, GridView};

fn panel(title: &str, view: &impl GridView, color: bool) -> (String, usize, Vec<String>) {
    (title.to_string(), view.width(), lines(view, color))
}

/// Renders the demo.
pub fn run(color: bool) -> String {
    let mut out = String::new();
    let shape = bitboard!(Board10x10;
        "..........",
        ".##.......",
        ".##....#..",
        "......###.",
        ".......#..",
        "..........",
        "...####...",
        "...#..#...",
        "...####...",
        "..........");
    out.push_str("gridbits demo: a 10x10 board in two u64 words (u128 layout, guard column)\n\n");
    let mut shifts = vec![panel("board", &shape, color)];
    for (name, d) in [
        ("N", Dir::N),
        ("E", Dir::E),
        ("SW", Dir::SW),
        ("NE x3", Dir::NE),
    ] {
        let b = if name == "NE x3" {
            shape.shift_by(d, 3)
        } else {
            shape.shift(d)
        };
        shifts.push(panel(&format!("shift {name}"), &b, color));
    }
    out.push_str(&side_by_side(&shifts));
    out.push('\n');
    out.push_str(&side_by_side(&[
        panel("dilate 4", &shape.dilate(Connectivity::Four), color),
        panel("dilate 8", &shape.dilate(Connectivity::Eight), color),
        panel("erode 4", &shape.erode(Connectivity::Four), color),
        panel("border", &Board10x10::BORDER, color),
        panel("!board", &!shape, color),
    ]));

    // A flood fill by repeated dilation inside the free cells of a Puyo-sized board.
    let walls = bitboard!(Board6x12;
        "......", ".####.", ".#..#.", ".#..#.", ".##.#.", "....#.",
        "####.#", "......", ".####.", ".#....", ".#.###", "......");
    let free = !walls;
    let mut region = Board6x12::cell(2, 2);
    let mut steps = 0;
    loop {
        let next = region.dilate_within(Connectivity::Four, free);
        if next == region {
            break;
        }
        region = next;
        steps += 1;
    }
    out.push_str(&format!(
        "\nflood fill on a 6x12 board from (2, 2), 4-connected: {} cells in {steps} dilations\n\n",
        region.count()
    ));
    out.push_str(&side_by_side(&[
        panel("walls", &walls, color),
        panel("filled", &region, color),
    ]));

    // The runtime-sized grid: same operations, any size.
    let mut g = BitGrid::new(70, 5);
    for x in (0..70).step_by(9) {
        g.set(x, 2);
    }
    let d = g.dilate(Connectivity::Eight);
    out.push_str(&format!(
        "\na 70x5 BitGrid (2 words per row) and its 8-dilation: {} -> {} cells\n\n",
        g.count(),
        d.count()
    ));
    out.push_str(&side_by_side(&[panel("grid", &g, color)]));
    out.push_str(&side_by_side(&[panel("dilate 8", &d, color)]));

    // Each command adds its own section.
    for section in [
        crate::cmd::fill::demo(color),
        crate::cmd::distance::demo(color),
        crate::cmd::voronoi::demo(color),
        crate::cmd::reach::demo(color),
        crate::cmd::amazons::demo(color),
        crate::cmd::components::demo(color),
        crate::cmd::tetris::demo(color),
        crate::cmd::puyo::demo(color),
    ] {
        if !section.is_empty() {
            out.push('\n');
            out.push_str(&section);
        }
    }
    out
}
