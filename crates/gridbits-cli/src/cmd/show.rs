//! `gridbits show`: parse a grid or image; print its size, set cells and the grid.

use crate::input::CliError;
use crate::output::{check_png_target, png_to_stdout, write_png, Chunked};
use crate::progress::read_input;
use crate::render::write_row;
use clap::Args;
use std::io::Write;

/// Options of `gridbits show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Input file: text grid (`.` empty, anything else set) or image; `-` or nothing for
    /// standard input.
    pub file: Option<String>,
    /// Print one JSON object: `width`, `height`, `count`, `truncated` and (unless truncated)
    /// `rows`.
    #[arg(long)]
    pub json: bool,
    /// Print the grid (and its JSON `rows`) even when it is larger than 256 x 256.
    #[arg(long)]
    pub full: bool,
    /// Also write the grid as a PNG image (set = white; `-` for standard output).
    #[arg(long, value_name = "OUT.png")]
    pub png: Option<String>,
}

/// Largest grid `show` prints without `--full`.
const PRINT_LIMIT: usize = 256;

/// Runs the command, writing its result to `out` row by row.
pub fn run(args: &ShowArgs, out: &mut dyn Write) -> Result<(), CliError> {
    check_png_target(args.png.as_deref(), args.json)?;
    let grid = read_input(args.file.as_deref())?.into_bits(|c| c != b'.')?;
    if let Some(path) = &args.png {
        write_png(&grid, path)?;
        if png_to_stdout(Some(path)) {
            return Ok(());
        }
    }
    let (w, h) = (grid.width(), grid.height());
    let printable = args.full || (w <= PRINT_LIMIT && h <= PRINT_LIMIT);
    let count = grid.count();
    let mut out = Chunked::new(out);
    if args.json {
        // The keys in sorted order, as the JSON object always had them.
        out.str(&format!("{{\"count\":{count},\"height\":{h},"))?;
        if printable {
            out.str("\"rows\":[")?;
            for y in 0..h {
                out.str(if y == 0 { "\"" } else { ",\"" })?;
                write_row(&mut out, &grid, y, false)?;
                out.str("\"")?;
            }
            out.str("],")?;
        }
        out.str(&format!("\"truncated\":{},\"width\":{w}}}\n", !printable))?;
        return Ok(out.finish()?);
    }
    out.str(&format!("size: {w}x{h}\nset: {count}\n"))?;
    if printable {
        let color = crate::render::color_enabled();
        for y in 0..h {
            write_row(&mut out, &grid, y, color)?;
            out.str("\n")?;
        }
    } else {
        out.str(&format!(
            "(grid larger than {PRINT_LIMIT}x{PRINT_LIMIT} not printed; use --full or --png OUT)\n"
        ))?;
    }
    Ok(out.finish()?)
}
