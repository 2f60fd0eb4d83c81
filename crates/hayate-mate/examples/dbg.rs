use hayate_core::Position;
use hayate_mate::*;
use std::sync::atomic::AtomicBool;
fn main() {
    let s = std::env::args().nth(1).unwrap();
    let nodes: u64 = std::env::args().nth(2).map(|x| x.parse().unwrap()).unwrap_or(1_000_000);
    let pos = Position::from_sfen(&s).unwrap();
    let o = DfpnOptions { max_nodes: Some(nodes), defence: if std::env::var("STRICT").is_ok() { Defence::AllLegal } else { Defence::NoFutileDrops }, exact_line_plies: 0, ..Default::default() };
    let r = solve_with_report(&pos, &o, &AtomicBool::new(false));
    println!("{} nodes {} {:?}", r.result.to_usi(), r.nodes, r.elapsed);
}
