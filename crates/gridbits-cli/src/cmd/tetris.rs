//! `gridbits tetris`: Tetris line clears.

use crate::input::CliError;
use clap::Args;

/// Options of `gridbits tetris` (see CLI.md).
#[derive(Args, Debug)]
pub struct TetrisArgs {
    /// Input file: text grid, .pbm or .png; `-` or nothing for standard input.
    pub file: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command, returning what to print.
pub fn run(_args: &TetrisArgs) -> Result<String, CliError> {
    Err(CliError::msg("gridbits tetris is not built yet"))
}

/// This command's section of `gridbits demo` (empty until built).
pub fn demo(_color: bool) -> String {
    String::new()
}
