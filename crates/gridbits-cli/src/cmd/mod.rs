//! One module per command of CLI.md: its clap options, `run`, and its `demo` section.

pub mod amazons;
pub mod components;
pub mod distance;
pub mod fill;
pub mod puyo;
pub mod reach;
pub mod tetris;
pub mod voronoi;

use crate::input::CliError;
use gridbits::Moves;

/// `--moves 4|8|queen` of `distance` and `voronoi`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum StepMoves {
    /// One step to an orthogonal neighbour.
    #[default]
    #[value(name = "4")]
    Four,
    /// One step to any of the eight neighbours.
    #[value(name = "8")]
    Eight,
    /// Any distance in the eight directions, stopped by walls and sources.
    Queen,
}

impl From<StepMoves> for Moves {
    fn from(m: StepMoves) -> Moves {
        match m {
            StepMoves::Four => Moves::Four,
            StepMoves::Eight => Moves::Eight,
            StepMoves::Queen => Moves::Queen,
        }
    }
}

/// `--connectivity 4|8`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum ConnArg {
    /// Orthogonal neighbours.
    #[default]
    #[value(name = "4")]
    Four,
    /// All eight neighbours.
    #[value(name = "8")]
    Eight,
}

impl From<ConnArg> for gridbits::Connectivity {
    fn from(c: ConnArg) -> Self {
        match c {
            ConnArg::Four => gridbits::Connectivity::Four,
            ConnArg::Eight => gridbits::Connectivity::Eight,
        }
    }
}

/// Grids larger than this on a side are summarised instead of drawn as text.
pub const DRAW_LIMIT: usize = 256;

/// Reads a text grid (images carry no characters), for commands whose characters mean
/// sources or players.
pub fn read_text_grid(file: Option<&str>, command: &str) -> Result<gridbits::CharGrid, CliError> {
    match crate::input::read_input(file)? {
        crate::input::Input::Text(t) => Ok(t),
        crate::input::Input::Image(_) => Err(CliError::msg(format!(
            "{command} needs a text grid: its characters name the sources (an image has none)"
        ))),
    }
}
