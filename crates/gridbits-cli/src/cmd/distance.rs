//! `gridbits distance`: BFS move distance from every source.

use super::{parse_moves, parse_xy, too_large_note, DRAW_LIMIT};
use crate::input::{CliError, Input};
use crate::labels_out::{check_npy_target, write_distance_npy, write_distance_png};
use crate::output::{check_png_target, png_to_stdout, Chunked};
use crate::progress::{read_input, Progress};
use clap::Args;
use gridbits::algo::distance::{distance_map, try_distance_map, DistanceMap};
use gridbits::algo::voronoi::try_voronoi;
use gridbits::{BitGrid, CharGrid, Moves};
use std::io::Write;

/// Options of `gridbits distance`.
#[derive(Args, Debug)]
pub struct DistanceArgs {
    /// Input file: a text grid (`#` wall, `.` free, any other character a source), or an
    /// image (set pixels are walls; sources from --from); `-` or nothing for standard input.
    pub file: Option<String>,
    /// A source cell `X,Y` (column, row; from 0, top-left); repeat for more sources. On a
    /// text grid it adds to the grid's sources; an input without any source (text or image)
    /// is an error.
    #[arg(long, value_name = "X,Y", value_parser = parse_xy, allow_hyphen_values = true)]
    pub from: Vec<(usize, usize)>,
    /// How a step moves: 4, 8 (one step), rook, bishop or queen (slides, stopped by walls and
    /// sources).
    #[arg(long, visible_alias = "connectivity", value_name = "MOVES", default_value = "4", value_parser = parse_moves)]
    pub moves: Moves,
    /// Print one JSON object: `distance`, rows of numbers (`null` at walls and unreachable
    /// cells).
    #[arg(long)]
    pub json: bool,
    /// Also write the distances as an 8-bit greyscale PNG (`-` for standard output): sources
    /// white (255), darker with distance down to 1 at the largest distance D (level
    /// 255 - 254 * d / D, rounded down); walls and unreachable cells black (0).
    #[arg(long, value_name = "OUT.png")]
    pub png: Option<String>,
    /// Also write the distances as a numpy array: `int32`, shape (height, width), -1 at walls
    /// and unreachable cells, as `gridbits.distance` returns them in Python
    /// (`numpy.load("dist.npy")`).
    #[arg(long, value_name = "OUT.npy")]
    pub npy: Option<String>,
}

/// Walls, free cells and sources of a `distance`, `voronoi` or `reach` grid.
pub struct Terrain {
    /// The characters of a text grid; `None` for an image.
    pub text: Option<CharGrid>,
    /// `#` cells (set pixels of an image).
    pub walls: BitGrid,
    /// Cells that are neither walls nor `.`, and `--from` cells.
    pub sources: BitGrid,
}

impl Terrain {
    /// Splits a text grid into walls and sources.
    pub fn new(text: CharGrid) -> Result<Self, CliError> {
        let err = |e: gridbits::SizeError| CliError::msg(e.to_string());
        let walls = BitGrid::from_char_grid(&text, |c| c == b'#').map_err(err)?;
        let sources = BitGrid::from_char_grid(&text, |c| c != b'#' && c != b'.').map_err(err)?;
        Ok(Terrain {
            text: Some(text),
            walls,
            sources,
        })
    }

    /// Reads a text grid or an image (set pixels are walls, no sources).
    pub fn load(file: Option<&str>) -> Result<Self, CliError> {
        match read_input(file)? {
            Input::Text(t) => Terrain::new(t),
            Input::Image(walls) => Ok(Terrain {
                sources: walls.empty_like(),
                walls,
                text: None,
            }),
        }
    }

    /// Width of the grid.
    pub fn width(&self) -> usize {
        self.walls.width()
    }

    /// Height of the grid.
    pub fn height(&self) -> usize {
        self.walls.height()
    }

    /// The input character of a cell (`#` or `.` for an image).
    pub fn char_at(&self, x: usize, y: usize) -> u8 {
        match &self.text {
            Some(t) => t.get(x, y),
            None if self.walls.get(x, y) => b'#',
            None => b'.',
        }
    }

    /// Checks a `--from` cell: on the grid and not a wall.
    pub fn check_from(&self, (x, y): (usize, usize)) -> Result<(), CliError> {
        let (w, h) = (self.width(), self.height());
        if x >= w || y >= h {
            return Err(CliError::msg(format!(
                "--from {x},{y} is outside the {w}x{h} grid (X from 0 to {}, Y from 0 to {})",
                w - 1,
                h - 1
            )));
        }
        if self.walls.get(x, y) {
            return Err(CliError::msg(format!(
                "--from {x},{y} is a wall ('#' or a set pixel): a source must be a free cell"
            )));
        }
        Ok(())
    }

    /// Adds `--from` cells to the sources. A text grid or an image without any source is an
    /// error naming what is missing: a distance from nothing leaves every cell unreachable,
    /// and the same input gets the same answer whether it is text or an image.
    pub fn add_sources(&mut self, from: &[(usize, usize)], command: &str) -> Result<(), CliError> {
        for &xy in from {
            self.check_from(xy)?;
            self.sources.set(xy.0, xy.1);
        }
        if self.sources.is_empty() {
            return Err(CliError::msg(match self.text {
                None => format!(
                    "{command} on an image needs sources: give --from X,Y (repeat for more)"
                ),
                Some(_) => format!(
                    "{command} needs sources: the grid has none (a source is any character but \
                     `#` and `.`); add one or give --from X,Y (repeat for more)"
                ),
            }));
        }
        Ok(())
    }

    /// Every cell that is not a wall.
    pub fn open(&self) -> BitGrid {
        !&self.walls
    }
}

/// Runs the command, writing its result to `out` row by row.
pub fn run(args: &DistanceArgs, out: &mut dyn Write) -> Result<(), CliError> {
    check_png_target(args.png.as_deref(), args.json)?;
    check_npy_target(args.npy.as_deref())?;
    let mut terrain = Terrain::load(args.file.as_deref())?;
    terrain.add_sources(&args.from, "distance")?;
    let (w, h) = (terrain.width(), terrain.height());
    let progress = Progress::for_grid(w, h);
    progress.phase("distances");
    let images = args.png.is_some() || args.npy.is_some();
    if !args.json && !images && (w > DRAW_LIMIT || h > DRAW_LIMIT) {
        // Only the summary is printed: the reached cells and the number of BFS layers give
        // it without a distance map (4 bytes per cell).
        let v = try_voronoi(
            std::slice::from_ref(&terrain.sources),
            &terrain.open(),
            args.moves,
            None,
        )
        .map_err(|e| CliError::msg(e.to_string()))?;
        let reached = v.reached.count();
        let largest = if reached == 0 {
            "-".to_string()
        } else {
            v.depth.to_string()
        };
        drop(progress);
        write!(
            out,
            "{} sources, {reached} cells reached, largest distance {largest}\n{}",
            terrain.sources.count(),
            too_large_note(false)
        )?;
        return Ok(());
    }
    // A u32 per cell: checked (and reserved) before the work, an error rather than an abort.
    let map = try_distance_map(&terrain.sources, &terrain.open(), args.moves, None)
        .map_err(|e| CliError::msg(e.to_string()))?;
    if let Some(path) = &args.npy {
        progress.phase(format!("writing {path}"));
        write_distance_npy(&map, path)?;
    }
    if let Some(path) = &args.png {
        progress.phase(format!("writing {path}"));
        write_distance_png(&map, path)?;
        if png_to_stdout(Some(path)) {
            return Ok(());
        }
    }
    if args.json {
        progress.bar("writing JSON", h as u64);
        let mut out = Chunked::new(out);
        out.str("{\"distance\":[")?;
        for y in 0..h {
            out.str(if y > 0 { ",[" } else { "[" })?;
            for (x, &d) in map.as_slice()[y * w..(y + 1) * w].iter().enumerate() {
                if x > 0 {
                    out.str(",")?;
                }
                if d == DistanceMap::UNREACHABLE {
                    out.str("null")?;
                } else {
                    out.uint(u64::from(d))?;
                }
            }
            out.str("]")?;
            progress.inc(1);
        }
        out.str("]}\n")?;
        return Ok(out.finish()?);
    }
    drop(progress);
    let reached = map
        .as_slice()
        .iter()
        .filter(|&&d| d != DistanceMap::UNREACHABLE)
        .count();
    writeln!(
        out,
        "{} sources, {reached} cells reached, largest distance {}",
        terrain.sources.count(),
        map.max().map_or("-".to_string(), |d| d.to_string())
    )?;
    if w > DRAW_LIMIT || h > DRAW_LIMIT {
        return Ok(out.write_all(too_large_note(true).as_bytes())?);
    }
    Ok(out.write_all(draw(&terrain, &map).as_bytes())?)
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
    for moves in [Moves::Four, Moves::Queen] {
        let map = distance_map(&terrain.sources, &terrain.open(), moves, None);
        out.push_str(&format!("{moves:?}:\n{}\n", draw(&terrain, &map)));
    }
    out
}
