//! [`Move`] and its algebraic notation.

use super::SIZE;
use std::fmt;

/// One Amazons turn: the amazon on `from` moves like a queen to `to`, then shoots an arrow
/// like a queen from `to` onto `arrow` (through `from`, which is empty by then).
///
/// Squares are `(x, y)` in the crate's coordinates: `x` the column from the left, `y` the row
/// from the **top**, both `0..10`. The text form is algebraic, `from-to/arrow`, with files
/// `a`-`j` from the left and ranks `1`-`10` from the **bottom** (a1 is `(0, 9)`, j10 is
/// `(9, 0)`), as in the [module documentation](super):
///
/// ```
/// use gridbits::games::amazons::Move;
/// let m: Move = "d1-d7/g7".parse().unwrap();
/// assert_eq!(m, Move { from: (3, 9), to: (3, 3), arrow: (6, 3) });
/// assert_eq!(m.to_string(), "d1-d7/g7");
/// assert_eq!("j10-a1/j10".parse::<Move>().unwrap().from, (9, 0));
/// assert!("k1-a1/a2".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the amazon stands, `(x, y)`.
    pub from: (u8, u8),
    /// Where it lands, `(x, y)`.
    pub to: (u8, u8),
    /// Where its arrow lands, `(x, y)`.
    pub arrow: (u8, u8),
}

/// Writes a square in algebraic notation (`a1` for `(0, 9)`; off the board, `(x, y)`).
fn write_square(f: &mut fmt::Formatter<'_>, (x, y): (u8, u8)) -> fmt::Result {
    if (x as usize) < SIZE && (y as usize) < SIZE {
        write!(f, "{}{}", (b'a' + x) as char, SIZE - y as usize)
    } else {
        write!(f, "({x}, {y})")
    }
}

/// A square in algebraic notation (as [`write_square`]).
pub(super) fn square_text(sq: (u8, u8)) -> String {
    struct Sq((u8, u8));
    impl fmt::Display for Sq {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_square(f, self.0)
        }
    }
    Sq(sq).to_string()
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_square(f, self.from)?;
        f.write_str("-")?;
        write_square(f, self.to)?;
        f.write_str("/")?;
        write_square(f, self.arrow)
    }
}

/// A move text that is not `from-to/arrow` with squares `a1`..`j10`.
///
/// ```
/// use gridbits::games::amazons::Move;
/// let err = "d1-d7".parse::<Move>().unwrap_err();
/// assert_eq!(err.to_string(), "bad move \"d1-d7\": expected from-to/arrow, e.g. d1-d7/g7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveParseError {
    /// The text that failed.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad move {:?}: {}", self.text, self.reason)
    }
}

impl std::error::Error for MoveParseError {}

/// Parses `a1`..`j10` into `(x, y)`.
fn parse_square(s: &str) -> Option<(u8, u8)> {
    let bytes = s.as_bytes();
    let (&file, rank) = bytes.split_first()?;
    let x = file.to_ascii_lowercase().checked_sub(b'a')?;
    if x as usize >= SIZE || rank.is_empty() || rank.len() > 2 || rank[0] == b'0' {
        return None;
    }
    if !rank.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let r = rank
        .iter()
        .fold(0usize, |a, &c| a * 10 + (c - b'0') as usize);
    (1..=SIZE).contains(&r).then(|| (x, (SIZE - r) as u8))
}

impl std::str::FromStr for Move {
    type Err = MoveParseError;
    fn from_str(text: &str) -> Result<Self, MoveParseError> {
        let err = |reason| MoveParseError {
            text: text.to_string(),
            reason,
        };
        let t = text.trim();
        let (from, rest) = t
            .split_once('-')
            .ok_or_else(|| err("expected from-to/arrow, e.g. d1-d7/g7"))?;
        let (to, arrow) = rest
            .split_once('/')
            .ok_or_else(|| err("expected from-to/arrow, e.g. d1-d7/g7"))?;
        let sq = |s| parse_square(s).ok_or_else(|| err("squares are a1 to j10"));
        Ok(Move {
            from: sq(from)?,
            to: sq(to)?,
            arrow: sq(arrow)?,
        })
    }
}
