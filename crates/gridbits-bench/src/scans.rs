//! Bench workloads of the `scans` topic: labelling thresholded document scans.
//!
//! Two scans from scikit-image, thresholded once and committed as binary PBM files
//! (`data/page.pbm`, 384x191, and `data/text.pbm`, 448x172), made with skimage 0.26:
//!
//! ```text
//! b = skimage.data.page() < skimage.filters.threshold_otsu(skimage.data.page())
//! open("page.pbm", "wb").write(b"P4\n# ...\n%d %d\n" % (w, h) + numpy.packbits(b, axis=1).tobytes())
//! ```
//!
//! (and the same for `text`): a set cell is a dark pixel. Each is tiled to 2048x2048 and
//! 4096x4096 and labelled back to back into a reused image with 8- and 4-connectivity, in ns
//! per pixel: gridbits (the automatic writer), its alternatives (the AVX2 writer, the
//! cache-resident and streaming stores of the label image, [`LabelStores`], and the AVX-512
//! writer by 16 cells or run by run on every row, [`LabelWriter`]), the first pass
//! alone (`scan-only`: the count, no image), the memory floor (`u32-write`), and two bit-run
//! labellers written here from their published descriptions:
//!
//! - [`Brts`], the bit-run two-scan of UFBL (attltb/UFBL): the runs of each row found with
//!   bit scans of its words (`trailing_zeros` of the word and of its complement), each run
//!   joined with the runs of the row above that it overlaps (one more cell either side with
//!   8-connectivity) in a union-find whose roots are the smallest indices, the labels made
//!   consecutive, and a second pass writing each row's gaps and runs;
//! - [`Bmrs`], the bit-merge run scan (8-connectivity only): two rows OR-ed into one, whose
//!   runs are 8-connected; two merged runs of consecutive row pairs join when a cell of the
//!   upper row of the lower pair in its run touches a cell of the lower row of the upper
//!   pair in its run (a word-wide AND with the dilated row, tested over the runs'
//!   common columns, and the two cells beside the upper run); the second pass writes each run's label on the cells each row has set,
//!   renumbered to raster order where a row first meets it.
//!
//! Both give the labels of `scipy.ndimage.label` (raster order), checked against gridbits
//! before timing, and in the tests against the naive reference.

use crate::Bench;
use gridbits::algo::label::{LabelStores, LabelWriter, Labeller, Labels};
use gridbits::cpu::Level;
use gridbits::{BitGrid, Connectivity};
use std::hint::black_box;

/// `skimage.data.page() < threshold_otsu`, binary PBM.
const PAGE: &[u8] = include_bytes!("../data/page.pbm");
/// `skimage.data.text() < threshold_otsu`, binary PBM.
const TEXT: &[u8] = include_bytes!("../data/text.pbm");

/// Reads a binary (`P4`) PBM: header fields separated by whitespace, `#` comments to the end
/// of the line, then rows of `ceil(width / 8)` bytes, most significant bit first, 1 = black
/// (a set cell). `None` when the file is not one.
pub fn read_pbm(data: &[u8]) -> Option<BitGrid> {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 3 {
        match *data.get(i)? {
            b'#' => {
                while *data.get(i)? != b'\n' {
                    i += 1;
                }
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let start = i;
                while !data.get(i)?.is_ascii_whitespace() {
                    i += 1;
                }
                fields.push(std::str::from_utf8(&data[start..i]).ok()?);
            }
        }
    }
    // One whitespace byte ends the header.
    let body = data.get(i + 1..)?;
    if fields[0] != "P4" {
        return None;
    }
    let (w, h): (usize, usize) = (fields[1].parse().ok()?, fields[2].parse().ok()?);
    let stride = w.div_ceil(8);
    if body.len() < stride * h {
        return None;
    }
    let mut g = BitGrid::try_new(w, h).ok()?;
    for y in 0..h {
        for x in 0..w {
            if body[y * stride + x / 8] >> (7 - x % 8) & 1 == 1 {
                g.set(x, y);
            }
        }
    }
    Some(g)
}

/// `tile` repeated over a `side x side` grid.
pub fn tiled(tile: &BitGrid, side: usize) -> BitGrid {
    let (tw, th) = (tile.width(), tile.height());
    BitGrid::from_fn(side, side, |x, y| tile.get(x % tw, y % th))
        .unwrap_or_else(|_| BitGrid::new(1, 1))
}

/// The two scans, thresholded: `("page", grid)` and `("text", grid)`.
pub fn scans() -> Vec<(&'static str, BitGrid)> {
    [("page", PAGE), ("text", TEXT)]
        .into_iter()
        .filter_map(|(name, data)| read_pbm(data).map(|g| (name, g)))
        .collect()
}

/// Finds the root of `i`, halving the path on the way.
#[inline(always)]
fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let p = parent[parent[i as usize] as usize];
        parent[i as usize] = p;
        i = p;
    }
    i
}

/// Joins the sets of `a` and `b`; the smaller root becomes the root.
#[inline(always)]
fn join(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra < rb {
        parent[rb as usize] = ra;
    } else {
        parent[ra as usize] = rb;
    }
}

/// Makes labels consecutive (`1..`) in index order of the roots; returns how many. Parents
/// come before their children (roots are the smallest index of their set).
fn flatten(parent: &mut [u32]) -> u32 {
    let mut next = 0;
    for i in 0..parent.len() {
        let p = parent[i];
        if p as usize == i {
            next += 1;
            parent[i] = next;
        } else {
            parent[i] = parent[p as usize];
        }
    }
    next
}

/// Appends the runs `[start, end)` of a row of words to `starts` / `ends`, found with bit scans:
/// the next set cell by `trailing_zeros` of the word, the run's end by `trailing_zeros` of
/// its complement.
#[inline(always)]
fn row_runs(row: &[u64], width: usize, starts: &mut Vec<u32>, ends: &mut Vec<u32>) {
    let mut inside = false;
    for (j, &word) in row.iter().enumerate() {
        let base = (j * 64) as u32;
        let mut x = 0u32;
        while x < 64 {
            let rest = if inside { !word } else { word } >> x;
            if rest == 0 {
                break;
            }
            x += rest.trailing_zeros();
            if x >= 64 {
                break;
            }
            if inside {
                ends.push(base + x);
            } else {
                starts.push(base + x);
            }
            inside = !inside;
        }
    }
    if inside {
        ends.push(width as u32);
    }
}

/// The BRTS-style labeller (bit-run two-scan), with its reusable tables.
#[derive(Default)]
pub struct Brts {
    starts: Vec<u32>,
    ends: Vec<u32>,
    /// Index of each row's first run, and one past the last.
    first: Vec<usize>,
    parent: Vec<u32>,
}

impl Brts {
    /// Labels `g` into `out` (`width * height` cells, raster order labels); returns the count.
    pub fn label(&mut self, g: &BitGrid, conn: Connectivity, out: &mut Vec<u32>) -> u32 {
        let (w, h) = (g.width(), g.height());
        let slack = u32::from(conn == Connectivity::Eight);
        self.starts.clear();
        self.ends.clear();
        self.first.clear();
        self.parent.clear();
        self.first.push(0);
        for y in 0..h {
            row_runs(g.row_words(y), w, &mut self.starts, &mut self.ends);
            let (a, b) = (self.first[y], self.starts.len());
            self.first.push(b);
            let mut p = if y == 0 { a } else { self.first[y - 1] };
            for i in a..b {
                let (s, e) = (self.starts[i], self.ends[i]);
                self.parent.push(i as u32);
                if y == 0 {
                    continue;
                }
                // Runs above that end before this one starts (touching one cell
                // diagonally with 8-connectivity) touch no later run of this row.
                while p < a && self.ends[p] + slack <= s {
                    p += 1;
                }
                let mut q = p;
                while q < a && self.starts[q] < e + slack {
                    join(&mut self.parent, i as u32, q as u32);
                    q += 1;
                }
            }
        }
        let count = flatten(&mut self.parent);
        out.resize(w * h, 0);
        for y in 0..h {
            let row = &mut out[y * w..(y + 1) * w];
            let mut x = 0;
            for i in self.first[y]..self.first[y + 1] {
                let (s, e) = (self.starts[i] as usize, self.ends[i] as usize);
                row[x..s].fill(0);
                row[s..e].fill(self.parent[i]);
                x = e;
            }
            row[x..].fill(0);
        }
        count
    }
}

/// The BMRS-style labeller (bit-merge run scan, 8-connectivity), with its reusable tables.
#[derive(Default)]
pub struct Bmrs {
    merged: Vec<u64>,
    contact: Vec<u64>,
    starts: Vec<u32>,
    ends: Vec<u32>,
    first: Vec<usize>,
    parent: Vec<u32>,
    /// Raster-order label of each flattened label (0: not met yet).
    raster: Vec<u32>,
}

/// Whether `bits` has a set bit in `[from, to)`.
#[inline(always)]
fn any_in(bits: &[u64], from: usize, to: usize) -> bool {
    if from >= to {
        return false;
    }
    let (a, b) = (from / 64, (to - 1) / 64);
    let lo = u64::MAX << (from % 64);
    let hi = u64::MAX >> (63 - (to - 1) % 64);
    if a == b {
        return bits[a] & lo & hi != 0;
    }
    bits[a] & lo != 0 || bits[a + 1..b].iter().any(|&v| v != 0) || bits[b] & hi != 0
}

impl Bmrs {
    /// Labels `g` with 8-connectivity into `out` (raster order labels); returns the count.
    pub fn label(&mut self, g: &BitGrid, out: &mut Vec<u32>) -> u32 {
        let (w, h, wpr) = (g.width(), g.height(), g.words_per_row());
        let units = h.div_ceil(2);
        self.starts.clear();
        self.ends.clear();
        self.first.clear();
        self.parent.clear();
        self.first.push(0);
        self.merged.resize(wpr, 0);
        self.contact.resize(wpr, 0);
        for k in 0..units {
            let top = g.row_words(2 * k);
            let bottom = if 2 * k + 1 < h {
                g.row_words(2 * k + 1)
            } else {
                top
            };
            for j in 0..wpr {
                self.merged[j] = top[j] | bottom[j];
            }
            row_runs(&self.merged, w, &mut self.starts, &mut self.ends);
            let (a, b) = (self.first[k], self.starts.len());
            self.first.push(b);
            for i in a..b {
                self.parent.push(i as u32);
            }
            if k == 0 {
                continue;
            }
            // Contact cells: cells of this top row next to a cell of the lower row above.
            // Inside both runs' common columns a contact joins them; at the columns just
            // outside the upper run (empty in its merged row) the contact may come from
            // another upper run, so those two cells are tested on their own.
            let above = g.row_words(2 * k - 1);
            for j in 0..wpr {
                let (u, prev, next) = (
                    above[j],
                    if j > 0 { above[j - 1] >> 63 } else { 0 },
                    if j + 1 < wpr { above[j + 1] << 63 } else { 0 },
                );
                self.contact[j] = top[j] & (u | (u << 1) | prev | (u >> 1) | next);
            }
            let bit = |row: &[u64], x: u32| row[x as usize / 64] >> (x % 64) & 1 == 1;
            let mut p = self.first[k - 1];
            for i in a..b {
                let (s, e) = (self.starts[i], self.ends[i]);
                while p < a && self.ends[p] < s {
                    p += 1;
                }
                let mut q = p;
                while q < a && self.starts[q] <= e {
                    let (ps, pe) = (self.starts[q], self.ends[q]);
                    let touch = any_in(&self.contact, s.max(ps) as usize, e.min(pe) as usize)
                        || (ps > s && bit(top, ps - 1) && bit(above, ps))
                        || (pe < e && bit(top, pe) && bit(above, pe - 1));
                    if touch {
                        join(&mut self.parent, i as u32, q as u32);
                    }
                    q += 1;
                }
            }
        }
        let count = flatten(&mut self.parent);
        // The flattened labels number the components by row pair; the write renumbers them.
        self.raster.clear();
        self.raster.resize(count as usize + 1, 0);
        let mut next = 0;
        out.resize(w * h, 0);
        for y in 0..h {
            let words = g.row_words(y);
            let row = &mut out[y * w..(y + 1) * w];
            let k = y / 2;
            let mut x = 0;
            for i in self.first[k]..self.first[k + 1] {
                let (s, e) = (self.starts[i] as usize, self.ends[i] as usize);
                row[x..s].fill(0);
                // Labels in raster order: numbered where a row first has a cell of them.
                let root = self.parent[i] as usize;
                if self.raster[root] == 0 && any_in(words, s, e) {
                    next += 1;
                    self.raster[root] = next;
                }
                let label = self.raster[root];
                for (c, cell) in row[s..e].iter_mut().enumerate() {
                    let c = s + c;
                    *cell = if words[c / 64] >> (c % 64) & 1 == 1 {
                        label
                    } else {
                        0
                    };
                }
                x = e;
            }
            row[x..].fill(0);
        }
        count
    }
}

fn scan_rows(bench: &mut Bench) {
    let sides: &[usize] = if bench.quick() {
        &[1024]
    } else {
        &[2048, 4096]
    };
    for (what, tile) in scans() {
        for &side in sides {
            for conn in [Connectivity::Eight, Connectivity::Four] {
                let c = if conn == Connectivity::Four { 4 } else { 8 };
                let name = format!("label scan {side}x{side} {what} {c}-conn (ns/px)");
                if !bench.wants(&name) {
                    continue;
                }
                let g = tiled(&tile, side);
                let px = (side * side) as u64;
                let mut labeller = Labeller::new();
                let mut image = Labels::new();
                let mut avx2 = Labeller::new().with_level(Level::Avx2);
                let mut avx2_image = Labels::new();
                let mut cached = Labeller::new().with_stores(LabelStores::Cached);
                let mut cached_image = Labels::new();
                let mut streaming = Labeller::new().with_stores(LabelStores::Streaming);
                let mut streaming_image = Labels::new();
                let mut cells = Labeller::new().with_writer(LabelWriter::Cells);
                let mut cells_image = Labels::new();
                let mut runs = Labeller::new().with_writer(LabelWriter::Runs);
                let mut runs_image = Labels::new();
                let mut counter = Labeller::new();
                let mut brts = Brts::default();
                let mut brts_out = Vec::new();
                let mut bmrs = Bmrs::default();
                let mut bmrs_out = Vec::new();
                // The baselines give the library's labels, or their rows mean nothing.
                let n = labeller.label(&g, conn, &mut image).unwrap_or(0);
                assert_eq!(brts.label(&g, conn, &mut brts_out), n, "{name}: BRTS count");
                assert!(brts_out == image.as_slice(), "{name}: BRTS labels");
                if conn == Connectivity::Eight {
                    assert_eq!(bmrs.label(&g, &mut bmrs_out), n, "{name}: BMRS count");
                    assert!(bmrs_out == image.as_slice(), "{name}: BMRS labels");
                }
                let mid = side * side / 2;
                let w = bench
                    .workload(&name, "gridbits")
                    .warm_up()
                    .case("gridbits", px, || {
                        u64::from(labeller.label(&g, conn, &mut image).unwrap_or(0))
                            + u64::from(image.as_slice()[mid])
                    })
                    .alternative("avx2-writer", px, || {
                        u64::from(avx2.label(&g, conn, &mut avx2_image).unwrap_or(0))
                            + u64::from(avx2_image.as_slice()[mid])
                    })
                    .alternative("cached-stores", px, || {
                        u64::from(cached.label(&g, conn, &mut cached_image).unwrap_or(0))
                            + u64::from(cached_image.as_slice()[mid])
                    })
                    .alternative("streaming-stores", px, || {
                        u64::from(streaming.label(&g, conn, &mut streaming_image).unwrap_or(0))
                            + u64::from(streaming_image.as_slice()[mid])
                    })
                    .alternative("cells-writer", px, || {
                        u64::from(cells.label(&g, conn, &mut cells_image).unwrap_or(0))
                            + u64::from(cells_image.as_slice()[mid])
                    })
                    .alternative("runs-writer", px, || {
                        u64::from(runs.label(&g, conn, &mut runs_image).unwrap_or(0))
                            + u64::from(runs_image.as_slice()[mid])
                    })
                    .case("scan-only", px, || {
                        // The first pass alone (runs, union-find, flattening): no image.
                        u64::from(counter.count(&g, conn).unwrap_or(0))
                    })
                    .case("brts", px, || {
                        u64::from(brts.label(&g, conn, &mut brts_out)) + u64::from(brts_out[mid])
                    });
                let w = if conn == Connectivity::Eight {
                    w.case("bmrs", px, || {
                        u64::from(bmrs.label(&g, &mut bmrs_out)) + u64::from(bmrs_out[mid])
                    })
                } else {
                    w
                };
                let mut floor: Vec<u32> = Vec::new();
                w.case("u32-write", px, || {
                    // The memory floor: every label written once, nothing computed.
                    floor.resize(side * side, 0);
                    floor.fill(black_box(7u32));
                    u64::from(floor[side * side / 3])
                })
                .finish();
            }
        }
    }
}

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench) {
    scan_rows(bench);
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridbits::naive::{components as nc, NaiveGrid};
    use gridbits_testkit::{random_grid, SplitMix};

    #[test]
    fn the_scans_read() {
        let s = scans();
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].1.width(), s[0].1.height()), (384, 191));
        assert_eq!((s[1].1.width(), s[1].1.height()), (448, 172));
        // Otsu leaves about a third of `page` and an eighth of `text` dark.
        assert!((0.3..0.4).contains(&(s[0].1.count() as f64 / (384.0 * 191.0))));
        assert!((0.1..0.15).contains(&(s[1].1.count() as f64 / (448.0 * 172.0))));
        assert!(read_pbm(b"P1\n1 1\n1").is_none());
        let g = read_pbm(b"P4 # c\n3 2\n\xa0\x40").expect("a 3x2 PBM");
        assert_eq!(Some(g), BitGrid::parse("#.#\n.#.\n").ok());
    }

    /// Every writer and store kind of the library labels the tiled scans (rows of few
    /// runs: the run writer's case) as the naive reference does, at widths that are and are
    /// not multiples of 64.
    #[test]
    fn every_writer_labels_the_scans_as_naive() {
        for (_, tile) in scans() {
            for side in [500, 512] {
                let g = tiled(&tile, side);
                let naive = NaiveGrid::from_view(&g);
                for conn in [Connectivity::Four, Connectivity::Eight] {
                    let (want, n) = nc::label(&naive, conn);
                    for writer in [LabelWriter::Auto, LabelWriter::Cells, LabelWriter::Runs] {
                        for stores in [LabelStores::Cached, LabelStores::Streaming] {
                            let mut l = Labeller::new().with_writer(writer).with_stores(stores);
                            let mut out = Labels::new();
                            assert_eq!(l.label(&g, conn, &mut out).ok(), Some(n));
                            assert!(
                                out.as_slice() == want,
                                "{side} {conn:?} {writer:?} {stores:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Both baselines equal the naive labels on many sizes and densities, and on the
    /// tiled scans.
    #[test]
    fn baselines_equal_the_naive_labels() {
        let mut rng = SplitMix::new(32);
        let mut grids: Vec<BitGrid> = Vec::new();
        for (w, h) in [
            (1, 1),
            (1, 9),
            (9, 1),
            (63, 5),
            (64, 7),
            (65, 6),
            (130, 9),
            (7, 40),
        ] {
            for d in [0.0, 0.1, 0.5, 0.7, 1.0] {
                grids.push(random_grid(&mut rng, w, h, d));
            }
        }
        for (_, tile) in scans() {
            grids.push(tiled(&tile, 500));
        }
        let (mut brts, mut bmrs, mut out) = (Brts::default(), Bmrs::default(), Vec::new());
        for g in &grids {
            let naive = NaiveGrid::from_view(g);
            for conn in [Connectivity::Four, Connectivity::Eight] {
                let (want, n) = nc::label(&naive, conn);
                assert_eq!(brts.label(g, conn, &mut out), n);
                assert_eq!(out, want, "BRTS {}x{} {conn:?}", g.width(), g.height());
                if conn == Connectivity::Eight {
                    assert_eq!(
                        bmrs.label(g, &mut out),
                        n,
                        "BMRS {}x{}",
                        g.width(),
                        g.height()
                    );
                    assert_eq!(out, want, "BMRS {}x{}", g.width(), g.height());
                }
            }
        }
    }
}
