//! `gridbits components`: connected components of the set cells.
//!
//! Every input goes through the run-based labeller of `gridbits::algo::label` (any size);
//! `--summary` never builds the label image. Components are listed in label order: raster
//! order of their first cell (top row first, then left to right), as `scipy.ndimage.label`
//! and OpenCV number them; with `--by-char` class by class. `--labels` writes the label
//! image itself for numpy or any 16-bit image reader.

use crate::input::{read_input, CliError, Input};
use crate::labels_out::write_labels;
use crate::render::{lines, side_by_side};
use clap::Args;
use gridbits::algo::components::{components_by_class, groups_at_least_any, table};
use gridbits::algo::label::{planes_by_char, ComponentStats, Labeller, Labels};
use gridbits::{bitboard, BitGrid, Board, Board6x12, Connectivity};
use serde_json::json;
use std::fmt::Write as _;

/// Options of `gridbits components`.
#[derive(Args, Debug)]
pub struct ComponentsArgs {
    /// Input file: text grid (`.` and `0` empty, anything else set) or image (PNG, PBM, PGM,
    /// PPM, recognised by content); `-` or nothing for standard input.
    pub file: Option<String>,
    /// Which neighbours are adjacent.
    #[arg(long, visible_alias = "moves", value_name = "4|8", default_value = "4", value_parser = super::parse_connectivity)]
    pub connectivity: Connectivity,
    /// Keep only components of at least K cells.
    #[arg(long, value_name = "K")]
    pub min_size: Option<usize>,
    /// Each character is its own class (`.` still empty): cells join only their own class.
    #[arg(long)]
    pub by_char: bool,
    /// Only the number of components and their sizes (no label image: for large images).
    #[arg(long)]
    pub summary: bool,
    /// Print one JSON object: `width`, `height`, `count`, `components`, each with `size`,
    /// `area` (the same), `bbox` `[x, y, w, h]`, `centroid` `[cx, cy]` (mean cell position),
    /// `cells` `[[x, y], ...]` and with --by-char `char`; with --summary only `count` and
    /// `sizes`. Components come in raster order of their first cell (with --by-char class
    /// by class); y counts rows from the top.
    #[arg(long)]
    pub json: bool,
    /// Also write the components as a PNG image, each in its own colour (background black).
    #[arg(long, value_name = "OUT")]
    pub png: Option<String>,
    /// Also write the label image: 0 for background, component i (as listed, 1-based) as i.
    /// `OUT.npy`: a numpy array, `<u4`, shape (height, width); `OUT.png`: 16-bit greyscale
    /// (at most 65535 components). Example: `gridbits components --connectivity 8 --labels
    /// labels.npy scan.png`, then `numpy.load("labels.npy")` in Python.
    #[arg(long, value_name = "OUT")]
    pub labels: Option<String>,
}

/// Grids larger than this on a side are not drawn as text.
const DRAW_LIMIT: usize = 256;

/// Glyphs of components in the text drawing, in label order (then again).
const GLYPHS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// The input split into classes: one plane per class, with its character.
struct Classes {
    width: usize,
    height: usize,
    planes: Vec<BitGrid>,
    chars: Vec<u8>,
    /// The text, to redraw characters.
    text: Option<gridbits::CharGrid>,
}

fn size_err(e: gridbits::SizeError) -> CliError {
    CliError::msg(e.to_string())
}

fn classes(input: Input, by_char: bool) -> Result<Classes, CliError> {
    match input {
        Input::Image(g) => Ok(Classes {
            width: g.width(),
            height: g.height(),
            planes: vec![g],
            chars: vec![b'#'],
            text: None,
        }),
        Input::Text(t) => {
            let (width, height) = (t.width(), t.height());
            let (mut chars, mut planes): (Vec<u8>, Vec<BitGrid>) = if by_char {
                planes_by_char(&t, b".")
                    .map_err(size_err)?
                    .into_iter()
                    .unzip()
            } else {
                let g =
                    BitGrid::from_char_grid(&t, |c| c != b'.' && c != b'0').map_err(size_err)?;
                (vec![b'#'], vec![g])
            };
            if planes.is_empty() {
                // Nothing set: one empty plane keeps the image its size.
                planes.push(BitGrid::new(width, height).map_err(size_err)?);
                chars.push(b'#');
            }
            Ok(Classes {
                width,
                height,
                planes,
                chars,
                text: Some(t),
            })
        }
    }
}

/// One component found: its class character and statistics.
struct Found {
    class: u8,
    size: u64,
    stats: ComponentStats,
}

/// Runs the command, returning what to print.
pub fn run(args: &ComponentsArgs) -> Result<String, CliError> {
    let input = read_input(args.file.as_deref())?;
    let conn: Connectivity = args.connectivity;
    let min = args.min_size.unwrap_or(0) as u64;
    let cls = classes(input, args.by_char)?;
    let (w, h) = (cls.width, cls.height);
    let drawable = w <= DRAW_LIMIT && h <= DRAW_LIMIT;
    let mut labeller = Labeller::new();

    // The summary path: statistics per class, no label image.
    let need_labels = !args.summary || args.png.is_some() || args.labels.is_some();
    if !need_labels {
        let mut found = Vec::new();
        let mut stats: Vec<ComponentStats> = Vec::new();
        for (plane, &c) in cls.planes.iter().zip(&cls.chars) {
            labeller.stats(plane, conn, &mut stats).map_err(size_err)?;
            found.extend(stats.iter().map(|s| Found {
                class: c,
                size: s.size,
                stats: *s,
            }));
        }
        found.retain(|f| f.size >= min);
        return Ok(summary(&found, args));
    }

    // Label image (all classes in one) and the statistics of every label. With several
    // classes, labels go plane by plane, each plane's in its own label order: the planes'
    // statistics one after the other are in label order.
    let mut labels = Labels::new();
    let mut stats: Vec<ComponentStats> = Vec::new();
    let label_class: Vec<u8> = if cls.planes.len() == 1 {
        let n = labeller
            .label_with_stats(&cls.planes[0], conn, &mut labels, &mut stats)
            .map_err(size_err)?;
        vec![cls.chars[0]; n as usize]
    } else {
        let classes = labeller
            .label_classes(&cls.planes, conn, &mut labels)
            .map_err(size_err)?;
        let mut plane_stats = Vec::new();
        for plane in &cls.planes {
            labeller
                .stats(plane, conn, &mut plane_stats)
                .map_err(size_err)?;
            stats.extend_from_slice(&plane_stats);
        }
        classes.into_iter().map(|i| cls.chars[i as usize]).collect()
    };
    let n = label_class.len();
    // Kept components get indices 1.. in label order; dropped ones 0.
    let mut kept = vec![0u32; n + 1];
    let mut found = Vec::new();
    for (l, s) in stats.iter().enumerate() {
        if s.size >= min {
            found.push(Found {
                class: label_class[l],
                size: s.size,
                stats: *s,
            });
            kept[l + 1] = found.len() as u32;
        }
    }
    if let Some(out) = &args.labels {
        write_labels(&labels, &kept, found.len(), out)?;
    }
    if let Some(out) = &args.png {
        write_png(&labels, &kept, out)?;
        if crate::output::png_to_stdout(Some(out)) {
            return Ok(String::new());
        }
    }
    if args.summary {
        return Ok(summary(&found, args));
    }
    if args.json {
        let mut cells: Vec<Vec<[usize; 2]>> = found
            .iter()
            .map(|f| Vec::with_capacity(f.size as usize))
            .collect();
        for y in 0..h {
            for (x, &l) in labels.row(y).iter().enumerate() {
                let k = kept[l as usize];
                if k != 0 {
                    cells[k as usize - 1].push([x, y]);
                }
            }
        }
        let comps: Vec<serde_json::Value> = found
            .iter()
            .zip(cells)
            .map(|(f, cells)| {
                let s = &f.stats;
                let (cx, cy) = s.centroid();
                let mut o = json!({
                    "size": f.size,
                    "area": f.size,
                    "bbox": [s.min_x, s.min_y, s.width(), s.height()],
                    "centroid": [cx, cy],
                    "cells": cells,
                });
                if args.by_char {
                    o["char"] = (f.class as char).to_string().into();
                }
                o
            })
            .collect();
        let obj = json!({
            "width": w,
            "height": h,
            "count": found.len(),
            "components": comps,
        });
        return Ok(format!("{obj}\n"));
    }
    let mut out = header(&found, args);
    if drawable {
        out.push_str(&draw(&labels, &kept, w, h, cls.text.as_ref(), args.by_char));
    } else {
        let _ = writeln!(
            out,
            "(grid larger than {DRAW_LIMIT}x{DRAW_LIMIT} not drawn; use --json or --png OUT)"
        );
    }
    Ok(out)
}

fn conn_number(args: &ComponentsArgs) -> u8 {
    match args.connectivity {
        Connectivity::Four => 4,
        Connectivity::Eight => 8,
    }
}

/// The first lines of the text output: count and sizes.
fn header(found: &[Found], args: &ComponentsArgs) -> String {
    let mut out = format!("components: {}", found.len());
    let mut how = vec![format!("{}-connected", conn_number(args))];
    if let Some(k) = args.min_size {
        how.push(format!("size >= {k}"));
    }
    if args.by_char {
        how.push("by character".to_string());
    }
    let _ = writeln!(out, " ({})", how.join(", "));
    out.push_str("sizes:");
    for f in found {
        if args.by_char {
            let _ = write!(out, " {}:{}", f.class as char, f.size);
        } else {
            let _ = write!(out, " {}", f.size);
        }
    }
    out.push('\n');
    out
}

/// `--summary`: count and sizes only.
fn summary(found: &[Found], args: &ComponentsArgs) -> String {
    if args.json {
        let sizes: Vec<u64> = found.iter().map(|f| f.size).collect();
        return format!("{}\n", json!({ "count": found.len(), "sizes": sizes }));
    }
    header(found, args)
}

/// The grid redrawn: each kept component with its glyph (a-z, A-Z, 0-9, then again), or
/// with --by-char and colour its own character in its colour; other cells as `.`.
fn draw(
    labels: &Labels,
    kept: &[u32],
    w: usize,
    h: usize,
    text: Option<&gridbits::CharGrid>,
    by_char: bool,
) -> String {
    let color = crate::render::color_enabled();
    let mut out = String::with_capacity((w + 1) * h);
    for y in 0..h {
        for x in 0..w {
            let k = kept[labels.get(x, y) as usize] as usize;
            if k == 0 {
                out.push('.');
                continue;
            }
            let glyph = match text {
                Some(t) if by_char && color => t.get(x, y) as char,
                _ => GLYPHS[(k - 1) % GLYPHS.len()] as char,
            };
            if color {
                let _ = write!(out, "\x1b[1;38;5;{}m{glyph}\x1b[0m", palette(k - 1));
            } else {
                out.push(glyph);
            }
        }
        out.push('\n');
    }
    out
}

/// An ANSI 256-colour index for component `i`: bright, distinct neighbours.
fn palette(i: usize) -> u8 {
    const P: [u8; 12] = [196, 46, 33, 226, 201, 51, 208, 118, 99, 214, 45, 160];
    P[i % P.len()]
}

/// Writes the kept components in their colours, background black; `-` is standard output.
fn write_png(labels: &Labels, kept: &[u32], path: &str) -> Result<(), CliError> {
    let (w, h) = (labels.width(), labels.height());
    let too_big = || CliError::msg(format!("{path}: grid {w}x{h} is too large for a PNG"));
    let w32 = u32::try_from(w).map_err(|_| too_big())?;
    let h32 = u32::try_from(h).map_err(|_| too_big())?;
    let mut colours: Vec<[u8; 3]> = Vec::new();
    let mut buf = Vec::new();
    buf.try_reserve_exact(w * h * 3).map_err(|_| too_big())?;
    for &l in labels.as_slice() {
        let k = kept[l as usize] as usize;
        if k == 0 {
            buf.extend_from_slice(&[0, 0, 0]);
        } else {
            while colours.len() < k {
                colours.push(crate::render::player_rgb(colours.len()));
            }
            buf.extend_from_slice(&colours[k - 1]);
        }
    }
    let img = image::RgbImage::from_raw(w32, h32, buf).ok_or_else(too_big)?;
    crate::output::save_png(img, path)
}

/// This command's section of `gridbits demo`: a Puyo field split by colour, its vanish
/// mask, and an entry of the row-pair table of the article "Fast Connected Components for
/// 6x12 bitboard".
pub fn demo(color: bool) -> String {
    let rows = [
        "......", "......", "......", "......", "......", "...Y..", "..RYY.", "G.RRB.", "GBBRBY",
        "GGBRRY", "YGYBRB", "YYGGBB",
    ];
    let field = |ch: u8| Board6x12::from_fn(|x, y| rows[y].as_bytes()[x] == ch);
    let planes: Vec<Board6x12> = b"RGBY".iter().map(|&c| field(c)).collect();
    let conn = Connectivity::Four;
    let mut out = String::from(
        "components of a 6x12 Puyo field, one bit plane per colour (fast path, u128 words)\n\n",
    );
    let mut by_colour = String::new();
    for (i, c) in "RGBY".chars().enumerate() {
        let sizes: Vec<String> = components_by_class(&planes, conn)
            .filter(|(class, _)| *class == i)
            .map(|(_, b)| b.count().to_string())
            .collect();
        let _ = write!(by_colour, "{c}: {}   ", sizes.join(" "));
    }
    out.push_str(by_colour.trim_end());
    out.push_str("\n\n");
    let vanish = groups_at_least_any(&planes, 4, conn);
    let field_lines: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
    out.push_str(&side_by_side(&[
        ("field".to_string(), 6, field_lines),
        ("groups of 4+".to_string(), 6, lines(&vanish, color)),
    ]));
    type Pair = Board<6, 2, 1>;
    let pair = bitboard!(Pair; "#.#.#.", "###..#");
    let t = table::RowPairTable::get(6, conn);
    let _ = write!(
        out,
        "\nthe article's row-pair table, rows 101010 over 111001: slot 0 continues {:03b} with \
         row {:06b}, slot 1 is new ({:06b}); {} components\n",
        t.index(0b010101, 0b100111, 0),
        t.row(0b010101, 0b100111, 0).reverse_bits() >> 26,
        t.row(0b010101, 0b100111, 1).reverse_bits() >> 26,
        table::components(pair, conn).len(),
    );
    out
}
