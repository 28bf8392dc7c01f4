//! `gridbits skeleton`: the skeleton (or, with `--thin`, the thinned image) of the set
//! cells: scikit-image's `skeletonize` and `thin`, pixel for pixel.

use super::{too_large_note, DRAW_LIMIT};
use crate::input::CliError;
use crate::output::{check_png_target, png_to_stdout, write_png, Chunked};
use crate::progress::{read_input, Progress};
use clap::Args;
use gridbits::algo::skeleton::{skeletonize, thin};
use gridbits::BitGrid;
use std::io::Write;

/// Options of `gridbits skeleton`.
#[derive(Args, Debug)]
pub struct SkeletonArgs {
    /// Input file: text grid (`.` empty, anything else set) or image (set pixels are the
    /// shapes); `-` or nothing for standard input.
    pub file: Option<String>,
    /// Guo and Hall's thinning (`skimage.morphology.thin`) instead of the Zhang–Suen
    /// skeleton (`skimage.morphology.skeletonize`).
    #[arg(long)]
    pub thin: bool,
    /// With --thin: stop after N iterations (each of both sub-iterations) even if the
    /// image still changes.
    #[arg(long, value_name = "N", requires = "thin")]
    pub max_iter: Option<usize>,
    /// Print one JSON object: `width`, `height`, `method`, `input` (set cells in),
    /// `count` (cells kept) and `cells`.
    #[arg(long)]
    pub json: bool,
    /// Also write the skeleton as a PNG image (skeleton = white; `-` for standard output).
    #[arg(long, value_name = "OUT.png")]
    pub png: Option<String>,
}

/// Runs the command, writing its result to `out`.
pub fn run(args: &SkeletonArgs, out: &mut dyn Write) -> Result<(), CliError> {
    check_png_target(args.png.as_deref(), args.json)?;
    let grid = read_input(args.file.as_deref())?.into_bits(|c| c != b'.')?;
    let (w, h) = (grid.width(), grid.height());
    let method = if args.thin { "thin" } else { "zhang" };
    let progress = Progress::for_grid(w, h);
    progress.phase(if args.thin {
        "thinning"
    } else {
        "skeletonizing"
    });
    let skel = if args.thin {
        thin(&grid, args.max_iter)
    } else {
        skeletonize(&grid)
    };
    if let Some(path) = &args.png {
        progress.phase(format!("writing {path}"));
        write_png(&skel, path)?;
        if png_to_stdout(Some(path)) {
            return Ok(());
        }
    }
    let (input, count) = (grid.count(), skel.count());
    if args.json {
        progress.bar("writing JSON", count);
        let mut out = Chunked::new(out);
        out.str(&format!(
            "{{\"width\":{w},\"height\":{h},\"method\":\"{method}\",\"input\":{input},\
             \"count\":{count},\"cells\":"
        ))?;
        out.cells(progress.counted(skel.iter()))?;
        out.str("}\n")?;
        return Ok(out.finish()?);
    }
    drop(progress);
    let name = if args.thin { "thinned" } else { "skeleton" };
    writeln!(
        out,
        "{name} ({method}): {count} of {input} set cells kept (#), {} removed (+)",
        input - count
    )?;
    if w > DRAW_LIMIT || h > DRAW_LIMIT {
        out.write_all(too_large_note(true).as_bytes())?;
        return Ok(());
    }
    Ok(out.write_all(draw(&grid, &skel).as_bytes())?)
}

/// The grid redrawn: kept cells `#`, removed cells `+`, empty cells `.`.
fn draw(grid: &BitGrid, skel: &BitGrid) -> String {
    let mut out = String::with_capacity((grid.width() + 1) * grid.height());
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            out.push(match (skel.get(x, y), grid.get(x, y)) {
                (true, _) => '#',
                (false, true) => '+',
                (false, false) => '.',
            });
        }
        out.push('\n');
    }
    out
}
