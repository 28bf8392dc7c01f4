//! `gridbits show`: parse a grid or image; print its size, set cells and the grid.

use crate::input::{read_input, write_png, CliError};
use crate::output::{check_png_target, png_to_stdout};
use clap::Args;

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

/// Runs the command, returning what to print.
pub fn run(args: &ShowArgs) -> Result<String, CliError> {
    check_png_target(args.png.as_deref(), args.json)?;
    let grid = read_input(args.file.as_deref())?.into_bits(|c| c != b'.')?;
    if let Some(out) = &args.png {
        write_png(&grid, out)?;
        if png_to_stdout(Some(out)) {
            return Ok(String::new());
        }
    }
    let (w, h) = (grid.width(), grid.height());
    let printable = args.full || (w <= PRINT_LIMIT && h <= PRINT_LIMIT);
    if args.json {
        let mut obj = serde_json::json!({
            "width": w, "height": h, "count": grid.count(), "truncated": !printable,
        });
        if printable {
            obj["rows"] = grid.to_text().lines().collect::<Vec<_>>().into();
        }
        return Ok(format!("{obj}\n"));
    }
    let mut out = format!("size: {w}x{h}\nset: {}\n", grid.count());
    if printable {
        out.push_str(&crate::render::grid(&grid, crate::render::color_enabled()));
    } else {
        out.push_str(&format!(
            "(grid larger than {PRINT_LIMIT}x{PRINT_LIMIT} not printed; use --full or --png OUT)\n"
        ));
    }
    Ok(out)
}
