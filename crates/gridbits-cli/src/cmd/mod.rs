//! One module per command: its clap options, `run`, and its `demo` section.

pub mod amazons;
pub mod components;
pub mod distance;
pub mod fill;
pub mod morph;
pub mod puyo;
pub mod reach;
pub mod regionprops;
pub mod show;
pub mod skeleton;
pub mod tetris;
pub mod transform;
pub mod voronoi;

use gridbits::{Connectivity, Moves};

/// Parses `--moves` (`4`, `8`, `rook`, `bishop`, `queen`) with the library's names.
pub fn parse_moves(s: &str) -> Result<Moves, String> {
    s.parse().map_err(|e: gridbits::UnknownName| e.to_string())
}

/// Parses `--connectivity` (`4` or `8`) with the library's names.
pub fn parse_connectivity(s: &str) -> Result<Connectivity, String> {
    s.parse().map_err(|e: gridbits::UnknownName| e.to_string())
}

/// Parses `X,Y` (column, row; from 0, top-left). A negative coordinate is a cell off the
/// grid, said so (the options that take cells accept a leading `-`, so that `--from -1,0`
/// reaches here instead of reading as an option).
pub fn parse_xy(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected X,Y (two whole numbers), got '{s}'");
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    let (x, y): (i128, i128) = (
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    );
    if x < 0 || y < 0 {
        return Err(format!(
            "the cell {x},{y} is off the grid: X and Y count from 0 (the top-left cell is 0,0)"
        ));
    }
    let fit = |v: i128| usize::try_from(v).map_err(|_| format!("the cell {x},{y} is off the grid"));
    Ok((fit(x)?, fit(y)?))
}

/// Grids larger than this on a side are summarised instead of drawn as text.
pub const DRAW_LIMIT: usize = 256;

/// The note printed instead of a drawing that is too large.
pub fn too_large_note(png: bool) -> String {
    format!(
        "(grid larger than {DRAW_LIMIT}x{DRAW_LIMIT} not drawn; use --json{})\n",
        if png { " or --png OUT" } else { "" }
    )
}
