//! `gridbits tetris`: clear every full row of a Tetris board (any width up to 64).

use crate::input::{read_input, CliError, Input};
use crate::render::{lines, side_by_side};
use clap::Args;
use gridbits::algo::lines::RowChunks;

/// Options of `gridbits tetris`.
#[derive(Args, Debug)]
pub struct TetrisArgs {
    /// Input file: text grid (`.` empty, anything else filled) or image (PNG, PBM, PGM, PPM,
    /// recognised by content); `-` or nothing for standard input. At most 64 columns.
    pub file: Option<String>,
    /// Print one JSON object: `cleared`, `width`, `height`, `board`.
    #[arg(long)]
    pub json: bool,
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
