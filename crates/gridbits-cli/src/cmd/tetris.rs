//! `gridbits tetris`: clear every full row of a Tetris board (any width up to 64), or list
//! every placement of a piece reachable from spawn (`--moves`).

use crate::input::{read_input, CliError, Input};
use crate::render::{lines, side_by_side};
use clap::Args;
use gridbits::algo::lines::{ColumnBoard, RowChunks};
use gridbits::games::tetris::{spawn_position, MoveOptions, Piece, Rotation, Tetris};

/// Options of `gridbits tetris`.
#[derive(Args, Debug)]
pub struct TetrisArgs {
    /// Input file: text grid (`.` empty, anything else filled) or image (PNG, PBM, PGM, PPM,
    /// recognised by content); `-` or nothing for standard input. At most 64 columns.
    pub file: Option<String>,
    /// Print one JSON object: `cleared`, `width`, `height`, `board`; with `--moves`:
    /// `piece`, `width`, `height`, `spawn`, `count`, `placements` (and `show`, `board`).
    #[arg(long)]
    pub json: bool,
    /// Instead of clearing rows, list every final placement of this piece (I O T S Z J L)
    /// reachable from spawn with left, right, soft drop and SRS rotations, with its T-spin
    /// kind. At most 64 rows.
    #[arg(long, value_name = "PIECE", value_parser = parse_piece)]
    pub moves: Option<Piece>,
    /// With `--moves`: also give a shortest input sequence for each placement.
    #[arg(long, requires = "moves")]
    pub inputs: bool,
    /// With `--moves`: allow half turns (no kicks).
    #[arg(long = "180", requires = "moves")]
    pub rotate_180: bool,
    /// With `--moves`: draw placement N (from 0, as listed) on the board.
    #[arg(long, value_name = "N", requires = "moves")]
    pub show: Option<usize>,
}

/// Parses a piece letter.
fn parse_piece(s: &str) -> Result<Piece, String> {
    let mut c = s.chars();
    match (c.next().and_then(Piece::from_char), c.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(format!(
            "expected a piece letter (I O T S Z J L), got '{s}'"
        )),
    }
}

/// The board of the input, in the chunked row layout of the "Line Clears" article.
fn board(input: Input) -> Result<RowChunks, CliError> {
    match input {
        Input::Text(t) => Ok(RowChunks::from_char_grid(&t, |c| c != b'.')?),
        Input::Image(g) => {
            let (w, h) = (g.width(), g.height());
            if w > 64 {
                return Err(CliError::msg(format!(
                    "image is {w} pixels wide: a Tetris board has at most 64 columns"
                )));
            }
            RowChunks::from_fn(w, h, |x, y| g.get(x, y)).map_err(|e| CliError::msg(e.to_string()))
        }
    }
}

/// Runs the command, returning what to print.
pub fn run(args: &TetrisArgs) -> Result<String, CliError> {
    let mut b = board(read_input(args.file.as_deref())?)?;
    if let Some(piece) = args.moves {
        return moves(args, &b, piece);
    }
    let cleared = b.clear_full_lines();
    let text = b.to_text();
    if args.json {
        let obj = serde_json::json!({
            "cleared": cleared,
            "width": b.width(),
            "height": b.height(),
            "board": text.lines().collect::<Vec<_>>(),
        });
        return Ok(format!("{obj}\n"));
    }
    let mut out = format!("cleared: {cleared}\n");
    out.push_str(&crate::render::grid(&b, crate::render::color_enabled()));
    Ok(out)
}

/// `--moves`: the placements of `piece` on `b`, through a 64-wide matrix walled off at the
/// board's width, starting at the spawn of the board's own width.
fn moves(args: &TetrisArgs, b: &RowChunks, piece: Piece) -> Result<String, CliError> {
    let (w, h) = (b.width(), b.height());
    if h > 64 {
        return Err(CliError::msg(format!(
            "board has {h} rows: placements need at most 64"
        )));
    }
    let t = Tetris::from_board(ColumnBoard::<64>::from_fn(h, |x, y| x >= w || b.get(x, y)));
    let (sx, sy) = spawn_position(piece, w, h);
    let opts = MoveOptions {
        rotate_180: args.rotate_180,
        start: Some((Rotation::Spawn, sx, sy)),
    };
    let spawn = t.spawn_at(piece, sx, sy);
    let list: Vec<_> = if args.inputs {
        t.moves_with_inputs(piece, &opts)
            .into_iter()
            .map(|(p, i)| (p, Some(i)))
            .collect()
    } else {
        t.moves_with(piece, &opts)
            .into_iter()
            .map(|p| (p, None))
            .collect()
    };
    let shown = match args.show {
        Some(n) if n >= list.len() => {
            return Err(CliError::msg(if list.is_empty() {
                format!("--show {n}: there are no placements")
            } else {
                format!(
                    "--show {n}: there are {} placements (0 to {})",
                    list.len(),
                    list.len() - 1
                )
            }))
        }
        Some(n) => Some((n, draw(b, &list[n].0, piece))),
        None => None,
    };
    if args.json {
        let placements: Vec<_> = list
            .iter()
            .enumerate()
            .map(|(i, (p, inputs))| {
                let mut o = serde_json::json!({
                    "index": i,
                    "rotation": p.rotation.to_string(),
                    "x": p.x,
                    "y": p.y,
                    "spin": p.spin.name(),
                    "cells": p.cells().iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
                });
                if let Some(inputs) = inputs {
                    o["inputs"] = inputs.iter().map(|i| i.name()).collect();
                }
                o
            })
            .collect();
        let mut obj = serde_json::json!({
            "piece": piece.to_string(),
            "width": w,
            "height": h,
            "spawn": spawn.map(|(x, y)| serde_json::json!({"x": x, "y": y})),
            "count": list.len(),
            "placements": placements,
        });
        if let Some((n, text)) = &shown {
            obj["show"] = (*n).into();
            obj["board"] = text.lines().collect::<Vec<_>>().into();
        }
        return Ok(format!("{obj}\n"));
    }
    let mut out = match spawn {
        Some((x, y)) => format!(
            "{piece}: {} placements from spawn x {x}, y {y}\n",
            list.len()
        ),
        None => format!("{piece}: spawn blocked, no placements (game over)\n"),
    };
    if let Some((n, text)) = shown {
        let (p, inputs) = &list[n];
        out.push_str(&format!("{}\n", line(n, p, inputs.as_deref())));
        out.push_str(&text);
        return Ok(out);
    }
    for (i, (p, inputs)) in list.iter().enumerate() {
        out.push_str(&line(i, p, inputs.as_deref()));
        out.push('\n');
    }
    Ok(out)
}

/// One placement as a line of text.
fn line(
    i: usize,
    p: &gridbits::games::tetris::Placement,
    inputs: Option<&[gridbits::games::tetris::Input]>,
) -> String {
    let cells: Vec<String> = p.cells().iter().map(|(x, y)| format!("{x},{y}")).collect();
    let mut s = format!(
        "{i:>3}: rotation {} x {:>2} y {:>2} spin {:<4} cells {}",
        p.rotation,
        p.x,
        p.y,
        p.spin,
        cells.join(" ")
    );
    if let Some(inputs) = inputs {
        let names: Vec<&str> = inputs.iter().map(|i| i.name()).collect();
        s.push_str(&format!(" inputs {}", names.join(" ")));
    }
    s
}

/// The board as text (`#` filled, `.` empty) with the placement's cells as the piece letter.
fn draw(b: &RowChunks, p: &gridbits::games::tetris::Placement, piece: Piece) -> String {
    let letter = piece.to_string().chars().next().unwrap_or('@');
    let cells = p.cells();
    let mut out = String::new();
    for y in 0..b.height() {
        for x in 0..b.width() {
            out.push(if cells.contains(&(x as i32, y as i32)) {
                letter
            } else if b.get(x, y) {
                '#'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

/// This command's section of `gridbits demo`.
pub fn demo(color: bool) -> String {
    let text = "..........\n..#.......\n##########\n.####.####\n##########\n\
                ###.######\n##########\n##########\n#.#.#.#.#.\n##########\n";
    let before = RowChunks::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let mut after = before.clone();
    let n = after.clear_full_lines();
    let mut cascade = before.clone();
    let cascade_n = cascade.cascade_clear_all();
    let mut out = format!(
        "tetris: one call clears all {n} full rows, consecutive or not, across the 6-row \
         chunks of the \"Line Clears\" layout\n(the article's consecutive clear needs {} \
         calls)\n\n",
        count_cascade_calls(&before)
    );
    debug_assert_eq!(cascade_n, n);
    out.push_str(&side_by_side(&[
        ("board".into(), before.width(), lines(&before, color)),
        (format!("cleared {n}"), after.width(), lines(&after, color)),
    ]));
    out
}

/// How many calls of the article's `clear_check` that clear something its procedure makes.
fn count_cascade_calls(b: &RowChunks) -> usize {
    let mut b = b.clone();
    let mut calls = 0;
    for i in 0..b.chunks().len() {
        while b.cascade_clear_check(i) > 0 {
            calls += 1;
        }
    }
    calls
}

#[cfg(test)]
mod tests {
    #[test]
    fn demo_mentions_the_clear() {
        let d = super::demo(false);
        assert!(d.contains("clears all 5 full rows"), "{d}");
        assert!(d.contains("cleared 5"));
    }

    #[test]
    fn count_of_views() {
        let b = gridbits::algo::lines::RowChunks::parse("#.\n##\n").unwrap();
        assert_eq!(gridbits::GridView::count(&b), 3);
    }
}
