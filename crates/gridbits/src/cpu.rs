//! CPU feature detection, once for the whole crate, and the one override of it.
//!
//! Every accelerated path (POPCNT/BMI, AVX2, AVX-512) asks this module whether it may run:
//! [`has`] answers for an exact set of [`Features`] with one relaxed atomic load (the features
//! detected on the first call, capped by `GRIDBITS_CPU`) and one thread-local load (the cap of
//! [`with_level`]). Code that takes an intrinsic path checks [`has`] with the exact features
//! the `#[target_feature]` function enables, just before the `unsafe` call.
//!
//! Forcing a [`Level`] (tests, benchmarks) caps the features code may use; it never adds one
//! the CPU lacks:
//!
//! - the environment variable `GRIDBITS_CPU=portable|bmi2|avx2|avx512`, read once on the first
//!   query, caps the whole process (other values are ignored);
//! - [`with_level`] caps the calling thread while a closure runs. Labelling and the fill
//!   union-find by stripes choose their code on the calling thread and take that choice to
//!   their stripes; other work handed to a thread pool inside it (batches of boards) runs at
//!   the process level.
//!
//! Features say what a CPU *can* run, not what runs fast on it. [`splits_512`] and
//! [`slow_pdep`] add the cost facts the dispatches need: whether 512-bit instructions run
//! as two 256-bit halves (AMD Zen 4), where an engine of 256-bit registers beats one of
//! 512-bit registers, and whether BMI2's `pdep`/`pext` are microcoded (AMD before Zen 3),
//! where an engine built on them loses to one without. They are read from a table of CPU
//! makes and families ([`CpuModel`], [`CpuModel::splits_512`], [`CpuModel::slow_pdep`]) and
//! are not caps: [`with_level`] and `GRIDBITS_CPU` still cap the features, and a dispatch
//! that prefers 256-bit code on split CPUs picks among the features left.
//!
//! Every path gives the same results, so tests compare each level against
//! [`Level::Portable`]:
//!
//! ```
//! use gridbits::cpu::{self, Features, Level};
//! let fast = cpu::has(Features::AVX2);
//! assert!(!cpu::with_level(Level::Portable, || cpu::has(Features::POPCNT)));
//! assert_eq!(cpu::with_level(Level::Portable, cpu::level), Level::Portable);
//! assert_eq!(cpu::has(Features::AVX2), fast); // the cap ended with the closure
//! ```

use std::cell::Cell;
use std::ops::BitOr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// A set of CPU features (x86-64; always empty elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features(u32);

impl Features {
    /// No feature.
    pub const NONE: Features = Features(0);
    /// SSE2 (every x86-64 CPU; off only under [`Level::Portable`]).
    pub const SSE2: Features = Features(1);
    /// POPCNT.
    pub const POPCNT: Features = Features(1 << 1);
    /// BMI1.
    pub const BMI1: Features = Features(1 << 2);
    /// BMI2 (`pext`, `pdep`).
    pub const BMI2: Features = Features(1 << 3);
    /// LZCNT.
    pub const LZCNT: Features = Features(1 << 4);
    /// AVX2.
    pub const AVX2: Features = Features(1 << 5);
    /// AVX-512 F.
    pub const AVX512F: Features = Features(1 << 6);
    /// AVX-512 BW.
    pub const AVX512BW: Features = Features(1 << 7);
    /// AVX-512 VPOPCNTDQ.
    pub const AVX512VPOPCNTDQ: Features = Features(1 << 8);
    /// SSE4.1.
    pub const SSE41: Features = Features(1 << 9);
    /// AVX-512 VL (the AVX-512 instructions on 128- and 256-bit registers).
    pub const AVX512VL: Features = Features(1 << 10);
    /// AVX-512 BITALG (`vpopcntw`: population counts of 8- and 16-bit lanes).
    pub const AVX512BITALG: Features = Features(1 << 11);
    /// POPCNT, BMI1, BMI2 and LZCNT: the bit instructions of the labeller and Amazons.
    pub const BIT_INSTRUCTIONS: Features =
        Features(Self::POPCNT.0 | Self::BMI1.0 | Self::BMI2.0 | Self::LZCNT.0);
    const ALL: Features = Features((1 << 12) - 1);

    /// Both sets.
    pub const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }

    /// Whether every feature of `other` is in `self`.
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitAnd for Features {
    type Output = Features;
    fn bitand(self, other: Features) -> Features {
        Features(self.0 & other.0)
    }
}

impl BitOr for Features {
    type Output = Features;
    fn bitor(self, other: Features) -> Features {
        self.union(other)
    }
}

/// A level of acceleration: the features code may use, as a cap (see the
/// [module documentation](self)). Ordered from the least to the most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Plain Rust only: no intrinsic path, no SSE2 engine, no POPCNT.
    Portable,
    /// SSE2, POPCNT, BMI1, BMI2 and LZCNT.
    Bmi,
    /// [`Level::Bmi`] and AVX2.
    Avx2,
    /// [`Level::Avx2`] and AVX-512 F, BW, VL, VPOPCNTDQ and BITALG (whichever the CPU has).
    Avx512,
}

impl Level {
    /// Every level, least first.
    pub const ALL: [Level; 4] = [Level::Portable, Level::Bmi, Level::Avx2, Level::Avx512];

    /// The features the level allows.
    pub const fn features(self) -> Features {
        let bmi = Features::SSE2
            .union(Features::SSE41)
            .union(Features::BIT_INSTRUCTIONS);
        let avx2 = bmi.union(Features::AVX2);
        match self {
            Level::Portable => Features::NONE,
            Level::Bmi => bmi,
            Level::Avx2 => avx2,
            Level::Avx512 => avx2
                .union(Features::AVX512F)
                .union(Features::AVX512BW)
                .union(Features::AVX512VL)
                .union(Features::AVX512VPOPCNTDQ)
                .union(Features::AVX512BITALG),
        }
    }

    /// The name `GRIDBITS_CPU` takes: `portable`, `bmi2`, `avx2`, `avx512`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Portable => "portable",
            Level::Bmi => "bmi2",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }

    /// The level of a name (`bmi` is `bmi2` too); `None` for any other text.
    pub fn from_name(name: &str) -> Option<Level> {
        match name.trim().to_ascii_lowercase().as_str() {
            "bmi" => Some(Level::Bmi),
            n => Level::ALL.into_iter().find(|l| l.name() == n),
        }
    }
}

/// The detected features capped by `GRIDBITS_CPU`, with [`DETECTED`] set; 0 before the first
/// query.
static STATE: AtomicU32 = AtomicU32::new(0);
/// Marks [`STATE`] as filled in.
const DETECTED: u32 = 1 << 31;

/// Set in [`STATE`] when the CPU runs 512-bit instructions as two halves ([`splits_512`]).
const SPLIT_512: u32 = 1 << 29;

/// Set in [`STATE`] when the CPU's `pdep`/`pext` are microcoded ([`slow_pdep`]).
const SLOW_PDEP: u32 = 1 << 28;

/// Set in [`STATE`] while some thread runs inside [`with_level`]: only then is the
/// thread-local cap read.
const CAPPED: u32 = 1 << 30;

/// How many [`with_level`] calls are running, on all threads. A mutex, not an atomic: it
/// sets and clears [`CAPPED`] in the order the calls start and end, so the bit is set while
/// any call runs (with_level is never on a hot path).
static CAPPED_CALLS: Mutex<u32> = Mutex::new(0);

thread_local! {
    /// The cap of [`with_level`] on this thread (all bits: none).
    static CAP: Cell<u32> = const { Cell::new(u32::MAX) };
}

#[cold]
fn detect() -> u32 {
    let cpu = cpu_features();
    let cap = std::env::var("GRIDBITS_CPU")
        .ok()
        .and_then(|v| Level::from_name(&v))
        .map_or(Features::ALL, Level::features);
    // An OR, not a store: a `with_level` on another thread may have set CAPPED already.
    let model = CpuModel::current();
    let split = if model.is_some_and(CpuModel::splits_512) {
        SPLIT_512
    } else {
        0
    };
    let slow = if model.is_some_and(CpuModel::slow_pdep) {
        SLOW_PDEP
    } else {
        0
    };
    let state = (cpu.0 & cap.0) | split | slow | DETECTED;
    STATE.fetch_or(state, Ordering::Relaxed) | state
}

/// What this CPU has, asked of the standard library.
fn cpu_features() -> Features {
    #[allow(unused_mut)]
    let mut f = Features::NONE;
    #[cfg(target_arch = "x86_64")]
    {
        let pairs = [
            (Features::SSE2, std::is_x86_feature_detected!("sse2")),
            (Features::SSE41, std::is_x86_feature_detected!("sse4.1")),
            (Features::POPCNT, std::is_x86_feature_detected!("popcnt")),
            (Features::BMI1, std::is_x86_feature_detected!("bmi1")),
            (Features::BMI2, std::is_x86_feature_detected!("bmi2")),
            (Features::LZCNT, std::is_x86_feature_detected!("lzcnt")),
            (Features::AVX2, std::is_x86_feature_detected!("avx2")),
            (Features::AVX512F, std::is_x86_feature_detected!("avx512f")),
            (
                Features::AVX512BW,
                std::is_x86_feature_detected!("avx512bw"),
            ),
            (
                Features::AVX512VL,
                std::is_x86_feature_detected!("avx512vl"),
            ),
            (
                Features::AVX512VPOPCNTDQ,
                std::is_x86_feature_detected!("avx512vpopcntdq"),
            ),
            (
                Features::AVX512BITALG,
                std::is_x86_feature_detected!("avx512bitalg"),
            ),
        ];
        for (feature, yes) in pairs {
            if yes {
                f = f.union(feature);
            }
        }
    }
    f
}

/// The features code may use now: those of the CPU, capped by `GRIDBITS_CPU` and by
/// [`with_level`] on this thread.
pub fn features() -> Features {
    let s = STATE.load(Ordering::Relaxed);
    let s = if s & DETECTED == 0 { detect() } else { s };
    let cap = if s & CAPPED == 0 {
        u32::MAX
    } else {
        CAP.with(Cell::get)
    };
    Features(s & cap & Features::ALL.0)
}

/// Whether code may use every feature of `f` now (see [`features`]).
///
/// One relaxed load, two masks and two compares when no thread runs inside [`with_level`],
/// whether the answer is yes or no: hot paths of a few nanoseconds (a line clear, a Tetris
/// placement, the components of a 6x12 plane) ask it on every call, also on CPUs that lack
/// the feature (there a call to [`features`] cost the 6x12 components about a tenth of
/// their time). The first call and caps take [`features`].
#[inline]
pub fn has(f: Features) -> bool {
    let s = STATE.load(Ordering::Relaxed);
    if s & (DETECTED | CAPPED) == DETECTED {
        // Detected and uncapped: `s` holds the CPU's features under `GRIDBITS_CPU`.
        return s & f.0 == f.0;
    }
    has_slow(f)
}

#[cold]
#[inline(never)]
fn has_slow(f: Features) -> bool {
    features().contains(f)
}

/// Whether this CPU runs 512-bit vector instructions as two 256-bit halves, so that code on
/// 256-bit registers (AVX2, or AVX-512 VL on `ymm` registers) does the same work in fewer
/// cycles than code on 512-bit registers: the CPU table of [`CpuModel::splits_512`], read
/// once. `false` on CPUs without AVX-512, on CPUs the table does not know, and off x86-64.
///
/// One relaxed load: dispatches may ask it on every call.
///
/// ```
/// use gridbits::cpu::{splits_512, CpuModel};
/// assert_eq!(splits_512(), CpuModel::current().is_some_and(CpuModel::splits_512));
/// ```
#[inline]
pub fn splits_512() -> bool {
    let s = STATE.load(Ordering::Relaxed);
    let s = if s & DETECTED == 0 { detect() } else { s };
    s & SPLIT_512 != 0
}

/// Whether this CPU runs BMI2's `pdep` and `pext` as microcode (tens to hundreds of cycles,
/// depending on the mask) rather than in one 3-cycle operation: the CPU table of
/// [`CpuModel::slow_pdep`], read once. Code that has BMI2 picks its `pdep` engine only
/// where this is `false`. `false` off x86-64 and on CPUs the table does not know.
///
/// One relaxed load: dispatches may ask it on every call.
///
/// ```
/// use gridbits::cpu::{slow_pdep, CpuModel};
/// assert_eq!(slow_pdep(), CpuModel::current().is_some_and(CpuModel::slow_pdep));
/// ```
#[inline]
pub fn slow_pdep() -> bool {
    let s = STATE.load(Ordering::Relaxed);
    let s = if s & DETECTED == 0 { detect() } else { s };
    s & SLOW_PDEP != 0
}

/// The maker of a CPU, from the vendor string of CPUID leaf 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vendor {
    /// `GenuineIntel`.
    Intel,
    /// `AuthenticAMD` (and `HygonGenuine`, Zen 1 under licence).
    Amd,
    /// Any other vendor string.
    Other,
}

/// A CPU's maker, family and model as CPUID leaf 1 reports them (the display family and
/// model: the extended fields added in as the vendors' manuals say), the key of the CPU
/// table behind [`splits_512`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpuModel {
    /// The maker.
    pub vendor: Vendor,
    /// Display family: `0x19` for AMD Zen 3 and Zen 4, `0x1a` for Zen 5, `6` for Intel cores.
    pub family: u32,
    /// Display model.
    pub model: u32,
}

impl CpuModel {
    /// The CPU this code runs on; `None` off x86-64.
    pub fn current() -> Option<CpuModel> {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::__cpuid;
            #[allow(unused_unsafe)]
            // SAFETY: CPUID exists on every x86-64 CPU; leaves 0 and 1 always answer.
            let (l0, l1) = unsafe { (__cpuid(0), __cpuid(1)) };
            let mut name = [0u8; 12];
            name[..4].copy_from_slice(&l0.ebx.to_le_bytes());
            name[4..8].copy_from_slice(&l0.edx.to_le_bytes());
            name[8..].copy_from_slice(&l0.ecx.to_le_bytes());
            Some(CpuModel::from_cpuid(&name, l1.eax))
        }
        #[cfg(not(target_arch = "x86_64"))]
        None
    }

    /// The model of a vendor string (CPUID leaf 0: EBX, EDX, ECX) and a signature (leaf 1:
    /// EAX): family = base family, plus the extended family when the base is 15; model = base
    /// model, plus the extended model times 16 when the base family is 6 or 15.
    ///
    /// ```
    /// use gridbits::cpu::{CpuModel, Vendor};
    /// // An AMD EPYC 9004 (Zen 4, Genoa): family 0x19, model 0x11.
    /// let m = CpuModel::from_cpuid(b"AuthenticAMD", 0x00a1_0f11);
    /// assert_eq!(m, CpuModel { vendor: Vendor::Amd, family: 0x19, model: 0x11 });
    /// assert!(m.splits_512());
    /// ```
    pub fn from_cpuid(vendor: &[u8; 12], signature: u32) -> CpuModel {
        let base_family = (signature >> 8) & 0xf;
        let base_model = (signature >> 4) & 0xf;
        let family = if base_family == 0xf {
            base_family + ((signature >> 20) & 0xff)
        } else {
            base_family
        };
        let model = if base_family == 0x6 || base_family == 0xf {
            base_model | ((signature >> 16) & 0xf) << 4
        } else {
            base_model
        };
        let vendor = match vendor {
            b"GenuineIntel" => Vendor::Intel,
            b"AuthenticAMD" | b"HygonGenuine" => Vendor::Amd,
            _ => Vendor::Other,
        };
        CpuModel {
            vendor,
            family,
            model,
        }
    }

    /// The CPU table of [`slow_pdep`]: whether this model runs `pdep`/`pext` as microcode.
    ///
    /// | class | CPUs | why |
    /// |---|---|---|
    /// | slow | AMD families below `0x19` (`0x15`-`0x16` Bulldozer and Jaguar, `0x17` Zen 1 and Zen 2, `0x18` Hygon Dhyana) | microcoded: about one micro-op per set bit of the mask, 18-300 cycles (AMD's optimisation guides, Agner Fog's tables) |
    /// | fast | AMD family `0x19` and later (Zen 3, Zen 4, Zen 5) | one operation of 3 cycles' latency |
    /// | fast | Intel, any other CPU | one operation since BMI2 came (Haswell); unknown makers are assumed fast |
    ///
    /// ```
    /// use gridbits::cpu::CpuModel;
    /// // An AMD EPYC 7002 (Zen 2, Rome): family 0x17, model 0x31.
    /// assert!(CpuModel::from_cpuid(b"AuthenticAMD", 0x0083_0f10).slow_pdep());
    /// // An AMD EPYC 7003 (Zen 3, Milan): family 0x19, model 0x01.
    /// assert!(!CpuModel::from_cpuid(b"AuthenticAMD", 0x00a0_0f11).slow_pdep());
    /// ```
    pub const fn slow_pdep(self) -> bool {
        matches!(self.vendor, Vendor::Amd) && self.family < 0x19
    }

    /// The CPU table: whether this model runs 512-bit vector instructions as two 256-bit
    /// halves (where it has AVX-512 at all).
    ///
    /// | class | CPUs | why |
    /// |---|---|---|
    /// | split | AMD family `0x19` (Zen 4: EPYC 9004/8004, Ryzen 7000/8000; Zen 3 has no AVX-512) | 256-bit execution units: a 512-bit operation issues as two halves, so it costs what two AVX2 operations cost and the wider register saves nothing; gridbits' Puyo AVX2 engine takes 16-25% less time than its AVX-512 one on an EPYC 9004 |
    /// | split | AMD family `0x1a` models `0x20`-`0x2f` and `0x60`-`0x6f` (Zen 5 laptop chips: Ryzen AI 300, Strix and Krackan Point) | AMD built these with 256-bit vector datapaths |
    /// | full | AMD family `0x1a`, other models (Zen 5 desktop and server: Ryzen 9000, EPYC 9005) | 512-bit datapaths |
    /// | full | Intel (Skylake-SP and later Xeons, Ice Lake, Tiger Lake, Rocket Lake, Sapphire Rapids) | 512-bit operations run at full width on ports 0 and 5 |
    /// | full | any other CPU | unknown: the wider register is assumed to pay, as it does where AVX-512 was designed in |
    ///
    /// Family `0x1a` models not listed (later chips) count as full width; a CPU whose class is
    /// wrong only loses speed, never a result.
    pub const fn splits_512(self) -> bool {
        match self.vendor {
            Vendor::Amd => match self.family {
                0x19 => true,
                0x1a => matches!(self.model, 0x20..=0x2f | 0x60..=0x6f),
                _ => false,
            },
            Vendor::Intel | Vendor::Other => false,
        }
    }
}

/// The features of this CPU, without any cap.
pub fn detected() -> Features {
    cpu_features()
}

/// The highest [`Level`] whose features are all usable now ([`Level::Portable`] when even
/// [`Level::Bmi`]'s are not): for naming the path in benchmark rows.
pub fn level() -> Level {
    let f = features();
    Level::ALL
        .into_iter()
        .rev()
        .find(|l| f.contains(l.features()))
        .unwrap_or(Level::Portable)
}

/// Runs `f` with the features of this thread capped at `level` (replacing any cap of an outer
/// `with_level`; the previous cap is back when `f` returns or panics). Only lowers: a level
/// above the CPU's (or `GRIDBITS_CPU`'s) runs at theirs.
pub fn with_level<R>(level: Level, f: impl FnOnce() -> R) -> R {
    struct Restore(u32);
    impl Drop for Restore {
        fn drop(&mut self) {
            CAP.with(|c| c.set(self.0));
            let mut calls = CAPPED_CALLS.lock().unwrap_or_else(|e| e.into_inner());
            *calls -= 1;
            if *calls == 0 {
                STATE.fetch_and(!CAPPED, Ordering::Relaxed);
            }
        }
    }
    // CAPPED is set before this thread's cap, and cleared only when the last call ends, so
    // this thread's own queries (after it in program order) always read its cap; other
    // threads may skip the thread-local, theirs being unset.
    {
        let mut calls = CAPPED_CALLS.lock().unwrap_or_else(|e| e.into_inner());
        *calls += 1;
        STATE.fetch_or(CAPPED, Ordering::Relaxed);
    }
    let _restore = Restore(CAP.with(|c| c.replace(level.features().0)));
    f()
}

/// The size in bytes of the last-level cache (the largest data or unified cache) that the
/// calling core sees, as CPUID's cache description reports it, `0` when it does not (not
/// x86-64, no such leaf). Read once, on the first call. For code that chooses between
/// ordinary and streaming (non-temporal) stores by the size of what it writes: the label
/// image ([`crate::algo::label::LabelStores`]).
///
/// The description is the deterministic cache leaf: `0x8000_001D` on AMD CPUs, `4` on Intel
/// (each cache: ways x partitions x line size x sets). Not the older AMD leaf `0x8000_0006`,
/// which on the 2-vCPU AMD EPYC VM of docs/benchmarks.md reports 320 MiB of L3 where the core
/// complex has 32 MiB (as Linux lists it).
///
/// ```
/// let l3 = gridbits::cpu::last_level_cache();
/// assert_eq!(l3, gridbits::cpu::last_level_cache()); // read once
/// assert!(l3 == 0 || l3 >= 1 << 16);
/// ```
pub fn last_level_cache() -> usize {
    static LLC: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *LLC.get_or_init(cache_from_cpuid)
}

fn cache_from_cpuid() -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid_count;
        // Leaves beyond the maximum (of leaf 0 or 0x8000_0000) read as garbage: asked only
        // below it. AMD leaves 4 empty and describes its caches in 0x8000_001D.
        let (max, ext) = (__cpuid_count(0, 0).eax, __cpuid_count(0x8000_0000, 0).eax);
        let leaf = if ext >= 0x8000_001D && __cpuid_count(0x8000_001D, 0).eax & 0x1f != 0 {
            0x8000_001D
        } else if max >= 4 {
            4
        } else {
            return 0;
        };
        let mut best = 0;
        for sub in 0..16 {
            let r = __cpuid_count(leaf, sub);
            let kind = r.eax & 0x1f; // 0: no more caches, 1: data, 2: code, 3: unified
            if kind == 0 {
                break;
            }
            if kind != 2 {
                let ways = ((r.ebx >> 22) & 0x3ff) as usize + 1;
                let parts = ((r.ebx >> 12) & 0x3ff) as usize + 1;
                let line = (r.ebx & 0xfff) as usize + 1;
                let sets = r.ecx as usize + 1;
                best = best.max(ways * parts * line * sets);
            }
        }
        return best;
    }
    #[allow(unreachable_code)]
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_lower_and_restore() {
        let all = features();
        for level in Level::ALL {
            with_level(level, || {
                assert_eq!(features(), Features(all.0 & level.features().0));
                with_level(Level::Portable, || assert_eq!(features(), Features::NONE));
                assert_eq!(features(), Features(all.0 & level.features().0));
            });
        }
        assert_eq!(features(), all);
        assert!(detected().contains(all));
    }

    /// A cap is the calling thread's: another thread keeps the process's features, and
    /// `has` agrees with `features` inside and outside a cap.
    #[test]
    fn caps_are_per_thread_and_has_agrees() {
        let all = features();
        with_level(Level::Portable, || {
            assert_eq!(features(), Features::NONE);
            let other = std::thread::spawn(features).join().expect("thread");
            assert_eq!(other, all);
            for f in [Features::POPCNT, Features::AVX2, Features::BIT_INSTRUCTIONS] {
                assert!(!has(f));
            }
            assert!(has(Features::NONE));
        });
        for f in [
            Features::SSE2,
            Features::POPCNT,
            Features::AVX2,
            Features::SSE41,
        ] {
            assert_eq!(has(f), all.contains(f));
        }
    }

    /// The table on signatures of known CPUs, and the cached answer agrees with the table.
    #[test]
    fn cpu_table() {
        let amd = |sig| CpuModel::from_cpuid(b"AuthenticAMD", sig);
        let intel = |sig| CpuModel::from_cpuid(b"GenuineIntel", sig);
        // Zen 4 Genoa (19h/11h) and Raphael (19h/61h); Zen 3 Milan (19h/01h).
        for sig in [0x00a1_0f11, 0x00a6_0f12, 0x00a0_0f11] {
            assert_eq!(amd(sig).family, 0x19);
            assert!(amd(sig).splits_512(), "{sig:x}");
        }
        assert_eq!(amd(0x00a1_0f11).model, 0x11);
        // Zen 5 Turin (1Ah/02h) and Granite Ridge (1Ah/44h): full; Strix Point (1Ah/24h): split.
        let turin = amd(0x00b0_0f21);
        assert_eq!((turin.family, turin.model), (0x1a, 0x02));
        assert!(!turin.splits_512());
        assert!(!amd(0x00b4_0f40).splits_512());
        assert!(amd(0x00b2_0f40).splits_512());
        // Zen 2 (17h/31h): no AVX-512, not split; microcoded pdep, as on Zen 1 (17h/01h).
        assert!(!amd(0x0083_0f10).splits_512());
        assert!(amd(0x0083_0f10).slow_pdep() && amd(0x0080_0f11).slow_pdep());
        assert!(!amd(0x00a0_0f11).slow_pdep() && !amd(0x00a1_0f11).slow_pdep());
        assert!(!amd(0x00b0_0f21).slow_pdep());
        // Sapphire Rapids (6/8Fh), Skylake-SP (6/55h): full.
        let spr = intel(0x0008_06f8);
        assert_eq!(
            (spr.vendor, spr.family, spr.model),
            (Vendor::Intel, 6, 0x8f)
        );
        assert!(!spr.splits_512());
        assert!(!intel(0x0005_0654).splits_512());
        assert!(!spr.slow_pdep() && !intel(0x0005_0654).slow_pdep());
        assert_eq!(
            CpuModel::from_cpuid(b"HygonGenuine", 0x00a1_0f11).vendor,
            Vendor::Amd
        );
        assert_eq!(
            CpuModel::from_cpuid(b"VIA VIA VIA ", 0x6f1).vendor,
            Vendor::Other
        );
        assert_eq!(
            splits_512(),
            CpuModel::current().is_some_and(CpuModel::splits_512)
        );
        assert_eq!(
            slow_pdep(),
            CpuModel::current().is_some_and(CpuModel::slow_pdep)
        );
    }

    #[test]
    fn names_round_trip() {
        for level in Level::ALL {
            assert_eq!(Level::from_name(level.name()), Some(level));
        }
        assert_eq!(Level::from_name("BMI"), Some(Level::Bmi));
        assert_eq!(Level::from_name("sse9"), None);
    }
}
