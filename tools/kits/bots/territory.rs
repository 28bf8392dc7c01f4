// Tron test
use gridbits::algo::voronoi::voronoi_n;
use gridbits::{Board30x20, Moves};
fn main() {
    let s = [Board30x20::cell(1, 1), Board30x20::cell(5, 5)];
    let v = voronoi_n(&s, &!Board30x20::EMPTY, Moves::Four, None);
    println!("{}", v.owned[0].count());
}
