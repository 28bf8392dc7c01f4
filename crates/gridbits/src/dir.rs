//! Directions and neighbourhoods.

/// One of the eight compass directions. `N` is towards row 0 (up), `E` towards larger `x`.
///
/// ```
/// use gridbits::Dir;
/// assert_eq!(Dir::NE.delta(), (1, -1));
/// assert_eq!(Dir::NE.opposite(), Dir::SW);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Dir {
    /// Up: `y - 1`.
    N,
    /// Up and right: `x + 1, y - 1`.
    NE,
    /// Right: `x + 1`.
    E,
    /// Down and right: `x + 1, y + 1`.
    SE,
    /// Down: `y + 1`.
    S,
    /// Down and left: `x - 1, y + 1`.
    SW,
    /// Left: `x - 1`.
    W,
    /// Up and left: `x - 1, y - 1`.
    NW,
}

impl Dir {
    /// All eight directions, clockwise from north.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];
    /// The four orthogonal directions (von Neumann neighbourhood).
    pub const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];
    /// The four diagonal directions.
    pub const DIAGONAL: [Dir; 4] = [Dir::NE, Dir::SE, Dir::SW, Dir::NW];

    /// The cell offset `(dx, dy)` of one step in this direction.
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Dir::N => (0, -1),
            Dir::NE => (1, -1),
            Dir::E => (1, 0),
            Dir::SE => (1, 1),
            Dir::S => (0, 1),
            Dir::SW => (-1, 1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, -1),
        }
    }

    /// The direction pointing the other way.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::NE => Dir::SW,
            Dir::E => Dir::W,
            Dir::SE => Dir::NW,
            Dir::S => Dir::N,
            Dir::SW => Dir::NE,
            Dir::W => Dir::E,
            Dir::NW => Dir::SE,
        }
    }

    /// The position of this direction in [`Dir::ALL`] (0 for `N`, clockwise).
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Which neighbours count as adjacent for dilation, erosion and fills.
///
/// ```
/// use gridbits::Connectivity;
/// assert_eq!(Connectivity::Four.dirs().len(), 4);
/// assert_eq!(Connectivity::Eight.dirs().len(), 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Connectivity {
    /// The four orthogonal neighbours (von Neumann).
    Four,
    /// All eight neighbours (Moore, king moves).
    Eight,
}

impl Connectivity {
    /// The directions that make up this neighbourhood.
    pub const fn dirs(self) -> &'static [Dir] {
        match self {
            Connectivity::Four => &Dir::ORTHOGONAL,
            Connectivity::Eight => &Dir::ALL,
        }
    }
}

/// Applies `(dx, dy) * k` to `(x, y)`, returning the target if it lies inside `width x height`.
pub fn step(
    x: usize,
    y: usize,
    dir: Dir,
    k: usize,
    width: usize,
    height: usize,
) -> Option<(usize, usize)> {
    let (dx, dy) = dir.delta();
    let k = isize::try_from(k).ok()?;
    let nx = isize::try_from(x).ok()?.checked_add(dx.checked_mul(k)?)?;
    let ny = isize::try_from(y).ok()?.checked_add(dy.checked_mul(k)?)?;
    if nx < 0 || ny < 0 || nx as usize >= width || ny as usize >= height {
        None
    } else {
        Some((nx as usize, ny as usize))
    }
}

/// How a piece or a search front moves in one step.
///
/// `Four` and `Eight` step to an adjacent cell. `Rook`, `Bishop` and `Queen` slide any
/// number of cells in their directions through passable cells, stopping before the first
/// blocked one (chess sliding pieces, Amazons).
///
/// ```
/// use gridbits::Moves;
/// assert_eq!(Moves::Queen.dirs().len(), 8);
/// assert!(Moves::Rook.is_sliding() && !Moves::Four.is_sliding());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Moves {
    /// One step to an orthogonal neighbour.
    Four,
    /// One step to any of the eight neighbours (king).
    Eight,
    /// Any distance orthogonally (rook).
    Rook,
    /// Any distance diagonally (bishop).
    Bishop,
    /// Any distance in the eight directions (queen).
    Queen,
}

impl Moves {
    /// The directions of this move.
    pub const fn dirs(self) -> &'static [Dir] {
        match self {
            Moves::Four | Moves::Rook => &Dir::ORTHOGONAL,
            Moves::Eight | Moves::Queen => &Dir::ALL,
            Moves::Bishop => &Dir::DIAGONAL,
        }
    }

    /// Whether moves slide any distance (rook, bishop, queen) rather than one step.
    pub const fn is_sliding(self) -> bool {
        matches!(self, Moves::Rook | Moves::Bishop | Moves::Queen)
    }
}

impl From<Connectivity> for Moves {
    fn from(c: Connectivity) -> Moves {
        match c {
            Connectivity::Four => Moves::Four,
            Connectivity::Eight => Moves::Eight,
        }
    }
}

/// A [`Moves`] value that has no [`Connectivity`] equivalent (a sliding move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NotAdjacency(pub Moves);

impl core::fmt::Display for NotAdjacency {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} moves slide; only 4 and 8 are neighbourhoods of adjacent cells",
            self.0
        )
    }
}

impl std::error::Error for NotAdjacency {}

impl TryFrom<Moves> for Connectivity {
    type Error = NotAdjacency;

    /// `Four` and `Eight` convert; sliding moves are an error.
    ///
    /// ```
    /// use gridbits::{Connectivity, Moves};
    /// assert_eq!(Connectivity::try_from(Moves::Eight), Ok(Connectivity::Eight));
    /// assert!(Connectivity::try_from(Moves::Queen).is_err());
    /// ```
    fn try_from(m: Moves) -> Result<Connectivity, NotAdjacency> {
        match m {
            Moves::Four => Ok(Connectivity::Four),
            Moves::Eight => Ok(Connectivity::Eight),
            other => Err(NotAdjacency(other)),
        }
    }
}

/// A neighbourhood or move name that [`str::parse`] did not recognise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// The text that was given.
    pub given: String,
    /// The names that are accepted, for the message.
    pub expected: &'static str,
}

impl core::fmt::Display for UnknownName {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "unknown value {:?}: expected {}",
            self.given, self.expected
        )
    }
}

impl std::error::Error for UnknownName {}

impl core::str::FromStr for Connectivity {
    type Err = UnknownName;

    /// `"4"` or `"8"` (also `"four"`, `"eight"`, `"king"` for 8; any case).
    ///
    /// ```
    /// use gridbits::Connectivity;
    /// assert_eq!("8".parse::<Connectivity>(), Ok(Connectivity::Eight));
    /// assert!("queen".parse::<Connectivity>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        match s.to_ascii_lowercase().as_str() {
            "4" | "four" => Ok(Connectivity::Four),
            "8" | "eight" | "king" => Ok(Connectivity::Eight),
            _ => Err(UnknownName {
                given: s.to_string(),
                expected: "4 or 8",
            }),
        }
    }
}

impl core::fmt::Display for Connectivity {
    /// `4` or `8`, the form [`str::parse`] reads back.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Connectivity::Four => "4",
            Connectivity::Eight => "8",
        })
    }
}

impl core::str::FromStr for Moves {
    type Err = UnknownName;

    /// `"4"`, `"8"`, `"rook"`, `"bishop"` or `"queen"` (also `"four"`, `"eight"`, `"king"`
    /// for `8`; any case).
    ///
    /// ```
    /// use gridbits::Moves;
    /// assert_eq!("queen".parse::<Moves>(), Ok(Moves::Queen));
    /// assert_eq!("King".parse::<Moves>(), Ok(Moves::Eight));
    /// ```
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        match s.to_ascii_lowercase().as_str() {
            "4" | "four" => Ok(Moves::Four),
            "8" | "eight" | "king" => Ok(Moves::Eight),
            "rook" => Ok(Moves::Rook),
            "bishop" => Ok(Moves::Bishop),
            "queen" => Ok(Moves::Queen),
            _ => Err(UnknownName {
                given: s.to_string(),
                expected: "4, 8, rook, bishop or queen",
            }),
        }
    }
}

impl core::fmt::Display for Moves {
    /// `4`, `8`, `rook`, `bishop` or `queen`, the form [`str::parse`] reads back.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Moves::Four => "4",
            Moves::Eight => "8",
            Moves::Rook => "rook",
            Moves::Bishop => "bishop",
            Moves::Queen => "queen",
        })
    }
}
