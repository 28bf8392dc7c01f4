//! Pair placements: every [`PairMove`] a pair can make on a field, with the field it leaves and,
//! for [`Field::placements`], the chain it fires.
//!
//! # The placements
//!
//! A pair goes vertical (child above or below the axis) in each of the 6 columns, or
//! horizontal (child right or left) across each of the 5 pairs of neighbouring columns: 22
//! moves. When both puyos have one colour, mirror moves make the same field and only the first
//! is listed (rotations 0 and 1): 11 moves. They come in order of column, then rotation.
//!
//! Each puyo falls onto the highest occupied cell of its column, as in
//! [`Field::place_pair`] (the two puyos of a horizontal pair fall on their own).
//!
//! Which moves the stack allows (Tsu's death cell and walls, Smash the Code's fit) is in
//! full in docs/games.md (Puyo).
//!
//!
//! ```
//! use gridbits::games::puyo::{Field, PairMove, Pair, Rules};
//! let open = Field::new(Rules::Tsu);
//! assert_eq!(open.drops(Pair::new(0, 1)).len(), 22);
//! assert_eq!(open.drops(Pair::new(2, 2)).len(), 11);
//! // A 12-high wall in column x = 1 hides columns 0 and 1.
//! let mut text = String::from("......\n");
//! text.push_str(&".G....\n".repeat(12));
//! let walled = Field::parse(&text, Rules::Tsu).unwrap();
//! let moves = walled.drops(Pair::new(0, 1));
//! assert!(moves.iter().all(|(m, _)| m.columns().unwrap().1 >= 2 && m.column >= 2));
//! assert_eq!(moves.len(), 14);
//! // Each placement with the chain it fires.
//! let placed = open.placements(Pair::new(0, 1));
//! assert!(placed.iter().all(|p| p.chain.chain == 0));
//! ```

use super::{Chain, Field, Pair, PairMove, Rules, COLUMNS, LANE};

/// The most placements a pair has: 22.
pub const MAX_PLACEMENTS: usize = 22;

/// The raw mask (layout as [`Field::color_plane`]) of row 12 from the floor in every column:
/// lane bit 11. Under Tsu it is the row the pair moves in and holds the death cell.
const ROW12: u128 = super::LANE_ONES << 11;
/// Tsu's death cell, column 3 (x = 2), row 12 from the floor.
const DEATH: u128 = 1u128 << (2 * LANE + 11);

/// A pair placed, with the chain it fires: an entry of [`Field::placements`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PairPlacement {
    /// The axis column, 0 to 5.
    pub column: usize,
    /// The rotation (see [`PairMove`]): 0 child right, 1 above, 2 left, 3 below.
    pub rotation: u8,
    /// The field right after the pair fell, before the chain.
    pub field_after: Field,
    /// The chain `field_after` fires ([`Field::simulate`]); `chain.field` is the field at
    /// the end of the turn, `chain.chain` is 0 when nothing vanished.
    pub chain: Chain,
}

impl PairPlacement {
    /// The move (column and rotation).
    pub const fn mv(&self) -> PairMove {
        PairMove {
            column: self.column,
            rotation: self.rotation,
        }
    }
}

/// The moves of a pair and the field each leaves before its chain, without simulating:
/// [`Field::drops`] returns it. It holds the field once and, per move, the two cells the pair
/// lands on (no allocation, a few hundred bytes); each move's field is built when read, by
/// [`iter`](Self::iter), [`get`](Self::get) or [`find`](Self::find).
#[derive(Clone, Copy, Debug)]
pub struct Drops {
    base: Field,
    len: usize,
    items: [Landing; MAX_PLACEMENTS],
}

/// One move of a [`Drops`]: the move, and for the axis and the child their colour and the
/// bit index (layout as [`Field::color_plane`]) they land on; a bit at lane row 13 or above
/// (Tsu's row 14) is dropped when the field is built.
#[derive(Clone, Copy, Debug)]
struct Landing {
    mv: PairMove,
    axis: u8,
    axis_bit: u8,
    child: u8,
    child_bit: u8,
}

impl Drops {
    fn new(base: Field) -> Self {
        let none = Landing {
            mv: PairMove {
                column: 0,
                rotation: 0,
            },
            axis: 0,
            axis_bit: 0,
            child: 0,
            child_bit: 0,
        };
        Drops {
            base,
            len: 0,
            items: [none; MAX_PLACEMENTS],
        }
    }

    #[inline(always)]
    fn push(&mut self, landing: Landing) {
        // At most 22 moves exist (6 columns x 2 vertical + 5 column pairs x 2 horizontal).
        self.items[self.len] = landing;
        self.len += 1;
    }

    #[inline(always)]
    fn build(&self, l: &Landing) -> (PairMove, Field) {
        // Tsu: a puyo landing above the ghost row (row 14 or higher) vanishes. Smash the
        // Code: a move that does not fit is not listed, so nothing lands above row 12.
        let keep = super::ALL;
        let ba = (1u128 << l.axis_bit) & keep;
        let bc = (1u128 << l.child_bit) & keep;
        let mut planes = self.base.planes;
        // Every plane is ORed with a selected mask (no store at a run-time index, which would
        // stall the 128-bit loads that follow), so the planes stay in registers.
        for (k, p) in planes.iter_mut().enumerate().take(super::COLORS) {
            let add_a = if k == l.axis as usize { ba } else { 0 };
            let add_c = if k == l.child as usize { bc } else { 0 };
            *p |= add_a | add_c;
        }
        let field = Field {
            planes,
            rules: self.base.rules,
        };
        (l.mv, field)
    }

    /// Number of moves.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no move (the game is over).
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The field the moves start from.
    pub const fn field(&self) -> &Field {
        &self.base
    }

    /// The moves, in order, without their fields.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = PairMove> + '_ {
        self.items[..self.len].iter().map(|l| l.mv)
    }

    /// Each move with the field it leaves, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (PairMove, Field)> + '_ {
        self.items[..self.len].iter().map(|l| self.build(l))
    }

    /// Move `i` (in order) with the field it leaves.
    pub fn get(&self, i: usize) -> Option<(PairMove, Field)> {
        self.items[..self.len].get(i).map(|l| self.build(l))
    }

    /// The field a move leaves, when the move is listed.
    pub fn find(&self, mv: PairMove) -> Option<Field> {
        self.items[..self.len]
            .iter()
            .find(|l| l.mv == mv)
            .map(|l| self.build(l).1)
    }
}

/// The bit index of lane row `lane_row` of column `x` (at most 16 * 5 + 14: a `u8`).
#[inline(always)]
const fn pos(x: usize, lane_row: usize) -> u8 {
    (LANE as usize * x + lane_row) as u8
}

#[inline(always)]
const fn bit(x: usize, lane_row: usize) -> u128 {
    1u128 << (LANE as usize * x + lane_row)
}

impl Field {
    /// Whether no pair can be placed: under Tsu the death cell (column 3, row 12: `(2, 1)`)
    /// holds a puyo; under Smash the Code no column has two free rows and no two neighbouring
    /// columns have one each. See the [rules of the moves](super::placement).
    ///
    /// ```
    /// use gridbits::games::puyo::{Cell, Field, Rules};
    /// let mut field = Field::new(Rules::Tsu);
    /// assert!(!field.is_game_over());
    /// field.set(2, 1, Cell::Garbage); // a floating ojama in the death cell
    /// assert!(field.is_game_over());
    /// ```
    pub fn is_game_over(&self) -> bool {
        match self.rules {
            Rules::Tsu => self.occupied() & DEATH != 0,
            Rules::SmashTheCode => {
                let h = self.heights();
                let rows = self.rows();
                !(h.iter().any(|&k| k + 2 <= rows)
                    || h.windows(2).any(|w| w[0] < rows && w[1] < rows))
            }
        }
    }

    /// The height of every column (see [`column_height`](Self::column_height)).
    fn heights(&self) -> [usize; COLUMNS] {
        let occ = self.occupied();
        let mut h = [0; COLUMNS];
        for (x, k) in h.iter_mut().enumerate() {
            let lane = (occ >> (LANE as usize * x)) as u16;
            *k = (16 - lane.leading_zeros()) as usize;
        }
        h
    }

    /// The columns a pair can reach, lowest and highest, or `None` when the game is over
    /// (see the [rules of the moves](super::placement)).
    fn reach(&self) -> Option<(usize, usize)> {
        match self.rules {
            Rules::SmashTheCode => Some((0, COLUMNS - 1)),
            Rules::Tsu => {
                let top = self.occupied() & ROW12;
                let blocked = |x: usize| top & bit(x, 11) != 0;
                if blocked(2) {
                    return None;
                }
                let mut lo = 2;
                while lo > 0 && !blocked(lo - 1) {
                    lo -= 1;
                }
                let mut hi = 2;
                while hi + 1 < COLUMNS && !blocked(hi + 1) {
                    hi += 1;
                }
                Some((lo, hi))
            }
        }
    }

    /// Every move `pair` can make here and the field each leaves right after the pair fell,
    /// before any chain: the cheap form of [`placements`](Self::placements) (no simulation,
    /// no allocation). Empty when the game is over (or when a colour of `pair` is 5 or
    /// more, possible only by setting its public fields). The moves and their order are in
    /// the [module documentation](super::placement), the rule that drops some in
    /// docs/games.md.
    ///
    /// ```
    /// use gridbits::games::puyo::{Cell, Field, PairMove, Pair, Rules};
    /// let field = Field::new(Rules::SmashTheCode);
    /// let drops = field.drops(Pair::new(0, 1));
    /// let after = drops.find(PairMove { column: 5, rotation: 3 }).unwrap(); // child below
    /// assert_eq!(after.get(5, 11), Cell::Color(1));
    /// assert_eq!(after.get(5, 10), Cell::Color(0));
    /// ```
    pub fn drops(&self, pair: Pair) -> Drops {
        let mut out = Drops::new(*self);
        // A pair built field by field with a colour of 5 or more has no moves.
        let colors_ok =
            (pair.axis as usize) < super::COLORS && (pair.child as usize) < super::COLORS;
        let Some((lo, hi)) = self.reach().filter(|_| colors_ok) else {
            return out;
        };
        let h = self.heights();
        let rows = self.rows();
        let fits = |x: usize, need: usize| self.rules == Rules::Tsu || h[x] + need <= rows;
        for x in lo..=hi {
            for rotation in 0..4u8 {
                if pair.is_double() && rotation >= 2 {
                    continue;
                }
                let mv = PairMove {
                    column: x,
                    rotation,
                };
                let Some((xa, xc)) = mv.columns() else {
                    continue;
                };
                if xc < lo || xc > hi {
                    continue;
                }
                // The axis's cell and the child's cell.
                let (ba, bc) = if xa == xc {
                    if !fits(x, 2) {
                        continue;
                    }
                    let (low, high) = (pos(x, h[x]), pos(x, h[x] + 1));
                    if rotation == 1 {
                        (low, high)
                    } else {
                        (high, low)
                    }
                } else {
                    if !fits(xa, 1) || !fits(xc, 1) {
                        continue;
                    }
                    (pos(xa, h[xa]), pos(xc, h[xc]))
                };
                out.push(Landing {
                    mv,
                    axis: pair.axis,
                    axis_bit: ba,
                    child: pair.child,
                    child_bit: bc,
                });
            }
        }
        out
    }

    /// Every move `pair` can make here, each with the field right after the pair fell and
    /// the chain that field fires ([`simulate`](Self::simulate)). Empty when the game is
    /// over. The moves and their order are in the [module documentation](super::placement),
    /// the rule that drops some in docs/games.md.
    ///
    /// ```
    /// use gridbits::games::puyo::{Field, Pair, Rules};
    /// // Three reds on the floor of columns 0-2: a red pair on them fires.
    /// let text = format!("{}RRR...\n", "......\n".repeat(12));
    /// let field = Field::parse(&text, Rules::Tsu).unwrap();
    /// let placements = field.placements(Pair::new(0, 0));
    /// assert_eq!(placements.len(), 11);
    /// let best = placements.iter().max_by_key(|p| p.chain.score).unwrap();
    /// assert_eq!(best.chain.chain, 1);
    /// assert_eq!(best.chain.score, 10 * 5 * 2); // 5 puyos, group bonus 2
    /// ```
    ///
    /// ```
    /// use gridbits::games::puyo::{Field, Pair, Rules};
    /// let text = format!("{}RRR...\n", "......\n".repeat(12));
    /// let field = Field::parse(&text, Rules::Tsu).unwrap();
    /// let best = field
    ///     .placements(Pair::new(0, 1)) // axis R, child G
    ///     .into_iter()
    ///     .max_by_key(|p| p.chain.score)
    ///     .unwrap();
    /// assert_eq!((best.chain.chain, best.chain.score), (1, 40));
    /// ```
    pub fn placements(&self, pair: Pair) -> Vec<PairPlacement> {
        self.drops(pair)
            .iter()
            .map(|(mv, field_after)| PairPlacement {
                column: mv.column,
                rotation: mv.rotation,
                field_after,
                chain: field_after.simulate(),
            })
            .collect()
    }
}
