//! Fields as byte codes and back, a whole field at a time: what numpy arrays and other
//! byte-per-cell formats hold.
//!
//! A field of `rows` rows is `rows * 6` bytes, top row first, each cell one code: `0`
//! empty, `1`-`5` the colours 0-4, `6` garbage ([`CODE_GARBAGE`]).
//!
//! With AVX2 (detected at run time) both directions are a few dozen vector instructions
//! per field (`codes_avx2.rs`). The portable code: [`Field::from_codes`] reads every cell
//! once and sets its bit in the 16-bit lane of its column and code (the lanes of one code
//! are the raw plane layout of [`Field::color_plane`]); [`Field::write_codes`] walks the set
//! bits of each plane. Neither goes through [`Field::set`] / [`Field::get`], which touch
//! every plane per cell. Both paths give the same results (tested).

use super::{Field, Rules, COLORS, COLUMNS, GARBAGE};
use std::fmt;

/// The code of a garbage cell in a byte field (`0` empty, `1`-`5` colours).
pub const CODE_GARBAGE: u8 = 6;

/// Why bytes are not a field: [`Field::from_codes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeError {
    /// The bytes are not `rows * 6` long.
    Length {
        /// Bytes given.
        len: usize,
        /// Bytes a field of these rules has.
        expected: usize,
    },
    /// A byte that is no cell code (7 or more) at row `y` (from the top), column `x`.
    BadCode {
        /// The byte.
        code: u8,
        /// Column.
        x: usize,
        /// Row from the top.
        y: usize,
    },
}

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CodeError::Length { len, expected } => {
                write!(f, "a field has {expected} cells, not {len}")
            }
            CodeError::BadCode { code, x, y } => write!(
                f,
                "code {code} at row {y}, column {x} (0 empty, 1-5 colours, 6 garbage)"
            ),
        }
    }
}

impl std::error::Error for CodeError {}

impl Field {
    /// The field of `codes` (`rows * 6` bytes, top row first: `0` empty, `1`-`5` colours,
    /// `6` garbage), as it is: floating cells stay where they are (call
    /// [`settle`](Self::settle) to drop them).
    ///
    /// # Errors
    ///
    /// [`CodeError::Length`] when `codes` is not `rows * 6` long, [`CodeError::BadCode`] for
    /// the first byte of 7 or more.
    ///
    /// ```
    /// use gridbits::games::puyo::{Cell, Field, Rules};
    /// let mut codes = [0u8; 72];
    /// codes[66..].copy_from_slice(&[1, 1, 1, 1, 6, 0]); // the bottom row
    /// let field = Field::from_codes(&codes, Rules::SmashTheCode).unwrap();
    /// assert_eq!(field.get(0, 11), Cell::Color(0));
    /// assert_eq!(field.get(4, 11), Cell::Garbage);
    /// assert_eq!(field.simulate().chain, 1);
    /// ```
    pub fn from_codes(codes: &[u8], rules: Rules) -> Result<Field, CodeError> {
        let rows = rules.rows();
        if codes.len() != rows * COLUMNS {
            return Err(CodeError::Length {
                len: codes.len(),
                expected: rows * COLUMNS,
            });
        }
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(crate::cpu::Features::AVX2) {
            // SAFETY: AVX2 is present and the length was checked above.
            if let Some(f) = unsafe { super::codes_avx2::from_codes(codes, rules) } {
                return Ok(f);
            }
        }
        Self::from_codes_portable(codes, rules)
    }

    /// [`from_codes`](Self::from_codes) without SIMD, for a slice of the right length; it
    /// also finds the bad code the AVX2 path only detects.
    fn from_codes_portable(codes: &[u8], rules: Rules) -> Result<Field, CodeError> {
        let rows = rules.rows();
        if codes.len() != rows * COLUMNS {
            return Err(CodeError::Length {
                len: codes.len(),
                expected: rows * COLUMNS,
            });
        }
        // lanes[code][x]: bit `rows - 1 - y` for each row y of column x holding `code`; codes
        // of 7 or more land in lanes[7].
        let mut lanes = [[0u16; COLUMNS]; 8];
        for (y, row) in codes.chunks_exact(COLUMNS).enumerate() {
            let bit = 1u16 << (rows - 1 - y);
            for (x, &c) in row.iter().enumerate() {
                lanes[usize::from(c.min(7))][x] |= bit;
            }
        }
        if lanes[7] != [0; COLUMNS] {
            let i = codes.iter().position(|&c| c > CODE_GARBAGE).unwrap_or(0);
            return Err(CodeError::BadCode {
                code: codes[i],
                x: i % COLUMNS,
                y: i / COLUMNS,
            });
        }
        let plane = |l: &[u16; COLUMNS]| {
            l.iter()
                .enumerate()
                .fold(0u128, |p, (x, &b)| p | u128::from(b) << (16 * x))
        };
        let mut f = Field::new(rules);
        for c in 0..COLORS {
            f.planes[c] = plane(&lanes[c + 1]);
        }
        f.planes[GARBAGE] = plane(&lanes[usize::from(CODE_GARBAGE)]);
        Ok(f)
    }

    /// Writes the codes of the field into `out` (`rows * 6` bytes, top row first: `0` empty,
    /// `1`-`5` colours, `6` garbage), the inverse of [`from_codes`](Self::from_codes).
    ///
    /// # Panics
    ///
    /// When `out` is not `rows * 6` long.
    ///
    /// ```
    /// use gridbits::games::puyo::{Field, Rules};
    /// let text = format!("{}RRGB..\nRRGB..\n", "......\n".repeat(11));
    /// let field = Field::parse(&text, Rules::Tsu).unwrap();
    /// let mut codes = [9u8; 78];
    /// field.write_codes(&mut codes);
    /// assert_eq!(&codes[66..], &[1, 1, 2, 3, 0, 0, 1, 1, 2, 3, 0, 0]);
    /// assert_eq!(Field::from_codes(&codes, Rules::Tsu), Ok(field));
    /// ```
    pub fn write_codes(&self, out: &mut [u8]) {
        let rows = self.rows();
        assert_eq!(
            out.len(),
            rows * COLUMNS,
            "a field has {} cells",
            rows * COLUMNS
        );
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(crate::cpu::Features::AVX2) {
            // SAFETY: AVX2 is present and the length was checked above.
            unsafe { super::codes_avx2::write_codes(self, out) };
            return;
        }
        self.write_codes_portable(out);
    }

    /// [`write_codes`](Self::write_codes) without SIMD (same panics).
    fn write_codes_portable(&self, out: &mut [u8]) {
        let rows = self.rows();
        assert_eq!(
            out.len(),
            rows * COLUMNS,
            "a field has {} cells",
            rows * COLUMNS
        );
        out.fill(0);
        for (i, &p) in self.planes.iter().enumerate() {
            let code = if i == GARBAGE {
                CODE_GARBAGE
            } else {
                i as u8 + 1
            };
            let mut p = p;
            while p != 0 {
                let b = p.trailing_zeros() as usize;
                p &= p - 1;
                let (x, lane_row) = (b / 16, b % 16);
                // Bits outside the field are zero, so `lane_row < rows` and `x < 6`.
                out[(rows - 1 - lane_row) * COLUMNS + x] = code;
            }
        }
    }
}
