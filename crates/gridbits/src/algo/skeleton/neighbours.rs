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

impl Neighbours {
    /// The neighbours of the middle word of three consecutive words of a row (`mid`), the
    /// row above (`up`) and the row below (`down`): each slice holds words `j - 1`, `j`,
    /// `j + 1` (zero outside the image), and bits carry across them.
    #[inline(always)]
    pub(crate) fn of(up: &[u64], mid: &[u64], down: &[u64]) -> Self {
        // West neighbours (column x - 1 moved onto x) carry from the word before, east
        // neighbours (x + 1 onto x) from the word after.
        let west = |r: &[u64]| (r[1] << 1) | (r[0] >> 63);
        let east = |r: &[u64]| (r[1] >> 1) | (r[2] << 63);
        Neighbours {
            n: up[1],
            ne: east(up),
            e: east(mid),
            se: east(down),
            s: down[1],
            sw: west(down),
            w: west(mid),
            nw: west(up),
        }
    }

    /// The neighbours of word `j` of the padded rows `up`, `mid`, `down` (words `j - 1` and
    /// `j + 1` exist).
    #[inline(always)]
    pub(crate) fn gather(up: &[u64], mid: &[u64], down: &[u64], j: usize) -> Self {
        let at = j - 1..j + 2;
        Self::of(&up[at.clone()], &mid[at.clone()], &down[at])
    }

    /// The eight words clockwise from north: `(n, ne, e, se, s, sw, w, nw)`.
    #[inline(always)]
    pub(crate) fn parts(&self) -> (u64, u64, u64, u64, u64, u64, u64, u64) {
        (
            self.n, self.ne, self.e, self.se, self.s, self.sw, self.w, self.nw,
        )
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

/// Checks a rule's two word formulas (`first`, `second`) against its per-pixel decision
/// (`deletes(neighbourhood, second)`) on all 256 neighbourhoods.
#[cfg(test)]
pub(crate) fn check_rule(
    first: fn(&Neighbours) -> u64,
    second: fn(&Neighbours) -> u64,
    deletes: fn(u8, bool) -> bool,
) {
    for code in [0u8, 64, 128, 192] {
        let nb = Neighbours::enumerate(code);
        let (a, b) = (first(&nb), second(&nb));
        for bit in 0..64u8 {
            let n = code + bit;
            assert_eq!(a >> bit & 1 == 1, deletes(n, false), "first, {n:#010b}");
            assert_eq!(b >> bit & 1 == 1, deletes(n, true), "second, {n:#010b}");
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
