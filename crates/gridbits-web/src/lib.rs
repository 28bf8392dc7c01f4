//! The gridbits browser playground: the library compiled to WebAssembly.
//!
//! One entry point, [`compute`]: a command name as the `gridbits` command line spells it, a
//! text grid in the command line's format (docs/cli.md) and the command's option; it returns
//! one JSON object with the same keys and values as the command line's `--json` for the same
//! grid (plus, for some commands, what the page needs to draw), or `{"error": "..."}`.
//! The page (`web/`) parses it, draws it, and prints it for the headless browser test, which
//! compares it with the command line's answer.

use gridbits::algo::distance::{distance_map, DistanceMap};
use gridbits::algo::fill::fill;
use gridbits::algo::label::label;
use gridbits::algo::lines::{ColumnBoard, RowChunks};
use gridbits::algo::slide::reach;
use gridbits::algo::voronoi::voronoi;
use gridbits::games::puyo::{Field, Rules};
use gridbits::games::tetris::{spawn_position, MoveOptions, Piece, Rotation, Tetris};
use gridbits::{BitGrid, CharGrid, Connectivity, Moves};
use std::fmt::Write;
use wasm_bindgen::prelude::wasm_bindgen;

/// Runs `command` on the text `grid` with `option` and returns its answer as JSON.
///
/// Commands and their option:
/// - `fill`: `X,Y` (the start cell) → `size`, `cells` (as `gridbits fill --from X,Y --json`);
/// - `distance`: moves (`4`, `8`, `queen`, ...) → `distance` (as `gridbits distance --json`);
/// - `voronoi`: moves → `contested`, `owner`, `players`, `unreachable` (as `gridbits voronoi`);
/// - `reach`: moves → `cells`, `count` (as `gridbits reach --json`);
/// - `labels`: `4` or `8` → `count`, `sizes` (as `gridbits components --summary --json`) and
///   `labels`, rows of the label image (0 background, then 1, 2, ... in raster order);
/// - `puyo`: none → `chain`, `score`, `board`, `steps` with each step's `board` too (as
///   `gridbits puyo --json`, rules detected from the characters);
/// - `tetris`: a piece letter → `count`, `placements` (as `gridbits tetris --moves P --json`).
#[wasm_bindgen]
pub fn compute(command: &str, grid: &str, option: &str) -> String {
    match run(command, grid, option) {
        Ok(json) => json,
        Err(e) => format!("{{\"error\":{}}}", json_str(&e)),
    }
}

/// [`compute`], with errors as text.
pub fn run(command: &str, grid: &str, option: &str) -> Result<String, String> {
    let text = CharGrid::parse(grid.as_bytes()).map_err(|e| e.to_string())?;
    match command {
        "fill" => run_fill(&text, option),
        "distance" => run_distance(&text, option),
        "voronoi" => run_voronoi(&text, option),
        "reach" => run_reach(&text, option),
        "labels" => run_labels(&text, option),
        "puyo" => run_puyo(&text),
        "tetris" => run_tetris(&text, option),
        _ => Err(format!("unknown command {command:?}")),
    }
}

fn grid_of(text: &CharGrid, f: impl Fn(u8) -> bool) -> Result<BitGrid, String> {
    BitGrid::from_char_grid(text, f).map_err(|e| e.to_string())
}

fn moves_of(option: &str) -> Result<Moves, String> {
    option
        .parse::<Moves>()
        .map_err(|_| format!("unknown moves {option:?}"))
}

/// A JSON string (grid characters, names: no control characters).
fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `[[x,y],...]`.
fn json_cells(cells: impl Iterator<Item = (i64, i64)>) -> String {
    let list: Vec<String> = cells.map(|(x, y)| format!("[{x},{y}]")).collect();
    format!("[{}]", list.join(","))
}

fn json_rows<'a>(rows: impl Iterator<Item = &'a str>) -> String {
    let list: Vec<String> = rows.map(json_str).collect();
    format!("[{}]", list.join(","))
}

fn bit_cells(g: &BitGrid) -> String {
    json_cells(g.iter().map(|(x, y)| (x as i64, y as i64)))
}

fn run_fill(text: &CharGrid, option: &str) -> Result<String, String> {
    let (x, y) = option
        .split_once(',')
        .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)))
        .ok_or_else(|| format!("fill needs a start cell X,Y, got {option:?}"))?;
    let free = grid_of(text, |c| c == b'.')?;
    if x >= free.width() || y >= free.height() || !free.get(x, y) {
        return Err(format!("{x},{y} is not a free cell"));
    }
    let mut seed = free.empty_like();
    seed.set(x, y);
    let filled = fill(&seed, &free, Connectivity::Four);
    Ok(format!(
        "{{\"size\":{},\"cells\":{}}}",
        filled.count(),
        bit_cells(&filled)
    ))
}

fn run_distance(text: &CharGrid, option: &str) -> Result<String, String> {
    let moves = moves_of(option)?;
    let walls = grid_of(text, |c| c == b'#')?;
    let sources = grid_of(text, |c| c != b'#' && c != b'.')?;
    if sources.is_empty() {
        return Err("distance needs sources: the grid has none".into());
    }
    let map = distance_map(&sources, &!&walls, moves, None);
    let rows: Vec<String> = (0..map.height())
        .map(|y| {
            let row: Vec<String> = map.as_slice()[y * map.width()..(y + 1) * map.width()]
                .iter()
                .map(|&d| match d {
                    DistanceMap::UNREACHABLE => "null".to_string(),
                    d => d.to_string(),
                })
                .collect();
            format!("[{}]", row.join(","))
        })
        .collect();
    Ok(format!("{{\"distance\":[{}]}}", rows.join(",")))
}

fn run_voronoi(text: &CharGrid, option: &str) -> Result<String, String> {
    let moves = moves_of(option)?;
    let (w, h) = (text.width(), text.height());
    let walls = grid_of(text, |c| c == b'#')?;
    let mut players: Vec<u8> = Vec::new();
    let mut used = Vec::new();
    for y in 0..h {
        for &c in text.row(y) {
            if !used.contains(&c) {
                used.push(c);
            }
            if c != b'#' && c != b'.' && !players.contains(&c) {
                players.push(c);
            }
        }
    }
    players.sort_unstable();
    // The command line's mark for contested cells: the first of these the grid does not use.
    let contested_mark = b"+*?~%"
        .iter()
        .copied()
        .find(|c| !used.contains(c))
        .unwrap_or(b'+');
    let sources: Vec<BitGrid> = players
        .iter()
        .map(|&p| grid_of(text, |c| c == p))
        .collect::<Result<_, _>>()?;
    let open = !&walls;
    let v = voronoi(&sources, &open, moves, None);
    let owner: Vec<String> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    if walls.get(x, y) {
                        '#'
                    } else if v.contested.get(x, y) {
                        char::from(contested_mark)
                    } else {
                        match v.owned.iter().position(|o| o.get(x, y)) {
                            Some(i) => char::from(players[i]),
                            None => '.',
                        }
                    }
                })
                .collect()
        })
        .collect();
    let mut unreachable = open.clone();
    unreachable.and_not_assign(&v.reached);
    let counts: Vec<String> = players
        .iter()
        .zip(&v.owned)
        .map(|(&p, o)| format!("{}:{}", json_str(&char::from(p).to_string()), o.count()))
        .collect();
    Ok(format!(
        "{{\"contested\":{},\"owner\":{},\"players\":{{{}}},\"unreachable\":{}}}",
        v.contested.count(),
        json_rows(owner.iter().map(String::as_str)),
        counts.join(","),
        unreachable.count()
    ))
}

fn run_reach(text: &CharGrid, option: &str) -> Result<String, String> {
    let moves = moves_of(option)?;
    let walls = grid_of(text, |c| c == b'#')?;
    let pieces = grid_of(text, |c| c != b'#' && c != b'.')?;
    let mut free = !&walls;
    free.and_not_assign(&pieces);
    let reached = reach(&pieces, &free, moves);
    Ok(format!(
        "{{\"cells\":{},\"count\":{}}}",
        bit_cells(&reached),
        reached.count()
    ))
}

fn run_labels(text: &CharGrid, option: &str) -> Result<String, String> {
    let conn = match option {
        "8" => Connectivity::Eight,
        _ => Connectivity::Four,
    };
    let set = grid_of(text, |c| c != b'.' && c != b'0')?;
    let labels = label(&set, conn).map_err(|e| e.to_string())?;
    let mut sizes = vec![0u64; labels.count() as usize];
    for &l in labels.as_slice() {
        if l > 0 {
            sizes[l as usize - 1] += 1;
        }
    }
    let rows: Vec<String> = (0..labels.height())
        .map(|y| {
            let row: Vec<String> = labels.row(y).iter().map(u32::to_string).collect();
            format!("[{}]", row.join(","))
        })
        .collect();
    let sizes: Vec<String> = sizes.iter().map(u64::to_string).collect();
    Ok(format!(
        "{{\"count\":{},\"sizes\":[{}],\"labels\":[{}]}}",
        labels.count(),
        sizes.join(","),
        rows.join(",")
    ))
}

fn run_puyo(text: &CharGrid) -> Result<String, String> {
    let rules = Rules::detect(text);
    let mut field = Field::from_char_grid_bottom(text, rules).map_err(|e| e.to_string())?;
    let rows = |f: &Field| json_rows(f.to_text().lines());
    let mut steps = Vec::new();
    let (mut n, mut total) = (0u32, 0u64);
    while let Some(s) = field.step(n + 1) {
        n += 1;
        total += u64::from(s.score);
        steps.push(format!(
            "{{\"cleared\":{},\"groups\":{},\"score\":{},\"board\":{}}}",
            s.cleared,
            s.groups,
            s.score,
            rows(&field)
        ));
    }
    Ok(format!(
        "{{\"chain\":{n},\"score\":{total},\"board\":{},\"steps\":[{}]}}",
        rows(&field),
        steps.join(",")
    ))
}

fn run_tetris(text: &CharGrid, option: &str) -> Result<String, String> {
    let mut letters = option.chars();
    let piece = match (letters.next().and_then(Piece::from_char), letters.next()) {
        (Some(p), None) => p,
        _ => {
            return Err(format!(
                "expected a piece letter (I O T S Z J L), got {option:?}"
            ))
        }
    };
    let b = RowChunks::from_char_grid(text, |c| c != b'.').map_err(|e| e.to_string())?;
    let (w, h) = (b.width(), b.height());
    if w > 64 || h > 64 {
        return Err(format!("board is {w}x{h}: placements need at most 64x64"));
    }
    let t = Tetris::from_board(ColumnBoard::<64>::from_fn(h, |x, y| x >= w || b.get(x, y)));
    let (sx, sy) = spawn_position(piece, w, h);
    let opts = MoveOptions {
        rotate_180: false,
        start: Some((Rotation::Spawn, sx, sy)),
    };
    let list = t.moves_with(piece, &opts);
    let placements: Vec<String> = list
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "{{\"index\":{i},\"rotation\":{},\"x\":{},\"y\":{},\"spin\":{},\"cells\":{}}}",
                json_str(&p.rotation.to_string()),
                p.x,
                p.y,
                json_str(p.spin.name()),
                json_cells(p.cells().iter().map(|&(x, y)| (i64::from(x), i64::from(y))))
            )
        })
        .collect();
    Ok(format!(
        "{{\"count\":{},\"placements\":[{}]}}",
        list.len(),
        placements.join(",")
    ))
}

#[cfg(test)]
mod tests {
    use super::run;

    #[test]
    fn fill_distance_voronoi() {
        let grid = "A..#\n.#..\n...B\n";
        assert_eq!(
            run("fill", grid, "1,0").unwrap(),
            "{\"size\":8,\"cells\":[[1,0],[2,0],[0,1],[2,1],[3,1],[0,2],[1,2],[2,2]]}"
        );
        assert!(run("distance", grid, "4")
            .unwrap()
            .starts_with("{\"distance\":[[0,1,"));
        assert!(run("voronoi", grid, "4")
            .unwrap()
            .contains("\"players\":{\"A\":"));
    }

    #[test]
    fn games() {
        let puyo = run("puyo", "R.....\nR.....\nR.....\nR.....\n", "").unwrap();
        assert!(puyo.starts_with("{\"chain\":1,"), "{puyo}");
        let tetris = run("tetris", &"..........\n".repeat(20), "O").unwrap();
        assert!(tetris.starts_with("{\"count\":9,"), "{tetris}");
        assert!(run("nope", ".\n", "").is_err());
    }
}
