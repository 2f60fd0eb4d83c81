//! What several test files read: the shared perft reference.

/// `shared/data/perft/perft.json`, parsed: case name → `{ "sfen": …, "depths": { d: count } }`.
pub fn perft_json() -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/perft/perft.json"
    );
    let text =
        std::fs::read_to_string(path).expect("shared/data/perft/perft.json beside the checkout");
    serde_json::from_str(&text).expect("valid JSON")
}
