//! Training-data formats against cshogi-made fixtures (see tests/data/make_fixtures.py).

use hayate_core::Position;
use hayate_records::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DATA}{name}")).expect("fixture present")
}

fn text(name: &str) -> String {
    String::from_utf8(read(name)).expect("fixture is UTF-8")
}

fn hex(s: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex");
    }
    out
}

/// The SFEN without its move number.
fn board_part(sfen: &str) -> String {
    sfen.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn startpos_hcp_matches_the_dlshogi_test_vector() {
    let expected = [
        88, 164, 73, 33, 12, 215, 87, 33, 126, 142, 77, 33, 44, 175, 66, 120, 20, 194, 171, 16,
        158, 77, 33, 44, 215, 95, 33, 62, 142, 73, 33, 12,
    ];
    let hcp = Hcp::from_position(&Position::startpos()).expect("packs");
    assert_eq!(hcp.0, expected);
    let pos = Position::startpos();
    let m = pos.parse_usi_move("7g7f").expect("legal");
    assert_eq!(AperyMove16::from_move(m).0, 7739);
}

#[test]
fn positions_and_moves_match_cshogi() {
    let mut n = 0;
    for line in text("positions.tsv").lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let pos = Position::from_sfen(f[0]).expect("fixture SFEN");
        let hcp = Hcp::from_position(&pos).expect("packs");
        assert_eq!(hcp.0, hex(f[1]), "hcp of {}", f[0]);
        let ps = PackedSfen::from_position(&pos).expect("packs");
        assert_eq!(ps.0, hex(f[2]), "psfen of {}", f[0]);
        let back = hcp
            .decode()
            .expect("decodes")
            .to_position(1)
            .expect("valid");
        assert_eq!(board_part(&back.to_sfen()), board_part(f[0]));
        let back = ps.decode().expect("decodes").to_position(7).expect("valid");
        assert_eq!(board_part(&back.to_sfen()), board_part(f[0]));
        let m = pos.parse_usi_move(f[3]).expect("legal move");
        let apery: u16 = f[4].parse().expect("number");
        let psv: u16 = f[5].parse().expect("number");
        assert_eq!(AperyMove16::from_move(m).0, apery, "{}", f[3]);
        assert_eq!(PsvMove16::from_move(m).0, psv, "{}", f[3]);
        assert_eq!(AperyMove16(apery).to_move(&pos), Some(m));
        assert_eq!(PsvMove16(psv).to_move(&pos), Some(m));
        assert_eq!(PsvMove16(psv).to_apery(), AperyMove16(apery));
        n += 1;
    }
    assert_eq!(n, 1000);
}

#[test]
fn hcpe_fixture_reads_and_rewrites_exactly() {
    let bytes = read("sample.hcpe");
    let expected = text("sample.hcpe.tsv");
    let recs: Vec<Hcpe> = HcpeReader::new(&bytes[..], ErrorPolicy::Stop)
        .collect::<Result<_, _>>()
        .expect("reads");
    assert_eq!(recs.len(), 200);
    let mut w = RecordWriter::new(Vec::new());
    for (rec, line) in recs.iter().zip(expected.lines()) {
        let f: Vec<&str> = line.split('\t').collect();
        let pos = rec.position().expect("valid");
        assert_eq!(board_part(&pos.to_sfen()), board_part(f[0]));
        assert_eq!(rec.eval.to_string(), f[1]);
        assert_eq!(
            rec.best_move(&pos).map(|m| m.to_usi()).as_deref(),
            Some(f[2])
        );
        assert_eq!((rec.game_result() as u8).to_string(), f[3]);
        w.write(rec).expect("writes");
    }
    assert_eq!(w.finish().expect("flushes"), bytes);
}

#[test]
fn psv_fixture_reads_and_rewrites_exactly() {
    let bytes = read("sample.psv");
    let expected = text("sample.psv.tsv");
    let recs: Vec<Psv> = PsvReader::new(&bytes[..], ErrorPolicy::Stop)
        .collect::<Result<_, _>>()
        .expect("reads");
    assert_eq!(recs.len(), 200);
    let mut w = RecordWriter::new(Vec::new());
    for (rec, line) in recs.iter().zip(expected.lines()) {
        let f: Vec<&str> = line.split('\t').collect();
        let pos = rec.position().expect("valid");
        assert_eq!(pos.to_sfen(), f[0]);
        assert_eq!(rec.score.to_string(), f[1]);
        assert_eq!(
            rec.best_move(&pos).map(|m| m.to_usi()).as_deref(),
            Some(f[2])
        );
        assert_eq!(rec.game_ply.to_string(), f[3]);
        assert_eq!(rec.game_result.to_string(), f[4]);
        w.write(rec).expect("writes");
    }
    assert_eq!(w.finish().expect("flushes"), bytes);
}

#[test]
fn hcpe3_fixture_reads_replays_and_rewrites_exactly() {
    let bytes = read("sample.hcpe3");
    let expected = text("sample.hcpe3.txt");
    let games: Vec<Hcpe3Game> = Hcpe3Reader::new(&bytes[..], ErrorPolicy::Stop)
        .collect::<Result<_, _>>()
        .expect("reads");
    assert_eq!(games.len(), 4);
    // Render what the reader saw in the fixture's text form.
    let mut got = String::new();
    for g in &games {
        let start = g
            .start
            .decode()
            .expect("hcp")
            .to_position(1)
            .expect("valid");
        got += &format!(
            "game {} {} {} {}\n",
            start.to_sfen(),
            g.moves.len(),
            g.result,
            g.opponent
        );
        g.replay(|pos, info, mv| {
            got += &format!("move {} {}", mv.to_usi(), info.eval);
            for c in &info.candidates {
                let cm = c.move16.to_move(pos).expect("candidate legal");
                got += &format!(" {}:{}", cm.to_usi(), c.visits);
            }
            got += "\n";
        })
        .expect("replays");
    }
    assert_eq!(got, expected);
    let mut w = RecordWriter::new(Vec::new());
    for g in &games {
        w.write(g).expect("writes");
    }
    assert_eq!(w.finish().expect("flushes"), bytes);
}

#[test]
fn truncated_hcpe_reports_the_offset_after_the_whole_records() {
    let bytes = read("sample.hcpe");
    let cut = &bytes[..38 * 5 + 10];
    let mut r = HcpeReader::new(cut, ErrorPolicy::Skip);
    for _ in 0..5 {
        assert!(r.next().expect("record").is_ok());
    }
    let err = r.next().expect("an error").expect_err("truncated");
    assert_eq!(err.offset, 190);
    assert!(matches!(
        err.kind,
        RecordErrorKind::Truncated { got: 10, need: 38 }
    ));
    assert!(r.next().is_none());
}

#[test]
fn corrupt_hcpe_is_skipped_or_stops_as_asked() {
    let mut bytes = read("sample.hcpe")[..38 * 6].to_vec();
    bytes[38 * 2 + 36] = 3; // result 3 does not exist
    bytes[38 * 4..38 * 4 + 32].fill(0xff); // king squares out of range
    let mut r = HcpeReader::new(&bytes[..], ErrorPolicy::Skip);
    let ok = r.by_ref().filter(|x| x.is_ok()).count();
    assert_eq!(ok, 4);
    assert_eq!(r.rejected(), 2);
    let offsets: Vec<u64> = r.rejected_errors().iter().map(|e| e.offset).collect();
    assert_eq!(offsets, [76, 152]);

    let mut r = HcpeReader::new(&bytes[..], ErrorPolicy::Stop);
    assert!(r.next().expect("first").is_ok());
    assert!(r.next().expect("second").is_ok());
    let err = r.next().expect("third").expect_err("bad result");
    assert_eq!(err.offset, 76);
    assert!(matches!(err.kind, RecordErrorKind::BadResult(3)));
    assert!(r.next().is_none());
}

#[test]
fn hcpe3_framing_errors_end_the_stream() {
    let bytes = read("sample.hcpe3");
    let cut = &bytes[..bytes.len() - 3];
    let results: Vec<_> = Hcpe3Reader::new(cut, ErrorPolicy::Skip).collect();
    assert_eq!(results.len(), 4);
    assert!(results[..3].iter().all(|r| r.is_ok()));
    let last_start: usize = bytes.len() - 3 - {
        // The size of the fourth game: everything after the first three.
        let games: Vec<Hcpe3Game> = Hcpe3Reader::new(&bytes[..], ErrorPolicy::Stop)
            .collect::<Result<_, _>>()
            .expect("reads");
        games[3].byte_len() - 3
    };
    match &results[3] {
        Err(RecordError {
            offset,
            kind: RecordErrorKind::Truncated { got, need },
        }) => {
            assert_eq!(*offset as usize, last_start);
            assert_eq!(*got, bytes.len() - 3 - last_start);
            assert!(*need > *got);
        }
        other => panic!("{other:?}"),
    }

    let mut bad = bytes.clone();
    bad[32] = 0xff;
    bad[33] = 0xff;
    let mut r = Hcpe3Reader::new(&bad[..], ErrorPolicy::Skip);
    let err = r.next().expect("error").expect_err("too many moves");
    assert_eq!(err.offset, 0);
    assert!(matches!(err.kind, RecordErrorKind::TooManyMoves(0xffff)));
    assert!(r.next().is_none());
}

#[test]
fn hcpe3_bad_opponent_is_skipped_under_skip() {
    let bytes = read("sample.hcpe3");
    let mut bad = bytes.clone();
    bad[35] = 7;
    let mut r = Hcpe3Reader::new(&bad[..], ErrorPolicy::Skip);
    assert_eq!(r.by_ref().filter(|g| g.is_ok()).count(), 3);
    assert_eq!(r.rejected(), 1);
    let mut r = Hcpe3Reader::new(&bad[..], ErrorPolicy::Stop);
    assert!(matches!(
        r.next().map(|x| x.map_err(|e| e.kind)),
        Some(Err(RecordErrorKind::BadOpponent(7)))
    ));
}

#[test]
fn packing_needs_a_full_set() {
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").expect("valid");
    assert_eq!(Hcp::from_position(&pos), Err(PackedError::NotFullSet));
    assert_eq!(
        PackedSfen::from_position(&pos),
        Err(PackedError::NotFullSet)
    );
}

#[test]
fn apery_special_codes_are_no_moves() {
    for v in [0u16, 129, (2 << 7) + 2, (3 << 7) + 3] {
        assert!(AperyMove16(v).to_move16().is_none(), "{v}");
    }
}

/// Records every `write` call's length.
struct Recorder(Vec<usize>, Vec<u8>);

impl std::io::Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.push(buf.len());
        self.1.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn writer_hands_over_whole_records_only() {
    let bytes = read("sample.hcpe");
    let recs: Vec<Hcpe> = HcpeReader::new(&bytes[..], ErrorPolicy::Stop)
        .collect::<Result<_, _>>()
        .expect("reads");
    // 40,000 records = 1.52 MB: more than the 1 MiB buffer, so it flushes on the way.
    let mut w = RecordWriter::new(Recorder(Vec::new(), Vec::new()));
    for i in 0..40_000 {
        w.write(&recs[i % recs.len()]).expect("writes");
    }
    let rec = w.finish().expect("flushes");
    assert!(rec.0.len() >= 2, "{:?}", rec.0);
    assert!(rec.0.iter().all(|n| n % Hcpe::SIZE == 0), "{:?}", rec.0);
    assert_eq!(rec.1.len(), 40_000 * Hcpe::SIZE);
}
