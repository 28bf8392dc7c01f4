//! `gridbits components`: connected components of the set cells.
//!
//! Every input goes through the run-based labeller of `gridbits::algo::label` (any size);
//! `--summary` never builds the label image. Components are listed in label order: raster
//! order of their first cell (top row first, then left to right), as `scipy.ndimage.label`
//! numbers them (and OpenCV with `CCL_SAUF`); with `--by-char` class by class. `--labels`
//! writes the label image itself for numpy or any 16-bit image reader.

use super::{too_large_note, DRAW_LIMIT};
use crate::input::{CliError, Input};
use crate::labels_out::write_labels;
use crate::output::Chunked;
use crate::progress::{read_input, Progress};
use crate::render::{lines, side_by_side};
use clap::Args;
use gridbits::algo::components::{components_by_class, groups_at_least_any, table};
use gridbits::algo::label::{planes_by_char, ComponentStats, Labeller, Labels};
use gridbits::{bitboard, BitGrid, Board, Board6x12, Connectivity};
use std::fmt::Write as _;
use std::io::Write;

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
                planes.push(BitGrid::try_new(width, height).map_err(size_err)?);
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

/// The components found: the statistics and class character of every label (in label
/// order), and the size a component needs to be listed.
struct Comps {
    stats: Vec<ComponentStats>,
    class: Vec<u8>,
    min: u64,
}

impl Comps {
    /// The listed components (at least `min` cells), in label order.
    fn listed(&self) -> impl Iterator<Item = (u8, &ComponentStats)> + '_ {
        self.class
            .iter()
            .zip(&self.stats)
            .filter(|(_, s)| s.size >= self.min)
            .map(|(&c, s)| (c, s))
    }

    /// The number of listed components.
    fn count(&self) -> usize {
        self.listed().count()
    }

    /// For each label (index 0 the background), its 1-based index among the listed
    /// components, or 0 if it is not listed.
    fn renumbering(&self) -> Vec<u32> {
        let mut kept = Vec::with_capacity(self.stats.len() + 1);
        kept.push(0);
        let mut next = 0u32;
        kept.extend(self.stats.iter().map(|s| {
            if s.size >= self.min {
                next += 1;
                next
            } else {
                0
            }
        }));
        kept
    }
}

/// Runs the command, writing its result to `out` as it goes.
pub fn run(args: &ComponentsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let input = read_input(args.file.as_deref())?;
    let conn: Connectivity = args.connectivity;
    let min = args.min_size.unwrap_or(0) as u64;
    let cls = classes(input, args.by_char)?;
    let (w, h) = (cls.width, cls.height);
    let drawable = w <= DRAW_LIMIT && h <= DRAW_LIMIT;
    let progress = Progress::for_grid(w, h);
    let mut labeller = Labeller::new();

    // Only what is printed or written is built: the cells of each component (a label
    // image, 4 bytes per cell) for a drawing, the JSON `cells`, `--png` and `--labels`;
    // otherwise the statistics of the runs are enough.
    let need_labels =
        args.png.is_some() || args.labels.is_some() || (!args.summary && (args.json || drawable));
    if !need_labels {
        progress.phase("counting components");
        let mut comps = Comps {
            stats: Vec::new(),
            class: Vec::new(),
            min,
        };
        let mut stats: Vec<ComponentStats> = Vec::new();
        for (plane, &c) in cls.planes.iter().zip(&cls.chars) {
            labeller.stats(plane, conn, &mut stats).map_err(size_err)?;
            comps.stats.extend_from_slice(&stats);
            comps.class.resize(comps.stats.len(), c);
        }
        drop(progress);
        if args.summary {
            return summary(out, &comps, args);
        }
        // Plain text of a grid too large to draw: the header and a note.
        let mut out = Chunked::new(out);
        header(&mut out, &comps, args)?;
        out.str(&too_large_note(true))?;
        return Ok(out.finish()?);
    }

    // Label image (all classes in one) and the statistics of every label. With several
    // classes, labels go plane by plane, each plane's in its own label order: the planes'
    // statistics one after the other are in label order.
    progress.phase("labelling");
    let mut labels = Labels::new();
    let mut stats: Vec<ComponentStats> = Vec::new();
    let class: Vec<u8> = if cls.planes.len() == 1 {
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
    let Classes { planes, text, .. } = cls;
    drop(planes);
    drop(labeller);
    let comps = Comps { stats, class, min };
    let count = comps.count();
    // Listed components get indices 1.. in label order; the others 0.
    let kept = comps.renumbering();
    if let Some(path) = &args.labels {
        progress.phase(format!("writing {path}"));
        write_labels(&labels, &kept, count, path)?;
    }
    if let Some(path) = &args.png {
        progress.phase(format!("writing {path}"));
        write_png(&labels, &kept, path)?;
        if crate::output::png_to_stdout(Some(path)) {
            return Ok(());
        }
    }
    if args.summary {
        drop(progress);
        return summary(out, &comps, args);
    }
    if args.json {
        return write_json(out, labels, &kept, &comps, args.by_char, &progress);
    }
    drop(progress);
    let mut out = Chunked::new(out);
    header(&mut out, &comps, args)?;
    if drawable {
        out.str(&draw(&labels, &kept, w, h, text.as_ref(), args.by_char))?;
    } else {
        out.str(&too_large_note(true))?;
    }
    Ok(out.finish()?)
}

/// The cells of the listed components, component after component, each in raster order:
/// one counting sort of the label image. A cell is its index `y * width + x` as a `P`.
fn cells_by_component<P: Copy>(
    labels: &Labels,
    kept: &[u32],
    comps: &Comps,
    cell: impl Fn(usize) -> P,
) -> Result<Vec<P>, CliError> {
    let mut next: Vec<usize> = Vec::with_capacity(comps.count());
    let mut total = 0usize;
    for (_, s) in comps.listed() {
        next.push(total);
        total += s.size as usize;
    }
    let mut cells = Vec::new();
    cells.try_reserve_exact(total).map_err(|_| {
        CliError::msg(format!(
            "not enough memory to list the {total} cells of the components"
        ))
    })?;
    cells.resize(total, cell(0));
    let w = labels.width();
    for y in 0..labels.height() {
        for (x, &l) in labels.row(y).iter().enumerate() {
            if l != 0 {
                let k = kept[l as usize];
                if k != 0 {
                    let slot = &mut next[k as usize - 1];
                    cells[*slot] = cell(y * w + x);
                    *slot += 1;
                }
            }
        }
    }
    Ok(cells)
}

/// Writes the cells `[[x,y],...]` of one component, given as cell indices in raster order
/// from row `min_y` on.
fn write_cells<P: Copy + Into<u64>>(
    out: &mut Chunked,
    cells: &[P],
    width: usize,
    min_y: usize,
) -> std::io::Result<()> {
    let w = width as u64;
    let mut y = min_y as u64;
    let mut row_start = y * w;
    out.str("[")?;
    for (i, &p) in cells.iter().enumerate() {
        let p: u64 = p.into();
        while p >= row_start + w {
            y += 1;
            row_start += w;
        }
        out.cell(i == 0, (p - row_start) as usize, y as usize)?;
    }
    out.str("]")
}

/// `--json` with the cells of every component. The object is written by hand, keys in
/// sorted order (as `serde_json::json!` kept them): one pass over the label image sorts
/// the cells by component (4 bytes a listed cell; 8 past 2^32 cells), the image is freed,
/// and the components are written one after the other.
fn write_json(
    out: &mut dyn Write,
    labels: Labels,
    kept: &[u32],
    comps: &Comps,
    by_char: bool,
    progress: &Progress,
) -> Result<(), CliError> {
    let (w, h) = (labels.width(), labels.height());
    progress.phase("sorting cells by component");
    enum Cells {
        Small(Vec<u32>),
        Large(Vec<u64>),
    }
    let cells = if (w as u64) * (h as u64) <= 1 << 32 {
        Cells::Small(cells_by_component(&labels, kept, comps, |p| p as u32)?)
    } else {
        Cells::Large(cells_by_component(&labels, kept, comps, |p| p as u64)?)
    };
    drop(labels);
    let total: u64 = comps.listed().map(|(_, s)| s.size).sum();
    progress.bar("writing JSON", total);
    let mut out = Chunked::new(out);
    out.str("{\"components\":[")?;
    let mut start = 0usize;
    for (i, (class, s)) in comps.listed().enumerate() {
        let end = start + s.size as usize;
        out.str(if i == 0 { "{\"area\":" } else { ",{\"area\":" })?;
        out.uint(s.size)?;
        out.str(",\"bbox\":[")?;
        for (j, v) in [s.min_x, s.min_y, s.width(), s.height()]
            .into_iter()
            .enumerate()
        {
            if j > 0 {
                out.str(",")?;
            }
            out.uint(v as u64)?;
        }
        out.str("],\"cells\":")?;
        match &cells {
            Cells::Small(c) => write_cells(&mut out, &c[start..end], w, s.min_y)?,
            Cells::Large(c) => write_cells(&mut out, &c[start..end], w, s.min_y)?,
        }
        let (cx, cy) = s.centroid();
        out.str(",\"centroid\":[")?;
        out.json_f64(cx)?;
        out.str(",")?;
        out.json_f64(cy)?;
        out.str("]")?;
        if by_char {
            out.str(",\"char\":")?;
            out.json_str(&char::from(class).to_string())?;
        }
        out.str(",\"size\":")?;
        out.uint(s.size)?;
        out.str("}")?;
        progress.inc(s.size);
        start = end;
    }
    out.str(&format!(
        "],\"count\":{},\"height\":{h},\"width\":{w}}}\n",
        comps.count()
    ))?;
    Ok(out.finish()?)
}

fn conn_number(args: &ComponentsArgs) -> u8 {
    match args.connectivity {
        Connectivity::Four => 4,
        Connectivity::Eight => 8,
    }
}

/// The first lines of the text output: count and sizes.
fn header(out: &mut Chunked, comps: &Comps, args: &ComponentsArgs) -> std::io::Result<()> {
    let mut how = vec![format!("{}-connected", conn_number(args))];
    if let Some(k) = args.min_size {
        how.push(format!("size >= {k}"));
    }
    if args.by_char {
        how.push("by character".to_string());
    }
    out.str(&format!(
        "components: {} ({})\nsizes:",
        comps.count(),
        how.join(", ")
    ))?;
    let mut buf = [0u8; 4];
    for (c, s) in comps.listed() {
        out.str(" ")?;
        if args.by_char {
            out.str(char::from(c).encode_utf8(&mut buf))?;
            out.str(":")?;
        }
        out.uint(s.size)?;
    }
    out.str("\n")
}

/// `--summary`: count and sizes only.
fn summary(out: &mut dyn Write, comps: &Comps, args: &ComponentsArgs) -> Result<(), CliError> {
    let mut out = Chunked::new(out);
    if args.json {
        out.str(&format!("{{\"count\":{},\"sizes\":[", comps.count()))?;
        for (i, (_, s)) in comps.listed().enumerate() {
            if i > 0 {
                out.str(",")?;
            }
            out.uint(s.size)?;
        }
        out.str("]}\n")?;
    } else {
        header(&mut out, comps, args)?;
    }
    Ok(out.finish()?)
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
    let (w32, h32, mut buf) = crate::output::png_buffer(path, w, h, 3)?;
    let mut colours: Vec<[u8; 3]> = Vec::new();
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
    let img = image::RgbImage::from_raw(w32, h32, buf)
        .ok_or_else(|| CliError::msg(format!("{path}: the PNG buffer is short")))?;
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
