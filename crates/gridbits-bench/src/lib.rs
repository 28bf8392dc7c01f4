//! The gridbits benchmark harness (`cargo run --release -p gridbits-bench -- --quick`):
//! reproducible random workloads, each timed for the fast implementation and its baselines in
//! the same run (samples interleaved), median of several samples, ratios printed. The
//! baselines are the per-cell `gridbits::naive` versions, the articles' originals and, with
//! the `peers` feature, peer libraries (pathfinding, imageproc), which is why the harness is a
//! crate of its own: the library and the command line do not depend on them. Not published.
//!
//! Adding a workload is a few lines in [`run`]:
//!
//! ```ignore
//! bench.workload("name", "fast")
//!     .case("fast", ops, || fast_version(&inputs))
//!     .case("naive", ops, || naive_version(&inputs))
//!     .finish();
//! ```

#![warn(missing_docs)]

pub mod amazons_moves;
pub mod bytes;
pub mod chamfer_engines;
pub mod components;
pub mod distance_transform;
pub mod envs;
pub mod fill;
pub mod grids;
pub mod lines;
pub mod manycore;
pub mod measure;
pub mod morph;
pub mod morph_bytes;
pub mod morph_values;
pub mod parallel;
pub mod puyo_moves;
pub mod scans;
pub mod skeleton;
pub mod slide;
pub mod tetris_moves;

use gridbits::naive::NaiveGrid;
use gridbits::{BitGrid, Board, Connectivity, Dir};
use gridbits_testkit::{random_boards, random_grid, SplitMix};
use serde_json::json;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// One timed implementation of a workload.
pub struct Measured {
    /// Workload name.
    pub workload: String,
    /// Implementation name.
    pub implementation: String,
    /// Median nanoseconds per operation.
    pub ns_per_op: f64,
}

/// A fast implementation against one baseline: `ratio = baseline time / fast time`.
pub struct Ratio {
    /// Workload name.
    pub workload: String,
    /// The fast implementation.
    pub fast: String,
    /// The baseline.
    pub baseline: String,
    /// How many times faster the fast implementation is.
    pub ratio: f64,
}

/// An automatic choice that lost: the workload's fast case is what the library picks by
/// itself (engine, method, layout, hand-over or thread count), and an
/// [alternative](Workload::alternative) it could have picked ran more than [`BEHIND`]
/// faster in the same run.
pub struct Behind {
    /// Workload name.
    pub workload: String,
    /// The automatic case.
    pub automatic: String,
    /// The faster alternative.
    pub alternative: String,
    /// Automatic time / alternative time (above 1 + [`BEHIND`]).
    pub ratio: f64,
}

/// How far an automatic choice may trail the fastest of its alternatives before the run
/// lists it in [`Bench::behind`]: 10%.
pub const BEHIND: f64 = 0.10;

/// The whole run: settings and collected results.
pub struct Bench {
    quick: bool,
    filter: Option<String>,
    /// Every measurement, in order.
    pub results: Vec<Measured>,
    /// Every ratio, in order.
    pub ratios: Vec<Ratio>,
    /// Automatic choices more than [`BEHIND`] slower than the fastest alternative, in order.
    pub behind: Vec<Behind>,
    /// How many workloads compared an automatic choice with alternatives.
    pub automatic_workloads: usize,
}

type Case<'a> = (String, u64, Box<dyn FnMut() -> u64 + 'a>);

/// A workload being assembled: its cases run when [`Workload::finish`] is called.
pub struct Workload<'b, 'a> {
    bench: &'b mut Bench,
    name: String,
    fast: String,
    cases: Vec<Case<'a>>,
    /// The cases that are [alternatives](Self::alternative) of the automatic fast case.
    alternatives: Vec<String>,
    /// A pause before each sample (not timed), see [`settle`](Self::settle).
    pause: Duration,
    /// Whether each sample starts with [`WARM_UP`] of untimed calls, see
    /// [`warm_up`](Self::warm_up).
    warm: bool,
}

/// Untimed calls before each sample of a workload that [warms up](Workload::warm_up).
pub const WARM_UP: Duration = Duration::from_millis(20);

impl<'a> Workload<'_, 'a> {
    /// Pauses for `pause` before each sample, untimed: for cases on thread pools of their
    /// own, whose idle workers spin for a while after a call and would take a core from the
    /// next case's sample (on two cores, the one-thread and two-thread cases each slowed the
    /// other). Each sample is then [warmed up](Self::warm_up) too.
    pub fn settle(mut self, pause: Duration) -> Self {
        self.pause = pause;
        self.warm_up()
    }

    /// Starts each sample with [`WARM_UP`] of untimed calls of its case (not in a quick run):
    /// for workloads whose fast case runs on a second core. A virtual CPU that has idled
    /// (the second core while a one-thread case ran, or both during a pause) runs slower
    /// for some milliseconds when work comes back: on the 2-vCPU VM of docs/benchmarks.md,
    /// two-thread labelling of 4096x4096 noise at 30% came out slower than one thread
    /// without the warm-up and 1.3-1.5x faster with it, as in a loop of the same call.
    pub fn warm_up(mut self) -> Self {
        self.warm = true;
        self
    }

    /// Adds an implementation: `f` performs `ops` operations per call and returns a value
    /// that depends on its work (it is passed through `black_box`).
    pub fn case(mut self, name: &str, ops: u64, f: impl FnMut() -> u64 + 'a) -> Self {
        self.cases.push((name.to_string(), ops.max(1), Box::new(f)));
        self
    }

    /// Adds an implementation the library could have picked in place of the fast case, which
    /// is then an automatic choice (an engine, method, layout, hand-over or thread count chosen
    /// by a cost model or a CPU table): timed as [`case`](Self::case), and listed in
    /// [`Bench::behind`] when it runs more than [`BEHIND`] faster than the fast case.
    pub fn alternative(mut self, name: &str, ops: u64, f: impl FnMut() -> u64 + 'a) -> Self {
        self.alternatives.push(name.to_string());
        self.case(name, ops, f)
    }

    /// Times every case, interleaving their samples, and records results and ratios.
    pub fn finish(self) {
        let Workload {
            bench,
            name,
            fast,
            mut cases,
            alternatives,
            pause,
            warm,
        } = self;
        if let Some(f) = &bench.filter {
            if !name.contains(f.as_str()) {
                return;
            }
        }
        let started = Instant::now();
        let (samples, target) = if bench.quick {
            (5, Duration::from_millis(8))
        } else {
            (11, Duration::from_millis(60))
        };
        let warm = if warm && !bench.quick {
            WARM_UP
        } else {
            Duration::ZERO
        };
        // Calibrate: calls per sample so that one sample lasts about `target`.
        let mut iters = Vec::with_capacity(cases.len());
        let mut warms = Vec::with_capacity(cases.len());
        for (_, _, f) in cases.iter_mut() {
            // One call first, untimed: the first call of a case that reuses its buffers
            // allocates them (64 MiB of label image took 60 ms where a call takes 5).
            black_box(f());
            let start = Instant::now();
            black_box(f());
            let once = start.elapsed().max(Duration::from_nanos(20));
            iters.push(((target.as_nanos() / once.as_nanos()) as u64).clamp(1, 1 << 24));
            // A call as long as the warm-up is warm-up enough for the rest of itself.
            warms.push(if once < warm { warm } else { Duration::ZERO });
        }
        let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); cases.len()];
        let n = cases.len();
        // The order of the cases, shuffled again for every sample (a fixed seed: the same
        // orders in every run), so that no case always runs first, nor always right after
        // the same one. With the order only rotated, the first case always followed the
        // last (a one-thread baseline on many rows): on the 2-vCPU Zen 3 of
        // docs/benchmarks.md, of two identical two-thread labellers the first case took
        // 1.3-1.5x the time of the same one second, in every run.
        let mut order: Vec<usize> = (0..n).collect();
        let mut rng = SplitMix::new(0x006f_7264_6572); // "order"
        for _ in 0..samples {
            for k in (1..n).rev() {
                order.swap(k, rng.below(k as u64 + 1) as usize);
            }
            for &i in &order {
                let (_, ops, f) = &mut cases[i];
                if !pause.is_zero() {
                    std::thread::sleep(pause);
                }
                let start = Instant::now();
                while start.elapsed() < warms[i] {
                    black_box(f());
                }
                let start = Instant::now();
                for _ in 0..iters[i] {
                    black_box(f());
                }
                let ns = start.elapsed().as_nanos() as f64;
                times[i].push(ns / (iters[i] * *ops) as f64);
            }
        }
        let medians: Vec<f64> = times
            .iter_mut()
            .map(|t| {
                t.sort_by(|a, b| a.total_cmp(b));
                t[t.len() / 2]
            })
            .collect();
        for ((case, _, _), &ns) in cases.iter().zip(&medians) {
            bench.results.push(Measured {
                workload: name.clone(),
                implementation: case.clone(),
                ns_per_op: ns,
            });
        }
        if let Some(fi) = cases.iter().position(|(n, _, _)| *n == fast) {
            for (i, (case, _, _)) in cases.iter().enumerate() {
                if i != fi {
                    bench.ratios.push(Ratio {
                        workload: name.clone(),
                        fast: fast.clone(),
                        baseline: case.clone(),
                        ratio: medians[i] / medians[fi].max(1e-3),
                    });
                }
            }
            let best = cases
                .iter()
                .zip(&medians)
                .filter(|((case, _, _), _)| alternatives.contains(case))
                .min_by(|a, b| a.1.total_cmp(b.1));
            if let Some(((alt, _, _), &alt_ns)) = best {
                bench.automatic_workloads += 1;
                let ratio = medians[fi] / alt_ns.max(1e-3);
                if ratio > 1.0 + BEHIND {
                    bench.behind.push(Behind {
                        workload: name.clone(),
                        automatic: fast.clone(),
                        alternative: alt.clone(),
                        ratio,
                    });
                }
            }
        }
        // Progress, one line per workload, on stderr (stdout carries only the result).
        eprintln!("measured {name} ({:.1} s)", started.elapsed().as_secs_f64());
    }
}

impl Bench {
    /// A new run; `quick` shortens every sample, `filter` keeps workloads whose name contains it.
    pub fn new(quick: bool, filter: Option<String>) -> Self {
        Bench {
            quick,
            filter,
            results: Vec::new(),
            ratios: Vec::new(),
            behind: Vec::new(),
            automatic_workloads: 0,
        }
    }

    /// Whether this is a `--quick` run (topics may shrink their largest inputs).
    pub fn quick(&self) -> bool {
        self.quick
    }

    /// Whether a workload named `name` will run (it passes the filter): topics skip building
    /// large inputs for workloads that would not run.
    pub fn wants(&self, name: &str) -> bool {
        self.filter.as_deref().is_none_or(|f| name.contains(f))
    }

    /// Whether a `--filter` was given and `name` contains it: for workloads too long for a
    /// whole run, which run only when asked for by name.
    pub fn named(&self, name: &str) -> bool {
        self.filter.as_deref().is_some_and(|f| name.contains(f))
    }

    /// Starts a workload named `name` whose fast implementation is the case named `fast`.
    pub fn workload<'b, 'a>(&'b mut self, name: &str, fast: &str) -> Workload<'b, 'a> {
        Workload {
            bench: self,
            name: name.to_string(),
            fast: fast.to_string(),
            cases: Vec::new(),
            alternatives: Vec::new(),
            pause: Duration::ZERO,
            warm: false,
        }
    }

    /// The results as one JSON object: `results`, `ratios`, `behind` (automatic choices more
    /// than [`BEHIND`] slower than an alternative, with `automatic_workloads`, how many
    /// workloads compared one) and `peers` (whether the peer libraries were compiled in).
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "peers": PEERS,
            "automatic_workloads": self.automatic_workloads,
            "behind": self.behind.iter().map(|b| json!({
                "workload": b.workload, "automatic": b.automatic,
                "alternative": b.alternative, "ratio": b.ratio,
            })).collect::<Vec<_>>(),
            "results": self.results.iter().map(|r| json!({
                "workload": r.workload, "impl": r.implementation, "ns_per_op": r.ns_per_op,
            })).collect::<Vec<_>>(),
            "ratios": self.ratios.iter().map(|r| json!({
                "workload": r.workload, "fast": r.fast, "baseline": r.baseline, "ratio": r.ratio,
            })).collect::<Vec<_>>(),
        })
    }

    /// The results as a text table: one row per implementation, its time, and against the
    /// fast implementation how many times faster (or slower) it is.
    pub fn to_text(&self) -> String {
        let rows: Vec<[String; 4]> = self
            .results
            .iter()
            .map(|r| {
                let speed = self
                    .ratios
                    .iter()
                    .find(|q| q.workload == r.workload && q.baseline == r.implementation)
                    .map(|q| format!("{}: {}", q.fast, speedup(q.ratio)))
                    .unwrap_or_default();
                [
                    r.workload.clone(),
                    r.implementation.clone(),
                    format_ns(r.ns_per_op),
                    speed,
                ]
            })
            .collect();
        let header = ["workload", "impl", "ns/op", "speedup"].map(String::from);
        let width = |i: usize| {
            rows.iter()
                .chain(std::iter::once(&header))
                .map(|r| r[i].len())
                .max()
                .unwrap_or(0)
        };
        let (w0, w1, w2) = (width(0), width(1), width(2));
        let mut out = String::new();
        for r in std::iter::once(&header).chain(&rows) {
            let line = format!("{:<w0$}  {:<w1$}  {:>w2$}  {}", r[0], r[1], r[2], r[3]);
            out.push_str(line.trim_end());
            out.push('\n');
        }
        if self.automatic_workloads > 0 {
            // After a blank line: the table above ends there.
            let pct = BEHIND * 100.0;
            if self.behind.is_empty() {
                out.push_str(&format!(
                    "\nevery automatic choice is within {pct:.0}% of its fastest alternative \
                     (workloads with alternatives: {})\n",
                    self.automatic_workloads
                ));
            } else {
                out.push_str(&format!(
                    "\nautomatic choices more than {pct:.0}% behind an alternative ({} of {} \
                     workloads with alternatives):\n",
                    self.behind.len(),
                    self.automatic_workloads
                ));
                for b in &self.behind {
                    out.push_str(&format!(
                        "  {}: {} takes {:.2}x the time of {}\n",
                        b.workload, b.automatic, b.ratio, b.alternative
                    ));
                }
            }
        }
        if !PEERS {
            out.push_str(
                "(peer libraries pathfinding and imageproc not compiled in: build with \
                 `--features peers` to time them too)\n",
            );
        }
        out
    }
}

/// Whether the peer libraries (pathfinding, imageproc) are compiled in as baselines.
pub const PEERS: bool = cfg!(feature = "peers");

/// A ratio `baseline time / fast time` in words: "2.5x faster", or below 1 "2.1x slower".
fn speedup(ratio: f64) -> String {
    if ratio >= 1.0 || ratio <= 0.0 {
        format!("{ratio:.1}x faster")
    } else {
        format!("{:.1}x slower", 1.0 / ratio)
    }
}

fn format_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} us", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

/// The core workload, fixed board: all 8 one-step shifts plus 4- and 8-dilation inside a mask,
/// folded by XOR so that no part can be optimised away.
#[inline(never)]
fn shift_dilate_board<const W: usize, const H: usize, const N: usize>(
    b: Board<W, H, N>,
    mask: Board<W, H, N>,
) -> Board<W, H, N> {
    let mut acc =
        b.dilate_within(Connectivity::Four, mask) ^ b.dilate_within(Connectivity::Eight, mask);
    for d in Dir::ALL {
        acc ^= b.shift(d);
    }
    acc
}

/// The same workload on a runtime-sized grid.
fn shift_dilate_grid(b: &BitGrid, mask: &BitGrid) -> BitGrid {
    let mut acc = b.dilate_within(Connectivity::Four, mask);
    acc ^= &b.dilate_within(Connectivity::Eight, mask);
    for d in Dir::ALL {
        acc ^= &b.shift(d);
    }
    acc
}

/// The same workload, per cell.
fn shift_dilate_naive(b: &NaiveGrid, mask: &NaiveGrid) -> NaiveGrid {
    let mut acc = b
        .dilate_within(Connectivity::Four, mask)
        .xor(&b.dilate_within(Connectivity::Eight, mask));
    for d in Dir::ALL {
        acc = acc.xor(&b.shift(d));
    }
    acc
}

/// Registers the core workload for one fixed board size: `board` (fast) vs `bitgrid` vs
/// `naive`.
fn core_fixed<const W: usize, const H: usize, const N: usize>(
    bench: &mut Bench,
    rng: &mut SplitMix,
) {
    const BATCH: usize = 256;
    let boards = random_boards::<W, H, N>(rng, BATCH, 0.3);
    let masks = random_boards::<W, H, N>(rng, BATCH, 0.7);
    let to_grid = |b: &Board<W, H, N>| {
        BitGrid::from_fn(W, H, |x, y| b.get(x, y)).unwrap_or_else(|e| panic!("{e}"))
    };
    let grids: Vec<(BitGrid, BitGrid)> = boards
        .iter()
        .zip(&masks)
        .map(|(b, m)| (to_grid(b), to_grid(m)))
        .collect();
    let naive: Vec<(NaiveGrid, NaiveGrid)> = boards
        .iter()
        .zip(&masks)
        .map(|(b, m)| (NaiveGrid::from_view(b), NaiveGrid::from_view(m)))
        .collect();
    let name = format!("shift8+dilate {W}x{H}");
    bench
        .workload(&name, "board")
        .case("board", BATCH as u64, || {
            let mut acc = Board::<W, H, N>::EMPTY;
            for (b, m) in boards.iter().zip(&masks) {
                acc ^= shift_dilate_board(black_box(*b), *m);
            }
            acc.count() as u64
        })
        .case("bitgrid", BATCH as u64, || {
            grids
                .iter()
                .map(|(b, m)| shift_dilate_grid(b, m).count())
                .sum()
        })
        .case("naive", 16, || {
            naive[..16]
                .iter()
                .map(|(b, m)| shift_dilate_naive(b, m).count())
                .sum()
        })
        .finish();
}

/// Runs every workload; each topic registers its own.
pub fn run(bench: &mut Bench) {
    let mut rng = SplitMix::new(0x6772_6964_6269_7473); // "gridbits"
    core_fixed::<6, 12, 2>(bench, &mut rng);
    core_fixed::<10, 10, 2>(bench, &mut rng);
    core_fixed::<30, 20, 10>(bench, &mut rng);

    let (w, h) = (1024, 1024);
    let g = random_grid(&mut rng, w, h, 0.3);
    let m = random_grid(&mut rng, w, h, 0.7);
    let (ng, nm) = (NaiveGrid::from_view(&g), NaiveGrid::from_view(&m));
    bench
        .workload("shift8+dilate 1024x1024", "bitgrid")
        .case("bitgrid", 1, || shift_dilate_grid(&g, &m).count())
        .case("naive", 1, || shift_dilate_naive(&ng, &nm).count())
        .finish();

    // Each topic registers its own workloads, each from its own seeded generator.
    fill::register(bench, &mut SplitMix::new(0x3));
    slide::register(bench, &mut SplitMix::new(0x4));
    components::register(bench, &mut SplitMix::new(0x5));
    lines::register(bench, &mut SplitMix::new(0x6));
    grids::register(bench, &mut SplitMix::new(0x7));
    puyo_moves::register(bench, &mut SplitMix::new(0x8));
    parallel::register(bench, &mut SplitMix::new(0x9));
    manycore::register(bench, &mut SplitMix::new(0x16));
    tetris_moves::register(bench, &mut SplitMix::new(0xa));
    amazons_moves::register(bench, &mut SplitMix::new(0xa3));
    bytes::register(bench, &mut SplitMix::new(0xb));
    envs::register(bench, &mut SplitMix::new(0xc));
    skeleton::register(bench, &mut SplitMix::new(0xd));
    distance_transform::register(bench, &mut SplitMix::new(0xd7));
    chamfer_engines::register(bench, &mut SplitMix::new(0xdc));
    morph::register(bench, &mut SplitMix::new(0x31));
    morph_bytes::register(bench, &mut SplitMix::new(0x3b));
    morph_values::register(bench, &mut SplitMix::new(0x3c));
    measure::register(bench, &mut SplitMix::new(0x3e));
    scans::register(bench);
}

#[cfg(test)]
mod tests {
    use super::speedup;

    #[test]
    fn ratios_below_one_read_as_slower() {
        assert_eq!(speedup(2.54), "2.5x faster");
        assert_eq!(speedup(1.0), "1.0x faster");
        assert_eq!(speedup(0.5), "2.0x slower");
        assert_eq!(speedup(1.0 / 2.1), "2.1x slower");
    }
}
