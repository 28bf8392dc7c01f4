//! `gridbits fill`: flood fill from one free cell.

use super::{parse_connectivity, parse_xy, too_large_note, DRAW_LIMIT};
use crate::input::{CliError, Input};
use crate::output::{check_png_target, png_to_stdout, write_png, Chars, Chunked};
use crate::progress::{read_input, Progress};
use crate::render::paint;
use clap::Args;
use gridbits::algo::fill::{fill, try_fill, try_fill_count};
use gridbits::{BitGrid, Connectivity};
use std::io::Write;

/// Options of `gridbits fill`.
#[derive(Args, Debug)]
pub struct FillArgs {
    /// Input file: text grid (`.` free, anything else blocked) or image (set pixels
    /// blocked); `-` or nothing for standard input.
    pub file: Option<String>,
    /// The start cell, `X,Y` (column, row; from 0, top-left); it must be free.
    #[arg(long, value_name = "X,Y", value_parser = parse_xy, allow_hyphen_values = true)]
    pub from: (usize, usize),
    /// Which neighbours are adjacent: 4 or 8.
    #[arg(long, visible_alias = "moves", value_name = "4|8", default_value = "4", value_parser = parse_connectivity)]
    pub connectivity: Connectivity,
    /// Print one JSON object: `size` and `cells`.
    #[arg(long)]
    pub json: bool,
    /// Also write the filled cells as a PNG image (filled = white; `-` for standard output).
    #[arg(long, value_name = "OUT.png")]
    pub png: Option<String>,
    /// Print only the number of cells reached (with --json, `{"size": N}`): the cells are
    /// counted in a window around the start, grown as the region needs, so a small pocket
    /// of a large image costs a few microseconds after reading it.
    #[arg(long, conflicts_with = "png")]
    pub count: bool,
}

/// Runs the command, writing its result to `out` as it goes.
pub fn run(args: &FillArgs, out: &mut dyn Write) -> Result<(), CliError> {
    check_png_target(args.png.as_deref(), args.json)?;
    let (text, blocked) = match read_input(args.file.as_deref())? {
        Input::Text(t) => {
            let blocked = BitGrid::from_char_grid(&t, |c| c != b'.')
                .map_err(|e| CliError::msg(e.to_string()))?;
            (Some(t), blocked)
        }
        Input::Image(g) => (None, g),
    };
    let (w, h) = (blocked.width(), blocked.height());
    let (x, y) = args.from;
    if x >= w || y >= h {
        return Err(CliError::msg(format!(
            "--from {x},{y} is outside the {w}x{h} grid (X from 0 to {}, Y from 0 to {})",
            w - 1,
            h - 1
        )));
    }
    if blocked.get(x, y) {
        let c = text.as_ref().map_or('#', |t| t.get(x, y) as char);
        return Err(CliError::msg(format!(
            "--from {x},{y} is a blocked cell ('{c}'): fill starts from a free cell"
        )));
    }
    let free = !&blocked;
    if args.count {
        let size = try_fill_count(&free, (x, y), args.connectivity)
            .map_err(|e| CliError::msg(e.to_string()))?;
        if args.json {
            writeln!(out, "{{\"size\":{size}}}")?;
        } else {
            writeln!(
                out,
                "filled {size} cells from ({x}, {y}), {}-connected",
                args.connectivity
            )?;
        }
        return Ok(());
    }
    let mut seed = BitGrid::try_new(w, h).map_err(|e| CliError::msg(e.to_string()))?;
    seed.set(x, y);
    // The text is kept only to draw it (and to pick a mark it does not use).
    let mark = Chars::of(text.as_ref()).pick(MARKS);
    let text = text.filter(|_| w <= DRAW_LIMIT && h <= DRAW_LIMIT);
    let progress = Progress::for_grid(w, h);
    progress.phase("filling");
    // The fill's run tables (up to about 3 bytes per cell) are reserved before the work.
    let filled =
        try_fill(&seed, &free, args.connectivity).map_err(|e| CliError::msg(e.to_string()))?;
    drop(free);
    if let Some(path) = &args.png {
        progress.phase(format!("writing {path}"));
        write_png(&filled, path)?;
        if png_to_stdout(Some(path)) {
            return Ok(());
        }
    }
    if args.json {
        // This key order (not sorted) is the one `fill --json` always had.
        let size = filled.count();
        progress.bar("writing JSON", size);
        let mut out = Chunked::new(out);
        out.str(&format!("{{\"size\":{size},\"cells\":"))?;
        out.cells(progress.counted(filled.iter()))?;
        out.str("}\n")?;
        return Ok(out.finish()?);
    }
    drop(progress);
    writeln!(
        out,
        "filled {} cells ({mark}) from ({x}, {y}), {}-connected",
        filled.count(),
        args.connectivity
    )?;
    if w > DRAW_LIMIT || h > DRAW_LIMIT {
        out.write_all(too_large_note(true).as_bytes())?;
        return Ok(());
    }
    let picture = draw(
        text.as_ref(),
        &blocked,
        &filled,
        mark,
        crate::render::color_enabled(),
    );
    Ok(out.write_all(picture.as_bytes())?)
}

/// Marks for filled cells, in order of preference: the first the input does not use.
const MARKS: &str = "o*+@%x";

/// The grid redrawn: filled cells as `mark`, others as their input character (`#`/`.` for
/// images).
fn draw(
    text: Option<&gridbits::CharGrid>,
    blocked: &BitGrid,
    filled: &BitGrid,
    mark: char,
    color: bool,
) -> String {
    let mut out = String::new();
    for y in 0..blocked.height() {
        for x in 0..blocked.width() {
            if filled.get(x, y) {
                out.push_str(&paint(mark, Some(2), color));
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
        let filled = fill(&seed, &free, Connectivity::Four);
        let mark = Chars::of(Some(&t)).pick(MARKS);
        out.push_str(&draw(Some(&t), &blocked, &filled, mark, color));
        out.push_str(&format!("{} cells reached\n", filled.count()));
    }
    out
}
