//! The dlshogi feature dump, one JSON line per position, in the format of
//! `data/dl/dlshogi-features.jsonl`: `{"sfen":…,"f1":[…],"f2":[…],"labels":{"7g7f":59,…}}` where
//! `f1` lists the non-zero cells `ch * 81 + sq` of `input1` ascending, `f2` the set planes of
//! `input2` ascending, and `labels` maps the USI text of every legal move to its label.
//!
//! `labels` lists the moves in Hayate's generation order, which is not the reference's
//! (cshogi's); compare the objects as maps (for example `jq -S`), not as text.

use crate::features::DlshogiFeatures;
use crate::labels::move_label;
use hayate_core::Position;
use std::fmt::Write;

/// The JSON line (without the newline) for `pos`; `sfen` is echoed as given.
pub fn features_json_line(sfen: &str, pos: &Position, nyugyoku: bool) -> String {
    let f = DlshogiFeatures::new(pos, nyugyoku);
    let mut s = String::with_capacity(8192);
    s.push_str("{\"sfen\":");
    push_json_string(&mut s, sfen);
    s.push_str(",\"f1\":[");
    push_list(&mut s, f.input1_nonzero());
    s.push_str("],\"f2\":[");
    push_list(&mut s, f.input2_set());
    s.push_str("],\"labels\":{");
    let us = pos.side_to_move();
    for (i, m) in pos.legal_moves().iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        // USI move text is plain ASCII: no escaping needed.
        let _ = write!(s, "\"{}\":{}", m.to_usi(), move_label(*m, us));
    }
    s.push_str("}}");
    s
}

fn push_list(s: &mut String, items: impl Iterator<Item = usize>) {
    for (i, v) in items.enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{v}");
    }
}

fn push_json_string(s: &mut String, text: &str) {
    s.push('"');
    for ch in text.chars() {
        match ch {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
}
