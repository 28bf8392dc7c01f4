use gridbits::algo::label::{Labeller, Labels};
use gridbits::parallel::Pool;
use gridbits::{BitGrid, Connectivity};
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let density: u64 = args.get(1).map_or(50, |s| s.parse().unwrap());
    let conn = if args.get(2).map_or("4", |s| s) == "8" {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    let mode = args.get(3).cloned().unwrap_or("one".into());
    let reps: usize = args.get(4).map_or(10, |s| s.parse().unwrap());
    let mut s = 0x1234u64;
    let g = BitGrid::from_fn(4096, 4096, |_, _| {
        s = s.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        (z ^ (z >> 31)) % 100 < density
    })
    .unwrap();
    let (pool, mut l) = match mode.as_str() {
        "one" => (Pool::new(1).unwrap(), Labeller::new()),
        "striped1" | "scount" => (Pool::new(1).unwrap(), Labeller::new().with_stripes(0, 512)),
        _ => (Pool::new(2).unwrap(), Labeller::new()),
    };
    let mut out = Labels::new();
    let mut best = f64::MAX;
    let mut n = 0;
    pool.install(|| {
        for _ in 0..reps {
            let t = Instant::now();
            n = if mode.contains("count") {
                l.count(&g, conn).unwrap()
            } else {
                l.label(&g, conn, &mut out).unwrap()
            };
            best = best.min(t.elapsed().as_secs_f64());
        }
    });
    println!(
        "{mode} d{density} {conn:?}: best {:.2} ms, {n} comps",
        best * 1e3
    );
}
