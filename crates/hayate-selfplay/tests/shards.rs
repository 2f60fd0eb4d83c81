//! Self-play shards: reproducible from the seed whatever the thread count, resumable after a
//! kill (a partial temporary file is written again, whole shards are left alone), and readable
//! by the records readers with legal moves, the search's scores and consistent results.

use std::path::{Path, PathBuf};

use hayate_core::player::{Limits, Player, Score, Signals};
use hayate_eval::{Evaluator, Material};
use hayate_records::{ErrorPolicy, HcpeReader, PsvReader};
use hayate_search::{AlphaBeta, Options};
use hayate_selfplay::{
    Config, DataFormat, Engine, Evaluation, Label, RandomMoves, openings, run, score_i16,
};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hayate-selfplay-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn config(out: &Path, seed: u64, threads: usize, format: DataFormat) -> Config {
    Config {
        out_dir: out.to_path_buf(),
        engine: Engine::AlphaBeta(Evaluation::Material),
        limits: Limits {
            depth: Some(2),
            ..Limits::default()
        },
        hash_mb: 4,
        openings: openings::parse_openings(openings::DEFAULT_OPENINGS).unwrap(),
        random: RandomMoves {
            count: 2,
            min_ply: 1,
            max_ply: 12,
        },
        eval_limit: 2000,
        max_plies: 200,
        positions: 250,
        shard_size: 100,
        threads,
        seed,
        format,
        label: Label::Search,
        worker: 0,
    }
}

fn shard_bytes(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn the_seed_fixes_every_shard_whatever_the_thread_count() {
    let (a, b, c) = (temp_dir("seed-a"), temp_dir("seed-b"), temp_dir("seed-c"));
    let sa = run(&config(&a, 5, 1, DataFormat::Psv), &|_| {}).unwrap();
    run(&config(&b, 5, 3, DataFormat::Psv), &|_| {}).unwrap();
    run(&config(&c, 6, 2, DataFormat::Psv), &|_| {}).unwrap();
    let (ba, bb, bc) = (shard_bytes(&a), shard_bytes(&b), shard_bytes(&c));
    let names: Vec<&str> = ba.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["shard-000000.psv", "shard-000001.psv", "shard-000002.psv"]
    );
    let sizes: Vec<usize> = ba.iter().map(|(_, d)| d.len()).collect();
    assert_eq!(sizes, [4000, 4000, 2000]);
    assert_eq!(ba, bb);
    assert_ne!(ba, bc);
    assert_eq!((sa.positions, sa.shards_written), (250, 3));
    for d in [a, b, c] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_killed_run_resumes_without_overwriting() {
    let (full, resumed) = (temp_dir("full"), temp_dir("resumed"));
    let reference = config(&full, 9, 1, DataFormat::Hcpe);
    run(&reference, &|_| {}).unwrap();
    // The killed run: shard 0 whole, shard 1 half written under its temporary name.
    std::fs::create_dir_all(&resumed).unwrap();
    let whole = std::fs::read(full.join("shard-000000.hcpe")).unwrap();
    std::fs::write(resumed.join("shard-000000.hcpe"), &whole).unwrap();
    let part = std::fs::read(full.join("shard-000001.hcpe")).unwrap();
    std::fs::write(
        resumed.join("shard-000001.hcpe.tmp"),
        &part[..part.len() / 2 + 5],
    )
    .unwrap();
    // Shard 0 must not be touched: make it recognisably ours.
    let mut marked = whole.clone();
    marked[0] ^= 0xff;
    std::fs::write(resumed.join("shard-000000.hcpe"), &marked).unwrap();

    let s = run(&config(&resumed, 9, 2, DataFormat::Hcpe), &|_| {}).unwrap();
    assert_eq!(
        (s.shards_present, s.shards_written, s.positions),
        (1, 2, 150)
    );
    let got = shard_bytes(&resumed);
    let want = shard_bytes(&full);
    assert_eq!(got.len(), 3, "no temporary file is left");
    assert_eq!(got[0].1, marked);
    assert_eq!(got[1..], want[1..]);
    let _ = std::fs::remove_dir_all(&full);
    let _ = std::fs::remove_dir_all(&resumed);
}

#[test]
fn shards_read_back_with_legal_moves_and_the_search_scores() {
    let (p, h) = (temp_dir("read-psv"), temp_dir("read-hcpe"));
    run(&config(&p, 3, 2, DataFormat::Psv), &|_| {}).unwrap();
    run(&config(&h, 3, 2, DataFormat::Hcpe), &|_| {}).unwrap();
    let mut psv = Vec::new();
    for (name, bytes) in shard_bytes(&p) {
        let r = PsvReader::new(bytes.as_slice(), ErrorPolicy::Stop);
        for rec in r {
            psv.push(rec.unwrap_or_else(|e| panic!("{name}: {e}")));
        }
    }
    assert_eq!(psv.len(), 250);
    let mut hcpe = Vec::new();
    for (_, bytes) in shard_bytes(&h) {
        hcpe.extend(HcpeReader::new(bytes.as_slice(), ErrorPolicy::Stop).map(Result::unwrap));
    }
    assert_eq!(hcpe.len(), 250);
    let mut decided = 0;
    for (r, e) in psv.iter().zip(&hcpe) {
        let pos = r.position().unwrap();
        assert!(r.best_move(&pos).is_some(), "move legal in {pos:?}");
        assert!((-1..=1).contains(&r.game_result));
        decided += (r.game_result != 0) as usize;
        // The same games in both formats: same position, move and score.
        assert_eq!(e.hcp.decode().unwrap().to_position(1).unwrap(), pos);
        assert_eq!(e.eval, r.score);
        assert_eq!(e.best_move16.to_move(&pos), r.best_move(&pos));
    }
    assert!(decided > 0, "material at depth 2 decides some games");
    // The first searched position of a game is searched with a fresh table: a fresh search
    // gives the score and move on record.
    let first = &psv[0];
    let pos = first.position().unwrap();
    let mut ab = AlphaBeta::with_options(
        Material,
        Options {
            hash_mb: 4,
            ..Options::default()
        },
    );
    ab.new_game();
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let mut score = None;
    ab.think(&pos, &limits, &Signals::default(), &mut |i| {
        if i.score.is_some() {
            score = i.score;
        }
    });
    assert_eq!(score.map(score_i16), Some(first.score));
    assert!(matches!(score, Some(Score::Cp(_)) | Some(Score::Mate(_))));
    let _ = std::fs::remove_dir_all(&p);
    let _ = std::fs::remove_dir_all(&h);
}

/// `Label::Static` writes the evaluation's own score of each position (side to move's view),
/// the same games and moves as the search-labelled run.
#[test]
fn static_labels_are_the_evaluations_score_of_each_position() {
    let (a, b) = (temp_dir("label-search"), temp_dir("label-static"));
    run(&config(&a, 9, 1, DataFormat::Psv), &|_| {}).unwrap();
    let mut cfg = config(&b, 9, 1, DataFormat::Psv);
    cfg.label = Label::Static;
    run(&cfg, &|_| {}).unwrap();
    let read = |d: &Path| -> Vec<_> {
        shard_bytes(d)
            .iter()
            .flat_map(|(_, bytes)| {
                PsvReader::new(bytes.as_slice(), ErrorPolicy::Stop)
                    .map(Result::unwrap)
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let (searched, labelled) = (read(&a), read(&b));
    assert_eq!(searched.len(), 250);
    assert_eq!(labelled.len(), 250);
    let mut differ = 0;
    for (s, l) in searched.iter().zip(&labelled) {
        let pos = l.position().unwrap();
        assert_eq!(s.position().unwrap(), pos);
        assert_eq!(s.best_move(&pos), l.best_move(&pos));
        assert_eq!(l.score as i32, Material.evaluate_once(&pos));
        differ += (s.score != l.score) as usize;
    }
    assert!(differ > 0, "search scores are not all static ones");
    for d in [a, b] {
        let _ = std::fs::remove_dir_all(d);
    }
}
