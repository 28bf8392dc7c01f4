//! The eight neighbour words of a word of a row: for each of 64 pixels at once, whether its
//! neighbour in each direction is set.

/// For 64 pixels of a row (one word), bit `b` of each field is the neighbour of the pixel at
/// bit `b` in that direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Neighbours {
    pub(crate) n: u64,
    pub(crate) ne: u64,
    pub(crate) e: u64,
    pub(crate) se: u64,
    pub(crate) s: u64,
    pub(crate) sw: u64,
    pub(crate) w: u64,
    pub(crate) nw: u64,
}

/// West neighbours (column `x - 1` moved onto `x`) of word `j` of a row, carrying from word
/// `j - 1`.
#[inline(always)]
fn west(row: &[u64], j: usize) -> u64 {
    (row[j] << 1) | (row[j - 1] >> 63)
}

/// East neighbours (column `x + 1` moved onto `x`) of word `j` of a row, carrying from word
/// `j + 1`.
#[inline(always)]
fn east(row: &[u64], j: usize) -> u64 {
    (row[j] >> 1) | (row[j + 1] << 63)
}

impl Neighbours {
    /// The neighbours of word `j` of the row `mid`, `up` being the row above and `down` the
    /// row below. The rows are padded: words `j - 1` and `j + 1` exist (zero outside the
    /// image).
    #[inline(always)]
    pub(crate) fn gather(up: &[u64], mid: &[u64], down: &[u64], j: usize) -> Self {
        Neighbours {
            n: up[j],
            ne: east(up, j),
            e: east(mid, j),
            se: east(down, j),
            s: down[j],
            sw: west(down, j),
            w: west(mid, j),
            nw: west(up, j),
        }
    }

    /// The neighbourhoods `code .. code + 64` laid out across the 64 bits (bit `b` holds
    /// neighbourhood `code + b`, whose bit `k` is the neighbour in direction
    /// `Dir::ALL[k]`): with `code` a multiple of 64, four calls enumerate all 256
    /// neighbourhoods, for exhaustive tests of the rules.
    #[cfg(test)]
    pub(crate) fn enumerate(code: u8) -> Self {
        let field = |k: u32| -> u64 {
            (0..64u32).fold(0, |acc, b| {
                let nb = u32::from(code) + b;
                acc | (u64::from(nb >> k & 1) << b)
            })
        };
        Neighbours {
            n: field(0),
            ne: field(1),
            e: field(2),
            se: field(3),
            s: field(4),
            sw: field(5),
            w: field(6),
            nw: field(7),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Neighbours;

    #[test]
    fn gather_carries_across_words() {
        // Padded rows of two words: pixel 63 of word 1 and pixel 0 of word 2 are neighbours.
        let up = [0, 1 << 63, 0, 0];
        let mid = [0, 0, 1, 0];
        let down = [0, 0, 1 << 1, 0];
        let at1 = Neighbours::gather(&up, &mid, &down, 1);
        assert_eq!(at1.e, 1 << 63, "pixel 63 sees pixel 64 to its east");
        assert_eq!(at1.n, 1 << 63);
        let at2 = Neighbours::gather(&up, &mid, &down, 2);
        assert_eq!(
            at2.nw, 1,
            "pixel 64 sees pixel 63 of the row above to its north-west"
        );
        assert_eq!(at2.w, 1 << 1, "pixel 65 sees pixel 64 to its west");
        assert_eq!(
            at2.se, 1,
            "pixel 64 sees pixel 65 of the row below to its south-east"
        );
        assert_eq!(at2.s, 1 << 1);
    }
}
