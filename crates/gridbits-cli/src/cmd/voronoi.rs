//! `gridbits voronoi`: each cell to the player that reaches it first.

use super::distance::Terrain;
use super::{read_text_grid, StepMoves, DRAW_LIMIT};
use crate::input::CliError;
use crate::render::{paint, player_rgb};
use clap::Args;
use gridbits::algo::fill::{voronoi, Voronoi};
use gridbits::{BitGrid, CharGrid};
use serde_json::{json, Map, Value};

/// Options of `gridbits voronoi` (see CLI.md).
#[derive(Args, Debug)]
pub struct VoronoiArgs {
    /// Input text grid: `#` wall, `.` free, every other character a player's sources (except
    /// `+`, which marks contested cells in the output); `-` or nothing for standard input.
    pub file: Option<String>,
    /// How a step moves.
    #[arg(long, value_enum, default_value = "4")]
    pub moves: StepMoves,
    /// Print one JSON object: `players`, `contested`, `unreachable`, `owner`.
    #[arg(long)]
    pub json: bool,
    /// Also write the partition as a PNG image: a colour per player, contested cells grey,
    /// walls dark, unreachable cells black.
    #[arg(long, value_name = "OUT")]
    pub png: Option<String>,
}

/// The computed partition with the players' characters.
struct Partition {
    terrain: Terrain,
    players: Vec<u8>,
    result: Voronoi<BitGrid>,
}

impl Partition {
    fn compute(text: CharGrid, moves: StepMoves) -> Result<Self, CliError> {
        let terrain = Terrain::new(text)?;
        let mut players: Vec<u8> = Vec::new();
        for y in 0..terrain.text.height() {
            for (x, &c) in terrain.text.row(y).iter().enumerate() {
                if c == b'+' {
                    return Err(CliError::msg(format!(
                        "line {}, column {}: '+' cannot name a player: it marks contested cells \
                         in the output",
                        y + 1,
                        x + 1
                    )));
                }
                if c != b'#' && c != b'.' && !players.contains(&c) {
                    players.push(c);
                }
            }
        }
        players.sort_unstable();
        let err = |e: gridbits::SizeError| CliError::msg(e.to_string());
        let sources: Vec<BitGrid> = players
            .iter()
            .map(|&p| BitGrid::from_char_grid(&terrain.text, |c| c == p).map_err(err))
            .collect::<Result<_, _>>()?;
        let result = voronoi(&sources, &terrain.open(), moves.into(), None);
        Ok(Partition {
            terrain,
            players,
            result,
        })
    }

    /// The owner of a cell: `Some(i)` a player, `None` otherwise; plus its character in the
    /// owner rows.
    fn owner(&self, x: usize, y: usize) -> (Option<usize>, char) {
        if self.terrain.walls.get(x, y) {
            return (None, '#');
        }
        if self.result.contested.get(x, y) {
            return (None, '+');
        }
        match self.result.owned.iter().position(|o| o.get(x, y)) {
            Some(i) => (Some(i), self.players[i] as char),
            None => (None, '.'),
        }
    }

    fn unreachable(&self) -> u64 {
        let mut u = self.terrain.open();
        u.and_not_assign(&self.result.reached);
        u.count()
    }

    fn rows(&self) -> Vec<String> {
        (0..self.terrain.text.height())
            .map(|y| {
                (0..self.terrain.text.width())
                    .map(|x| self.owner(x, y).1)
                    .collect()
            })
            .collect()
    }

    fn picture(&self, color: bool) -> String {
        let mut out = String::new();
        for y in 0..self.terrain.text.height() {
            for x in 0..self.terrain.text.width() {
                let (who, c) = self.owner(x, y);
                // Territory in the player's colour; its sources also in reverse video.
                if color && self.terrain.sources.get(x, y) {
                    out.push_str("\x1b[7m");
                }
                out.push_str(&paint(c, who, color));
            }
            out.push('\n');
        }
        out
    }

    fn summary(&self) -> String {
        let mut out = String::new();
        for (p, o) in self.players.iter().zip(&self.result.owned) {
            out.push_str(&format!("player {}: {} cells\n", *p as char, o.count()));
        }
        out.push_str(&format!(
            "contested: {}\nunreachable: {}\n",
            self.result.contested.count(),
            self.unreachable()
        ));
        out
    }

    fn write_png(&self, path: &str) -> Result<(), CliError> {
        let (w, h) = (self.terrain.text.width(), self.terrain.text.height());
        let too_big = || CliError::msg(format!("{path}: grid {w}x{h} is too large for a PNG"));
        let (w32, h32) = (
            u32::try_from(w).map_err(|_| too_big())?,
            u32::try_from(h).map_err(|_| too_big())?,
        );
        let img = image::RgbImage::from_fn(w32, h32, |x, y| {
            let (x, y) = (x as usize, y as usize);
            let rgb = match self.owner(x, y) {
                (Some(_), _) if self.terrain.sources.get(x, y) => [255, 255, 255],
                (Some(i), _) => player_rgb(i),
                (None, '#') => [48, 48, 48],
                (None, '+') => [150, 150, 150],
                _ => [0, 0, 0],
            };
            image::Rgb(rgb)
        });
        img.save_with_format(path, image::ImageFormat::Png)
            .map_err(|e| CliError::msg(format!("cannot write {path}: {e}")))
    }
}

/// Runs the command, returning what to print.
pub fn run(args: &VoronoiArgs) -> Result<String, CliError> {
    let part = Partition::compute(read_text_grid(args.file.as_deref(), "voronoi")?, args.moves)?;
    if let Some(out) = &args.png {
        part.write_png(out)?;
    }
    if args.json {
        let mut players = Map::new();
        for (p, o) in part.players.iter().zip(&part.result.owned) {
            players.insert((*p as char).to_string(), json!(o.count()));
        }
        let obj = json!({
            "players": Value::Object(players),
            "contested": part.result.contested.count(),
            "unreachable": part.unreachable(),
            "owner": part.rows(),
        });
        return Ok(format!("{obj}\n"));
    }
    let mut out = part.summary();
    let (w, h) = (part.terrain.text.width(), part.terrain.text.height());
    if w > DRAW_LIMIT || h > DRAW_LIMIT {
        out.push_str("(grid too large to draw; use --json or --png OUT)\n");
    } else {
        out.push('\n');
        out.push_str(&part.picture(crate::render::color_enabled()));
    }
    Ok(out)
}

/// This command's section of `gridbits demo`.
pub fn demo(color: bool) -> String {
    let arena = "\
..............................
..A.........#.................
............#..........B......
............#.................
....#########.................
..............######..........
.......C..........#...........
..................#.......D...
..................#...........
..............................
";
    let mut out = String::from("Voronoi territory of 4 players (Tron-style, 4-moves):\n\n");
    if let Ok(part) = CharGrid::parse(arena.as_bytes())
        .map_err(CliError::from)
        .and_then(|t| Partition::compute(t, StepMoves::Four))
    {
        out.push_str(&part.picture(color));
        out.push('\n');
        out.push_str(&part.summary());
    }
    out
}
