//! `gridbits distance`: BFS move distance from every source.

use super::{read_text_grid, StepMoves, DRAW_LIMIT};
use crate::input::CliError;
use clap::Args;
use gridbits::algo::fill::{distance_map, DistanceMap};
use gridbits::{BitGrid, CharGrid};
use std::fmt::Write as _;

/// Options of `gridbits distance` (see CLI.md).
#[derive(Args, Debug)]
pub struct DistanceArgs {
    /// Input text grid: `#` wall, `.` free, any other character a source; `-` or nothing for
    /// standard input.
    pub file: Option<String>,
    /// How a step moves.
    #[arg(long, value_enum, default_value = "4")]
    pub moves: StepMoves,
    /// Print one JSON object: `distance`, rows of numbers (`null` at walls and unreachable
    /// cells).
    #[arg(long)]
    pub json: bool,
}

/// Walls, free cells and sources of a `distance`/`voronoi` grid.
pub struct Terrain {
    /// The characters.
    pub text: CharGrid,
    /// `#` cells.
    pub walls: BitGrid,
    /// Cells that are neither walls nor `.`.
    pub sources: BitGrid,
}

impl Terrain {
    /// Splits a text grid into walls and sources.
    pub fn new(text: CharGrid) -> Result<Self, CliError> {
        let err = |e: gridbits::SizeError| CliError::msg(e.to_string());
        let walls = BitGrid::from_char_grid(&text, |c| c == b'#').map_err(err)?;
        let sources = BitGrid::from_char_grid(&text, |c| c != b'#' && c != b'.').map_err(err)?;
        Ok(Terrain {
            text,
            walls,
            sources,
        })
    }

    /// Every cell that is not a wall.
    pub fn open(&self) -> BitGrid {
        !&self.walls
    }
}

/// Runs the command, returning what to print.
pub fn run(args: &DistanceArgs) -> Result<String, CliError> {
    let terrain = Terrain::new(read_text_grid(args.file.as_deref(), "distance")?)?;
    let map = distance_map(&terrain.sources, &terrain.open(), args.moves.into(), None);
    let (w, h) = (map.width(), map.height());
    if args.json {
        // Written directly: a JSON value tree would take ~140 bytes per cell.
        let mut out = String::from("{\"distance\":[");
        for y in 0..h {
            out.push_str(if y > 0 { ",[" } else { "[" });
            for x in 0..w {
                if x > 0 {
                    out.push(',');
                }
                match map.get(x, y) {
                    Some(d) => {
                        let _ = write!(out, "{d}");
                    }
                    None => out.push_str("null"),
                }
            }
            out.push(']');
        }
        out.push_str("]}\n");
        return Ok(out);
    }
    let reached = map
        .as_slice()
        .iter()
        .filter(|&&d| d != DistanceMap::UNREACHABLE)
        .count();
    let mut out = format!(
        "{} sources, {reached} cells reached, largest distance {}\n",
        terrain.sources.count(),
        map.max().map_or("-".to_string(), |d| d.to_string())
    );
    if w > DRAW_LIMIT || h > DRAW_LIMIT {
        out.push_str("(grid too large to draw; use --json)\n");
        return Ok(out);
    }
    out.push_str(&draw(&terrain, &map));
    Ok(out)
}

/// The distances as a table: `#` walls, `.` unreachable, numbers right-aligned.
fn draw(terrain: &Terrain, map: &DistanceMap) -> String {
    let width = map.max().map_or(1, |d| d.to_string().len());
    let mut out = String::new();
    for y in 0..map.height() {
        let cells: Vec<String> = (0..map.width())
            .map(|x| {
                let s = match map.get(x, y) {
                    _ if terrain.walls.get(x, y) => "#".to_string(),
                    Some(d) => d.to_string(),
                    None => ".".to_string(),
                };
                format!("{s:>width$}")
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

/// This command's section of `gridbits demo`.
pub fn demo(_color: bool) -> String {
    let grid = "\
#########
#A..#...#
#.#.#.#.#
#.#...#.#
#.#####.#
#.......#
#########
";
    let mut out = String::from("BFS distance layers from A, 4-moves and queen moves:\n\n");
    let Ok(terrain) = CharGrid::parse(grid.as_bytes())
        .map_err(CliError::from)
        .and_then(Terrain::new)
    else {
        return out;
    };
    for moves in [gridbits::Moves::Four, gridbits::Moves::Queen] {
        let map = distance_map(&terrain.sources, &terrain.open(), moves, None);
        out.push_str(&format!("{moves:?}:\n{}\n", draw(&terrain, &map)));
    }
    out
}
