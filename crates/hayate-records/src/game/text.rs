//! Text encodings of record files: UTF-8 or Shift_JIS (cp932).

/// Which encoding to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    /// UTF-8 (`.kifu`, `.ki2u`, CSA V3.0 with `'CSA encoding=UTF-8`).
    Utf8,
    /// Shift_JIS / Windows-31J (`.kif`, `.ki2`, CSA files without an encoding line).
    ShiftJis,
}

/// Decodes record bytes: UTF-8 (BOM stripped) when valid, else Shift_JIS (cp932). The formats
/// allow both and files rarely say which; valid Japanese Shift_JIS text is almost never valid
/// UTF-8, so trying UTF-8 first is safe.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(&[0xef, 0xbb, 0xbf]).unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::SHIFT_JIS.decode(bytes).0.into_owned(),
    }
}

/// Encodes text; characters Shift_JIS lacks become HTML numeric references (encoding_rs's rule).
pub fn encode(text: &str, enc: TextEncoding) -> Vec<u8> {
    match enc {
        TextEncoding::Utf8 => text.as_bytes().to_vec(),
        TextEncoding::ShiftJis => encoding_rs::SHIFT_JIS.encode(text).0.into_owned(),
    }
}
