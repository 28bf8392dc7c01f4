//! Drawing grids for people: optional ANSI colour, panels side by side.

use crate::output::Chunked;
use gridbits::GridView;
use std::io::IsTerminal;

/// Whether to colour output: standard output is a terminal and `NO_COLOR` is unset.
pub fn color_enabled() -> bool {
    io_is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

fn io_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// A grid as text lines, `#` set and `.` empty; set cells in bold yellow when `color`.
pub fn lines(view: &impl GridView, color: bool) -> Vec<String> {
    (0..view.height())
        .map(|y| {
            let mut line = String::with_capacity(view.width());
            for x in 0..view.width() {
                match (view.get(x, y), color) {
                    (true, true) => line.push_str("\x1b[1;33m#\x1b[0m"),
                    (true, false) => line.push('#'),
                    (false, _) => line.push('.'),
                }
            }
            line
        })
        .collect()
}

/// Writes row `y` of a grid as text (no line end): `#` set (bold yellow when `color`), `.`
/// empty, as [`lines`] draws it.
pub fn write_row(
    out: &mut Chunked,
    view: &impl GridView,
    y: usize,
    color: bool,
) -> std::io::Result<()> {
    for x in 0..view.width() {
        out.bytes(match (view.get(x, y), color) {
            (true, true) => b"\x1b[1;33m#\x1b[0m",
            (true, false) => b"#",
            (false, _) => b".",
        })?;
    }
    Ok(())
}

/// A grid as text, one line per row.
pub fn grid(view: &impl GridView, color: bool) -> String {
    let mut s = lines(view, color).join("\n");
    s.push('\n');
    s
}

/// Panels side by side, each a title over a grid of `width` columns, separated by 3 spaces.
pub fn side_by_side(panels: &[(String, usize, Vec<String>)]) -> String {
    let col = |title: &str, width: usize| width.max(title.len());
    let mut out = String::new();
    let mut header = String::new();
    for (title, width, _) in panels {
        header.push_str(&format!("{title:<w$}   ", w = col(title, *width)));
    }
    out.push_str(header.trim_end());
    out.push('\n');
    let rows = panels.iter().map(|p| p.2.len()).max().unwrap_or(0);
    for r in 0..rows {
        let mut line = String::new();
        for (title, width, lines) in panels {
            let w = col(title, *width);
            let cell = lines.get(r).map(String::as_str).unwrap_or("");
            line.push_str(cell);
            // Pad by visible width (colour codes take no columns).
            line.push_str(&" ".repeat(w.saturating_sub(*width.min(&w)) + 3));
            if lines.get(r).is_none() {
                line.push_str(&" ".repeat(*width));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// ANSI colours for player territories and highlights, by index.
const PALETTE: [u8; 8] = [1, 4, 2, 3, 5, 6, 9, 12];

/// A character in the palette colour `index` (bold on a dark background) when `color`.
pub fn paint(c: char, index: Option<usize>, color: bool) -> String {
    match (index, color) {
        (Some(i), true) => format!("\x1b[1;38;5;{}m{c}\x1b[0m", PALETTE[i % PALETTE.len()]),
        _ => c.to_string(),
    }
}

/// An RGB colour for player or component `index`, well apart from its neighbours
/// (golden-angle hues, alternating saturation and value), never black.
pub fn player_rgb(index: usize) -> [u8; 3] {
    let hue = (index as f64 * 137.508) % 360.0;
    let s = if index.is_multiple_of(2) { 0.8 } else { 0.55 };
    let v = if index.is_multiple_of(3) { 0.95 } else { 0.8 };
    let c = v * s;
    let x = c * (1.0 - ((hue / 60.0) % 2.0 - 1.0).abs());
    let m = v - c;
    let (r, g, b) = match (hue / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    [r, g, b].map(|v| ((v + m) * 255.0).round() as u8)
}
