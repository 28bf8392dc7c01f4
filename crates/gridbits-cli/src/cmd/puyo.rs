//! `gridbits puyo`: Puyo chain simulation.

use crate::input::CliError;
use clap::Args;

/// Options of `gridbits puyo` (see CLI.md).
#[derive(Args, Debug)]
pub struct PuyoArgs {
    /// Input file: text grid, .pbm or .png; `-` or nothing for standard input.
    pub file: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command, returning what to print.
pub fn run(_args: &PuyoArgs) -> Result<String, CliError> {
    Err(CliError::msg("gridbits puyo is not built yet"))
}

/// This command's section of `gridbits demo` (empty until built).
pub fn demo(_color: bool) -> String {
    String::new()
}
