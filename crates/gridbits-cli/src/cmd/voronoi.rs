//! `gridbits voronoi`: each cell to the player that reaches it first.

use super::distance::Terrain;
use super::{parse_moves, parse_xy, too_large_note, DRAW_LIMIT};
use crate::input::CliError;
use crate::output::{check_png_target, png_buffer, png_to_stdout, save_png, Chars, Chunked};
use crate::progress::Progress;
use crate::render::{paint, player_rgb};
use clap::Args;
use gridbits::algo::voronoi::{try_voronoi, Voronoi};
use gridbits::{BitGrid, CharGrid, Moves};
use std::io::Write;

/// Options of `gridbits voronoi`.
#[derive(Args, Debug)]
pub struct VoronoiArgs {
    /// Input file: a text grid (`#` wall, `.` free, every other character a player's
    /// sources), or an image (set pixels are walls; players from --from); `-` or nothing for
    /// standard input.
    pub file: Option<String>,
    /// A player starting at `X,Y` (column, row; from 0, top-left); repeat for more players.
    /// Each gets its own character, in order: the first of A-Z, a-z, 0-9 not in the input.
    #[arg(long, value_name = "X,Y", value_parser = parse_xy, allow_hyphen_values = true)]
    pub from: Vec<(usize, usize)>,
    /// How a step moves: 4, 8 (one step), rook, bishop or queen (slides, stopped by walls and
    /// sources).
    #[arg(long, visible_alias = "connectivity", value_name = "MOVES", default_value = "4", value_parser = parse_moves)]
    pub moves: Moves,
    /// Print one JSON object: `players`, `contested`, `unreachable`, `owner`, `legend`.
    #[arg(long)]
    pub json: bool,
    /// Also write the partition as a PNG image (`-` for standard output): a colour per
    /// player, sources white, contested cells grey, walls dark, unreachable cells black.
    #[arg(long, value_name = "OUT.png")]
    pub png: Option<String>,
}

/// Characters for `--from` players, in order of preference.
const PLAYER_CHARS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// The computed partition with the players' characters.
struct Partition {
    terrain: Terrain,
    players: Vec<u8>,
    /// The mark of contested cells: `+` unless a player uses it.
    contested: char,
    result: Voronoi<BitGrid>,
}

impl Partition {
    fn compute(
        mut terrain: Terrain,
        from: &[(usize, usize)],
        moves: Moves,
    ) -> Result<Self, CliError> {
        let h = terrain.height();
        if terrain.text.is_none() && from.is_empty() {
            return Err(CliError::msg(
                "voronoi on an image needs players: give --from X,Y once per player",
            ));
        }
        let mut players: Vec<u8> = Vec::new();
        if let Some(text) = &terrain.text {
            for y in 0..h {
                for &c in text.row(y) {
                    if c != b'#' && c != b'.' && !players.contains(&c) {
                        players.push(c);
                    }
                }
            }
        }
        players.sort_unstable();
        let err = |e: gridbits::SizeError| CliError::msg(e.to_string());
        let mut sources: Vec<BitGrid> = match &terrain.text {
            Some(text) => players
                .iter()
                .map(|&p| BitGrid::from_char_grid(text, |c| c == p).map_err(err))
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        let mut used = Chars::of(terrain.text.as_ref());
        for &(x, y) in from {
            terrain.check_from((x, y))?;
            if terrain.sources.get(x, y) {
                let c = char::from(terrain.char_at(x, y));
                let c = players
                    .iter()
                    .zip(&sources)
                    .find(|(_, s)| s.get(x, y))
                    .map_or(c, |(&p, _)| char::from(p));
                return Err(CliError::msg(format!(
                    "--from {x},{y} is already a source of player '{c}'"
                )));
            }
            let c = used.pick(PLAYER_CHARS);
            if !c.is_ascii_alphanumeric() {
                return Err(CliError::msg(
                    "too many players: A-Z, a-z and 0-9 are all taken by the input and --from",
                ));
            }
            let mut s = terrain.walls.empty_like();
            s.set(x, y);
            terrain.sources.set(x, y);
            players.push(c as u8);
            sources.push(s);
        }
        for &p in &players {
            used.add(char::from(p));
        }
        let contested = used.pick("+*?~%");
        // A plane per player and the BFS's memory: checked first, an error rather than an
        // abort when the machine cannot give them.
        let result = try_voronoi(&sources, &terrain.open(), moves, None)
            .map_err(|e| CliError::msg(e.to_string()))?;
        Ok(Partition {
            terrain,
            players,
            contested,
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
            return (None, self.contested);
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

    /// The characters of [`Partition::owner`] for row `y`, into `row`: a pass over each
    /// player's row words instead of a search through the players for every cell.
    fn owner_row(&self, y: usize, row: &mut Vec<char>) {
        let w = self.terrain.width();
        row.clear();
        row.resize(w, '.');
        let mut mark = |grid: &BitGrid, c: char| {
            for (i, &word) in grid.row_words(y).iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let x = i * 64 + bits.trailing_zeros() as usize;
                    if x < w {
                        row[x] = c;
                    }
                    bits &= bits - 1;
                }
            }
        };
        // Lowest precedence first: the first player owning a cell, then contested, then walls.
        for (o, &p) in self.result.owned.iter().zip(&self.players).rev() {
            mark(o, char::from(p));
        }
        mark(&self.result.contested, self.contested);
        mark(&self.terrain.walls, '#');
    }

    fn picture(&self, color: bool) -> String {
        let mut out = String::new();
        for y in 0..self.terrain.height() {
            for x in 0..self.terrain.width() {
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
            "contested ({}): {}\nunreachable (.): {}\n",
            self.contested,
            self.result.contested.count(),
            self.unreachable()
        ));
        out
    }

    fn write_png(&self, path: &str) -> Result<(), CliError> {
        let (w, h) = (self.terrain.width(), self.terrain.height());
        let (w32, h32, mut buf) = png_buffer(path, w, h, 3)?;
        for y in 0..h {
            for x in 0..w {
                buf.extend_from_slice(&match self.owner(x, y) {
                    (Some(_), _) if self.terrain.sources.get(x, y) => [255, 255, 255],
                    (Some(i), _) => player_rgb(i),
                    (None, '#') => [48, 48, 48],
                    (None, c) if c == self.contested => [150, 150, 150],
                    _ => [0, 0, 0],
                });
            }
        }
        let img = image::RgbImage::from_raw(w32, h32, buf)
            .ok_or_else(|| CliError::msg(format!("{path}: the PNG buffer is short")))?;
        save_png(img, path)
    }
}

/// Runs the command, writing its result to `out` as it goes.
pub fn run(args: &VoronoiArgs, out: &mut dyn Write) -> Result<(), CliError> {
    check_png_target(args.png.as_deref(), args.json)?;
    let terrain = Terrain::load(args.file.as_deref())?;
    let (w, h) = (terrain.width(), terrain.height());
    let progress = Progress::for_grid(w, h);
    progress.phase("territories");
    let part = Partition::compute(terrain, &args.from, args.moves)?;
    if let Some(path) = &args.png {
        progress.phase(format!("writing {path}"));
        part.write_png(path)?;
        if png_to_stdout(Some(path)) {
            return Ok(());
        }
    }
    if args.json {
        // The keys in sorted order (players too), as the JSON object always had them.
        let mut players: Vec<(String, u64)> = part
            .players
            .iter()
            .zip(&part.result.owned)
            .map(|(&p, o)| (char::from(p).to_string(), o.count()))
            .collect();
        players.sort();
        progress.bar("writing JSON", h as u64);
        let mut out = Chunked::new(out);
        out.str(&format!(
            "{{\"contested\":{},\"legend\":{{\"contested\":",
            part.result.contested.count()
        ))?;
        out.json_str(&part.contested.to_string())?;
        out.str(",\"unreachable\":\".\",\"wall\":\"#\"},\"owner\":[")?;
        let mut row = Vec::new();
        for y in 0..h {
            if y > 0 {
                out.str(",")?;
            }
            part.owner_row(y, &mut row);
            out.json_str(&row.iter().collect::<String>())?;
            progress.inc(1);
        }
        out.str("],\"players\":{")?;
        for (i, (p, n)) in players.iter().enumerate() {
            if i > 0 {
                out.str(",")?;
            }
            out.json_str(p)?;
            out.str(":")?;
            out.uint(*n)?;
        }
        out.str(&format!("}},\"unreachable\":{}}}\n", part.unreachable()))?;
        return Ok(out.finish()?);
    }
    drop(progress);
    out.write_all(part.summary().as_bytes())?;
    if w > DRAW_LIMIT || h > DRAW_LIMIT {
        out.write_all(too_large_note(true).as_bytes())?;
    } else {
        out.write_all(b"\n")?;
        out.write_all(part.picture(crate::render::color_enabled()).as_bytes())?;
    }
    Ok(())
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
        .and_then(Terrain::new)
        .and_then(|t| Partition::compute(t, &[], Moves::Four))
    {
        out.push_str(&part.picture(color));
        out.push('\n');
        out.push_str(&part.summary());
    }
    out
}
