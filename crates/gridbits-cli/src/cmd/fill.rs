//! `gridbits fill`: flood fill from a cell.

use crate::input::CliError;
use clap::Args;

/// Options of `gridbits fill` (see CLI.md).
#[derive(Args, Debug)]
pub struct FillArgs {
    /// Input file: text grid, .pbm or .png; `-` or nothing for standard input.
    pub file: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command, returning what to print.
pub fn run(_args: &FillArgs) -> Result<String, CliError> {
    Err(CliError::msg("gridbits fill is not built yet"))
}

/// This command's section of `gridbits demo` (empty until built).
pub fn demo(_color: bool) -> String {
    String::new()
}
