//! `gridbits morph`: binary morphology (dilate, erode, open, close, fill holes) by a
//! square, cross, disk, diamond or rectangle, through `gridbits::algo::morph`.
//!
//! Conventions are scipy.ndimage's: cells off the grid are empty (erosion eats in from the
//! edges), the footprint is centred on its middle cell (`width / 2`, `height / 2` for even
//! sides), `--iterations 0` repeats until nothing changes.

use super::{too_large_note, DRAW_LIMIT};
use crate::input::{CliError, Input};
use crate::output::{check_png_target, png_to_stdout, write_png, Chunked};
use crate::progress::{read_input, Progress};
use clap::{Args, ValueEnum};
use gridbits::algo::morph::{
    try_closing_with, try_dilation_with, try_erosion_with, try_fill_holes, try_opening_with,
    Footprint, Iterations, MorphOptions, MAX_FOOTPRINT_SIDE,
};
use gridbits::BitGrid;
use std::io::Write;

/// The operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Op {
    /// Each set cell stamps the footprint.
    Dilate,
    /// Keep the cells whose footprint lies on set cells only.
    Erode,
    /// Erode, then dilate: removes what the footprint does not fit in.
    Open,
    /// Dilate, then erode: fills gaps the footprint does not fit in.
    Close,
    /// Set the empty cells the edges cannot reach through empty cells (by the footprint's
    /// steps: the cross for 4-connected background, `square` for 8).
    FillHoles,
}

/// The footprint's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Shape {
    /// The centre and its 4 neighbours, arms `--radius` long.
    Cross,
    /// A `2R+1` square.
    Square,
    /// The cells within Euclidean distance R (scikit-image's `disk`).
    Disk,
    /// The cells within R 4-steps (scikit-image's `diamond`).
    Diamond,
    /// A `--size HxW` rectangle.
    Rect,
}

/// Options of `gridbits morph`.
#[derive(Args, Debug)]
pub struct MorphArgs {
    /// The operation.
    #[arg(value_enum)]
    pub op: Op,
    /// Input file: text grid (`.` empty, anything else set) or image (PNG, PBM, PGM, PPM,
    /// recognised by content); `-` or nothing for standard input.
    pub file: Option<String>,
    /// The footprint's shape.
    #[arg(long, value_enum, default_value = "cross")]
    pub footprint: Shape,
    /// The footprint's radius (cross, square, disk, diamond).
    #[arg(long, value_name = "R", default_value = "1", conflicts_with = "size")]
    pub radius: usize,
    /// The rectangle's size, `HxW` (rows x columns), with `--footprint rect`.
    #[arg(long, value_name = "HxW", value_parser = parse_size)]
    pub size: Option<(usize, usize)>,
    /// How many times to apply the operation (0: until nothing changes; open and close
    /// erode and dilate this many times each).
    #[arg(long, value_name = "N", default_value = "1")]
    pub iterations: usize,
    /// Print one JSON object: `width`, `height`, `count` (set cells after), `before` (set
    /// cells before) and `rows` (strings, `#` set, `.` empty).
    #[arg(long)]
    pub json: bool,
    /// Also write the result as a PNG image (set = white; `-` for standard output).
    #[arg(long, value_name = "OUT.png")]
    pub png: Option<String>,
}

/// Parses `HxW` (two whole numbers of at least 1).
fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected HxW (rows x columns, whole numbers from 1), got '{s}'");
    let (h, w) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (h, w): (usize, usize) = (
        h.trim().parse().map_err(|_| bad())?,
        w.trim().parse().map_err(|_| bad())?,
    );
    if h == 0 || w == 0 {
        return Err(bad());
    }
    Ok((h, w))
}

/// The footprint the options describe, or an error naming the option, built only as far as
/// `reach` `(x, y)` from its centre: the cells with `|dx| <= x` and `|dy| <= y`.
///
/// With the grid's width and height as `reach`, this is exact: an offset with `|dx| >=
/// width` or `|dy| >= height` joins no two cells of the grid, and only whether the footprint
/// has one matters (the library cuts them the same way, `Footprint::within`); each shape
/// that reaches past the grid keeps such a cell on the edge of the window (`(x, 0)` or `(0,
/// y)`, which every shape here holds out to its radius). So a disk of radius 32767 on a
/// small grid is a small pattern, not 2^32 cells built before any work.
fn footprint(args: &MorphArgs, reach: (usize, usize)) -> Result<Footprint, CliError> {
    let r = args.radius;
    let err = |e: gridbits::SizeError| CliError::msg(format!("--radius {r}: {e}"));
    // The library's error for a side past its limit (raised before any allocation).
    let too_large = |w: usize, h: usize| {
        Footprint::try_from_fn(w, h, |_, _| false).err().map_or_else(
            || format!("cannot make a {w}x{h} footprint: a side is larger than {MAX_FOOTPRINT_SIDE}"),
            |e| e.to_string(),
        )
    };
    // Offsets `-c..side - c` of one axis cut to `-reach..=reach`: the window's first
    // pattern cell and its length.
    let window = |side: usize, c: usize, reach: usize| {
        let lo = c.saturating_sub(reach);
        let hi = (c + reach).min(side - 1);
        (lo, hi - lo + 1)
    };
    match (args.footprint, args.size) {
        (Shape::Rect, Some((h, w))) => {
            let size_err = |e: gridbits::SizeError| CliError::msg(format!("--size {h}x{w}: {e}"));
            if w > MAX_FOOTPRINT_SIDE || h > MAX_FOOTPRINT_SIDE {
                return Err(CliError::msg(format!(
                    "--size {h}x{w}: {}",
                    too_large(w, h)
                )));
            }
            let ((x0, cw), (y0, ch)) = (window(w, w / 2, reach.0), window(h, h / 2, reach.1));
            Footprint::try_rect(cw, ch)
                .map(|fp| fp.with_center((w / 2 - x0) as isize, (h / 2 - y0) as isize))
                .map_err(size_err)
        }
        (Shape::Rect, None) => Err(CliError::msg(
            "--footprint rect needs --size HxW (for example --size 3x5)",
        )),
        (_, Some(_)) => Err(CliError::msg(
            "--size is for --footprint rect; the other footprints take --radius",
        )),
        (shape, None) => {
            let side = r
                .checked_mul(2)
                .and_then(|s| s.checked_add(1))
                .unwrap_or(usize::MAX);
            if side > MAX_FOOTPRINT_SIDE {
                return Err(CliError::msg(format!(
                    "--radius {r}: {}",
                    too_large(side, side)
                )));
            }
            let (rx, ry) = (r.min(reach.0), r.min(reach.1));
            let r2 = (r as u64) * (r as u64);
            Footprint::try_from_fn(2 * rx + 1, 2 * ry + 1, |x, y| {
                let (dx, dy) = (x.abs_diff(rx) as u64, y.abs_diff(ry) as u64);
                match shape {
                    Shape::Square | Shape::Rect => true,
                    Shape::Disk => dx * dx + dy * dy <= r2,
                    Shape::Diamond => dx + dy <= r as u64,
                    Shape::Cross => dx == 0 || dy == 0,
                }
            })
            .map_err(err)
        }
    }
}

/// A short name of the footprint for the summary line (the options', not the cut pattern's).
fn describe(args: &MorphArgs) -> String {
    let side = args.radius.saturating_mul(2).saturating_add(1);
    match (args.footprint, args.size) {
        (Shape::Rect, Some((h, w))) => format!("{h}x{w} rectangle"),
        (Shape::Rect, None) => "rectangle".to_string(),
        (Shape::Square, _) => format!("{side}x{side} square"),
        (Shape::Cross, _) => format!("cross of radius {}", args.radius),
        (Shape::Disk, _) => format!("disk of radius {}", args.radius),
        (Shape::Diamond, _) => format!("diamond of radius {}", args.radius),
    }
}

/// Runs the command, writing its result to `out`.
pub fn run(args: &MorphArgs, out: &mut dyn Write) -> Result<(), CliError> {
    check_png_target(args.png.as_deref(), args.json)?;
    // The options are checked before the input is read; the footprint is built after, cut
    // to the grid.
    footprint(args, (0, 0))?;
    let grid = match read_input(args.file.as_deref())? {
        Input::Text(t) => {
            BitGrid::from_char_grid(&t, |c| c != b'.').map_err(|e| CliError::msg(e.to_string()))?
        }
        Input::Image(g) => g,
    };
    let (w, h) = (grid.width(), grid.height());
    let fp = footprint(args, (w, h))?;
    let progress = Progress::for_grid(w, h);
    progress.phase("morphology");
    let opts = MorphOptions {
        border: false,
        iterations: if args.iterations == 0 {
            Iterations::UntilStable
        } else {
            Iterations::Times(args.iterations)
        },
        mask: None,
    };
    // The fallible forms: the engine's tables grow with the footprint (cut to the grid's
    // size first), and a size this machine cannot allocate is an error, not an abort.
    let result = match args.op {
        Op::Dilate => try_dilation_with(&grid, &fp, &opts),
        Op::Erode => try_erosion_with(&grid, &fp, &opts),
        Op::Open => try_opening_with(&grid, &fp, &opts),
        Op::Close => try_closing_with(&grid, &fp, &opts),
        Op::FillHoles => try_fill_holes(&grid, &fp),
    }
    .map_err(|e| CliError::msg(e.to_string()))?;
    if let Some(path) = &args.png {
        progress.phase(format!("writing {path}"));
        write_png(&result, path)?;
        if png_to_stdout(Some(path)) {
            return Ok(());
        }
    }
    drop(progress);
    let (before, count) = (grid.count(), result.count());
    if args.json {
        let mut out = Chunked::new(out);
        out.str(&format!(
            "{{\"before\":{before},\"count\":{count},\"height\":{h},\"rows\":["
        ))?;
        for y in 0..h {
            out.str(if y == 0 { "\"" } else { ",\"" })?;
            let row: String = (0..w)
                .map(|x| if result.get(x, y) { '#' } else { '.' })
                .collect();
            out.str(&row)?;
            out.str("\"")?;
        }
        out.str(&format!("],\"width\":{w}}}\n"))?;
        return Ok(out.finish()?);
    }
    let name = args
        .op
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string());
    writeln!(
        out,
        "{name} by a {}: {count} cells set (before: {before})",
        describe(args)
    )?;
    if w > DRAW_LIMIT || h > DRAW_LIMIT {
        out.write_all(too_large_note(true).as_bytes())?;
        return Ok(());
    }
    Ok(out.write_all(result.to_text().as_bytes())?)
}
