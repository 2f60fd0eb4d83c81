//! MCTS self-play with a real (tiny) ONNX network: hcpe3 shards that dlshogi's layout reads
//! back as legal games with visit counts, one sidecar line per game that agrees with its record,
//! network calls shared by the games, and a resume that leaves whole shards alone.

use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hayate_core::player::Limits;
use hayate_infer::BackendKind;
use hayate_mcts::noise::RootNoise;
use hayate_records::{ErrorPolicy, GameResult, Hcpe3Reader};
use hayate_selfplay::mcts::{GameMeta, sidecar_path};
use hayate_selfplay::{
    Config, DataFormat, Engine, Evaluation, Label, MctsConfig, RandomMoves, openings, run,
};

const PLAYOUTS: u64 = 24;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hayate-mcts-sp-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn config(out: &Path) -> Config {
    let model = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hayate-mcts/tests/data/tiny_resnet.onnx")
        .display()
        .to_string();
    Config {
        out_dir: out.to_path_buf(),
        engine: Engine::Mcts(Box::new(MctsConfig {
            model,
            backend: BackendKind::Tract,
            dnn_threads: 1,
            playouts: PLAYOUTS,
            batch_per_game: 4,
            max_batch: 16,
            max_wait: Duration::from_millis(2),
            noise: RootNoise {
                alpha: 0.15,
                epsilon: 0.25,
            },
            sample_plies: 10,
            temperature: 1.0,
            resign: 0.05,
            no_resign_share: 0.5,
            draw_control: 0.02,
            max_plies: (30, 50),
            root_mate: false,
            leaf_mate_depth: 5,
        })),
        limits: Limits::default(),
        hash_mb: 1,
        openings: openings::parse_openings(openings::DEFAULT_OPENINGS).unwrap(),
        random: RandomMoves {
            count: 0,
            min_ply: 1,
            max_ply: 1,
        },
        eval_limit: 0,
        max_plies: 50,
        positions: 80,
        shard_size: 20,
        threads: 4,
        seed: 3,
        format: DataFormat::Hcpe3,
        label: Label::Search,
        worker: 0,
    }
}

#[test]
fn mcts_shards_are_legal_games_with_visits_and_sidecars() {
    let dir = temp_dir("shards");
    let cfg = config(&dir);
    let s = run(&cfg, &|_| {}).expect("self-play runs");
    assert_eq!(s.shards_written, 4);
    assert!(s.positions >= 80, "{} positions", s.positions);
    let [calls, evaluated] = s.nn_calls;
    assert!(
        calls > 0 && evaluated > calls,
        "batches: {calls} calls, {evaluated} positions"
    );

    let mut games_read = 0;
    for i in 0..4 {
        let path = dir.join(format!("shard-{i:06}.hcpe3"));
        let file = std::fs::File::open(&path).expect("shard");
        let games: Vec<_> = Hcpe3Reader::new(BufReader::new(file), ErrorPolicy::Stop)
            .collect::<Result<_, _>>()
            .expect("readable hcpe3");
        let text = std::fs::read_to_string(sidecar_path(&dir, i)).expect("sidecar");
        let metas: Vec<GameMeta> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("a game line"))
            .collect();
        assert_eq!(games.len(), metas.len(), "one sidecar line per game");
        let mut positions = 0;
        for (g, m) in games.iter().zip(&metas) {
            assert!((30..=50).contains(&m.max_plies), "{m:?}");
            assert!(m.plies <= m.max_plies, "{m:?}");
            assert_eq!(g.moves.len(), m.plies);
            let result = match g.game_result() {
                GameResult::BlackWin => "black",
                GameResult::WhiteWin => "white",
                GameResult::Draw => "draw",
            };
            assert_eq!(result, m.result.name());
            let (mut searched, mut visits) = (0, 0u64);
            g.replay(|pos, mv, _| {
                if mv.candidates.is_empty() {
                    return;
                }
                searched += 1;
                // The playouts of this search plus those kept from the last (tree reuse).
                let total: u32 = mv.candidates.iter().map(|c| u32::from(c.visits)).sum();
                assert!(total >= 1, "no visits at {}", pos.to_sfen());
                visits += u64::from(total);
                assert!(mv.candidates.iter().all(|c| c.visits > 0));
                assert!(
                    mv.candidates.iter().any(|c| c.move16 == mv.move16),
                    "the move played was searched: {:?} not in {:?} at {}",
                    mv.move16,
                    mv.candidates,
                    pos.to_sfen()
                );
            })
            .expect("legal game");
            assert!(searched > 0);
            positions += searched;
            // A search stops early only when its root is proven.
            assert!(
                visits >= searched as u64 * PLAYOUTS * 9 / 10,
                "{visits} visits in {searched} searches"
            );
        }
        assert!(positions >= 20, "shard {i}: {positions} positions");
        games_read += games.len();
    }
    assert_eq!(games_read as u64, s.games);

    // A second run finds every shard and writes nothing; a shard's temporary file from a
    // killed run is rewritten.
    let again = run(&cfg, &|_| {}).expect("resume");
    assert_eq!((again.shards_written, again.shards_present), (0, 4));
    std::fs::remove_file(dir.join("shard-000002.hcpe3")).unwrap();
    std::fs::write(dir.join("shard-000002.hcpe3.tmp"), b"torn").unwrap();
    let third = run(&cfg, &|_| {}).expect("resume");
    assert_eq!((third.shards_written, third.shards_present), (1, 3));
    assert!(!dir.join("shard-000002.hcpe3.tmp").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_mcts_player_needs_hcpe3_and_a_model() {
    let dir = temp_dir("errors");
    let mut cfg = config(&dir);
    cfg.format = DataFormat::Psv;
    assert!(run(&cfg, &|_| {}).is_err(), "psv has no visit counts");
    let mut cfg = config(&dir);
    if let Engine::Mcts(m) = &mut cfg.engine {
        m.model = dir.join("missing.onnx").display().to_string();
    }
    let e = run(&cfg, &|_| {}).expect_err("a missing model is an error");
    assert!(e.to_string().contains("missing.onnx"), "{e}");
    // The αβ players write hcpe3 too: one candidate per searched position.
    let mut cfg = config(&dir);
    cfg.engine = Engine::AlphaBeta(Evaluation::Material);
    cfg.limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let s = run(&cfg, &|_| {}).expect("αβ hcpe3");
    assert!(s.positions >= 80);
    let _ = std::fs::remove_dir_all(&dir);
}
