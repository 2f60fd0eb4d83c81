//! End to end: a tiny round-robin league of three Hayate configurations (material at depth 2,
//! KKPEE9 at byoyomi 20, material at byoyomi 20), killed part-way (its results file torn in the
//! middle of a line), resumed to the end, rated, and reported.
//!
//! The engine is the `hayate` binary (`cargo test --workspace` builds it; alone, build it with
//! `cargo build --release -p hayate`, or point `HAYATE_BIN` at any build). Without it the test
//! says so and passes without playing.

use std::path::PathBuf;

use hayate_arena::{EngineConfig, League, TimeControl, Timeouts, report, run};

/// The `hayate` binary: `HAYATE_BIN`, else the one beside this test's own target folder (so
/// `cargo test --workspace`, which builds it, finds it in any target dir), else target-arena.
fn engine_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HAYATE_BIN") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    // This test runs from <target>/<profile>/deps/; the binary is <target>/<profile>/hayate.
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("hayate")));
    let fallback = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../target-arena/release/hayate"
    ));
    beside.into_iter().chain([fallback]).find(|p| p.is_file())
}

#[test]
fn three_hayate_configurations_league_resumes_rates_and_reports() {
    let Some(bin) = engine_path() else {
        eprintln!(
            "SKIPPED: no hayate binary (set HAYATE_BIN, or build it with \
             CARGO_TARGET_DIR=/work/main/target-arena cargo build --release -p hayate)"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("hayate-arena-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut depth2 = EngineConfig::new("material-d2", &bin)
        .option("EvalType", "material")
        .option("USI_Hash", "16");
    depth2.go_extra = "depth 2".to_string();
    let kkpee9 = EngineConfig::new("kkpee9-b20", &bin).option("USI_Hash", "16");
    let mut mat20 = EngineConfig::new("material-b20", &bin)
        .option("EvalType", "material")
        .option("USI_Hash", "16");
    mat20.time_control = Some(TimeControl::byoyomi(20));
    let mut l = League::new(vec![depth2, kkpee9, mat20], dir.join("out"));
    l.time_control = TimeControl::byoyomi(20);
    l.games_per_pair = 4;
    l.concurrency = 2;
    l.rules.max_plies = 24;
    // Generous, so a loaded machine does not turn a slow reply into a time loss.
    l.rules.margin_ms = 1000;
    l.timeouts = Timeouts {
        stop_grace_ms: 2000,
        ..Timeouts::default()
    };
    l.openings =
        hayate_arena::parse_openings("startpos moves 7g7f 3c3d\nstartpos moves 2g2f 8c8d\n")
            .unwrap();

    // First run: stopped after 5 games, as if killed.
    l.max_new_games = Some(5);
    let t0 = std::time::Instant::now();
    let first = run(&l).unwrap();
    eprintln!("first run: {:?}", t0.elapsed());
    assert_eq!((first.resumed, first.played), (0, 5));
    // The kill tore the next line in half.
    let results = l.results_path();
    let mut raw = std::fs::read(&results).unwrap();
    raw.extend_from_slice(br#"{"id":5,"black":"material-d2","white":"#);
    std::fs::write(&results, raw).unwrap();

    l.max_new_games = None;
    let t0 = std::time::Instant::now();
    let second = run(&l).unwrap();
    eprintln!("second run: {:?}", t0.elapsed());
    assert_eq!((second.resumed, second.played), (5, 7));
    let s = &second.summary;
    let mut ids: Vec<u64> = s.games.iter().map(|g| g.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..12).collect::<Vec<_>>());
    for i in 0..3 {
        assert_eq!(s.crosstable.total(i).games(), 8);
    }
    // No engine lost on time, crashed or hung on these limits.
    for g in &s.games {
        assert!(
            !matches!(
                g.reason,
                hayate_arena::EndReason::TimeLoss
                    | hayate_arena::EndReason::Crash
                    | hayate_arena::EndReason::Hang
                    | hayate_arena::EndReason::IllegalMove
            ),
            "{g:?}"
        );
        assert!(g.plies >= 2 && g.plies <= 24, "{g:?}");
        let text = std::fs::read_to_string(l.out_dir.join(&g.record)).unwrap();
        let rec = hayate_records::game::csa::parse_csa(&text).unwrap();
        assert_eq!(rec.moves.len(), g.plies);
    }
    let mean: f64 = s.ratings.elo.iter().sum::<f64>() / 3.0;
    assert!(mean.abs() < 1e-6);
    assert!(s.ratings.std_err.iter().all(|e| e.is_finite() && *e > 0.0));

    // A third run has nothing left to do.
    let third = run(&l).unwrap();
    assert_eq!((third.resumed, third.played), (12, 0));

    let page = report::html(s, "tiny league", "out/");
    let report_path = dir.join("report.html");
    std::fs::write(&report_path, &page).unwrap();
    assert!(page.contains("material-d2") && page.contains("kkpee9-b20"));
    assert_eq!(page.matches("<a href=\"out/games/").count(), 12);
    eprintln!("{}", s.text());
    if std::env::var_os("ARENA_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
