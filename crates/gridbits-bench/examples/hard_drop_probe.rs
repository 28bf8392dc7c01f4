//! The hard-drop env probe: `TetrisEnv::<10>` with the hard-drop action space, N = 4096
//! games on one thread, each step's actions uniform among the mask's legal ones (from a
//! SplitMix stream), every observation, mask, reward and flag hashed. It prints the hash
//! (for checking that a change keeps every output) and the time per env-step.
//!
//! ```sh
//! cargo build --release -p gridbits-bench --example hard_drop_probe
//! target/release/examples/hard_drop_probe 200            # hash, ns per env-step
//! valgrind --tool=callgrind --toggle-collect='*step_env*' \
//!     target/release/examples/hard_drop_probe 30         # instructions of the steps alone
//! ```

use std::hint::black_box;
use std::time::Instant;

use gridbits::games::envs::{TetrisActions, TetrisEnv, TetrisEnvConfig};
use gridbits_testkit::SplitMix;

/// Games in the batch.
const N: usize = 4096;

/// One batch step (not inlined: callgrind's `--toggle-collect` counts it alone).
#[inline(never)]
fn step_env(
    env: &mut TetrisEnv<10>,
    actions: &[u32],
    obs: &mut [u8],
    masks: &mut [u8],
    rewards: &mut [f32],
    terminated: &mut [u8],
) {
    env.step(actions, obs, masks, rewards, terminated)
        .expect("legal actions");
}

/// Folds `bytes` into `h` (FNV-1a over 64-bit words).
fn fold(h: &mut u64, bytes: &[u8]) {
    for c in bytes.chunks(8) {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        *h = (*h ^ u64::from_le_bytes(w)).wrapping_mul(0x0100_0000_01b3);
    }
}

fn main() {
    let steps: usize = std::env::args()
        .nth(1)
        .map_or(30, |s| s.parse().expect("steps: a number"));
    let config = TetrisEnvConfig {
        actions: TetrisActions::HardDrop,
        ..TetrisEnvConfig::default()
    };
    gridbits::parallel::with_threads(1, || {
        let mut env = TetrisEnv::<10>::new(config, N).expect("settings");
        let (ol, al) = (env.obs_len(), env.action_count());
        let (mut obs, mut masks) = (vec![0u8; N * ol], vec![0u8; N * al]);
        let (mut rewards, mut terminated) = (vec![0f32; N], vec![0u8; N]);
        let seeds: Vec<u64> = (0..N as u64).collect();
        env.reset(&seeds, &mut obs, &mut masks).expect("buffers");
        let mut rng = SplitMix::new(7);
        let mut actions = vec![0u32; N];
        let mut legal = Vec::with_capacity(al);
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut time = 0.0f64;
        for _ in 0..steps {
            for (a, m) in actions.iter_mut().zip(masks.chunks_exact(al)) {
                legal.clear();
                legal.extend((0..al as u32).filter(|&i| m[i as usize] == 1));
                *a = legal[rng.below(legal.len() as u64) as usize];
            }
            let t = Instant::now();
            step_env(
                &mut env,
                &actions,
                &mut obs,
                &mut masks,
                &mut rewards,
                &mut terminated,
            );
            time += t.elapsed().as_secs_f64();
            fold(&mut h, &obs);
            fold(&mut h, &masks);
            let r: Vec<u8> = rewards.iter().flat_map(|r| r.to_le_bytes()).collect();
            fold(&mut h, &r);
            fold(&mut h, &terminated);
        }
        println!(
            "steps {steps} hash {h:016x} {:.1} ns/env-step",
            black_box(time) * 1e9 / (steps * N) as f64
        );
    })
    .expect("a one-thread pool");
}
