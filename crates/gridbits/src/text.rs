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
pub enum ParseErrorKind {
    /// The input has no rows.
    Empty,
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
    pub fn parse(input: &[u8]) -> Result<CharGrid, ParseError> {
        let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
        // Blank lines at the end (including the empty piece after a final newline, and lines
        // of only spaces, tabs and carriage returns) are ignored.
        while let Some(last) = lines.last() {
            if last.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                lines.pop();
            } else {
                break;
            }
        }
        if lines.is_empty() {
            return Err(ParseError::new(1, 1, ParseErrorKind::Empty));
        }
        let strip = |l: &'_ [u8]| -> usize { l.len() - usize::from(l.last() == Some(&b'\r')) };
        let width = strip(lines[0]);
        let height = lines.len();
        if width == 0 {
            return Err(ParseError::new(1, 1, ParseErrorKind::Empty));
        }
        if (width as u64).saturating_mul(height as u64) > MAX_CELLS {
            return Err(ParseError::new(1, 1, ParseErrorKind::TooLarge));
        }
        let mut cells = Vec::with_capacity(width * height);
        for (i, line) in lines.iter().enumerate() {
            let row = &line[..strip(line)];
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
            cells.extend_from_slice(row);
        }
        Ok(CharGrid {
            width,
            height,
            cells,
        })
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
