//! The dataset layer over synthetic hcpe/hcpe3 data written with `hayate-records`: samples carry
//! the right targets, corrupt records are reported with their offsets and skipped, batches are
//! complete, and the statistics count what was written.

use hayate_core::{Color, Move, Position, Repetition};
use hayate_nn::dataset::{
    BatchConfig, BatchLoader, DatasetError, DatasetStats, InputKind, SampleFormat, SampleOptions,
    Samples, ShuffleBuffer, average_duplicates, fill_batch, result_value, score_to_value,
};
use hayate_nn::{DlshogiFeatures, move_label};
use hayate_records::{
    AperyMove16, GameResult, Hcp, Hcpe, Hcpe3Game, Hcpe3Move, MoveVisits, Record,
};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One synthetic game: its moves, per-position evals and candidate lists, and the result.
struct Game {
    moves: Vec<Move>,
    evals: Vec<i16>,
    candidates: Vec<Vec<(Move, u16)>>,
    result: GameResult,
}

fn games(seed: u64, n: usize, plies: usize) -> Vec<Game> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut g = Game {
                moves: vec![],
                evals: vec![],
                candidates: vec![],
                result: GameResult::Draw,
            };
            for ply in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len())];
                // Opening plies carry no candidates, as in dlshogi's self-play.
                let mut cands = Vec::new();
                if ply >= 4 {
                    cands.push((m, 10 + rng.below(500) as u16));
                    for _ in 0..rng.below(6) {
                        let c = legal[rng.below(legal.len())];
                        if !cands.iter().any(|x: &(Move, u16)| x.0.same(c)) {
                            cands.push((c, rng.below(100) as u16));
                        }
                    }
                }
                g.moves.push(m);
                g.evals.push((rng.below(4001) as i32 - 2000) as i16);
                g.candidates.push(cands);
                pos.do_move(m);
            }
            g.result = [GameResult::BlackWin, GameResult::WhiteWin, GameResult::Draw][rng.below(3)];
            g
        })
        .collect()
}

/// A written hcpe record's position, best move, eval and result.
type Expected = (Position, Move, i16, GameResult);

fn hcpe_bytes(games: &[Game]) -> (Vec<u8>, Vec<Expected>) {
    let mut out = Vec::new();
    let mut expect = Vec::new();
    for g in games {
        let mut pos = Position::startpos();
        for (&m, &eval) in g.moves.iter().zip(g.evals.iter()) {
            let rec = Hcpe {
                hcp: Hcp::from_position(&pos).expect("full set"),
                eval,
                best_move16: AperyMove16::from_move(m),
                result: g.result as u8,
                padding: 0,
            };
            rec.encode(&mut out);
            expect.push((pos.without_history(), m, eval, g.result));
            pos.do_move(m);
        }
    }
    (out, expect)
}

fn hcpe3_game(g: &Game) -> Hcpe3Game {
    Hcpe3Game {
        start: Hcp::from_position(&Position::startpos()).expect("startpos"),
        result: g.result as u8,
        opponent: 0,
        moves: g
            .moves
            .iter()
            .zip(g.evals.iter().zip(g.candidates.iter()))
            .map(|(&m, (&eval, cands))| Hcpe3Move {
                move16: AperyMove16::from_move(m),
                eval,
                candidates: cands
                    .iter()
                    .map(|&(c, visits)| MoveVisits {
                        move16: AperyMove16::from_move(c),
                        visits,
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn hcpe3_bytes(games: &[Game]) -> Vec<u8> {
    let mut out = Vec::new();
    for g in games {
        hcpe3_game(g).encode(&mut out);
    }
    out
}

#[test]
fn hcpe_samples_carry_the_records_targets() {
    let gs = games(11, 4, 60);
    let (bytes, expect) = hcpe_bytes(&gs);
    let samples: Vec<_> = Samples::new(&bytes[..], SampleFormat::Hcpe, SampleOptions::default())
        .collect::<Result<_, _>>()
        .expect("no corrupt record");
    assert_eq!(samples.len(), expect.len());
    for (s, (pos, m, eval, result)) in samples.iter().zip(expect.iter()) {
        let us = pos.side_to_move();
        assert_eq!(s.policy, vec![(move_label(*m, us), 1.0)]);
        assert_eq!(s.value, score_to_value(*eval as f32, 756.0865));
        assert_eq!(s.result, result_value(*result, us));
        assert_eq!(s.hcp, Hcp::from_position(pos).unwrap());
    }
    assert_eq!(result_value(GameResult::BlackWin, Color::White), 0.0);
    assert!((score_to_value(756.0865, 756.0865) - 0.731_058_6).abs() < 1e-6);
}

#[test]
fn corrupt_hcpe_records_are_reported_with_their_offset_and_skipped() {
    let gs = games(12, 1, 20);
    let (mut bytes, expect) = hcpe_bytes(&gs);
    // Record 5: a packed position that does not decode; record 9: a game result of 3.
    bytes[5 * 38..5 * 38 + 32].fill(0xff);
    bytes[9 * 38 + 36] = 3;
    // Record 12: a best move that is not legal (from an empty square).
    let empty = hayate_core::Square::from_file_rank(5, 5).unwrap();
    let bad = AperyMove16(empty.raw() as u16 | ((empty.raw() as u16 + 1) << 7));
    bytes[12 * 38 + 34..12 * 38 + 36].copy_from_slice(&bad.0.to_le_bytes());
    // A cut-off tail.
    bytes.extend_from_slice(&[0u8; 17]);
    let items: Vec<_> =
        Samples::new(&bytes[..], SampleFormat::Hcpe, SampleOptions::default()).collect();
    let errors: Vec<String> = items
        .iter()
        .filter_map(|r| r.as_ref().err())
        .map(|e| e.to_string())
        .collect();
    assert_eq!(items.iter().filter(|r| r.is_ok()).count(), expect.len() - 3);
    assert_eq!(errors.len(), 4, "{errors:?}");
    assert!(
        errors[0].starts_with("record at byte 190:"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with("record at byte 342:"),
        "{}",
        errors[1]
    );
    assert!(
        errors[2].starts_with("record at byte 456:") && errors[2].contains("not legal"),
        "{}",
        errors[2]
    );
    assert!(
        errors[3].contains(&format!("byte {}", 20 * 38)) && errors[3].contains("17 of 38"),
        "{}",
        errors[3]
    );
}

#[test]
fn hcpe3_samples_follow_the_visits_and_skip_repetitions() {
    let gs = games(13, 5, 80);
    let bytes = hcpe3_bytes(&gs);
    for temperature in [1.0f32, 0.0] {
        let opts = SampleOptions {
            temperature,
            ..SampleOptions::default()
        };
        let samples: Vec<_> = Samples::new(&bytes[..], SampleFormat::Hcpe3, opts)
            .collect::<Result<_, _>>()
            .expect("no corrupt game");
        let mut expected = 0;
        let mut it = samples.iter();
        for g in &gs {
            let mut pos = Position::startpos();
            for ((&m, &eval), cands) in g.moves.iter().zip(g.evals.iter()).zip(g.candidates.iter())
            {
                let us = pos.side_to_move();
                let before = pos.to_sfen();
                let ply = pos.game_ply();
                pos.do_move(m);
                let total: u32 = cands.iter().map(|c| c.1 as u32).sum();
                let repeats = matches!(
                    pos.repetition(16),
                    Repetition::Draw | Repetition::Superior | Repetition::Inferior
                );
                if cands.is_empty() || total == 0 || repeats {
                    continue;
                }
                expected += 1;
                let s = it.next().expect("a sample");
                assert_eq!(
                    s.hcp,
                    Hcp::from_position(&Position::from_sfen(&before).unwrap()).unwrap()
                );
                assert_eq!(s.ply as u32, ply);
                assert_eq!(s.value, score_to_value(eval as f32, 756.0865));
                assert_eq!(s.result, result_value(g.result, us));
                if temperature == 1.0 {
                    let want: Vec<(u16, f32)> = cands
                        .iter()
                        .map(|&(c, v)| (move_label(c, us), v as f32 / total as f32))
                        .collect();
                    assert_eq!(s.policy, want);
                } else {
                    let best = cands.iter().map(|c| c.1).max().unwrap();
                    let first = cands.iter().position(|c| c.1 == best).unwrap();
                    assert_eq!(s.policy[first].1, 1.0);
                    assert_eq!(s.policy.iter().map(|p| p.1).sum::<f32>(), 1.0);
                }
            }
        }
        assert!(it.next().is_none());
        assert_eq!(samples.len(), expected);
        assert!(expected > 250);
    }
}

#[test]
fn corrupt_hcpe3_games_are_reported_and_skipped() {
    let gs = games(14, 3, 30);
    let mut g1 = hcpe3_game(&gs[1]);
    // An illegal move in the middle of game 1: the whole game gives no sample.
    g1.moves[10].move16 = AperyMove16(0x3fff & !0x7f);
    let mut bytes = Vec::new();
    hcpe3_game(&gs[0]).encode(&mut bytes);
    let g1_offset = bytes.len();
    g1.encode(&mut bytes);
    let g2_offset = bytes.len();
    let mut g2 = hcpe3_game(&gs[2]);
    g2.opponent = 7; // a bad header byte: the reader skips the game
    g2.encode(&mut bytes);
    let g3_offset = bytes.len();
    hcpe3_game(&gs[0]).encode(&mut bytes);
    bytes.extend_from_slice(&[1, 2, 3]); // a cut-off header
    let items: Vec<_> =
        Samples::new(&bytes[..], SampleFormat::Hcpe3, SampleOptions::default()).collect();
    let errors: Vec<&DatasetError> = items.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        matches!(errors[0], DatasetError::IllegalMove { offset, ply: 10, .. } if *offset == g1_offset as u64)
    );
    assert!(
        errors[1].to_string().contains(&format!("byte {g2_offset}")),
        "{}",
        errors[1]
    );
    assert!(errors[2].to_string().contains(&format!(
        "byte {}",
        g3_offset + hcpe3_game(&gs[0]).byte_len()
    )));
    let per_game = gs[0].candidates.iter().filter(|c| !c.is_empty()).count();
    assert_eq!(items.iter().filter(|r| r.is_ok()).count(), 2 * per_game);
}

#[test]
fn batches_hold_every_sample_expanded() {
    let gs = games(15, 4, 70);
    let bytes = hcpe3_bytes(&gs);
    let samples: Vec<_> = Samples::new(&bytes[..], SampleFormat::Hcpe3, SampleOptions::default())
        .collect::<Result<Vec<_>, _>>()
        .expect("ok");
    // One batch by hand: rows equal the features of the decoded positions.
    let cfg = BatchConfig {
        batch_size: 64,
        novice_targets: true,
        ..BatchConfig::default()
    };
    let b = fill_batch(&samples[..10], &cfg);
    assert_eq!((b.len, b.skipped), (10, 0));
    for (i, s) in samples[..10].iter().enumerate() {
        let pos = s.hcp.decode().unwrap().to_position(1).unwrap();
        let mut f1 = vec![0.0; 62 * 81];
        DlshogiFeatures::new(&pos, false).write_input1(&mut f1);
        assert_eq!(&b.input1[i * 62 * 81..(i + 1) * 62 * 81], &f1[..]);
        let row = &b.policy[i * 2187..(i + 1) * 2187];
        for &(label, p) in &s.policy {
            assert_eq!(row[label as usize], p);
        }
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert_eq!(b.value[i], s.value);
    }
    assert_eq!(b.effects.len(), 10 * 162);
    assert_eq!(b.declaration.len(), 10);

    // Compact policy and Novice inputs.
    let cfg2 = BatchConfig {
        compact_policy: true,
        input: InputKind::Novice(Default::default()),
        ..BatchConfig::default()
    };
    let b2 = fill_batch(&samples[..5], &cfg2);
    assert_eq!(b2.policy.len(), 5 * 1496);
    assert_eq!(b2.input1.len(), 5 * 85 * 81);
    assert!(b2.input2.is_empty());

    // The threaded loader, after shuffling: every sample once.
    let n = samples.len();
    let stream = ShuffleBuffer::new(samples.clone().into_iter(), 100, 3);
    let cfg = BatchConfig {
        batch_size: 32,
        workers: 2,
        ..BatchConfig::default()
    };
    let batches: Vec<_> = BatchLoader::spawn(stream, cfg).collect();
    assert_eq!(batches.iter().map(|b| b.len).sum::<usize>(), n);
    let mut values: Vec<f32> = batches
        .iter()
        .flat_map(|b| b.value.iter().copied())
        .collect();
    let mut want: Vec<f32> = samples.iter().map(|s| s.value).collect();
    values.sort_by(f32::total_cmp);
    want.sort_by(f32::total_cmp);
    assert_eq!(values, want);
    // Dropping a loader early stops its threads.
    let mut early = BatchLoader::spawn(samples.clone().into_iter(), cfg);
    assert!(early.next().is_some());
    drop(early);
}

#[test]
fn duplicates_are_averaged() {
    // Every game starts from the initial position; with candidates from ply 4 on, the early
    // positions of different games coincide only by chance, so build duplicates directly.
    let gs = games(16, 2, 30);
    let bytes = hcpe3_bytes(&[gs.into_iter().next().unwrap()]);
    let mut doubled = bytes.clone();
    doubled.extend_from_slice(&bytes);
    let samples: Vec<_> = Samples::new(&doubled[..], SampleFormat::Hcpe3, SampleOptions::default())
        .collect::<Result<Vec<_>, _>>()
        .expect("ok");
    let once = samples.len() / 2;
    let avg = average_duplicates(samples.clone());
    assert_eq!(avg.len(), once);
    assert_eq!(avg, samples[..once].to_vec());
}

#[test]
fn stats_count_what_was_written() {
    let gs = games(17, 3, 40);
    let bytes3 = hcpe3_bytes(&gs);
    let (bytes, _) = hcpe_bytes(&gs);
    let mut stats = DatasetStats::new();
    let mut errors = Vec::new();
    stats.add(&bytes3[..], SampleFormat::Hcpe3, &mut |e| errors.push(e));
    stats.add(&bytes[..], SampleFormat::Hcpe, &mut |e| errors.push(e));
    assert!(errors.is_empty());
    let positions: u64 = gs.iter().map(|g| g.moves.len() as u64).sum();
    let with_cands: u64 = gs
        .iter()
        .map(|g| g.candidates.iter().filter(|c| !c.is_empty()).count() as u64)
        .sum();
    let cands: u64 = gs
        .iter()
        .flat_map(|g| g.candidates.iter())
        .map(|c| c.len() as u64)
        .sum();
    assert_eq!(stats.games, 3);
    assert_eq!(stats.hcpe_records, positions);
    assert_eq!(stats.positions, 2 * positions);
    assert_eq!(stats.training_positions, positions + with_cands);
    assert_eq!(
        stats.black_wins + stats.white_wins + stats.draws,
        3 + positions
    );
    assert!((stats.average_candidates() - cands as f64 / with_cands as f64).abs() < 1e-9);
    // The hcpe file repeats every hcpe3 training position, and the three games share their
    // opening position (ply 1) among the hcpe records.
    assert_eq!(stats.duplicates, with_cands + 2);
    assert!(stats.report().contains("games 3\n"));
}

#[test]
fn positions_whose_move_repeats_are_skipped() {
    // Rooks shuffle back and forth: the 4th and 8th moves return to the initial position.
    let usi = [
        "2h3h", "8b7b", "3h2h", "7b8b", "2h3h", "8b7b", "3h2h", "7b8b", "7g7f",
    ];
    let mut pos = Position::startpos();
    let mut g = Game {
        moves: vec![],
        evals: vec![],
        candidates: vec![],
        result: GameResult::Draw,
    };
    for u in usi {
        let m = pos.parse_usi_move(u).unwrap();
        g.moves.push(m);
        g.evals.push(0);
        g.candidates.push(vec![(m, 100)]);
        pos.do_move(m);
    }
    let bytes = hcpe3_bytes(&[g]);
    let count = |skip_repetitions| {
        let opts = SampleOptions {
            skip_repetitions,
            ..SampleOptions::default()
        };
        Samples::new(&bytes[..], SampleFormat::Hcpe3, opts)
            .filter(|r| r.is_ok())
            .count()
    };
    assert_eq!(count(false), 9);
    // Moves 4..=8 each recreate a position seen four plies before.
    assert_eq!(count(true), 4);
}

/// Samples per second from an hcpe3 file through the whole pipeline, run by hand:
/// `cargo test --release -p hayate-nn --test dataset -- --ignored --nocapture --test-threads=1`.
/// Writes the synthetic file to the temp directory (`hayate-nn-bench.hcpe3`) for `hayate dataset
/// stats`.
#[test]
#[ignore]
fn hcpe3_pipeline_throughput() {
    use std::time::Instant;
    let gs = games(99, 400, 160);
    let bytes = hcpe3_bytes(&gs);
    let path = std::env::temp_dir().join("hayate-nn-bench.hcpe3");
    std::fs::write(&path, &bytes).expect("write");
    let t = Instant::now();
    let n = Samples::new(&bytes[..], SampleFormat::Hcpe3, SampleOptions::default())
        .filter(|r| r.is_ok())
        .count();
    let read = t.elapsed().as_secs_f64();
    println!("{} games, {} bytes, {n} samples", gs.len(), bytes.len());
    println!(
        "read + replay + labels (1 thread): {:.0} samples/s",
        n as f64 / read
    );
    let samples: Vec<_> = Samples::new(&bytes[..], SampleFormat::Hcpe3, SampleOptions::default())
        .filter_map(Result::ok)
        .collect();
    let cfg = BatchConfig {
        batch_size: 256,
        ..BatchConfig::default()
    };
    let t = Instant::now();
    let mut total = 0;
    let mut batch = hayate_nn::dataset::Batch::default();
    for chunk in samples.chunks(256) {
        hayate_nn::dataset::fill_batch_into(chunk, &cfg, &mut batch);
        total += batch.len;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "fill_batch alone (1 thread): {:.0} samples/s, {:.0} ns/sample",
        total as f64 / secs,
        secs * 1e9 / total as f64
    );
    let t = Instant::now();
    for s in &samples {
        std::hint::black_box(s.hcp.decode().unwrap().to_position(1).unwrap());
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "hcp -> Position (records' to_position): {:.0} ns/sample",
        secs * 1e9 / samples.len() as f64
    );
    let t = Instant::now();
    let mut buf = String::new();
    for s in &samples {
        let raw = s.hcp.decode().unwrap();
        std::hint::black_box(
            hayate_nn::dataset::decode::position_from_raw(&raw, 1, &mut buf).unwrap(),
        );
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "hcp -> Position (position_from_raw, used by the workers): {:.0} ns/sample",
        secs * 1e9 / samples.len() as f64
    );
    for workers in [1, 2] {
        let t = Instant::now();
        let opened =
            hayate_nn::dataset::open_samples(&path, SampleFormat::Hcpe3, SampleOptions::default())
                .unwrap();
        let stream = ShuffleBuffer::new(opened.filter_map(Result::ok), 10_000, 1);
        let cfg = BatchConfig {
            batch_size: 256,
            workers,
            ..BatchConfig::default()
        };
        let loader = BatchLoader::spawn(stream, cfg);
        let mut total = 0;
        while let Some(b) = loader.next_batch() {
            total += b.len;
            loader.recycle(b);
        }
        assert_eq!(total, n);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "file -> shuffled f32 batches (62+57 planes, 2187 policy), {workers} worker(s): {:.0} samples/s",
            n as f64 / secs
        );
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0xdead_beef_1234_5678);
    let gs = games(18, 2, 30);
    let valid3 = hcpe3_bytes(&gs);
    let (valid, _) = hcpe_bytes(&gs);
    for round in 0..300 {
        // Pure noise, and valid data with a few bytes flipped.
        let mut bytes: Vec<u8> = if round % 2 == 0 {
            (0..rng.below(3000)).map(|_| rng.next() as u8).collect()
        } else if round % 4 == 1 {
            valid3.clone()
        } else {
            valid.clone()
        };
        if round % 2 == 1 {
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
        }
        for format in [SampleFormat::Hcpe, SampleFormat::Hcpe3] {
            let n = Samples::new(&bytes[..], format, SampleOptions::default()).count();
            assert!(n <= bytes.len());
            let mut stats = DatasetStats::new();
            stats.add(&bytes[..], format, &mut |_| {});
        }
    }
    // Samples whose packed position is garbage, or whose labels are out of range, are skipped.
    let junk: Vec<hayate_nn::dataset::Sample> = (0..50)
        .map(|i| {
            let mut hcp = [0u8; 32];
            hcp.iter_mut().for_each(|b| *b = rng.next() as u8);
            hayate_nn::dataset::Sample {
                hcp: Hcp(hcp),
                ply: 0,
                policy: vec![(i * 100, 1.0)],
                value: 0.5,
                result: 0.5,
                novice: None,
            }
        })
        .collect();
    for compact_policy in [false, true] {
        let b = fill_batch(
            &junk,
            &BatchConfig {
                compact_policy,
                novice_targets: true,
                ..BatchConfig::default()
            },
        );
        assert_eq!(b.len + b.skipped, junk.len());
        assert_eq!(b.input1.len(), b.len * 62 * 81);
    }
}

/// A self-play hcpe3 file with its sidecar: each game's draw values and ply limit reach the
/// samples, a Novice batch's draw-score channels show them and its result is the scored one,
/// while a dlshogi batch keeps the real result.
#[test]
fn sidecar_settings_reach_novice_batches() {
    use hayate_nn::dataset::open_samples;
    use hayate_nn::novice::{NOVICE_CHANNELS, NOVICE_DRAW_BASE, NoviceConfig};
    let gs = games(21, 2, 6);
    let dir = std::env::temp_dir().join(format!("hayate-sidecar-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("shard-000000.hcpe3");
    std::fs::write(&file, hcpe3_bytes(&gs)).unwrap();
    // Game 0: a draw scored as White's win; game 1: even settings, scored as played.
    let played = |g: &Game| match g.result {
        GameResult::BlackWin => "black",
        GameResult::WhiteWin => "white",
        GameResult::Draw => "draw",
    };
    let lines = format!(
        "{{\"draw_value\":[0.0,1.0],\"max_plies\":200,\"scored\":\"white\",\"resign\":true}}\n\
         {{\"draw_value\":[0.5,0.5],\"max_plies\":300,\"scored\":\"{}\"}}\n",
        played(&gs[1])
    );
    std::fs::write(dir.join("shard-000000.games.jsonl"), lines).unwrap();
    let samples: Vec<_> = open_samples(&file, SampleFormat::Hcpe3, SampleOptions::default())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let first_game = gs[0].candidates.iter().filter(|c| !c.is_empty()).count();
    assert!(first_game > 0 && samples.len() > first_game);
    for (k, s) in samples.iter().enumerate() {
        let g = s.novice.expect("sidecar settings");
        let want = if k < first_game { 200 } else { 300 };
        assert_eq!(g.config.max_plies, want);
    }
    let novice = BatchConfig {
        batch_size: samples.len(),
        input: InputKind::Novice(NoviceConfig::default()),
        ..BatchConfig::default()
    };
    let b = fill_batch(&samples[..first_game], &novice);
    let dlshogi = fill_batch(
        &samples[..first_game],
        &BatchConfig {
            batch_size: samples.len(),
            ..BatchConfig::default()
        },
    );
    let l1 = NOVICE_CHANNELS * 81;
    for (i, s) in samples[..first_game].iter().enumerate() {
        let us = Position::from_sfen(&s.hcp.decode().unwrap().to_sfen(1))
            .unwrap()
            .side_to_move();
        // Own and opponent draw scores: Black's 0, White's 1.
        let (own, theirs) = if us == Color::Black {
            (0.0, 1.0)
        } else {
            (1.0, 0.0)
        };
        assert_eq!(b.input1[i * l1 + NOVICE_DRAW_BASE * 81], own);
        assert_eq!(b.input1[i * l1 + (NOVICE_DRAW_BASE + 1) * 81], theirs);
        let scored = if us == Color::White { 1.0 } else { 0.0 };
        assert_eq!(b.result[i], scored, "the scored result");
        assert_eq!(dlshogi.result[i], s.result, "the real result");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
