//! Large per-cell outputs (distance maps, owner arrays, label images) on transparent huge
//! pages where the system offers them; [`advise`] asks the same for a buffer of yours.
//!
//! A `u32` per cell of a 4096 x 4096 grid is 64 MiB: 16,384 pages of 4 KiB, each a page
//! fault on first touch. On Linux, where transparent huge pages are usually enabled "on
//! request" (`/sys/kernel/mm/transparent_hugepage/enabled` = `madvise`), asking for them
//! with `madvise(MADV_HUGEPAGE)` before the first touch makes that 32 faults of 2 MiB, and
//! filling a fresh map faster (figures in docs/benchmarks.md). The advice changes no
//! contents and no validity of the memory; where it is refused (another system, huge pages
//! disabled) nothing changes but the speed.

/// Allocations smaller than this (4 MiB) are left alone: they are served from the heap and
/// their pages are usually reused, not faulted in.
pub const HUGE_MIN_BYTES: usize = 4 << 20;

/// Asks the system to back the capacity of `v` with huge pages, when it is at least
/// [`HUGE_MIN_BYTES`] (on Linux; elsewhere nothing happens). Call it right after reserving,
/// before writing: pages already touched stay small. Contents and validity never change,
/// only how many page faults the first writes take.
///
/// ```
/// let mut out: Vec<u32> = Vec::with_capacity(4096 * 4096);
/// gridbits::huge_pages::advise(&mut out);
/// out.resize(4096 * 4096, 0);
/// assert_eq!(out[12345], 0);
/// ```
pub fn advise<T>(v: &mut Vec<T>) {
    let bytes = v.capacity().saturating_mul(std::mem::size_of::<T>());
    if bytes >= HUGE_MIN_BYTES {
        advise_range(v.as_mut_ptr().cast::<u8>(), bytes);
    }
}

/// `madvise(MADV_HUGEPAGE)` on the whole pages inside `[ptr, ptr + bytes)`.
#[cfg(target_os = "linux")]
fn advise_range(ptr: *mut u8, bytes: usize) {
    const PAGE: usize = 4096;
    const MADV_HUGEPAGE: i32 = 14;
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + bytes) & !(PAGE - 1);
    if end > start {
        // SAFETY: `[start, end)` lies inside one live allocation of the caller's (whole pages
        // within `[ptr, ptr + bytes)`), so the call touches no memory of anyone else's.
        // MADV_HUGEPAGE is advice: it changes neither the contents nor the validity of the
        // pages, only how the kernel backs them; an error (an old kernel, THP disabled) is
        // ignored, and the memory is then used as it is.
        unsafe {
            madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

/// Elsewhere the advice does not exist: nothing to do.
#[cfg(not(target_os = "linux"))]
fn advise_range(_: *mut u8, _: usize) {}

/// Element types whose all-zero bytes are a valid value, for [`zeroed`].
///
/// # Safety
///
/// An implementor must be valid with every byte zero (plain integers are).
pub(crate) unsafe trait Zero: Copy {}
// SAFETY: every bit pattern, all-zero included, is a `u32`.
unsafe impl Zero for u32 {}
// SAFETY: every bit pattern, all-zero included, is a `u64`.
unsafe impl Zero for u64 {}

/// `n` zeros, allocated zeroed: the system hands out zero pages on first touch (huge ones
/// when large), so a large grid or label image costs no pass of its own before its writer
/// touches it, and the pages a sparse result never touches cost nothing. `None` when the
/// memory is refused (or `n` elements overflow the address space).
pub(crate) fn zeroed<T: Zero>(n: usize) -> Option<Vec<T>> {
    if n == 0 || std::mem::size_of::<T>() == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).ok()?;
    // SAFETY: `layout` has a non-zero size (n > 0 elements of a non-zero size).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `[T; n]`,
    // which is what a `Vec<T>` of capacity `n` deallocates with; its `n` elements are
    // initialised (all-zero bytes are a valid `T`: the contract of the unsafe trait `Zero`).
    let mut v = unsafe { Vec::from_raw_parts(ptr, n, n) };
    advise(&mut v);
    Some(v)
}

/// `count` copies of `value` in a fresh `Vec`, on huge pages when large (allocating like
/// `Vec`: aborts if memory runs out).
pub(crate) fn filled<T: Clone + Send + Sync>(count: usize, value: T) -> Vec<T> {
    let mut v = Vec::with_capacity(count);
    advise(&mut v);
    fill(&mut v, count, value);
    v
}

/// Outputs of at least this many bytes (16 MiB) are filled by every thread of a pool of at
/// least [`FILL_THREADS`] threads ([`fill`]).
#[cfg(feature = "parallel")]
const FILL_BYTES: usize = 16 << 20;

/// Threads from which large outputs are filled in parallel: the many-core engines' (the
/// distance bands start at 3). Two threads keep the one-thread fill, as before.
#[cfg(feature = "parallel")]
const FILL_THREADS: usize = 3;

/// Appends `count` copies of `value` to the empty `v`, whose capacity holds them. The first
/// touch of a fresh output's pages is most of a fill's cost (a 1 GiB distance map: 0.8 s on
/// one thread of the 16-core machine of docs/benchmarks.md, 0.09 s on 16), so with the
/// feature `parallel`, a large output and a pool of `FILL_THREADS` threads or more, every
/// thread fills a part.
pub(crate) fn fill<T: Clone + Send + Sync>(v: &mut Vec<T>, count: usize, value: T) {
    debug_assert!(v.is_empty() && v.capacity() >= count);
    #[cfg(feature = "parallel")]
    {
        let threads = crate::parallel::current_threads();
        let bytes = count.saturating_mul(std::mem::size_of::<T>());
        if threads >= FILL_THREADS && bytes >= FILL_BYTES {
            use rayon::prelude::*;
            let part = count.div_ceil(4 * threads);
            let spare = &mut v.spare_capacity_mut()[..count];
            crate::parallel::in_current_pool(|| {
                spare.par_chunks_mut(part).for_each(|cells| {
                    for cell in cells {
                        cell.write(value.clone());
                    }
                });
            });
            // SAFETY: the first `count` elements of the spare capacity (which holds at
            // least `count`: asserted by the slice above) were each written once, by the
            // task of its part; `v` was empty, so they are its first `count` elements.
            unsafe { v.set_len(count) };
            return;
        }
    }
    v.resize(count, value);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small and large vectors, advised or not, hold what was written: the advice changes no
    /// contents (this machine runs the Linux call; elsewhere the no-op).
    #[test]
    fn advised_memory_holds_its_values() {
        for n in [
            0usize,
            1,
            1000,
            HUGE_MIN_BYTES / 4 - 1,
            HUGE_MIN_BYTES / 4 + 12_345,
        ] {
            let v = filled(n, u32::MAX);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == u32::MAX));
            let mut w: Vec<u64> = Vec::with_capacity(n);
            advise(&mut w);
            w.extend((0..n as u64).map(|i| i * 3));
            assert!(w.iter().enumerate().all(|(i, &x)| x == i as u64 * 3));
        }
        // An advised allocation that was already written keeps its values too.
        let mut v = vec![7u8; HUGE_MIN_BYTES * 2];
        advise(&mut v);
        assert!(v.iter().all(|&x| x == 7));
    }

    /// The parallel fill (pools of 3 threads and more, outputs of 16 MiB and more) writes
    /// every element, with parts that do not divide the count evenly; smaller pools and
    /// outputs take the one-thread fill.
    #[cfg(feature = "parallel")]
    #[test]
    fn parallel_fill_writes_every_element() {
        for threads in [1, 2, 3, 7] {
            for n in [0, 5, FILL_BYTES / 4 - 1, FILL_BYTES / 4 + 12_345] {
                let v = crate::parallel::with_threads(threads, || filled(n, 0xdead_beef_u32));
                let v = v.unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(v.len(), n, "{threads} threads");
                assert!(
                    v.iter().all(|&x| x == 0xdead_beef),
                    "{threads} threads, {n}"
                );
            }
        }
    }
}
