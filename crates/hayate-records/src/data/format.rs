//! The training-data formats, one name for each everywhere (the command line, self-play shards,
//! both trainers, the dataset tools), and the one rule that tells a file's format.

use std::path::Path;

/// A training-data format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataFormat {
    /// YaneuraOu's PackedSfenValue, 40 bytes: score and result from the side to move.
    Psv,
    /// dlshogi's hcpe, 38 bytes: score from the side to move, result by colour.
    Hcpe,
    /// dlshogi's hcpe3: one variable-length record per game, with the searched candidates.
    Hcpe3,
    /// dlshogi's hcp, 32 bytes: a position only.
    Hcp,
}

impl DataFormat {
    /// Every format.
    pub const ALL: [DataFormat; 4] = [
        DataFormat::Psv,
        DataFormat::Hcpe,
        DataFormat::Hcpe3,
        DataFormat::Hcp,
    ];

    /// The name (and usual extension): `psv`, `hcpe`, `hcpe3`, `hcp`.
    pub fn name(self) -> &'static str {
        match self {
            DataFormat::Psv => "psv",
            DataFormat::Hcpe => "hcpe",
            DataFormat::Hcpe3 => "hcpe3",
            DataFormat::Hcp => "hcp",
        }
    }

    /// The format of a name or extension (case-insensitive; `bin` is psv, as YaneuraOu names
    /// its files).
    pub fn from_name(name: &str) -> Option<DataFormat> {
        let name = name.to_ascii_lowercase();
        if name == "bin" {
            return Some(DataFormat::Psv);
        }
        DataFormat::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Bytes per record, for the fixed-size formats.
    pub fn record_size(self) -> Option<u64> {
        match self {
            DataFormat::Psv => Some(40),
            DataFormat::Hcpe => Some(38),
            DataFormat::Hcp => Some(32),
            DataFormat::Hcpe3 => None,
        }
    }

    /// The format of `path`: its extension when it names one; otherwise its length: psv or
    /// hcpe when exactly one of 40 and 38 bytes divides it, hcpe3 when neither does. (An hcpe3
    /// file whose length happens to be a multiple of 38 or 40 is taken for the other format:
    /// self-play names its shards `.hcpe3`.) hcp is known by its extension only.
    ///
    /// # Errors
    /// The file cannot be inspected, or its length fits both psv and hcpe (a message that
    /// asks for the format).
    pub fn detect(path: &Path) -> Result<DataFormat, String> {
        if let Some(f) = path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(DataFormat::from_name)
        {
            return Ok(f);
        }
        let len = std::fs::metadata(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .len();
        match (len % 40 == 0, len % 38 == 0) {
            (true, false) => Ok(DataFormat::Psv),
            (false, true) => Ok(DataFormat::Hcpe),
            (false, false) => Ok(DataFormat::Hcpe3),
            (true, true) => Err(format!(
                "{}: {len} bytes could be psv or hcpe records; give the format",
                path.display()
            )),
        }
    }
}

impl std::fmt::Display for DataFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for DataFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<DataFormat, String> {
        DataFormat::from_name(s)
            .ok_or_else(|| format!("unknown data format {s:?} (psv, hcpe, hcpe3 or hcp)"))
    }
}

#[cfg(test)]
mod tests {
    use super::DataFormat;

    #[test]
    fn names_and_the_detection_rule() {
        for f in DataFormat::ALL {
            assert_eq!(f.name().parse::<DataFormat>(), Ok(f));
            assert_eq!(f.to_string(), f.name());
        }
        assert_eq!("BIN".parse::<DataFormat>(), Ok(DataFormat::Psv));
        assert!("csa".parse::<DataFormat>().is_err());
        let dir = std::env::temp_dir().join(format!("hayate-format-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = |name: &str, len: usize| {
            let p = dir.join(name);
            std::fs::write(&p, vec![0u8; len]).expect("write");
            p
        };
        let by_len = |len| DataFormat::detect(&file("data", len));
        assert_eq!(by_len(400), Ok(DataFormat::Psv));
        assert_eq!(by_len(380), Ok(DataFormat::Hcpe));
        assert_eq!(by_len(381), Ok(DataFormat::Hcpe3));
        assert!(by_len(760).is_err());
        // The extension decides whatever the length.
        assert_eq!(
            DataFormat::detect(&file("a.hcpe3", 380)),
            Ok(DataFormat::Hcpe3)
        );
        assert_eq!(DataFormat::detect(&file("a.bin", 380)), Ok(DataFormat::Psv));
        assert_eq!(DataFormat::detect(&file("a.hcp", 64)), Ok(DataFormat::Hcp));
        assert!(DataFormat::detect(&dir.join("missing")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
