//! One module per command: its clap options, `run`, and its `demo` section.

pub mod amazons;
pub mod components;
pub mod distance;
pub mod fill;
pub mod puyo;
pub mod reach;
pub mod show;
pub mod tetris;
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

/// Parses `X,Y` (column, row; from 0, top-left).
pub fn parse_xy(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected X,Y (two whole numbers), got '{s}'");
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    Ok((
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    ))
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
