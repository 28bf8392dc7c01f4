//! Reading the command line's input: a text grid, or an image recognised by its content.
//!
//! - [`format`](mod@format) tells what the bytes are (PNG, PBM, PGM/PPM, text, or an image format that is
//!   not supported) from their first bytes, the same for files and standard input.
//! - [`image`] decodes PNG and netpbm images into bits: PBM black is set; PNG, PGM and PPM
//!   pixels are set when their grey level is above `--threshold` (0 by default: not black),
//!   pixels less than half opaque are always empty, and `--invert` swaps set and empty.

pub mod format;
pub mod image;
pub mod netpbm;

use format::Format;
use gridbits::text::{CharGrid, ParseError};
use gridbits::BitGrid;
use std::fmt;
use std::io::{self, Read};
use std::path::Path;
use std::sync::OnceLock;

/// An error of the command line: printed as `error: ...`, exit status 2.
#[derive(Debug)]
pub enum CliError {
    /// A text grid that does not parse: the input's name (`None` outside a run that read
    /// one) and the error, with its line and column.
    Parse(Option<String>, ParseError),
    /// Anything else, with its message.
    Msg(String),
    /// Writing the result failed (a closed pipe is a clean exit, see `main`).
    Write(io::Error),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Parse(Some(name), e) => write!(f, "{name}: {e}"),
            CliError::Parse(None, e) => write!(f, "{e}"),
            CliError::Msg(m) => f.write_str(m),
            CliError::Write(e) => write!(f, "cannot write output: {e}"),
        }
    }
}

impl From<ParseError> for CliError {
    /// A text grid error of this run's input, named as [`read_input`] named it.
    fn from(e: ParseError) -> Self {
        CliError::Parse(INPUT_NAME.get().cloned(), e)
    }
}

impl From<io::Error> for CliError {
    /// An error of the output writer (the only I/O that commands do through `?`).
    fn from(e: io::Error) -> Self {
        CliError::Write(e)
    }
}

impl CliError {
    /// An error from a message.
    pub fn msg(m: impl Into<String>) -> Self {
        CliError::Msg(m.into())
    }
}

/// What an input turned out to be.
pub enum Input {
    /// A text grid, characters kept (commands give them meaning).
    Text(CharGrid),
    /// A binary image, already mapped to set/empty cells.
    Image(BitGrid),
}

impl Input {
    /// The input as a bit grid, `is_set` deciding which text characters are set.
    pub fn into_bits(self, is_set: impl FnMut(u8) -> bool) -> Result<BitGrid, CliError> {
        match self {
            Input::Image(g) => Ok(g),
            Input::Text(t) => {
                BitGrid::from_char_grid(&t, is_set).map_err(|e| CliError::msg(e.to_string()))
            }
        }
    }
}

// How image pixels become cells: `--threshold N` and `--invert`, shared by every command that
// reads images. (A plain comment: a doc comment here would become each command's about.)
#[derive(clap::Args, Clone, Copy, Debug, Default)]
#[command(next_help_heading = "Image input")]
pub struct ImageOpts {
    /// PNG, PGM and PPM: a pixel is set when its grey level (luminance
    /// 0.2126 R + 0.7152 G + 0.0722 B for colour, on a 0-255 scale) is greater than N; the
    /// default 0 sets every pixel that is not black. N is 0 to 254.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=254))]
    pub threshold: Option<u8>,
    /// Swap set and empty pixels of an image (after --threshold); pixels less than half
    /// opaque stay empty.
    #[arg(long)]
    pub invert: bool,
}

static IMAGE_OPTS: OnceLock<ImageOpts> = OnceLock::new();

/// The name of this run's input in error messages (the file as given, or `standard input`),
/// set by [`read_input_with`]: commands that check a text grid's characters after reading
/// it (`puyo`, `amazons`, `tetris`) name the input as the reader does.
static INPUT_NAME: OnceLock<String> = OnceLock::new();

/// The name of standard input in error messages.
pub const STDIN_NAME: &str = "standard input";

/// The default of `--max-cells`: 2^28 cells (16384 x 16384). The commands need up to about
/// 16 bytes per cell at their peak (a `u32` label or distance per cell, the union-find and
/// frontier tables, a decoded 8-byte RGBA16 pixel, the text and its copy), so the default
/// keeps a run within about 4 GiB.
pub const DEFAULT_MAX_CELLS: u64 = 1 << 28;

/// `--max-cells`: the largest input grid accepted, in cells; `None` for no limit.
static MAX_CELLS: OnceLock<Option<u64>> = OnceLock::new();

/// The value of `--max-cells`: a number of cells, or `None` for `none`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellLimit(pub Option<u64>);

/// Parses `--max-cells`: a whole number of cells at least 1, or `none`.
pub fn parse_max_cells(s: &str) -> Result<CellLimit, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(CellLimit(None));
    }
    match s.parse::<u64>() {
        Ok(0) => Err("the limit must be at least 1 cell (`none` lifts it)".to_string()),
        Ok(n) => Ok(CellLimit(Some(n))),
        Err(_) => Err(format!("expected a number of cells or `none`, got '{s}'")),
    }
}

/// Sets this run's cell limit (from `--max-cells`); [`read_input`] applies it.
pub fn set_max_cells(limit: CellLimit) {
    let _ = MAX_CELLS.set(limit.0);
}

/// This run's cell limit: `--max-cells`, or [`DEFAULT_MAX_CELLS`].
pub fn max_cells() -> Option<u64> {
    MAX_CELLS.get().copied().unwrap_or(Some(DEFAULT_MAX_CELLS))
}

/// Refuses a `width x height` input (an image's header or a text's measure, before anything
/// is decoded) of more cells than this run's limit.
pub fn check_cells(name: &str, kind: &str, width: u64, height: u64) -> Result<(), CliError> {
    let cells = u128::from(width) * u128::from(height);
    match max_cells() {
        Some(limit) if cells > u128::from(limit) => Err(CliError::msg(format!(
            "{name}: the {kind} is {width}x{height} = {cells} cells, more than the limit of \
             {limit} cells; raise it with --max-cells N (or lift it with --max-cells none)"
        ))),
        _ => Ok(()),
    }
}

/// Sets the image options of this run (from the command line); [`read_input`] applies them.
pub fn set_image_opts(opts: ImageOpts) {
    let _ = IMAGE_OPTS.set(opts);
}

/// The image options of this run (defaults if none were set).
pub fn image_opts() -> ImageOpts {
    IMAGE_OPTS.get().copied().unwrap_or_default()
}

/// Reads `path` (or standard input for `None` or `-`), applying this run's image options.
pub fn read_input(path: Option<&str>) -> Result<Input, CliError> {
    read_input_with(path, image_opts())
}

/// Reads `path` (or standard input for `None` or `-`): an image when its first bytes say so,
/// otherwise a text grid.
pub fn read_input_with(path: Option<&str>, opts: ImageOpts) -> Result<Input, CliError> {
    let (name, buf) = match path {
        None | Some("-") => (
            STDIN_NAME.to_string(),
            read_capped(io::stdin(), STDIN_NAME)?,
        ),
        Some(p) => {
            let file = std::fs::File::open(p)
                .map_err(|e| CliError::msg(format!("cannot read {p}: {e}")))?;
            // A file's size is known: one too large is refused before a byte is read.
            if let Ok(meta) = file.metadata() {
                if meta.is_file() && meta.len() > MAX_INPUT_BYTES {
                    return Err(too_much(p));
                }
            }
            (p.to_string(), read_capped(file, p)?)
        }
    };
    if let (Some(p), Format::Text) = (path, format::detect(&buf)) {
        // A file named as an image must be one: never read a damaged image as text.
        if let Some(named) = format::named_by_extension(Path::new(p)) {
            return Err(CliError::msg(match netpbm_header_problem(&buf) {
                Some(problem) => format!("{p}: {problem}"),
                None => format!(
                    "{p}: not a {named} image (its first bytes are not a {named} signature)"
                ),
            }));
        }
    }
    let _ = INPUT_NAME.set(name.clone());
    read_bytes(&buf, &name, opts)
}

/// What is wrong with the header of an input that starts with a netpbm signature (`P1` to
/// `P6`) but was not read as an image: the values that must follow the signature (width,
/// height and, but for PBM, the largest sample value) are missing or not whole numbers.
/// `None` when it does not start so, or when those values are there (the raster is then
/// what does not fit).
fn netpbm_header_problem(buf: &[u8]) -> Option<String> {
    let (name, values, count) = match buf.get(..2)? {
        b"P1" | b"P4" => ("PBM", "the width and the height", 2),
        b"P2" | b"P5" => ("PGM", "the width, the height and the largest grey value", 3),
        b"P3" | b"P6" => (
            "PPM",
            "the width, the height and the largest sample value",
            3,
        ),
        _ => return None,
    };
    let magic = String::from_utf8_lossy(&buf[..2]);
    // The words after the signature, comments (`#` to the end of the line) left out.
    let head = &buf[2..buf.len().min(2 + 256)];
    let mut words = Vec::new();
    for line in head.split(|&b| b == b'\n') {
        let line = line.split(|&b| b == b'#').next().unwrap_or(&[]);
        words.extend(
            line.split(|b| b.is_ascii_whitespace())
                .filter(|w| !w.is_empty()),
        );
    }
    let bad = words
        .iter()
        .take(count)
        .find(|w| !w.iter().all(u8::is_ascii_digit));
    let found = match bad {
        Some(w) => format!("found '{}'", String::from_utf8_lossy(w)),
        None if words.is_empty() => "nothing follows it".to_string(),
        None if words.len() < count => format!("the header ends after {} of them", words.len()),
        None => return None,
    };
    Some(format!(
        "not a valid {name} header: the signature {magic} must be followed by {values} as \
         whole numbers; {found}"
    ))
}

/// Reads an input already in memory (`name` is used in error messages): an image when its
/// first bytes say so, otherwise a text grid. [`read_input_with`] after reading the file.
pub fn read_bytes(buf: &[u8], name: &str, opts: ImageOpts) -> Result<Input, CliError> {
    match format::detect(buf) {
        Format::Text => {
            if opts.threshold.is_some() || opts.invert {
                return Err(CliError::msg(format!(
                    "{name}: --threshold and --invert apply to images; this is a text grid"
                )));
            }
            let (w, h) = CharGrid::measure(buf);
            if let Err(too_many) = check_cells(name, "text grid", w as u64, h as u64) {
                // A ragged or bad text is reported as such (line and column), not as a size.
                CharGrid::check(buf).map_err(|e| named(name, e))?;
                return Err(too_many);
            }
            Ok(Input::Text(
                CharGrid::parse(buf).map_err(|e| named(name, e))?,
            ))
        }
        Format::Unsupported(what) => Err(CliError::msg(format!(
            "{name}: unsupported image format: {what} (supported: PNG, PBM, PGM, PPM and text \
             grids)"
        ))),
        Format::ByteOrderMark(what) => Err(CliError::msg(format!(
            "{name}: unsupported text encoding: {what}; save the grid as plain ASCII"
        ))),
        image_format => image::decode(buf, image_format, name, opts).map(Input::Image),
    }
}

/// A text grid error of the input `name`: `NAME: line L, column C: ...`.
fn named(name: &str, e: ParseError) -> CliError {
    CliError::Parse(Some(name.to_string()), e)
}

/// Largest input read: 4 GiB (a 65536 x 65536 text grid), refused past that before memory
/// runs out.
const MAX_INPUT_BYTES: u64 = 4 << 30;

/// Reads all of `r`, refusing more than [`MAX_INPUT_BYTES`].
fn read_capped(r: impl Read, name: &str) -> Result<Vec<u8>, CliError> {
    let mut buf = Vec::new();
    r.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| CliError::msg(format!("cannot read {name}: {e}")))?;
    if buf.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_much(name));
    }
    Ok(buf)
}

/// The error of an input past [`MAX_INPUT_BYTES`].
fn too_much(name: &str) -> CliError {
    CliError::msg(format!(
        "{name}: input larger than {} GiB; use a PNG image",
        MAX_INPUT_BYTES >> 30
    ))
}
