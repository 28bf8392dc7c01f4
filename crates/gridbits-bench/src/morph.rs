//! Bench workloads of binary morphology (`gridbits::algo::morph`): dilation and opening of
//! 2048x2048 noise (30/50/70%) and blobby images by 3x3 and 15x15 squares and disks of
//! radius 1 and 7, against the plain per-pixel version a careful user writes (bytes, the
//! footprint's offsets in a list, the first hit or miss ends a pixel) and, on a 256x256
//! crop, the per-cell `naive::morph`.

use crate::Bench;
use gridbits::algo::morph::{dilation, opening, Footprint};
use gridbits::naive::{morph as nm, NaiveGrid};
use gridbits::BitGrid;
use gridbits_testkit::{discs, percent_grid, SplitMix};

/// A workload input and its name in the rows' names.
pub(crate) type Named<T> = (&'static str, T);

/// The morphology rows' images, `size` x `size` (noise 30/50/70% and blobs), and their
/// footprints (3x3 and 15x15 squares, disks of radius 1 and 7), named for the row names.
pub(crate) fn inputs(
    rng: &mut SplitMix,
    size: usize,
) -> (Vec<(String, BitGrid)>, [Named<Footprint>; 4]) {
    let mut images: Vec<(String, BitGrid)> = [30, 50, 70]
        .iter()
        .map(|&p| (format!("noise {p}%"), percent_grid(rng, size, size, p)))
        .collect();
    let mut blobs = BitGrid::new(size, size);
    discs(rng, size, |x, y| blobs.set(x, y));
    images.push(("blobs".to_string(), blobs));
    let footprints = [
        ("square 3x3", Footprint::square(3)),
        ("square 15x15", Footprint::square(15)),
        ("disk r1", Footprint::disk(1)),
        ("disk r7", Footprint::disk(7)),
    ];
    (images, footprints)
}

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let size = if bench.quick() { 1024 } else { 2048 };
    let (images, footprints) = inputs(rng, size);
    for (image, grid) in &images {
        for (fp_name, fp) in &footprints {
            workload(bench, "dilation", image, grid, fp_name, fp);
            workload(bench, "opening", image, grid, fp_name, fp);
        }
    }
}

/// A byte image and the plain per-pixel morphology of a careful user.
struct Plain {
    width: usize,
    height: usize,
    cells: Vec<u8>,
}

impl Plain {
    fn new(g: &BitGrid) -> Self {
        let (width, height) = (g.width(), g.height());
        let mut cells = vec![0u8; width * height];
        for (x, y) in g.iter() {
            cells[y * width + x] = 1;
        }
        Plain {
            width,
            height,
            cells,
        }
    }

    /// Erosion (`erode`) or dilation: for each pixel, the offsets until the first miss
    /// (erosion) or hit (dilation); off the image is empty.
    fn morph(&self, offsets: &[(isize, isize)], erode: bool) -> Plain {
        let (w, h) = (self.width as isize, self.height as isize);
        let mut out = vec![0u8; self.cells.len()];
        for y in 0..h {
            for x in 0..w {
                let hit = |&(dx, dy): &(isize, isize)| {
                    // Dilation reads through the reflected footprint.
                    let (sx, sy) = if erode {
                        (x + dx, y + dy)
                    } else {
                        (x - dx, y - dy)
                    };
                    sx >= 0
                        && sy >= 0
                        && sx < w
                        && sy < h
                        && self.cells[(sy * w + sx) as usize] != 0
                };
                let v = if erode {
                    offsets.iter().all(hit)
                } else {
                    offsets.iter().any(hit)
                };
                out[(y * w + x) as usize] = v as u8;
            }
        }
        Plain {
            width: self.width,
            height: self.height,
            cells: out,
        }
    }

    fn count(&self) -> u64 {
        self.cells.iter().map(|&c| c as u64).sum()
    }
}

/// `morph OP IMAGE FOOTPRINT N`: the library against the plain bytes version (and naive on
/// a crop, as its own workload).
fn workload(
    bench: &mut Bench,
    op: &str,
    image: &str,
    grid: &BitGrid,
    fp_name: &str,
    fp: &Footprint,
) {
    let size = grid.width();
    let name = format!("morph {op} {image} {fp_name} {size}x{size}");
    let opening_op = op == "opening";
    if bench.wants(&name) {
        let plain = Plain::new(grid);
        let offsets = fp.offsets();
        bench
            .workload(&name, "bitgrid")
            .warm_up()
            .case("bitgrid", 1, || {
                if opening_op {
                    opening(grid, fp).count()
                } else {
                    dilation(grid, fp).count()
                }
            })
            .case("plain", 1, || {
                if opening_op {
                    plain.morph(&offsets, true).morph(&offsets, false).count()
                } else {
                    plain.morph(&offsets, false).count()
                }
            })
            .finish();
    }
    let crop = 256;
    let name = format!("morph {op} {image} {fp_name} {crop}x{crop}");
    if bench.wants(&name) {
        let small =
            BitGrid::from_fn(crop, crop, |x, y| grid.get(x, y)).unwrap_or_else(|_| grid.clone());
        let naive = NaiveGrid::from_view(&small);
        bench
            .workload(&name, "bitgrid")
            .case("bitgrid", 1, || {
                if opening_op {
                    opening(&small, fp).count()
                } else {
                    dilation(&small, fp).count()
                }
            })
            .case("naive", 1, || {
                if opening_op {
                    nm::dilation(&nm::erosion(&naive, fp, false), fp, false).count()
                } else {
                    nm::dilation(&naive, fp, false).count()
                }
            })
            .finish();
    }
}
