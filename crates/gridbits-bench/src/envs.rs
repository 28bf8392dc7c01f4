//! Bench workloads of the batched game environments (`gridbits::games::envs`): steps per
//! second of a batch of `N` = 1, 256 and 4096 games with observations and masks, each step
//! choosing a legal action uniformly from the mask (on the calling thread, timed too), on a
//! pool of 1 thread and of 2, and called from outside any pool (the calling thread and the
//! global pool, as from Python); against the loop a careful user writes with the single-game
//! API (`Game::moves` / `TsuGame::legal_moves`, a random legal move, `step`, a new game on
//! game over), on one thread.

use crate::Bench;
use gridbits::games::envs::{PuyoEnv, TetrisActions, TetrisEnv, TetrisEnvConfig, PUYO_ACTIONS};
use gridbits::games::puyo::{TsuConfig, TsuGame};
use gridbits::games::tetris::{Action, Game};
use gridbits::parallel::Pool;
use gridbits_testkit::SplitMix;
use std::hint::black_box;

/// Batch sizes.
const SIZES: [usize; 3] = [1, 256, 4096];
/// Pause before each sample, for the other pool's workers to go to sleep.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(5);

/// The case that steps from outside any pool, as the Python binding does by default: this
/// thread takes chunks itself and rayon's global pool (one thread per core, or
/// `RAYON_NUM_THREADS`) helps.
const CALLER: &str = "env-caller+global-pool";

/// A legal action of each mask row, uniformly among the legal ones (as the Python bench's
/// numpy choice: the stacks it builds are ragged and its games end sooner than with a biased
/// choice, which costs the environment about 10% more per step). Random indices until one
/// is legal (about 28 draws among the 961 placement actions); after 64 misses, the `k`-th
/// legal one by a scan.
fn choose(rng: &mut SplitMix, masks: &[u8], al: usize, actions: &mut [u32]) {
    for (row, a) in masks.chunks_exact(al).zip(actions.iter_mut()) {
        let hit = (0..64)
            .map(|_| rng.below(al as u64) as usize)
            .find(|&i| row[i] != 0);
        *a = match hit {
            Some(i) => i as u32,
            None => {
                let legal = row.iter().filter(|&&b| b != 0).count();
                let k = rng.below(legal.max(1) as u64) as usize;
                let mut set = row.iter().enumerate().filter(|&(_, &b)| b != 0);
                set.nth(k).map_or(0, |(i, _)| i as u32)
            }
        };
    }
}

/// One batch: the environment and its buffers.
struct Batch<E> {
    env: E,
    al: usize,
    obs: Vec<u8>,
    masks: Vec<u8>,
    rewards: Vec<f32>,
    terminated: Vec<u8>,
    actions: Vec<u32>,
    rng: SplitMix,
}

fn tetris_batch(n: usize, actions: TetrisActions) -> Option<Batch<TetrisEnv<10>>> {
    let config = TetrisEnvConfig {
        actions,
        ..TetrisEnvConfig::default()
    };
    let mut env = TetrisEnv::<10>::new(config, n).ok()?;
    let (ol, al) = (env.obs_len(), env.action_count());
    let mut b = Batch {
        obs: vec![0; n * ol],
        masks: vec![0; n * al],
        rewards: vec![0.0; n],
        terminated: vec![0; n],
        actions: vec![0; n],
        rng: SplitMix::new(n as u64),
        al,
        env: TetrisEnv::<10>::new(TetrisEnvConfig::default(), 0).ok()?,
    };
    let seeds: Vec<u64> = (0..n as u64).collect();
    env.reset(&seeds, &mut b.obs, &mut b.masks).ok()?;
    b.env = env;
    Some(b)
}

/// Three equal batches of `n` games, one for each case (each case steps its own games).
type Batches = (
    Batch<TetrisEnv<10>>,
    Batch<TetrisEnv<10>>,
    Batch<TetrisEnv<10>>,
);

fn tetris_batches(n: usize, actions: TetrisActions) -> Option<Batches> {
    Some((
        tetris_batch(n, actions)?,
        tetris_batch(n, actions)?,
        tetris_batch(n, actions)?,
    ))
}

fn puyo_batch(n: usize) -> Option<Batch<PuyoEnv>> {
    let mut env = PuyoEnv::new(TsuConfig::default(), n).ok()?;
    let ol = env.obs_len();
    let mut b = Batch {
        obs: vec![0; n * ol],
        masks: vec![0; n * PUYO_ACTIONS],
        rewards: vec![0.0; n],
        terminated: vec![0; n],
        actions: vec![0; n],
        rng: SplitMix::new(n as u64),
        al: PUYO_ACTIONS,
        env: PuyoEnv::new(TsuConfig::default(), 0).ok()?,
    };
    let seeds: Vec<u64> = (0..n as u64).collect();
    env.reset(&seeds, &mut b.obs, &mut b.masks).ok()?;
    b.env = env;
    Some(b)
}

macro_rules! step_batch {
    ($b:expr) => {{
        let b = &mut $b;
        choose(&mut b.rng, &b.masks, b.al, &mut b.actions);
        let ok = b
            .env
            .step(
                &b.actions,
                &mut b.obs,
                &mut b.masks,
                &mut b.rewards,
                &mut b.terminated,
            )
            .is_ok();
        u64::from(ok) + u64::from(black_box(&b.terminated)[0])
    }};
}

/// The fast case: on a pool of 2 threads (the calling thread and one of the pool's), or on
/// the calling thread alone for a batch of one chunk (which the environment runs there
/// anyway).
fn fast(n: usize) -> &'static str {
    if n > gridbits::games::envs::CHUNK {
        "env-2-threads"
    } else {
        "env-calling-thread"
    }
}

fn run(n: usize, pool: &Pool, f: impl FnOnce() -> u64 + Send) -> u64 {
    if n > gridbits::games::envs::CHUNK {
        pool.install(f)
    } else {
        f()
    }
}

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let (Ok(one), Ok(two)) = (Pool::try_new(1), Pool::try_new(2)) else {
        eprintln!("warning: no thread pool, env workloads skipped");
        return;
    };
    for n in SIZES {
        let placements = TetrisActions::Placements;
        let Some((mut t1, mut t2, mut t3)) = tetris_batches(n, placements) else {
            return;
        };
        let mut games: Vec<Game<10>> = (0..n as u64)
            .filter_map(|s| Game::new(TetrisEnvConfig::default().game, s).ok())
            .collect();
        let mut seed = n as u64;
        let mut lrng = SplitMix::new(rng.next_u64());
        let mut w = bench
            .workload(&format!("tetris env step N={n} (ns/step)"), fast(n))
            .settle(SETTLE)
            .case(fast(n), n as u64, || run(n, &two, || step_batch!(t2)));
        if n > gridbits::games::envs::CHUNK {
            w = w
                .case("env-1-thread", n as u64, || one.install(|| step_batch!(t1)))
                .case(CALLER, n as u64, || step_batch!(t3));
        }
        w.case("game loop", n as u64, || {
            let mut acc = 0u64;
            for g in &mut games {
                let moves = g.moves();
                let act = if moves.is_empty() {
                    Action::Hold
                } else {
                    Action::Place(moves[lrng.below(moves.len() as u64) as usize])
                };
                let r = g.step(act).unwrap_or_default();
                acc += r.score;
                if g.game_over().is_some() {
                    seed += 1;
                    if let Ok(fresh) = Game::new(TetrisEnvConfig::default().game, seed) {
                        *g = fresh;
                    }
                }
            }
            acc
        })
        .finish();

        let hard = TetrisActions::HardDrop;
        let Some((mut h1, mut h2, mut h3)) = tetris_batches(n, hard) else {
            return;
        };
        let mut w = bench
            .workload(
                &format!("tetris env step hard drop N={n} (ns/step)"),
                fast(n),
            )
            .settle(SETTLE)
            .case(fast(n), n as u64, || run(n, &two, || step_batch!(h2)));
        if n > gridbits::games::envs::CHUNK {
            w = w
                .case("env-1-thread", n as u64, || one.install(|| step_batch!(h1)))
                .case(CALLER, n as u64, || step_batch!(h3));
        }
        w.finish();

        if n == 256 {
            paused_steps(bench, &one, &two);
        }

        let (Some(mut p1), Some(mut p2)) = (puyo_batch(n), puyo_batch(n)) else {
            return;
        };
        let mut tsu: Vec<TsuGame> = (0..n as u64)
            .filter_map(|s| TsuGame::new(TsuConfig::default(), s).ok())
            .collect();
        let mut w = bench
            .workload(&format!("puyo tsu env step N={n} (ns/step)"), fast(n))
            .settle(SETTLE)
            .case(fast(n), n as u64, || run(n, &two, || step_batch!(p2)));
        if n > gridbits::games::envs::CHUNK {
            w = w.case("env-1-thread", n as u64, || one.install(|| step_batch!(p1)));
        }
        w.case("game loop", n as u64, || {
            let mut acc = 0u64;
            for g in &mut tsu {
                let legal = g.legal_moves();
                let k = lrng.below(u64::from(legal.count_ones().max(1)));
                let mut m = legal;
                for _ in 0..k {
                    m &= m - 1;
                }
                acc += g.step(m.trailing_zeros() as usize).map_or(0, |r| r.score);
                if g.is_over() {
                    seed += 1;
                    if let Ok(fresh) = TsuGame::new(TsuConfig::default(), seed) {
                        *g = fresh;
                    }
                }
            }
            acc
        })
        .finish();
    }
}

/// The time between two steps of [`paused_steps`]: an agent choosing the next actions (the
/// Python bench's numpy choice takes about this for 256 games).
const BETWEEN_STEPS: std::time::Duration = std::time::Duration::from_micros(30);

/// 256 games stepped with [`BETWEEN_STEPS`] of other work (a spin, timed too) before each
/// step, as in a training loop: whether the helping thread is still awake when the next step
/// starts (the pool's threads sleep after a few microseconds idle; gridbits keeps the
/// helpers of a call awake a little longer, `parallel::KEEP_AWAKE`).
fn paused_steps(bench: &mut Bench, one: &Pool, two: &Pool) {
    let n = 256;
    let hard = TetrisActions::HardDrop;
    let Some((mut h1, mut h2, mut h3)) = tetris_batches(n, hard) else {
        return;
    };
    let pause = || {
        let start = std::time::Instant::now();
        while start.elapsed() < BETWEEN_STEPS {
            std::hint::spin_loop();
        }
    };
    bench
        .workload(
            "tetris env step hard drop N=256, 30 us between steps (ns/step)",
            CALLER,
        )
        .settle(SETTLE)
        .case(CALLER, n as u64, || {
            pause();
            step_batch!(h3)
        })
        .alternative("env-1-thread", n as u64, || {
            pause();
            one.install(|| step_batch!(h1))
        })
        .case("env-2-threads", n as u64, || {
            pause();
            two.install(|| step_batch!(h2))
        })
        .finish();
}
