//! The batched environments against single games played by the same actions: masks from
//! the move generators, observations, rewards, autoreset, thread counts.

use gridbits::games::envs::{
    EnvError, PuyoEnv, TetrisActions, TetrisEnv, TetrisEnvConfig, MIN_HEIGHT, PUYO_ACTIONS,
};
use gridbits::games::puyo::{placement_index, TsuConfig, TsuGame, TsuStep};
use gridbits::games::rng::{splitmix64, GameRng};
use gridbits::games::tetris::{Action, Game, GameConfig, Placement, StepResult};
use gridbits::parallel::with_threads;

/// The action index of a placement: its tight box's top-left cell is the least `x` and
/// the least `y` of its cells.
fn tetris_index(kind: TetrisActions, h: usize, w: usize, p: &Placement) -> usize {
    let cells = p.cells();
    let x = cells.iter().map(|c| c.0).min().unwrap() as usize;
    let y = cells.iter().map(|c| c.1).min().unwrap() as usize;
    let r = p.rotation.index();
    match kind {
        TetrisActions::Placements => (r * h + y) * w + x,
        TetrisActions::HardDrop => r * w + x,
    }
}

/// The mask and the placement of each placement action of a single game, from `moves`.
fn tetris_expected(
    kind: TetrisActions,
    g: &Game<10>,
    actions: usize,
) -> (Vec<u8>, Vec<Option<Placement>>) {
    let h = g.matrix().height();
    let mut mask = vec![0u8; actions];
    let mut at = vec![None; actions];
    if g.game_over().is_some() {
        return (vec![1; actions], at);
    }
    for m in g.moves() {
        let i = tetris_index(kind, h, 10, &m);
        // Hard drop: the highest lock of the orientation and column.
        let replace = match at[i] {
            None => true,
            Some(old) => {
                let top = |p: &Placement| p.cells().iter().map(|c| c.1).min().unwrap();
                top(&m) < top(&old)
            }
        };
        if replace {
            at[i] = Some(m);
        }
        mask[i] = 1;
    }
    mask[actions - 1] = u8::from(g.can_hold());
    (mask, at)
}

fn tetris_obs(g: &Game<10>) -> Vec<u8> {
    let t = g.matrix();
    let mut o = Vec::new();
    for y in 0..t.height() {
        for x in 0..10 {
            o.push(u8::from(t.get(x, y)));
        }
    }
    o.push(g.current() as u8);
    o.push(g.held().map_or(7, |p| p as u8));
    o.push(u8::from(g.can_hold()));
    o.push(u8::from(g.back_to_back()));
    o.push(g.combo().min(255) as u8);
    o.push(g.pending_garbage().min(255) as u8);
    o.extend(g.queue().iter().map(|&p| p as u8));
    o
}

/// Random legal actions from a mask row.
fn pick(rng: &mut GameRng, mask: &[u8]) -> u32 {
    let legal: Vec<usize> = (0..mask.len()).filter(|&i| mask[i] == 1).collect();
    legal[rng.below(legal.len() as u64) as usize] as u32
}

fn tetris_against_games(kind: TetrisActions, height: usize, n: usize, steps: usize) {
    let config = TetrisEnvConfig {
        game: GameConfig {
            height,
            ..GameConfig::default()
        },
        actions: kind,
    };
    let mut env = TetrisEnv::<10>::new(config, n).unwrap();
    let (ol, al) = (env.obs_len(), env.action_count());
    let seeds: Vec<u64> = (0..n as u64).map(|i| i * 31 + 5).collect();
    let (mut obs, mut masks) = (vec![0u8; n * ol], vec![0u8; n * al]);
    let (mut rewards, mut terminated) = (vec![0f32; n], vec![0u8; n]);
    env.reset(&seeds, &mut obs, &mut masks).unwrap();
    let mut games: Vec<Game<10>> = seeds
        .iter()
        .map(|&s| Game::new(config.game, s).unwrap())
        .collect();
    let mut states = seeds.clone();
    let mut done = vec![false; n];
    let mut rng = GameRng::new(height as u64);
    let mut episodes = 0;
    for _ in 0..steps {
        let mut actions = vec![0u32; n];
        let mut expected = Vec::new();
        for i in 0..n {
            let (mask, at) = tetris_expected(kind, &games[i], al);
            if !done[i] {
                assert_eq!(&masks[i * al..(i + 1) * al], &mask[..], "mask of env {i}");
            }
            assert_eq!(
                &obs[i * ol..(i + 1) * ol],
                &tetris_obs(&games[i])[..],
                "obs of env {i}"
            );
            actions[i] = pick(&mut rng, &masks[i * al..(i + 1) * al]);
            if !done[i] && (actions[i] as usize) < al - 1 {
                assert_eq!(env.placement(i, actions[i]), at[actions[i] as usize]);
            }
            expected.push(at);
        }
        env.step(
            &actions,
            &mut obs,
            &mut masks,
            &mut rewards,
            &mut terminated,
        )
        .unwrap();
        for i in 0..n {
            let r = if done[i] {
                games[i] = Game::new(config.game, splitmix64(&mut states[i])).unwrap();
                done[i] = false;
                episodes += 1;
                StepResult::default()
            } else {
                let a = actions[i] as usize;
                if a == al - 1 {
                    games[i].step(Action::Hold).unwrap()
                } else {
                    let p = expected[i][a].unwrap();
                    games[i].step(Action::Place(p)).unwrap()
                }
            };
            assert_eq!(env.last_step(i), &r, "last step of env {i}");
            let (reward, term) = (r.score, r.game_over.is_some());
            assert_eq!(rewards[i], reward as f32);
            assert_eq!(terminated[i], u8::from(term));
            done[i] = term;
            if term {
                assert!(masks[i * al..(i + 1) * al].iter().all(|&b| b == 1));
            }
        }
    }
    assert!(
        episodes > 0,
        "no game ended: the autoreset was not exercised"
    );
}

#[test]
fn tetris_placements_equal_single_games() {
    tetris_against_games(TetrisActions::Placements, 24, 5, 200);
    tetris_against_games(TetrisActions::Placements, 8, 3, 100);
}

#[test]
fn tetris_hard_drop_equals_single_games() {
    tetris_against_games(TetrisActions::HardDrop, 24, 5, 200);
    tetris_against_games(TetrisActions::HardDrop, 10, 3, 100);
}

fn puyo_obs(g: &TsuGame) -> Vec<u8> {
    let mut o = vec![0u8; 78];
    g.field().write_codes(&mut o);
    let c = g.current();
    o.extend([c.axis + 1, c.child + 1]);
    for q in g.queue() {
        o.extend([q.axis + 1, q.child + 1]);
    }
    o.push(g.incoming().min(255) as u8);
    o.push(u8::from(g.all_clear_pending()));
    o
}

#[test]
fn puyo_equals_single_games() {
    let n = 6;
    let config = TsuConfig::default();
    let mut env = PuyoEnv::new(config, n).unwrap();
    let ol = env.obs_len();
    let al = PUYO_ACTIONS;
    let seeds: Vec<u64> = (0..n as u64).map(|i| i * 7 + 1).collect();
    let (mut obs, mut masks) = (vec![0u8; n * ol], vec![0u8; n * al]);
    let (mut rewards, mut terminated) = (vec![0f32; n], vec![0u8; n]);
    env.reset(&seeds, &mut obs, &mut masks).unwrap();
    let mut games: Vec<TsuGame> = seeds
        .iter()
        .map(|&s| TsuGame::new(config, s).unwrap())
        .collect();
    let mut states = seeds.clone();
    let mut done = vec![false; n];
    let mut rng = GameRng::new(99);
    let mut episodes = 0;
    for _ in 0..400 {
        let mut actions = vec![0u32; n];
        for i in 0..n {
            if !done[i] {
                let g = &games[i];
                let mut mask = vec![0u8; al];
                for mv in g.field().drops(g.current()).moves() {
                    mask[placement_index(mv).unwrap()] = 1;
                }
                assert_eq!(&masks[i * al..(i + 1) * al], &mask[..]);
            }
            assert_eq!(&obs[i * ol..(i + 1) * ol], &puyo_obs(&games[i])[..]);
            actions[i] = pick(&mut rng, &masks[i * al..(i + 1) * al]);
        }
        env.step(
            &actions,
            &mut obs,
            &mut masks,
            &mut rewards,
            &mut terminated,
        )
        .unwrap();
        for i in 0..n {
            let r = if done[i] {
                games[i] = TsuGame::new(config, splitmix64(&mut states[i])).unwrap();
                episodes += 1;
                TsuStep::default()
            } else {
                games[i].step(actions[i] as usize).unwrap()
            };
            assert_eq!(env.last_step(i), &r, "last step of env {i}");
            let (reward, term) = (r.score, r.game_over);
            assert_eq!((rewards[i], terminated[i]), (reward as f32, u8::from(term)));
            done[i] = term;
        }
    }
    assert!(episodes > 0);
}

/// Runs `f` on a pool of `threads` threads, or, for `None`, here: outside any pool, so the
/// batch's chunks go to this thread and rayon's global pool (the Python binding's default).
fn on_threads<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> R {
    match threads {
        Some(t) => with_threads(t, f).unwrap(),
        None => f(),
    }
}

/// Every output of `steps` random steps of a batch of `n` with `kind` actions, run on
/// `threads` threads (see [`on_threads`]): observations, masks, rewards, terminated flags
/// and the rows `step_with_rows` writes (lines and score of each game's step).
fn tetris_run(threads: Option<usize>, kind: TetrisActions, n: usize, steps: usize) -> Vec<u8> {
    on_threads(threads, || {
        let config = TetrisEnvConfig {
            actions: kind,
            ..TetrisEnvConfig::default()
        };
        let mut env = TetrisEnv::<10>::new(config, n).unwrap();
        let (ol, al) = (env.obs_len(), env.action_count());
        let seeds: Vec<u64> = (0..n as u64).collect();
        let (mut obs, mut masks) = (vec![0u8; n * ol], vec![0u8; n * al]);
        let (mut rewards, mut terminated) = (vec![0f32; n], vec![0u8; n]);
        let mut rows = vec![0u64; 2 * n];
        env.reset(&seeds, &mut obs, &mut masks).unwrap();
        let mut rng = GameRng::new(5);
        let mut out = Vec::new();
        for _ in 0..steps {
            let actions: Vec<u32> = masks.chunks(al).map(|m| pick(&mut rng, m)).collect();
            env.step_with_rows(
                &actions,
                &mut obs,
                &mut masks,
                &mut rewards,
                &mut terminated,
                (&mut rows, 2),
                |r, row| row.copy_from_slice(&[u64::from(r.lines), r.score]),
            )
            .unwrap();
            out.extend_from_slice(&obs);
            out.extend_from_slice(&masks);
            out.extend(rewards.iter().flat_map(|r| r.to_le_bytes()));
            out.extend_from_slice(&terminated);
            out.extend(rows.iter().flat_map(|r| r.to_le_bytes()));
        }
        out
    })
}

/// Every output of `steps` random steps of a Puyo batch of `n` on `threads` threads, the
/// rows `step_with_rows` writes (chain and score, checked against `last_step`) included.
fn puyo_run(threads: Option<usize>, n: usize, steps: usize) -> Vec<u8> {
    on_threads(threads, || {
        let mut env = PuyoEnv::new(TsuConfig::default(), n).unwrap();
        let ol = env.obs_len();
        let seeds: Vec<u64> = (0..n as u64).map(|s| s * 3).collect();
        let (mut obs, mut masks) = (vec![0u8; n * ol], vec![0u8; n * PUYO_ACTIONS]);
        let (mut rewards, mut terminated) = (vec![0f32; n], vec![0u8; n]);
        let mut rows = vec![0u64; 2 * n];
        env.reset(&seeds, &mut obs, &mut masks).unwrap();
        let mut rng = GameRng::new(6);
        let mut out = Vec::new();
        for _ in 0..steps {
            let actions: Vec<u32> = masks
                .chunks(PUYO_ACTIONS)
                .map(|m| pick(&mut rng, m))
                .collect();
            env.step_with_rows(
                &actions,
                &mut obs,
                &mut masks,
                &mut rewards,
                &mut terminated,
                (&mut rows, 2),
                |r, row| row.copy_from_slice(&[u64::from(r.chain), r.score]),
            )
            .unwrap();
            for (i, row) in rows.chunks(2).enumerate() {
                let last = env.last_step(i);
                assert_eq!(row, [u64::from(last.chain), last.score], "row of game {i}");
            }
            out.extend(rows.iter().flat_map(|r| r.to_le_bytes()));
            out.extend_from_slice(&obs);
            out.extend_from_slice(&masks);
            out.extend(rewards.iter().flat_map(|r| r.to_le_bytes()));
            out.extend_from_slice(&terminated);
        }
        out
    })
}

/// The same outputs on one thread, two, three or five (more threads than cores: some join
/// late or are preempted) and from outside any pool, on four chunks (200 games, the last one
/// short) and on 32 (2,000 games).
#[test]
fn thread_counts_and_replays_agree() {
    for (n, steps) in [(200, 30), (2000, 6)] {
        for kind in [TetrisActions::Placements, TetrisActions::HardDrop] {
            let one = tetris_run(Some(1), kind, n, steps);
            for threads in [Some(2), Some(3), Some(5), None] {
                assert_eq!(
                    one,
                    tetris_run(threads, kind, n, steps),
                    "{n} games, {threads:?}"
                );
            }
        }
    }
    let one = puyo_run(Some(1), 300, 60);
    assert_eq!(one, puyo_run(Some(2), 300, 60));
    assert_eq!(one, puyo_run(None, 300, 60));
    assert_eq!(one, puyo_run(Some(1), 300, 60));
}

#[test]
fn bad_calls_are_refused() {
    let mut env = TetrisEnv::<10>::new(TetrisEnvConfig::default(), 2).unwrap();
    let (ol, al) = (env.obs_len(), env.action_count());
    let (mut obs, mut masks) = (vec![0u8; 2 * ol], vec![0u8; 2 * al]);
    assert_eq!(
        env.reset(&[1], &mut obs, &mut masks),
        Err(EnvError::Buffer {
            name: "seeds",
            expected: 2,
            found: 1
        })
    );
    env.reset(&[1, 2], &mut obs, &mut masks).unwrap();
    let (mut rewards, mut terminated) = (vec![0f32; 2], vec![0u8; 2]);
    let illegal = masks[al..].iter().position(|&b| b == 0).unwrap() as u32;
    let legal = masks[..al].iter().position(|&b| b == 1).unwrap() as u32;
    let before = obs.clone();
    assert_eq!(
        env.step(
            &[legal, illegal],
            &mut obs,
            &mut masks,
            &mut rewards,
            &mut terminated
        ),
        Err(EnvError::IllegalAction {
            env: 1,
            action: illegal
        })
    );
    assert_eq!(obs, before);
    assert_eq!(env.game(0).pieces(), 0);
    assert!(env
        .step(
            &[legal, al as u32 + 5],
            &mut obs,
            &mut masks,
            &mut rewards,
            &mut terminated
        )
        .is_err());
    let mut short = vec![0f32; 1];
    assert!(matches!(
        env.step(
            &[legal, legal],
            &mut obs,
            &mut masks,
            &mut short,
            &mut terminated
        ),
        Err(EnvError::Buffer {
            name: "rewards",
            ..
        })
    ));
    let bad = TetrisEnvConfig {
        game: GameConfig {
            height: 0,
            ..GameConfig::default()
        },
        ..TetrisEnvConfig::default()
    };
    assert!(matches!(
        TetrisEnv::<10>::new(bad, 1),
        Err(EnvError::Config(_))
    ));

    let mut env = PuyoEnv::new(TsuConfig::default(), 1).unwrap();
    let mut obs = vec![0u8; env.obs_len()];
    let mut masks = vec![0u8; PUYO_ACTIONS];
    env.reset(&[3], &mut obs, &mut masks).unwrap();
    let (mut rewards, mut terminated) = (vec![0f32; 1], vec![0u8; 1]);
    for a in [22u32, 40, u32::MAX] {
        assert!(matches!(
            env.step(&[a], &mut obs, &mut masks, &mut rewards, &mut terminated),
            Err(EnvError::IllegalAction { env: 0, .. })
        ));
    }
}

/// A batch of several chunks with illegal actions in two of them: the lowest game is
/// reported, whatever the thread count, and nothing is played.
#[test]
fn the_first_illegal_action_of_a_large_batch_is_reported() {
    let n = 300;
    for kind in [TetrisActions::Placements, TetrisActions::HardDrop] {
        for threads in [Some(1), Some(2), Some(3), None] {
            on_threads(threads, || {
                let config = TetrisEnvConfig {
                    actions: kind,
                    ..TetrisEnvConfig::default()
                };
                let mut env = TetrisEnv::<10>::new(config, n).unwrap();
                let (ol, al) = (env.obs_len(), env.action_count());
                let (mut obs, mut masks) = (vec![0u8; n * ol], vec![0u8; n * al]);
                let seeds: Vec<u64> = (0..n as u64).collect();
                env.reset(&seeds, &mut obs, &mut masks).unwrap();
                let row = |i: usize| &masks[i * al..(i + 1) * al];
                let mut actions: Vec<u32> = (0..n)
                    .map(|i| row(i).iter().position(|&b| b == 1).unwrap() as u32)
                    .collect();
                for bad in [250, 130] {
                    actions[bad] = row(bad).iter().position(|&b| b == 0).unwrap() as u32;
                }
                let (mut rewards, mut terminated) = (vec![0f32; n], vec![0u8; n]);
                let before = obs.clone();
                assert_eq!(
                    env.step(
                        &actions,
                        &mut obs,
                        &mut masks,
                        &mut rewards,
                        &mut terminated
                    ),
                    Err(EnvError::IllegalAction {
                        env: 130,
                        action: actions[130]
                    })
                );
                assert_eq!(obs, before);
                assert_eq!(env.game(0).pieces(), 0);
            });
        }
    }

    let mut env = PuyoEnv::new(TsuConfig::default(), n).unwrap();
    let mut obs = vec![0u8; n * env.obs_len()];
    let mut masks = vec![0u8; n * PUYO_ACTIONS];
    let seeds: Vec<u64> = (0..n as u64).collect();
    env.reset(&seeds, &mut obs, &mut masks).unwrap();
    let mut actions = vec![0u32; n];
    actions[299] = 40;
    actions[77] = 22;
    let (mut rewards, mut terminated) = (vec![0f32; n], vec![0u8; n]);
    assert_eq!(
        with_threads(2, || env.step(
            &actions,
            &mut obs,
            &mut masks,
            &mut rewards,
            &mut terminated
        )),
        Ok(Err(EnvError::IllegalAction {
            env: 77,
            action: 22
        }))
    );
}

/// The edges of a batch's settings: a height where the first piece may not fit, batches
/// past memory (an error before any allocation, not an abort), and which games await an
/// autoreset (their action is ignored, so bindings take any value there).
#[test]
fn batch_edges() {
    for height in [0, 1] {
        let config = TetrisEnvConfig {
            game: GameConfig {
                height,
                ..GameConfig::default()
            },
            ..TetrisEnvConfig::default()
        };
        assert!(matches!(
            TetrisEnv::<10>::new(config, 1),
            Err(EnvError::Config(_))
        ));
    }
    let low = TetrisEnvConfig {
        game: GameConfig {
            height: MIN_HEIGHT,
            ..GameConfig::default()
        },
        ..TetrisEnvConfig::default()
    };
    let mut env = TetrisEnv::<10>::new(low, 64).unwrap();
    let (ol, al) = (env.obs_len(), env.action_count());
    let (mut obs, mut masks) = (vec![0u8; 64 * ol], vec![0u8; 64 * al]);
    let seeds: Vec<u64> = (0..64).collect();
    env.reset(&seeds, &mut obs, &mut masks).unwrap();
    assert!(masks.chunks(al).all(|m| m.contains(&1)));

    for n in [1usize << 40, usize::MAX] {
        match TetrisEnv::<10>::new(TetrisEnvConfig::default(), n) {
            Err(EnvError::Size(e)) => assert!(e.is_out_of_memory()),
            other => panic!("{n} games: {:?}", other.map(|e| e.len())),
        }
        match PuyoEnv::new(TsuConfig::default(), n) {
            Err(EnvError::Size(e)) => assert!(e.is_out_of_memory()),
            other => panic!("{n} games: {:?}", other.map(|e| e.len())),
        }
    }

    let mut env = PuyoEnv::new(TsuConfig::default(), 1).unwrap();
    let mut obs = vec![0u8; env.obs_len()];
    let mut masks = vec![0u8; PUYO_ACTIONS];
    env.reset(&[3], &mut obs, &mut masks).unwrap();
    let (mut rewards, mut terminated) = (vec![0f32; 1], vec![0u8; 1]);
    let mut steps = 0;
    while terminated[0] == 0 {
        assert!(!env.needs_reset(0));
        let a = masks.iter().position(|&b| b == 1).unwrap() as u32;
        env.step(&[a], &mut obs, &mut masks, &mut rewards, &mut terminated)
            .unwrap();
        steps += 1;
        assert!(steps < 10_000);
    }
    assert!(env.needs_reset(0));
    env.step(&[0], &mut obs, &mut masks, &mut rewards, &mut terminated)
        .unwrap();
    assert!(!env.needs_reset(0) && terminated[0] == 0);
}
