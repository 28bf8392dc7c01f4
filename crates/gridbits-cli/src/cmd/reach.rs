//! `gridbits reach`: cells reachable in one move by any piece.

use crate::input::{read_input, CliError, Input};
use crate::render::side_by_side;
use clap::{Args, ValueEnum};
use gridbits::algo::slide::reach;
use gridbits::text::CharGrid;
use gridbits::{BitGrid, Moves};

/// The moves of `--moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MovesArg {
    /// Slides in 8 directions.
    Queen,
    /// Slides orthogonally.
    Rook,
    /// Slides diagonally.
    Bishop,
    /// One orthogonal step.
    #[value(name = "4")]
    Four,
    /// One step in 8 directions.
    #[value(name = "8")]
    Eight,
}

impl MovesArg {
    fn moves(self) -> Moves {
        match self {
            MovesArg::Queen => Moves::Queen,
            MovesArg::Rook => Moves::Rook,
            MovesArg::Bishop => Moves::Bishop,
            MovesArg::Four => Moves::Four,
            MovesArg::Eight => Moves::Eight,
        }
    }

    fn name(self) -> &'static str {
        match self {
            MovesArg::Queen => "queen",
            MovesArg::Rook => "rook",
            MovesArg::Bishop => "bishop",
            MovesArg::Four => "4",
            MovesArg::Eight => "8",
        }
    }
}

/// Options of `gridbits reach` (see CLI.md).
#[derive(Args, Debug)]
pub struct ReachArgs {
    /// Input file: a text grid (`#` wall, `.` free, any other character a piece); `-` or
    /// nothing for standard input.
    pub file: Option<String>,
    /// How the pieces move: slide like a queen, rook or bishop, or step 4- or 8-connected.
    #[arg(long, value_enum, default_value = "queen")]
    pub moves: MovesArg,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Pieces, walls and the cells reached, from a text grid.
struct Reached {
    grid: CharGrid,
    reached: BitGrid,
}

fn compute(grid: CharGrid, moves: Moves) -> Result<Reached, CliError> {
    let size = |e: gridbits::SizeError| CliError::msg(e.to_string());
    let pieces = BitGrid::from_char_grid(&grid, |c| c != b'#' && c != b'.').map_err(size)?;
    let free = BitGrid::from_char_grid(&grid, |c| c == b'.').map_err(size)?;
    let reached = reach(&pieces, &free, moves);
    Ok(Reached { grid, reached })
}

/// The grid redrawn: walls and pieces as given, reached cells `*`.
fn picture(r: &Reached, color: bool) -> Vec<String> {
    (0..r.grid.height())
        .map(|y| {
            let mut line = String::new();
            for (x, &c) in r.grid.row(y).iter().enumerate() {
                match (r.reached.get(x, y), color) {
                    (true, true) => line.push_str("\x1b[1;33m*\x1b[0m"),
                    (true, false) => line.push('*'),
                    (false, _) => line.push(c as char),
                }
            }
            line
        })
        .collect()
}

/// Runs the command, returning what to print.
pub fn run(args: &ReachArgs) -> Result<String, CliError> {
    let grid = match read_input(args.file.as_deref())? {
        Input::Text(g) => g,
        Input::Image(_) => {
            return Err(CliError::msg(
                "reach needs a text grid: pieces are characters (`#` wall, `.` free)",
            ))
        }
    };
    let r = compute(grid, args.moves.moves())?;
    let count = r.reached.count();
    if args.json {
        let cells: Vec<[usize; 2]> = r.reached.iter().map(|(x, y)| [x, y]).collect();
        let obj = serde_json::json!({
            "width": r.grid.width(),
            "height": r.grid.height(),
            "moves": args.moves.name(),
            "count": count,
            "cells": cells,
        });
        return Ok(format!("{obj}\n"));
    }
    let mut out = format!("reach ({} moves): {count} cells (*)\n", args.moves.name());
    for line in picture(&r, crate::render::color_enabled()) {
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// This command's section of `gridbits demo`.
pub fn demo(color: bool) -> String {
    let text = b"..........\n..#.......\n..........\n.....Q....\n..........\n\
                 ........#.\n.R........\n..........\n....#.....\n.........B\n";
    let Ok(grid) = CharGrid::parse(text) else {
        return String::new();
    };
    let mut out = String::from(
        "sliding reach: every piece at once, one move, pieces and walls (#) block\n\n",
    );
    let mut panels = Vec::new();
    for (name, moves) in [
        ("queen", Moves::Queen),
        ("rook", Moves::Rook),
        ("bishop", Moves::Bishop),
    ] {
        let Ok(r) = compute(grid.clone(), moves) else {
            return String::new();
        };
        panels.push((
            format!("{name}: {}", r.reached.count()),
            grid.width(),
            picture(&r, color),
        ));
    }
    out.push_str(&side_by_side(&panels));
    out
}
