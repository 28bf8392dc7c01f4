//! The Puyo Puyo Tsu game: pairs, placements and their index, chains, all clear, ojama.

use gridbits::games::puyo::{
    placement_index, Cell, Field, Pair, PairGen, Rules, TsuConfig, TsuError, TsuGame,
    ALL_CLEAR_BONUS, PLACEMENTS,
};
use gridbits::games::rng::GameRng;

fn tsu(text_bottom: &str) -> Field {
    let rows = text_bottom.lines().count();
    let mut text = "......\n".repeat(13 - rows);
    text.push_str(text_bottom);
    Field::parse(&text, Rules::Tsu).unwrap()
}

#[test]
fn placement_index_is_the_open_field_order() {
    let open = Field::new(Rules::Tsu);
    let moves: Vec<_> = open.drops(Pair::new(0, 1)).moves().collect();
    assert_eq!(moves, PLACEMENTS.to_vec());
    for (i, &mv) in PLACEMENTS.iter().enumerate() {
        assert_eq!(placement_index(mv), Some(i));
    }
    let mut off = 0;
    for column in 0..6 {
        for rotation in 0..4 {
            let mv = gridbits::games::puyo::PairMove { column, rotation };
            if placement_index(mv).is_none() {
                off += 1;
                assert!(mv.columns().is_none());
            }
        }
    }
    assert_eq!(off, 2);
}

#[test]
fn pair_generator_follows_the_colour_rule() {
    for seed in 0..200 {
        for colors in 3..=5u8 {
            let mut g = PairGen::new(seed, colors);
            let game: Vec<u8> = g.colors().to_vec();
            let mut sorted = game.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), usize::from(colors));
            for k in 0..40 {
                let p = g.next_pair();
                let allowed = if k < 2 { &game[..3] } else { &game[..] };
                assert!(allowed.contains(&p.axis) && allowed.contains(&p.child));
            }
        }
    }
    // Pinned (an independent Python transcription of the documented rule).
    let seq = |seed, colors| {
        let mut g = PairGen::new(seed, colors);
        let pairs: Vec<String> = (0..8).map(|_| g.next_pair().to_text(Rules::Tsu)).collect();
        (g.colors().to_vec(), pairs.join(" "))
    };
    assert_eq!(
        seq(0, 4),
        (vec![3, 0, 2, 1], "BB RR GG YY YB RR BY BY".into())
    );
    assert_eq!(
        seq(7, 5),
        (vec![3, 2, 4, 1, 0], "PY YB YP GR RP PB PY YY".into())
    );
}

#[test]
fn config_is_checked() {
    let bad = |c: TsuConfig| matches!(TsuGame::new(c, 0), Err(TsuError::Config(_)));
    let d = TsuConfig::default();
    assert!(bad(TsuConfig { colors: 2, ..d }));
    assert!(bad(TsuConfig { colors: 6, ..d }));
    assert!(bad(TsuConfig { previews: 9, ..d }));
    assert!(bad(TsuConfig {
        target_point: 0,
        ..d
    }));
    assert!(bad(TsuConfig { max_drop: 0, ..d }));
    let g = TsuGame::new(d, 0).unwrap();
    assert_eq!(g.queue().len(), 2);
}

/// Random legal play; the legal moves always equal the drops.
fn play(seed: u64, turns: usize) -> Vec<(u32, u64, u32, u32)> {
    let mut g = TsuGame::new(TsuConfig::default(), seed).unwrap();
    let mut rng = GameRng::new(seed ^ 77);
    let mut out = Vec::new();
    for _ in 0..turns {
        if g.is_over() {
            assert_eq!(g.legal_moves(), 0);
            assert_eq!(g.step(0), Err(TsuError::GameOver));
            break;
        }
        let legal = g.legal_moves();
        let drops = g.field().drops(g.current());
        let want = drops
            .moves()
            .fold(0u32, |m, mv| m | 1 << placement_index(mv).unwrap());
        assert_eq!(legal, want);
        // An illegal index is refused and changes nothing.
        if let Some(i) = (0..22).find(|i| legal >> i & 1 == 0) {
            let before = g;
            assert_eq!(g.step(i), Err(TsuError::IllegalMove(i)));
            assert_eq!(g, before);
        }
        if rng.below(6) == 0 {
            g.add_ojama(rng.below(20) as u32);
        }
        let pick = rng.below(u64::from(legal.count_ones()));
        let mut m = legal;
        for _ in 0..pick {
            m &= m - 1;
        }
        let r = g.step(m.trailing_zeros() as usize).unwrap();
        out.push((r.chain, r.score, r.ojama_sent, r.ojama_dropped));
    }
    out
}

#[test]
fn seeded_games_replay() {
    for seed in 0..10 {
        let a = play(seed, 200);
        assert_eq!(a, play(seed, 200));
    }
    assert_ne!(play(1, 40), play(2, 40));
}

#[test]
fn chain_score_ojama_and_carry() {
    let mut g = TsuGame::new(TsuConfig::default(), 0).unwrap();
    // Three reds and a yellow: a red pair on the reds fires a 1-chain of 5 (score 100).
    g.set_field(tsu("RRR..Y\n"));
    g.set_current(Pair::new(0, 0));
    let i = placement_index(gridbits::games::puyo::PairMove {
        column: 3,
        rotation: 1,
    })
    .unwrap();
    let want = g
        .field()
        .drops(Pair::new(0, 0))
        .find(PLACEMENTS[i])
        .unwrap()
        .simulate();
    let r = g.step(i).unwrap();
    assert_eq!((r.chain, r.score), (want.chain, want.score));
    assert_eq!((r.chain, r.score), (1, 100));
    assert!(!r.all_clear);
    assert_eq!((r.ojama_sent, g.carry()), (1, 30)); // 100 / 70
    assert_eq!(g.field(), &want.field);
}

#[test]
fn all_clear_bonus_goes_to_the_next_chain() {
    let mut g = TsuGame::new(TsuConfig::default(), 0).unwrap();
    g.set_field(tsu("RRR...\n"));
    g.set_current(Pair::new(0, 0));
    let at = |column, rotation| {
        placement_index(gridbits::games::puyo::PairMove { column, rotation }).unwrap()
    };
    let r = g.step(at(3, 1)).unwrap();
    assert!(r.all_clear && !r.all_clear_bonus);
    assert_eq!(r.score, 100);
    assert!(g.all_clear_pending());
    // A turn without a chain keeps the bonus.
    g.set_current(Pair::new(1, 1));
    let r = g.step(at(0, 0)).unwrap();
    assert_eq!((r.chain, r.score), (0, 0));
    assert!(g.all_clear_pending());
    // The next chain (4 greens: the two on the floor and two more) gets it.
    g.set_current(Pair::new(1, 1));
    let r = g.step(at(2, 0)).unwrap();
    assert_eq!(r.chain, 1);
    assert!(r.all_clear_bonus && r.all_clear);
    assert_eq!(r.score, 40 + ALL_CLEAR_BONUS);
    // 30 (carry) + 2140 = 2170 = 31 ojama.
    assert_eq!((r.ojama_sent, g.carry()), (31, 0));
}

#[test]
fn incoming_ojama_offset_and_fall() {
    let mut g = TsuGame::new(TsuConfig::default(), 4).unwrap();
    g.add_ojama(40);
    let r = g.step(0).unwrap();
    assert_eq!((r.ojama_dropped, g.incoming()), (30, 10));
    let garbage = |g: &TsuGame| (g.field().garbage_plane()).count_ones();
    assert_eq!(garbage(&g), 30);
    for x in 0..6 {
        assert_eq!(g.field().column_height(x), if x < 2 { 6 } else { 5 });
    }
    let r = g
        .step(
            placement_index(gridbits::games::puyo::PairMove {
                column: 4,
                rotation: 1,
            })
            .unwrap(),
        )
        .unwrap();
    assert_eq!(r.ojama_dropped, 10);
    assert_eq!(garbage(&g), 40);
    // 10 = one row and 4 more, in distinct columns: heights grew by 1 or 2.
    let grew: Vec<usize> = (0..6)
        .map(|x| {
            g.field().column_height(x) - if x < 2 { 6 } else { 5 } - if x == 4 { 2 } else { 0 }
        })
        .collect();
    assert_eq!(grew.iter().filter(|&&k| k == 2).count(), 4, "{grew:?}");
    assert!(grew.iter().all(|&k| k == 1 || k == 2));
    // Offset: a chain's ojama cancel incoming first.
    let mut g = TsuGame::new(TsuConfig::default(), 0).unwrap();
    g.set_field(tsu("RRR...\n"));
    g.set_current(Pair::new(0, 0));
    g.add_ojama(3);
    let r = g
        .step(
            placement_index(gridbits::games::puyo::PairMove {
                column: 3,
                rotation: 1,
            })
            .unwrap(),
        )
        .unwrap();
    assert_eq!(
        (r.ojama_cancelled, r.ojama_sent, r.ojama_dropped),
        (1, 0, 2)
    );
    assert_eq!(g.incoming(), 0);
}

#[test]
fn death_cell() {
    let mut g = TsuGame::new(TsuConfig::default(), 0).unwrap();
    // Column 2 holds 10 ojama: a vertical pair there fills row 12.
    let mut f = Field::new(Rules::Tsu);
    for y in 3..13 {
        f.set(2, y, Cell::Garbage);
    }
    g.set_field(f);
    g.set_current(Pair::new(0, 1));
    let i = placement_index(gridbits::games::puyo::PairMove {
        column: 2,
        rotation: 1,
    })
    .unwrap();
    let r = g.step(i).unwrap();
    assert!(r.game_over && g.is_over());
    assert_eq!(g.step(0), Err(TsuError::GameOver));
    // Ojama falling into it ends the game too.
    let mut g = TsuGame::new(TsuConfig::default(), 0).unwrap();
    g.add_ojama(72);
    let mut over = false;
    for _ in 0..3 {
        let legal = g.legal_moves();
        if legal == 0 {
            break;
        }
        over = g.step(legal.trailing_zeros() as usize).unwrap().game_over;
    }
    assert!(over);
}
