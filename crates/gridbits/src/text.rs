//! The text grid format: one line per row, top row first, `.` for an empty cell.
//!
//! Parsing is strict. Every row must have the same length; a trailing `\r` is ignored, and so are
//! blank lines at the end (empty, or only spaces, tabs and `\r`). Any other byte outside printable ASCII (a tab, a space, a control
//! character, a non-ASCII byte) is an error, and so is an empty grid. Errors name the line and
//! column, both from 1.
//!
//! ```
//! use gridbits::text::CharGrid;
//! let g = CharGrid::parse(b"..#\n#..\n").unwrap();
//! assert_eq!((g.width(), g.height()), (3, 2));
//! assert_eq!(g.get(2, 0), b'#');
//!
//! let err = CharGrid::parse(b"...\n..\n").unwrap_err();
//! assert_eq!(err.to_string(), "line 2, column 3: row has 2 columns, expected 3");
//! ```

use std::fmt;

/// The largest grid, in cells, that any gridbits type accepts (2^34 cells, a 2 GiB bitset).
///
/// Larger requests are refused up front with an error instead of an allocation failure.
pub const MAX_CELLS: u64 = 1 << 34;

/// What went wrong while reading a text grid.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input has no rows.
    Empty,
    /// The first line is blank, and rows follow: a grid starts on its first line.
    BlankFirstLine,
    /// A row's length differs from the first row's.
    Ragged {
        /// The length of the first row.
        expected: usize,
        /// The length of this row.
        found: usize,
    },
    /// A byte that is not printable ASCII (tab, space, control character, non-ASCII).
    BadByte(u8),
    /// A character that is printable but has no meaning for this reader.
    UnknownChar(char),
    /// The grid has the wrong size for a fixed-size board.
    WrongSize {
        /// The size the board needs, `(width, height)`.
        expected: (usize, usize),
        /// The size of the text, `(width, height)`.
        found: (usize, usize),
    },
    /// The grid has more cells than [`MAX_CELLS`].
    TooLarge,
}

/// An error reading a text grid, with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Line of the offending byte, from 1.
    pub line: usize,
    /// Column of the offending byte, from 1.
    pub column: usize,
    /// What is wrong there.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// Builds an error at `line`, `column` (both from 1).
    pub fn new(line: usize, column: usize, kind: ParseErrorKind) -> Self {
        ParseError { line, column, kind }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            ParseErrorKind::Empty => write!(f, "empty grid"),
            ParseErrorKind::BlankFirstLine => {
                write!(
                    f,
                    "blank line before the grid (a grid starts on its first line)"
                )
            }
            ParseErrorKind::Ragged { expected, found } => {
                write!(f, "row has {found} columns, expected {expected}")
            }
            ParseErrorKind::BadByte(b'\t') => write!(f, "tab character is not allowed"),
            ParseErrorKind::BadByte(b' ') => write!(f, "space character is not allowed"),
            ParseErrorKind::BadByte(b'\r') => write!(f, "carriage return inside a row"),
            ParseErrorKind::BadByte(b) if *b >= 0x80 => {
                write!(f, "non-ASCII byte 0x{b:02x} is not allowed")
            }
            ParseErrorKind::BadByte(b) => write!(f, "control byte 0x{b:02x} is not allowed"),
            ParseErrorKind::UnknownChar(c) => write!(f, "unknown character '{c}'"),
            ParseErrorKind::WrongSize { expected, found } => write!(
                f,
                "grid is {}x{}, expected {}x{}",
                found.0, found.1, expected.0, expected.1
            ),
            ParseErrorKind::TooLarge => {
                write!(f, "grid is larger than {MAX_CELLS} cells")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// A validated rectangular grid of printable ASCII characters, one byte per cell.
///
/// This is the common front end of every text reader: board types and CLI commands map its
/// characters to bits or classes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharGrid {
    width: usize,
    height: usize,
    cells: Vec<u8>,
}

impl CharGrid {
    /// Parses a text grid. See the [module documentation](self) for the rules.
    ///
    /// Memory: one byte per cell (at most the length of `input`), no per-line table; a grid
    /// of more than [`MAX_CELLS`] cells is refused before anything is copied.
    /// [`measure`](Self::measure) gives the size first, for a tighter budget.
    pub fn parse(input: &[u8]) -> Result<CharGrid, ParseError> {
        let (body, width, height) = Self::sized(input)?;
        if (width as u64).saturating_mul(height as u64) > MAX_CELLS {
            // Before reading the rows ([`check`](Self::check) reads them all).
            return Err(ParseError::new(1, 1, ParseErrorKind::TooLarge));
        }
        // Each cell is one byte of the input: a ragged text whose first row is long does not
        // reserve more than the input's length.
        let mut cells = Vec::with_capacity((width * height).min(body.len()));
        for (i, line) in body.split(|&b| b == b'\n').enumerate() {
            cells.extend_from_slice(Self::checked_row(i, line, width)?);
        }
        Ok(CharGrid {
            width,
            height,
            cells,
        })
    }

    /// Checks every row of `input` as [`parse`](Self::parse) does, without copying anything
    /// or limiting the size, and returns the grid's `(width, height)`. For callers that refuse
    /// large sizes: a ragged or bad text is then reported as such, with its line and column,
    /// not as too large.
    ///
    /// ```
    /// use gridbits::text::CharGrid;
    /// assert_eq!(CharGrid::check(b"..#\n#..\n"), Ok((3, 2)));
    /// let e = CharGrid::check(b"..#\n#.\n").unwrap_err();
    /// assert_eq!(e.to_string(), "line 2, column 3: row has 2 columns, expected 3");
    /// ```
    pub fn check(input: &[u8]) -> Result<(usize, usize), ParseError> {
        let (body, width, height) = Self::sized(input)?;
        for (i, line) in body.split(|&b| b == b'\n').enumerate() {
            Self::checked_row(i, line, width)?;
        }
        Ok((width, height))
    }

    /// The body of `input` and its size, or the error of an input without rows.
    fn sized(input: &[u8]) -> Result<(&[u8], usize, usize), ParseError> {
        let (width, height) = Self::measure(input);
        if height == 0 {
            return Err(ParseError::new(1, 1, ParseErrorKind::Empty));
        }
        if width == 0 {
            return Err(ParseError::new(1, 1, ParseErrorKind::BlankFirstLine));
        }
        Ok((Self::body(input), width, height))
    }

    /// Line `i` (from 0) of the body as a row of `width` cells, without its `\r`, or the error
    /// at its first bad byte or its wrong length.
    fn checked_row(i: usize, line: &[u8], width: usize) -> Result<&[u8], ParseError> {
        let row = &line[..line.len() - usize::from(line.last() == Some(&b'\r'))];
        if let Some(col) = row.iter().position(|&b| !(0x21..=0x7e).contains(&b)) {
            // A bad byte inside the expected width is reported before a length mismatch.
            if col < width || row.len() == width {
                return Err(ParseError::new(
                    i + 1,
                    col + 1,
                    ParseErrorKind::BadByte(row[col]),
                ));
            }
        }
        if row.len() != width {
            return Err(ParseError::new(
                i + 1,
                row.len().min(width) + 1,
                ParseErrorKind::Ragged {
                    expected: width,
                    found: row.len(),
                },
            ));
        }
        Ok(row)
    }

    /// The size `(width, height)` a text grid would have: the length of its first row and its
    /// number of rows, blank lines at the end ignored, without checking or copying anything.
    /// `(0, 0)` for an empty input. Callers with a memory budget check this before
    /// [`parse`](Self::parse) (the rows' lengths are checked by `parse`).
    ///
    /// ```
    /// use gridbits::text::CharGrid;
    /// assert_eq!(CharGrid::measure(b"..#\r\n#..\n\n  \n"), (3, 2));
    /// assert_eq!(CharGrid::measure(b"\n\n"), (0, 0));
    /// ```
    pub fn measure(input: &[u8]) -> (usize, usize) {
        let body = Self::body(input);
        if body.is_empty() {
            return (0, 0);
        }
        let first = body.split(|&b| b == b'\n').next().unwrap_or_default();
        let width = first.len() - usize::from(first.last() == Some(&b'\r'));
        let height = 1 + body.iter().filter(|&&b| b == b'\n').count();
        (width, height)
    }

    /// `input` without its blank lines at the end (including the empty piece after a final
    /// newline, and lines of only spaces, tabs and carriage returns), and without the newline
    /// that ends its last row.
    fn body(input: &[u8]) -> &[u8] {
        let mut end = input.len();
        loop {
            // The last line is input[start..end]; blank lines are dropped with their newline.
            let start = input[..end]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let blank = input[start..end]
                .iter()
                .all(|b| matches!(b, b' ' | b'\t' | b'\r'));
            if !blank {
                return &input[..end];
            }
            if start == 0 {
                return &[];
            }
            end = start - 1;
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The character at column `x`, row `y`. Panics if out of range.
    pub fn get(&self, x: usize, y: usize) -> u8 {
        assert!(x < self.width && y < self.height, "cell out of range");
        self.cells[y * self.width + x]
    }

    /// Row `y` as bytes. Panics if out of range.
    pub fn row(&self, y: usize) -> &[u8] {
        &self.cells[y * self.width..(y + 1) * self.width]
    }

    /// Checks that every character is in `allowed`, reporting the first that is not.
    ///
    /// ```
    /// use gridbits::text::CharGrid;
    /// let g = CharGrid::parse(b"#.\n.z\n").unwrap();
    /// assert_eq!(g.check_chars(b".#").unwrap_err().to_string(),
    ///            "line 2, column 2: unknown character 'z'");
    /// ```
    pub fn check_chars(&self, allowed: &[u8]) -> Result<(), ParseError> {
        for y in 0..self.height {
            for (x, &c) in self.row(y).iter().enumerate() {
                if !allowed.contains(&c) {
                    return Err(ParseError::new(
                        y + 1,
                        x + 1,
                        ParseErrorKind::UnknownChar(c as char),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Checks that the grid is exactly `width x height`.
    pub fn check_size(&self, width: usize, height: usize) -> Result<(), ParseError> {
        if (self.width, self.height) == (width, height) {
            return Ok(());
        }
        // Point at the first place the text departs from the expected shape.
        let (line, column) = if self.width != width {
            (1, self.width.min(width) + 1)
        } else {
            (self.height.min(height) + 1, 1)
        };
        Err(ParseError::new(
            line,
            column,
            ParseErrorKind::WrongSize {
                expected: (width, height),
                found: (self.width, self.height),
            },
        ))
    }
}
