//! `gridbits reach`: cells reachable in one move by any piece.

use super::distance::Terrain;
use super::{parse_moves, parse_xy, too_large_note, DRAW_LIMIT};
use crate::input::CliError;
use crate::output::{Chars, Chunked};
use crate::progress::Progress;
use crate::render::side_by_side;
use clap::Args;
use gridbits::algo::slide::reach;
use gridbits::text::CharGrid;
use gridbits::{BitGrid, Moves};
use std::io::Write;

/// Options of `gridbits reach`.
#[derive(Args, Debug)]
pub struct ReachArgs {
    /// Input file: a text grid (`#` wall, `.` free, any other character a piece), or an image
    /// (set pixels are walls; pieces from --from); `-` or nothing for standard input.
    pub file: Option<String>,
    /// A piece at `X,Y` (column, row; from 0, top-left); repeat for more pieces. Needed for
    /// images; on a text grid it adds to the grid's pieces.
    #[arg(long, value_name = "X,Y", value_parser = parse_xy, allow_hyphen_values = true)]
    pub from: Vec<(usize, usize)>,
    /// How the pieces move: slide like a queen, rook or bishop, or step 4 or 8.
    #[arg(long, visible_alias = "connectivity", value_name = "MOVES", default_value = "queen", value_parser = parse_moves)]
    pub moves: Moves,
    /// Print one JSON object: `width`, `height`, `moves`, `count`, `cells`.
    #[arg(long)]
    pub json: bool,
}

/// Pieces, walls and the cells reached, with the characters that draw them.
struct Reached {
    terrain: Terrain,
    /// `--from` pieces (drawn as `piece`).
    added: BitGrid,
    reached: BitGrid,
    /// The mark of reached cells: `*` unless the input uses it.
    mark: char,
    /// The mark of `--from` pieces.
    piece: char,
}

fn compute(
    mut terrain: Terrain,
    from: &[(usize, usize)],
    moves: Moves,
) -> Result<Reached, CliError> {
    let mut added = terrain.walls.empty_like();
    if terrain.text.is_none() && from.is_empty() {
        return Err(CliError::msg(
            "reach on an image needs pieces: give --from X,Y (repeat for more)",
        ));
    }
    for &xy in from {
        terrain.check_from(xy)?;
        if !terrain.sources.get(xy.0, xy.1) {
            added.set(xy.0, xy.1);
        }
    }
    terrain.sources.or_assign(&added);
    let mut free = terrain.open();
    free.and_not_assign(&terrain.sources);
    let reached = reach(&terrain.sources, &free, moves);
    let mut used = Chars::of(terrain.text.as_ref());
    let mark = used.pick("*o+x@%");
    let piece = used.pick("P@&Q");
    Ok(Reached {
        terrain,
        added,
        reached,
        mark,
        piece,
    })
}

/// The grid redrawn: walls and pieces as given, `--from` pieces and reached cells marked.
fn picture(r: &Reached, color: bool) -> Vec<String> {
    (0..r.terrain.height())
        .map(|y| {
            let mut line = String::new();
            for x in 0..r.terrain.width() {
                match (r.reached.get(x, y), color) {
                    (true, true) => line.push_str(&format!("\x1b[1;33m{}\x1b[0m", r.mark)),
                    (true, false) => line.push(r.mark),
                    _ if r.added.get(x, y) => line.push(r.piece),
                    (false, _) => line.push(char::from(r.terrain.char_at(x, y))),
                }
            }
            line
        })
        .collect()
}

/// Runs the command, writing its result to `out` as it goes.
pub fn run(args: &ReachArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let terrain = Terrain::load(args.file.as_deref())?;
    let (w, h) = (terrain.width(), terrain.height());
    let progress = Progress::for_grid(w, h);
    progress.phase("reach");
    let r = compute(terrain, &args.from, args.moves)?;
    let count = r.reached.count();
    if args.json {
        // The keys in sorted order, as the JSON object always had them.
        progress.bar("writing JSON", count);
        let mut out = Chunked::new(out);
        out.str("{\"cells\":")?;
        out.cells(progress.counted(r.reached.iter()))?;
        out.str(&format!(",\"count\":{count},\"height\":{h},\"moves\":"))?;
        out.json_str(&args.moves.to_string())?;
        out.str(&format!(",\"width\":{w}}}\n"))?;
        return Ok(out.finish()?);
    }
    drop(progress);
    write!(
        out,
        "reach ({} moves): {count} cells ({})",
        args.moves, r.mark
    )?;
    if !r.added.is_empty() {
        write!(out, ", --from pieces {}", r.piece)?;
    }
    out.write_all(b"\n")?;
    if w > DRAW_LIMIT || h > DRAW_LIMIT {
        out.write_all(too_large_note(false).as_bytes())?;
        return Ok(());
    }
    for line in picture(&r, crate::render::color_enabled()) {
        out.write_all(line.as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
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
    for moves in [Moves::Queen, Moves::Rook, Moves::Bishop] {
        let Ok(r) = Terrain::new(grid.clone()).and_then(|t| compute(t, &[], moves)) else {
            return String::new();
        };
        panels.push((
            format!("{moves}: {}", r.reached.count()),
            grid.width(),
            picture(&r, color),
        ));
    }
    out.push_str(&side_by_side(&panels));
    out
}
