//! The formats a conversion reads and writes, by name or file extension, and which converts to
//! which.

use crate::{DataFormat, GameFormat, TextEncoding};
use std::path::Path;

/// A file format of either kind: game records or training data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// Game records (CSA, KIF, KI2, JKF, USI lines) in an encoding.
    Game(GameFormat, TextEncoding),
    /// dlshogi hcpe: a position, its best move, eval and result.
    Hcpe,
    /// dlshogi hcpe3: whole games with candidate visits.
    Hcpe3,
    /// PackedSfen and value (`.psv`, `.bin`).
    Psv,
    /// dlshogi hcp: a position only.
    Hcp,
}

impl From<DataFormat> for FileFormat {
    fn from(f: DataFormat) -> FileFormat {
        match f {
            DataFormat::Psv => FileFormat::Psv,
            DataFormat::Hcpe => FileFormat::Hcpe,
            DataFormat::Hcpe3 => FileFormat::Hcpe3,
            DataFormat::Hcp => FileFormat::Hcp,
        }
    }
}

impl FileFormat {
    /// The format of a name or extension (`csa`, `kif`, `kifu`, `ki2`, `ki2u`, `jkf`, `json`,
    /// `sfen`, `usi`, `hcpe`, `hcpe3`, `psv`, `bin`, `hcp`; case-insensitive).
    pub fn from_name(name: &str) -> Option<FileFormat> {
        if let Some((f, e)) = GameFormat::from_name(name) {
            return Some(FileFormat::Game(f, e));
        }
        DataFormat::from_name(name).map(FileFormat::from)
    }

    /// The format of a path by its extension.
    pub fn of_path(p: &Path) -> Option<FileFormat> {
        FileFormat::from_name(p.extension()?.to_str()?)
    }

    /// Whether items of this format convert to `out`: games come only from games, moves only
    /// from formats that have them, and every format has positions.
    pub fn converts_to(self, out: FileFormat) -> bool {
        match out {
            FileFormat::Game(..) | FileFormat::Hcpe3 => self.holds_games(),
            FileFormat::Hcpe | FileFormat::Psv => self != FileFormat::Hcp,
            FileFormat::Hcp => true,
        }
    }

    /// Whether the format holds whole games.
    pub fn holds_games(self) -> bool {
        matches!(self, FileFormat::Game(..) | FileFormat::Hcpe3)
    }

    /// Whether the output holds positions only (so every input position is one output item).
    pub fn holds_positions_only(self) -> bool {
        self == FileFormat::Hcp
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            FileFormat::Game(GameFormat::Csa, _) => "csa",
            FileFormat::Game(GameFormat::Kif, TextEncoding::ShiftJis) => "kif",
            FileFormat::Game(GameFormat::Kif, TextEncoding::Utf8) => "kifu",
            FileFormat::Game(GameFormat::Ki2, TextEncoding::ShiftJis) => "ki2",
            FileFormat::Game(GameFormat::Ki2, TextEncoding::Utf8) => "ki2u",
            FileFormat::Game(GameFormat::Jkf, _) => "jkf",
            FileFormat::Game(GameFormat::Usi, _) => "sfen",
            FileFormat::Hcpe => DataFormat::Hcpe.name(),
            FileFormat::Hcpe3 => DataFormat::Hcpe3.name(),
            FileFormat::Psv => DataFormat::Psv.name(),
            FileFormat::Hcp => DataFormat::Hcp.name(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_extensions_and_what_converts_to_what() {
        let all = [
            "csa", "kif", "kifu", "ki2", "ki2u", "jkf", "sfen", "hcpe", "hcpe3", "psv", "hcp",
        ];
        for n in all {
            let f = FileFormat::from_name(n).unwrap();
            assert_eq!(f.extension(), n);
            assert_eq!(FileFormat::of_path(Path::new(&format!("a/b.{n}"))), Some(f));
        }
        assert_eq!(FileFormat::from_name("BIN"), Some(FileFormat::Psv));
        assert_eq!(FileFormat::from_name("txt"), None);
        let csa = FileFormat::from_name("csa").unwrap();
        assert!(csa.converts_to(FileFormat::Hcpe3) && csa.converts_to(FileFormat::Hcp));
        assert!(
            FileFormat::Hcpe3.converts_to(csa) && FileFormat::Hcpe3.converts_to(FileFormat::Hcp)
        );
        assert!(
            !FileFormat::Hcpe.converts_to(csa) && !FileFormat::Psv.converts_to(FileFormat::Hcpe3)
        );
        assert!(
            !FileFormat::Hcp.converts_to(FileFormat::Hcpe) && !FileFormat::Hcp.converts_to(csa)
        );
        assert!(
            FileFormat::Hcp.converts_to(FileFormat::Hcp)
                && FileFormat::Psv.converts_to(FileFormat::Hcpe)
        );
    }
}
