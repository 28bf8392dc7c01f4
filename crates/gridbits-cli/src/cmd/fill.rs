//! `gridbits fill`: flood fill from one free cell.

use super::{ConnArg, DRAW_LIMIT};
use crate::input::{read_input, write_png, CliError};
use crate::render::paint;
use clap::Args;
use gridbits::algo::fill::fill;
use gridbits::BitGrid;
use std::fmt::Write as _;

/// Options of `gridbits fill` (see CLI.md).
#[derive(Args, Debug)]
pub struct FillArgs {
    /// Input file: text grid (`.` free, anything else blocked), .pbm or .png (set pixels
    /// blocked); `-` or nothing for standard input.
    pub file: Option<String>,
    /// The start cell, `X,Y` (column, row; from 0, top-left); it must be free.
    #[arg(long, value_name = "X,Y", value_parser = parse_xy)]
    pub from: (usize, usize),
    /// Which neighbours are adjacent.
    #[arg(long, value_enum, default_value = "4")]
    pub connectivity: ConnArg,
    /// Print one JSON object: `size` and `cells`.
    #[arg(long)]
    pub json: bool,
    /// Also write the filled cells as a PNG image (filled = white).
    #[arg(long, value_name = "OUT")]
    pub png: Option<String>,
}

/// Parses `X,Y`.
pub fn parse_xy(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected X,Y (two whole numbers), got '{s}'");
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    Ok((
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    ))
}

/// Runs the command, returning what to print.
pub fn run(args: &FillArgs) -> Result<String, CliError> {
    let input = read_input(args.file.as_deref())?;
    let text = match &input {
        crate::input::Input::Text(t) => Some(t.clone()),
        crate::input::Input::Image(_) => None,
    };
    let blocked = input.into_bits(|c| c != b'.')?;
    let (w, h) = (blocked.width(), blocked.height());
    let (x, y) = args.from;
    if x >= w || y >= h {
        return Err(CliError::msg(format!(
            "--from {x},{y} is outside the {w}x{h} grid"
        )));
    }
    if blocked.get(x, y) {
        let c = text.as_ref().map_or('#', |t| t.get(x, y) as char);
        return Err(CliError::msg(format!(
            "--from {x},{y} is a blocked cell ('{c}'): fill starts from a free cell"
        )));
    }
    let free = !&blocked;
    let mut seed = BitGrid::new(w, h).map_err(|e| CliError::msg(e.to_string()))?;
    seed.set(x, y);
    let filled = fill(&seed, &free, args.connectivity.into());
    if let Some(out) = &args.png {
        write_png(&filled, out)?;
    }
    if args.json {
        // Written directly: a JSON value tree would take ~140 bytes per filled cell.
        let mut out = format!("{{\"size\":{},\"cells\":[", filled.count());
        for (i, (x, y)) in filled.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "[{x},{y}]");
        }
        out.push_str("]}\n");
        return Ok(out);
    }
    let mut out = format!(
        "filled {} cells from ({x}, {y}), {}-connected\n",
        filled.count(),
        match args.connectivity {
            ConnArg::Four => 4,
            ConnArg::Eight => 8,
        }
    );
    if w > DRAW_LIMIT || h > DRAW_LIMIT {
        out.push_str("(grid too large to draw; use --json or --png OUT)\n");
        return Ok(out);
    }
    out.push_str(&draw(
        text.as_ref(),
        &blocked,
        &filled,
        crate::render::color_enabled(),
    ));
    Ok(out)
}

/// The grid redrawn: filled cells as `o`, others as their input character (`#`/`.` for
/// images).
fn draw(
    text: Option<&gridbits::CharGrid>,
    blocked: &BitGrid,
    filled: &BitGrid,
    color: bool,
) -> String {
    let mut out = String::new();
    for y in 0..blocked.height() {
        for x in 0..blocked.width() {
            if filled.get(x, y) {
                out.push_str(&paint('o', Some(2), color));
            } else {
                let c = text.map_or(if blocked.get(x, y) { '#' } else { '.' }, |t| {
                    t.get(x, y) as char
                });
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// This command's section of `gridbits demo`.
pub fn demo(color: bool) -> String {
    let cave = "\
##########################
#....#.........#.........#
#....#..####...#...###...#
#....#..#..#.......#.#...#
#.......#..#########.#...#
######..#............#...#
#.......######.#######...#
#..###.........#.........#
##########################
";
    let mut out =
        String::from("flood fill (bit-parallel dilation to a fixpoint), from (1, 1):\n\n");
    let parsed = gridbits::CharGrid::parse(cave.as_bytes())
        .ok()
        .and_then(|t| {
            BitGrid::from_char_grid(&t, |c| c != b'.')
                .ok()
                .map(|b| (t, b))
        });
    if let Some((t, blocked)) = parsed {
        let free = !&blocked;
        let mut seed = free.empty_like();
        seed.set(1, 1);
        let filled = fill(&seed, &free, gridbits::Connectivity::Four);
        out.push_str(&draw(Some(&t), &blocked, &filled, color));
        out.push_str(&format!("{} cells reached\n", filled.count()));
    }
    out
}
