//! `hayate bench --option`: a tuning constant given on the command line reaches the search
//! (another tree), its default gives the bench's own tree, and a wrong option is refused with
//! the reason.

use std::process::{Command, Output};

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");

fn bench(options: &[&str]) -> Output {
    let mut c = Command::new(HAYATE);
    c.args(["bench", "--depth", "5", "--evaluator", "material"]);
    for o in options {
        c.args(["--option", o]);
    }
    c.output().expect("hayate runs")
}

/// The node total of the last line, `nodes N nps X`.
fn nodes(out: &Output) -> u64 {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().expect("output");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words[0], "nodes", "{last}");
    words[1].parse().expect("a node count")
}

#[test]
fn a_tuning_option_changes_the_tree_and_its_default_does_not() {
    let plain = nodes(&bench(&[]));
    assert!(plain > 1000);
    let default = hayate_search::params::SearchParams::default().lmr_div;
    assert_eq!(nodes(&bench(&[&format!("Tune_lmr_div={default}")])), plain);
    assert_ne!(nodes(&bench(&["Tune_lmr_div=120"])), plain);
    // Two at once, spaces around the `=` allowed.
    assert_ne!(
        nodes(&bench(&["Tune_lmr_div = 120", "Tune_rfp_margin=60"])),
        nodes(&bench(&["Tune_lmr_div=120"]))
    );
}

#[test]
fn a_wrong_option_is_refused_with_its_reason() {
    for (opt, says) in [
        ("Tune_no_such_constant=1", "Tune_no_such_constant"),
        ("Tune_lmr_div=100000", "Tune_lmr_div"),
        ("Tune_lmr_div", "NAME=VALUE"),
    ] {
        let out = bench(&[opt]);
        assert!(!out.status.success(), "{opt} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{opt}: {err}");
        assert!(out.stdout.is_empty(), "{opt}: searched anyway");
    }
}
