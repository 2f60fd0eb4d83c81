//! Search speed: playouts per second of the whole search on the network benches' positions
//! (`hayate_infer::throughput` measures the network alone).

use crate::player::MctsPlayer;
use hayate_core::Position;
use hayate_core::player::{Limits, Player, Signals};
use hayate_infer::throughput::{BENCH_SFENS, bench_positions};
use std::time::Duration;

/// Search speed: the player searches each bench position for `playouts` playouts from a fresh
/// tree and an empty NN cache (transpositions within one search still hit it); returns (total
/// playouts, total time). One untimed search first lets the backend make its plans (tract
/// compiles one per batch size on first use).
pub fn search_speed(player: &mut MctsPlayer, playouts: u64) -> (u64, Duration) {
    let limits = Limits {
        nodes: Some(playouts),
        ..Limits::default()
    };
    if let Ok(pos) = Position::from_sfen(BENCH_SFENS[3]) {
        player.think(&pos, &limits, &Signals::new(), &mut |_| {});
    }
    let mut total = 0;
    let mut time = Duration::ZERO;
    for pos in bench_positions() {
        player.new_game();
        player.clear_cache();
        player.think(&pos, &limits, &Signals::new(), &mut |_| {});
        let r = player.last_report();
        total += r.playouts;
        time += r.elapsed;
    }
    (total, time)
}
