//! A pair of puyos (axis and child colours) and where it goes ([`PairMove`]).

use super::{Rules, COLORS, COLUMNS};
use std::fmt;

/// A pair of puyos: the axis (the puyo the pair turns around) and the child, as colour
/// indices 0 to 4.
///
/// ```
/// use gridbits::games::puyo::{Pair, Rules};
/// let pair = Pair::parse("RG", Rules::Tsu).unwrap();
/// assert_eq!(pair, Pair::new(0, 1));
/// assert_eq!(pair.to_text(Rules::Tsu), "RG");
/// assert_eq!(Pair::parse("12", Rules::SmashTheCode).unwrap(), Pair::new(0, 1));
/// assert!(Pair::parse("R1", Rules::Tsu).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    /// Colour of the axis puyo, 0 to 4.
    pub axis: u8,
    /// Colour of the child puyo, 0 to 4.
    pub child: u8,
}

impl Pair {
    /// The pair (`axis`, `child`).
    ///
    /// # Panics
    ///
    /// When a colour is 5 or more; see [`try_new`](Self::try_new).
    pub const fn new(axis: u8, child: u8) -> Pair {
        assert!(
            (axis as usize) < COLORS && (child as usize) < COLORS,
            "colour index must be 0 to 4"
        );
        Pair { axis, child }
    }

    /// The pair (`axis`, `child`), or [`PairError::BadColor`] when a colour is 5 or more.
    pub const fn try_new(axis: u8, child: u8) -> Result<Pair, PairError> {
        if axis as usize >= COLORS {
            return Err(PairError::BadColor(axis));
        }
        if child as usize >= COLORS {
            return Err(PairError::BadColor(child));
        }
        Ok(Pair { axis, child })
    }

    /// Whether both puyos have one colour (then mirror placements make the same field, and
    /// only 11 placements are listed on an open field instead of 22).
    pub const fn is_double(self) -> bool {
        self.axis == self.child
    }

    /// Parses two colour characters of `rules` (axis first): `RG` under Tsu, `12` under Smash
    /// the Code.
    pub fn parse(text: &str, rules: Rules) -> Result<Pair, PairError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 2 {
            return Err(PairError::Length(chars.len()));
        }
        let color = |ch: char| {
            rules
                .color_chars()
                .iter()
                .position(|&k| k as char == ch)
                .map(|i| i as u8)
                .ok_or(PairError::NotAColor { ch, rules })
        };
        Ok(Pair {
            axis: color(chars[0])?,
            child: color(chars[1])?,
        })
    }

    /// The two colour characters of `rules`, axis first (the text [`parse`](Self::parse)
    /// reads).
    pub fn to_text(self, rules: Rules) -> String {
        let chars = rules.color_chars();
        [chars[self.axis as usize], chars[self.child as usize]]
            .iter()
            .map(|&c| c as char)
            .collect()
    }
}

/// A pair the caller got wrong: [`Pair::parse`] and [`Pair::try_new`] return it.
///
/// ```
/// use gridbits::games::puyo::{Pair, PairError, Rules};
/// assert_eq!(Pair::parse("RGB", Rules::Tsu), Err(PairError::Length(3)));
/// assert_eq!(
///     Pair::parse("RX", Rules::Tsu).unwrap_err().to_string(),
///     "'X' is not a colour of Puyo Puyo Tsu (R G B Y P)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PairError {
    /// The text is not two characters long (its length in characters).
    Length(usize),
    /// A character is not one of the rule set's colour characters.
    NotAColor {
        /// The character.
        ch: char,
        /// The rule set whose colours were expected.
        rules: Rules,
    },
    /// A colour index of 5 or more.
    BadColor(u8),
}

impl fmt::Display for PairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PairError::Length(n) => write!(
                f,
                "a pair is two colour characters, axis then child (e.g. RG), not {n} characters"
            ),
            PairError::NotAColor { ch, rules } => {
                let name = match rules {
                    Rules::SmashTheCode => "Smash the Code",
                    Rules::Tsu => "Puyo Puyo Tsu",
                };
                let list: Vec<String> = rules
                    .color_chars()
                    .iter()
                    .map(|&c| (c as char).to_string())
                    .collect();
                write!(f, "'{ch}' is not a colour of {name} ({})", list.join(" "))
            }
            PairError::BadColor(c) => {
                write!(f, "colour {c} is not a colour index (0 to {})", COLORS - 1)
            }
        }
    }
}

impl std::error::Error for PairError {}

/// Where a pair goes: the axis column and the rotation, as in
/// [`Field::place_pair`](super::Field::place_pair): 0 = child right of the axis, 1 = child
/// above, 2 = child left, 3 = child below.
///
/// ```
/// use gridbits::games::puyo::PairMove;
/// let m = PairMove { column: 2, rotation: 2 };
/// assert_eq!(m.columns(), Some((2, 1))); // axis in column 2, child in column 1
/// assert_eq!(PairMove { column: 0, rotation: 2 }.columns(), None); // child off the field
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PairMove {
    /// The axis column, 0 to 5.
    pub column: usize,
    /// 0 child right, 1 child above, 2 child left, 3 child below.
    pub rotation: u8,
}

impl PairMove {
    /// The columns of the axis and of the child, or `None` when one is off the field or the
    /// rotation is 4 or more.
    pub const fn columns(self) -> Option<(usize, usize)> {
        let child = match self.rotation {
            0 => self.column + 1,
            1 | 3 => self.column,
            2 if self.column > 0 => self.column - 1,
            _ => return None,
        };
        if self.column < COLUMNS && child < COLUMNS {
            Some((self.column, child))
        } else {
            None
        }
    }

    /// The rotation in words: `child right`, `child above`, `child left`, `child below`.
    pub const fn describe_rotation(self) -> &'static str {
        match self.rotation {
            0 => "child right",
            1 => "child above",
            2 => "child left",
            3 => "child below",
            _ => "no rotation",
        }
    }
}
