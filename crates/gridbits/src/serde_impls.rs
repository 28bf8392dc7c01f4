//! `serde` support (feature `serde`): boards and grids as `{ "width", "height", "rows" }`
//! with one string per row in the text format (`#` set, `.` empty), checked when read back.
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use gridbits::BitGrid;
//! let g: BitGrid = "#.\n.#\n".parse().unwrap();
//! let json = serde_json::to_string(&g).unwrap();
//! assert_eq!(json, r##"{"width":2,"height":2,"rows":["#.",".#"]}"##);
//! assert_eq!(serde_json::from_str::<BitGrid>(&json).unwrap(), g);
//! # }
//! ```

use crate::{BitGrid, Board, GridView};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Serialize, Deserialize)]
struct Repr {
    width: usize,
    height: usize,
    rows: Vec<String>,
}

fn to_repr(g: &impl GridView) -> Repr {
    let rows = (0..g.height())
        .map(|y| {
            (0..g.width())
                .map(|x| if g.get(x, y) { '#' } else { '.' })
                .collect()
        })
        .collect();
    Repr {
        width: g.width(),
        height: g.height(),
        rows,
    }
}

fn from_repr<E: serde::de::Error>(r: Repr) -> Result<BitGrid, E> {
    if r.rows.len() != r.height {
        return Err(E::custom(format!(
            "{} rows for a height of {}",
            r.rows.len(),
            r.height
        )));
    }
    let mut g = BitGrid::try_new(r.width, r.height).map_err(E::custom)?;
    for (y, row) in r.rows.iter().enumerate() {
        if row.len() != r.width {
            return Err(E::custom(format!(
                "row {y} has {} cells, expected {}",
                row.len(),
                r.width
            )));
        }
        for (x, c) in row.bytes().enumerate() {
            match c {
                b'.' => {}
                b'#' => g.set(x, y),
                _ => {
                    return Err(E::custom(format!(
                        "row {y}, column {x}: expected '#' or '.', found {:?}",
                        c as char
                    )))
                }
            }
        }
    }
    Ok(g)
}

impl Serialize for BitGrid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        to_repr(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for BitGrid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        from_repr(Repr::deserialize(d)?)
    }
}

impl<const W: usize, const H: usize, const N: usize> Serialize for Board<W, H, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        to_repr(self).serialize(s)
    }
}

impl<'de, const W: usize, const H: usize, const N: usize> Deserialize<'de> for Board<W, H, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let g = from_repr::<D::Error>(Repr::deserialize(d)?)?;
        Board::try_from_grid(&g).map_err(D::Error::custom)
    }
}
