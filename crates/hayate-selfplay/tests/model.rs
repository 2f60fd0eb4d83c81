//! A followed net: a `current` symlink flipped by rename is picked up between games, a file
//! that does not load is skipped, and a run reloads the net once per change.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use hayate_core::Position;
use hayate_core::player::Limits;
use hayate_eval::Evaluator;
use hayate_eval::nnue::{RandomNetParams, random_net_bytes};
use hayate_selfplay::{
    Config, DataFormat, Engine, Evaluation, FollowedNnue, Label, RandomMoves, openings, run,
};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hayate-model-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("models")).unwrap();
    d
}

/// Writes a random net with `seed` as `models/<name>.bin`.
fn write_net(dir: &Path, name: &str, seed: u64) -> Vec<u8> {
    let bytes = random_net_bytes(&RandomNetParams {
        seed,
        ..RandomNetParams::default()
    });
    std::fs::write(dir.join("models").join(format!("{name}.bin")), &bytes).unwrap();
    bytes
}

/// Points `dir/current` at `models/<name>.bin` the way the publish script does: a new
/// symlink under a temporary name, renamed over the old one.
fn point_current(dir: &Path, name: &str) {
    let tmp = dir.join("current.tmp");
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(format!("models/{name}.bin"), &tmp).unwrap();
    std::fs::rename(&tmp, dir.join("current")).unwrap();
}

fn startpos_eval(net: &hayate_eval::Nnue) -> i32 {
    net.evaluate_once(&Position::startpos())
}

#[test]
fn a_flipped_current_pointer_is_loaded_and_a_bad_file_skipped() {
    let dir = temp_dir("flip");
    write_net(&dir, "a", 1);
    write_net(&dir, "b", 2);
    let mut broken = write_net(&dir, "c", 3);
    broken.truncate(broken.len() / 2);
    std::fs::write(dir.join("models/c.bin"), &broken).unwrap();
    point_current(&dir, "a");

    let f = FollowedNnue::open(dir.join("current"))
        .unwrap()
        .with_interval(Duration::ZERO);
    let (sa, na) = f.current();
    assert!(sa.target.ends_with("models/a.bin"), "{:?}", sa.target);
    assert_eq!(f.changes(), 0);
    // Asking again without a change keeps the same version.
    assert_eq!(f.current().0, sa);
    assert_eq!(f.changes(), 0);

    point_current(&dir, "b");
    let (sb, nb) = f.current();
    assert!(sb.target.ends_with("models/b.bin"), "{:?}", sb.target);
    assert_eq!(f.changes(), 1);
    assert_ne!(startpos_eval(&na), startpos_eval(&nb), "a different net");
    assert_eq!(
        startpos_eval(&nb),
        startpos_eval(&hayate_eval::Nnue::load(dir.join("models/b.bin")).unwrap())
    );

    // A file that does not load: the net held is kept, and the file is not read again.
    point_current(&dir, "c");
    let (sc, nc) = f.current();
    assert_eq!(sc, sb);
    assert_eq!(startpos_eval(&nc), startpos_eval(&nb));
    assert_eq!(f.changes(), 1);

    // A gone pointer keeps the net too; a good one is picked up again.
    std::fs::remove_file(dir.join("current")).unwrap();
    assert_eq!(f.current().0, sb);
    point_current(&dir, "a");
    assert_eq!(f.current().0, sa);
    assert_eq!(f.changes(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_file_is_looked_at_once_per_interval() {
    let dir = temp_dir("interval");
    write_net(&dir, "a", 1);
    write_net(&dir, "b", 2);
    point_current(&dir, "a");
    let f = FollowedNnue::open(dir.join("current"))
        .unwrap()
        .with_interval(Duration::from_secs(2));
    point_current(&dir, "b");
    // Within the interval: the net held, without looking.
    assert!(f.current().0.target.ends_with("models/a.bin"));
    std::thread::sleep(Duration::from_millis(2100));
    assert!(f.current().0.target.ends_with("models/b.bin"));
    assert_eq!(f.changes(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_picks_up_a_new_net_between_games() {
    let dir = temp_dir("run");
    write_net(&dir, "a", 1);
    write_net(&dir, "b", 2);
    point_current(&dir, "a");
    let cfg = Config {
        out_dir: dir.join("data"),
        engine: Engine::AlphaBeta(Evaluation::NnueFile(Arc::new(
            FollowedNnue::open(dir.join("current"))
                .unwrap()
                .with_interval(Duration::ZERO),
        ))),
        limits: Limits {
            depth: Some(1),
            ..Limits::default()
        },
        hash_mb: 1,
        openings: openings::parse_openings(openings::DEFAULT_OPENINGS).unwrap(),
        random: RandomMoves {
            count: 2,
            min_ply: 1,
            max_ply: 12,
        },
        eval_limit: 2000,
        max_plies: 40,
        positions: 60,
        shard_size: 60,
        threads: 1,
        seed: 4,
        format: DataFormat::Psv,
        label: Label::Search,
        worker: 0,
    };
    // Publish net b after the first game.
    let flipped = AtomicBool::new(false);
    let s = run(&cfg, &|_| {
        if !flipped.swap(true, Ordering::SeqCst) {
            point_current(&dir, "b");
        }
    })
    .unwrap();
    assert!(s.games >= 2, "more than one game: {s:?}");
    assert_eq!((s.positions, s.shards_written, s.net_changes), (60, 1, 1));
    assert_eq!(
        std::fs::metadata(dir.join("data/shard-000000.psv"))
            .unwrap()
            .len(),
        60 * 40
    );
    let _ = std::fs::remove_dir_all(&dir);
}
