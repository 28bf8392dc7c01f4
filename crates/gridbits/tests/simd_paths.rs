//! Every SIMD or bit-instruction path against its portable twin, on the same inputs, when
//! this CPU has the instructions; otherwise the test prints that it skipped the path (and
//! passes). Each test prints one `simd path: NAME: ran` or `... skipped (...)` line on
//! standard error (`cargo test -- --nocapture simd_paths` shows them), which is how a run
//! tells which paths this machine checked.
//!
//! The thorough property tests of each path live with their algorithm (`bytes_props`,
//! `label_props`, `parallel_props`, `fill_engines`, `lines_props`, `amazons_moves`,
//! `puyo_sim`); these are the one place that names every path and says whether it ran, but
//! for five private kernels tested beside their code against the portable form: the
//! POPCNT, AVX2 and AVX-512 VPOPCNTDQ cell counts (`grid/popcount.rs`), the SSE4.1 run scans
//! and the AVX2 row loops of the distance sweeps (`algo/fill/run_scan.rs`,
//! `algo/fill/distance_sweeps.rs`), the AVX2 Puyo code
//! conversion (`puyo_field::codes_round_trip`) and the BMI2 Puyo settle
//! (`puyo_field::settle_drops_every_column`).

use crate::amazons_moves::position;
use crate::common::*;
use crate::puyo_sim::random_field;
use gridbits::algo::fill::fill_union;
use gridbits::algo::label::{ComponentStats, LabelOrder, Labeller, Labels};
use gridbits::algo::lines::{settle_planes, ColumnBoard, RowChunks, PEXT};
use gridbits::cpu::{self, with_level, Level};
use gridbits::games::amazons::Side;
use gridbits::games::puyo::{ChainEngine, Rules};
use gridbits::grid::ByteKernel;
use gridbits::{BitGrid, Connectivity};

/// Prints whether the path ran.
fn note(path: &str, ran: bool, needs: &str) {
    if ran {
        eprintln!("simd path: {path}: ran");
    } else {
        eprintln!("simd path: {path}: skipped (this CPU lacks {needs})");
    }
}

#[cfg(target_arch = "x86_64")]
fn has(feature: &str) -> bool {
    match feature {
        "avx2" => std::arch::is_x86_feature_detected!("avx2"),
        "avx512" => {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
        }
        "avx512vl" => {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("sse4.1")
        }
        "avx512popcnt" => {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
        }
        "bits" => {
            std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
        }
        _ => unreachable!("{feature}"),
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn has(_: &str) -> bool {
    false
}

/// Grids at the word edges and some random ones, at a few densities.
fn grids() -> Vec<BitGrid> {
    let sizes = [
        (1, 1),
        (63, 3),
        (64, 2),
        (65, 5),
        (1, 64),
        (128, 1),
        (8, 16),
        (200, 37),
        (513, 9),
    ];
    let mut out = Vec::new();
    for (k, &(w, h)) in sizes.iter().enumerate() {
        out.push(BitGrid::new(w, h));
        out.push(BitGrid::full(w, h));
        for (j, d) in [0.3, 0.55, 0.8].into_iter().enumerate() {
            out.push(grid_of(w, h, &density_bits(w * h, d, (k * 7 + j) as u64)));
        }
    }
    out
}

fn byte_kernel(kernel: ByteKernel, needs: &str) {
    let ran = kernel.is_available();
    note(&format!("byte packing ({})", kernel.name()), ran, needs);
    if !ran {
        return;
    }
    for g in grids() {
        let (w, h) = g.size();
        for pad in [0, 5, 64] {
            let stride = w + pad;
            let mut portable = vec![7u8; stride * h];
            let mut simd = portable.clone();
            g.write_bytes_with(ByteKernel::Portable, &mut portable, stride, 200, 3)
                .unwrap();
            g.write_bytes_with(kernel, &mut simd, stride, 200, 3)
                .unwrap();
            assert_eq!(simd, portable, "unpack {}x{h} stride {stride}", w);
            for t in [0, 3, 199, 200] {
                let a = BitGrid::from_bytes_with(ByteKernel::Portable, &simd, w, h, stride, t);
                let b = BitGrid::from_bytes_with(kernel, &simd, w, h, stride, t);
                assert_eq!(b.unwrap(), a.unwrap(), "pack {w}x{h} stride {stride} t {t}");
            }
        }
    }
}

#[test]
fn byte_packing_sse2() {
    byte_kernel(ByteKernel::Sse2, "SSE2");
}

#[test]
fn byte_packing_avx2() {
    byte_kernel(ByteKernel::Avx2, "AVX2");
}

#[test]
fn byte_packing_avx512() {
    byte_kernel(ByteKernel::Avx512, "AVX-512 F and BW");
}

/// Labels, statistics and counts of one labeller.
fn label_all(mut l: Labeller, g: &BitGrid, conn: Connectivity) -> (Labels, Vec<ComponentStats>) {
    let mut labels = Labels::default();
    let n = l.label(g, conn, &mut labels).unwrap();
    let mut stats = Vec::new();
    assert_eq!(l.stats(g, conn, &mut stats).unwrap(), n);
    let mut with = Vec::new();
    let mut again = Labels::default();
    assert_eq!(
        l.label_with_stats(g, conn, &mut again, &mut with).unwrap(),
        n
    );
    assert_eq!(again, labels);
    assert_eq!(with, stats);
    assert_eq!(l.count(g, conn).unwrap(), n);
    (labels, stats)
}

#[test]
fn labelling_bit_instructions_and_avx2_writer() {
    let bits = has("bits");
    note(
        "labeller scan/stats (POPCNT, BMI1/2, LZCNT)",
        bits,
        "POPCNT, BMI1/2 or LZCNT",
    );
    note(
        "labeller label writer (AVX2)",
        bits && has("avx2"),
        "AVX2 or the bit instructions",
    );
    note(
        "labeller label writer (AVX-512)",
        bits && has("avx2") && has("avx512popcnt"),
        "AVX-512 F or VPOPCNTDQ",
    );
    if !bits {
        return;
    }
    assert!(Labeller::new().accelerated());
    for g in grids() {
        for conn in CONNS {
            for order in [LabelOrder::Raster, LabelOrder::RowPairs] {
                let fast = label_all(Labeller::new().with_order(order), &g, conn);
                let slow = label_all(
                    Labeller::new()
                        .with_order(order)
                        .with_level(Level::Portable),
                    &g,
                    conn,
                );
                assert_eq!(fast, slow, "{conn:?} {order:?}\n{g}");
                let avx2 = Labeller::new().with_order(order).with_level(Level::Avx2);
                assert_eq!(
                    label_all(avx2, &g, conn),
                    slow,
                    "AVX2 {conn:?} {order:?}\n{g}"
                );
            }
        }
    }
}

#[test]
fn striped_label_remap_avx2() {
    let ran = has("bits") && has("avx2");
    note("striped labelling remap (AVX2 gathers)", ran, "AVX2");
    if !ran {
        return;
    }
    for g in grids() {
        for conn in CONNS {
            for rows in [1, 2, 3, 8] {
                let fast = label_all(Labeller::new().with_stripes(0, rows), &g, conn);
                let slow = label_all(
                    Labeller::new()
                        .with_stripes(0, rows)
                        .with_level(Level::Portable),
                    &g,
                    conn,
                );
                assert_eq!(fast, slow, "{conn:?} stripes of {rows}\n{g}");
            }
        }
    }
}

#[test]
fn fill_union_bit_instructions() {
    let ran = has("bits");
    note(
        "fill_union (POPCNT, BMI1/2, LZCNT)",
        ran,
        "POPCNT, BMI1/2 or LZCNT",
    );
    if !ran {
        return;
    }
    for g in grids() {
        let (w, h) = g.size();
        let seeds = grid_of(w, h, &density_bits(w * h, 0.02, (w * h) as u64));
        for conn in CONNS {
            assert_eq!(
                fill_union(&seeds, &g, conn),
                with_level(Level::Portable, || fill_union(&seeds, &g, conn)),
                "{conn:?}\n{g}"
            );
        }
    }
}

#[test]
fn line_clears_and_gravity_pext() {
    let ran = cpu::has(PEXT);
    note(
        "line clears and gravity (BMI2 pext/pdep)",
        ran,
        "BMI2 and POPCNT",
    );
    if !ran {
        return;
    }
    let mut rng = SplitMix(5);
    for round in 0..300 {
        let (w, h) = [(1, 1), (10, 40), (63, 7), (64, 64), (2, 3), (7, 200)][round % 6];
        let full_rows = rng.next_u64();
        let rows = RowChunks::from_fn(w, h, |_, y| {
            full_rows >> (y % 64) & 1 != 0 || rng.percent(60)
        });
        let rows = rows.unwrap();
        // `clear_full_lines_pext` exists on x86-64 only (`cpu::has(PEXT)` is false elsewhere).
        #[cfg(target_arch = "x86_64")]
        {
            let (mut a, mut b) = (rows.clone(), rows.clone());
            // SAFETY: `cpu::has(PEXT)` detected BMI2 and POPCNT (the enabled features) above.
            let n = unsafe { a.clear_full_lines_pext() };
            assert_eq!(
                n,
                with_level(Level::Portable, || b.clear_full_lines()),
                "{w}x{h}"
            );
            assert_eq!(a, b, "{w}x{h}");
        }

        let ch = 1 + round % 64;
        let cols =
            ColumnBoard::<10>::from_fn(ch, |_, y| full_rows >> y & 1 != 0 || rng.percent(60));
        #[cfg(target_arch = "x86_64")]
        {
            let (mut a, mut b) = (cols, cols);
            // SAFETY: as above.
            let n = unsafe { a.clear_full_lines_pext() };
            assert_eq!(
                n,
                with_level(Level::Portable, || b.clear_full_lines()),
                "columns of {ch}"
            );
            assert_eq!(a, b, "columns of {ch}");
        }
        let _ = (&rows, cols);

        // Gravity of colour planes that do not overlap.
        let mut planes = [ColumnBoard::<6>::new(13); 4];
        for x in 0..6 {
            for y in 0..13 {
                let c = rng.below(6) as usize;
                if c < 4 {
                    planes[c].set(x, y);
                }
            }
        }
        let (mut a, mut b) = (planes, planes);
        settle_planes(&mut a).unwrap();
        with_level(Level::Portable, || settle_planes(&mut b)).unwrap();
        assert_eq!(a, b);
    }
}

#[test]
fn amazons_move_generation_bit_instructions() {
    let ran = has("bits");
    note(
        "Amazons move generation (POPCNT, BMI1/2, LZCNT)",
        ran,
        "the bit instructions",
    );
    if !ran {
        return;
    }
    for seed in 0..60u64 {
        let p = position(
            seed,
            seed % 70,
            1 + seed as usize % 4,
            1 + (seed / 4) as usize % 4,
        );
        for side in [Side::White, Side::Black] {
            let n = with_level(Level::Portable, || p.count_moves(side));
            assert_eq!(p.count_moves(side), n);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            with_level(Level::Portable, || p.for_each_move(side, |m| a.push(m)));
            p.for_each_move(side, |m| b.push(m));
            assert_eq!(a, b);
            if n < 3000 {
                let d = 2;
                assert_eq!(
                    p.perft(side, d),
                    with_level(Level::Portable, || p.perft(side, d))
                );
            }
        }
    }
}

fn puyo_engine(engine: ChainEngine, needs: &str) {
    let ran = ChainEngine::available().contains(&engine);
    note(&format!("Puyo engine {engine:?}"), ran, needs);
    if !ran {
        return;
    }
    for seed in 0..400u64 {
        let rules = if seed % 2 == 0 {
            Rules::Tsu
        } else {
            Rules::SmashTheCode
        };
        let f = random_field(seed, rules, 2 + seed % 4, seed % 3 != 0);
        let want = f.simulate_with(ChainEngine::Portable);
        let got = f.simulate_with(engine);
        assert_eq!(
            (got.chain, got.score),
            (want.chain, want.score),
            "{engine:?}\n{f:?}"
        );
        assert_eq!(got.steps(), want.steps(), "{engine:?}\n{f:?}");
        assert_eq!(got.field, want.field, "{engine:?}\n{f:?}");
    }
}

/// The AVX-512 byte-row engine of the fixed-board components (`fold`, 4- and
/// 8-connected) against the scalar code of the same iterator.
#[test]
fn components_byte_rows_avx512() {
    use gridbits::algo::components::components;
    use gridbits::{Board6x12, Board6x13};
    let ran = has("avx512vl") && has("bits");
    note(
        "components byte rows (AVX-512 VL)",
        ran,
        "AVX-512 F, BW and VL, AVX2, SSE4.1, BMI2 and POPCNT",
    );
    if !ran {
        return;
    }
    fn both<const W: usize, const H: usize, const N: usize>(
        p: gridbits::Board<W, H, N>,
        conn: Connectivity,
    ) {
        let collect = |v: Vec<_>, c| [v, vec![c]].concat();
        let fast = components(p, conn).fold(Vec::new(), collect);
        let scalar = with_level(Level::Avx2, || {
            components(p, conn).fold(Vec::new(), collect)
        });
        assert_eq!(fast, scalar, "{conn:?}\n{p}");
    }
    let mut rng = gridbits_testkit::SplitMix::new(0x6c);
    for density in 0..=20u32 {
        for _ in 0..40 {
            let d = f64::from(density) / 20.0;
            for conn in [Connectivity::Four, Connectivity::Eight] {
                both(Board6x12::from_fn(|_, _| rng.chance(d)), conn);
                both(Board6x13::from_fn(|_, _| rng.chance(d)), conn);
            }
        }
    }
}

#[test]
fn puyo_engine_sse2() {
    puyo_engine(ChainEngine::Sse2, "SSE2 (x86_64)");
}

#[test]
fn puyo_engine_sse2_bmi2() {
    puyo_engine(ChainEngine::Sse2Bmi2, "BMI2 and POPCNT");
}

#[test]
fn puyo_engine_avx2() {
    puyo_engine(ChainEngine::Avx2, "AVX2, BMI2 and POPCNT");
}

#[test]
fn puyo_engine_avx512() {
    puyo_engine(ChainEngine::Avx512, "AVX-512 F and BW, BMI2 and POPCNT");
}

#[test]
fn puyo_engine_avx512vl() {
    puyo_engine(
        ChainEngine::Avx512Vl,
        "AVX2, AVX-512 F, BW, VL and BITALG, BMI2 and POPCNT",
    );
}
