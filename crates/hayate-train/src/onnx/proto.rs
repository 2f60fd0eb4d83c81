//! A minimal protobuf wire-format encoder and decoder, enough for ONNX's `ModelProto`
//! (no code generation, no `protoc` at build time).
//!
//! Field numbers used (from `onnx.proto`): `ModelProto` ir_version 1, producer_name 2,
//! graph 7, opset_import 8; `OperatorSetIdProto` domain 1, version 2; `GraphProto` node 1,
//! name 2, initializer 5, input 11, output 12; `NodeProto` input 1, output 2, name 3,
//! op_type 4, attribute 5; `AttributeProto` name 1, f 2, i 3, floats 7, ints 8, type 20;
//! `TensorProto` dims 1, data_type 2, float_data 4, int64_data 7, name 8, raw_data 9;
//! `ValueInfoProto` name 1, type 2; `TypeProto` tensor_type 1; `TypeProto.Tensor` elem_type 1,
//! shape 2; `TensorShapeProto` dim 1; `Dimension` dim_value 1, dim_param 2.

/// A message being encoded.
#[derive(Clone, Debug, Default)]
pub struct Msg {
    buf: Vec<u8>,
}

fn put_varint(buf: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        buf.push((v as u8) | 0x80);
        v >>= 7;
    }
    buf.push(v as u8);
}

impl Msg {
    /// An empty message.
    pub fn new() -> Msg {
        Msg::default()
    }

    /// The encoded bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Takes the encoded bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    fn key(&mut self, field: u32, wire: u8) {
        put_varint(&mut self.buf, (u64::from(field) << 3) | u64::from(wire));
    }

    /// A varint field (int32/int64/enum; negative values as 10-byte two's complement).
    pub fn int(&mut self, field: u32, v: i64) -> &mut Msg {
        self.key(field, 0);
        put_varint(&mut self.buf, v as u64);
        self
    }

    /// A `float` field (fixed32).
    pub fn float(&mut self, field: u32, v: f32) -> &mut Msg {
        self.key(field, 5);
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// A length-delimited field.
    pub fn bytes_field(&mut self, field: u32, v: &[u8]) -> &mut Msg {
        self.key(field, 2);
        put_varint(&mut self.buf, v.len() as u64);
        self.buf.extend_from_slice(v);
        self
    }

    /// A string field.
    pub fn string(&mut self, field: u32, v: &str) -> &mut Msg {
        self.bytes_field(field, v.as_bytes())
    }

    /// An embedded message field.
    pub fn msg(&mut self, field: u32, m: &Msg) -> &mut Msg {
        self.bytes_field(field, &m.buf)
    }
}

/// A decoded field value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 1.
    Fixed64(u64),
    /// Wire type 2.
    Bytes(&'a [u8]),
    /// Wire type 5.
    Fixed32(u32),
}

impl<'a> Value<'a> {
    /// The integer of a varint field.
    pub fn as_i64(self) -> Option<i64> {
        match self {
            Value::Varint(v) => Some(v as i64),
            _ => None,
        }
    }

    /// The bytes of a length-delimited field.
    pub fn as_bytes(self) -> Option<&'a [u8]> {
        match self {
            Value::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The string of a length-delimited field (lossy UTF-8).
    pub fn as_string(self) -> Option<String> {
        self.as_bytes()
            .map(|b| String::from_utf8_lossy(b).into_owned())
    }

    /// The float of a fixed32 field.
    pub fn as_f32(self) -> Option<f32> {
        match self {
            Value::Fixed32(v) => Some(f32::from_bits(v)),
            _ => None,
        }
    }
}

/// Malformed protobuf input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed protobuf at byte {0}")]
pub struct DecodeError(pub usize);

fn get_varint(buf: &[u8], pos: &mut usize) -> Result<u64, DecodeError> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *buf.get(*pos).ok_or(DecodeError(*pos))?;
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Ok(v);
        }
    }
    Err(DecodeError(*pos))
}

/// Decodes all top-level fields of a message, in order.
///
/// # Errors
/// [`DecodeError`] on truncated or malformed input (unknown wire types included).
pub fn decode(buf: &[u8]) -> Result<Vec<(u32, Value<'_>)>, DecodeError> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < buf.len() {
        let start = pos;
        let key = get_varint(buf, &mut pos)?;
        let field = u32::try_from(key >> 3).map_err(|_| DecodeError(start))?;
        let v = match key & 7 {
            0 => Value::Varint(get_varint(buf, &mut pos)?),
            1 => {
                let b = buf.get(pos..pos + 8).ok_or(DecodeError(pos))?;
                pos += 8;
                Value::Fixed64(u64::from_le_bytes(
                    b.try_into().map_err(|_| DecodeError(pos))?,
                ))
            }
            2 => {
                let len =
                    usize::try_from(get_varint(buf, &mut pos)?).map_err(|_| DecodeError(pos))?;
                let end = pos.checked_add(len).ok_or(DecodeError(pos))?;
                let b = buf.get(pos..end).ok_or(DecodeError(pos))?;
                pos = end;
                Value::Bytes(b)
            }
            5 => {
                let b = buf.get(pos..pos + 4).ok_or(DecodeError(pos))?;
                pos += 4;
                Value::Fixed32(u32::from_le_bytes(
                    b.try_into().map_err(|_| DecodeError(pos))?,
                ))
            }
            _ => return Err(DecodeError(start)),
        };
        out.push((field, v));
    }
    Ok(out)
}

/// Decodes a packed or unpacked repeated varint field's values from its occurrences.
///
/// # Errors
/// [`DecodeError`] when a packed payload is malformed.
pub fn repeated_i64(values: &[Value<'_>]) -> Result<Vec<i64>, DecodeError> {
    let mut out = Vec::new();
    for v in values {
        match *v {
            Value::Varint(x) => out.push(x as i64),
            Value::Bytes(b) => {
                let mut pos = 0;
                while pos < b.len() {
                    out.push(get_varint(b, &mut pos)? as i64);
                }
            }
            _ => return Err(DecodeError(0)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut inner = Msg::new();
        inner.string(1, "x").int(2, -1);
        let mut m = Msg::new();
        m.int(1, 300).float(2, 1.5).msg(3, &inner);
        assert_eq!(&m.bytes()[..3], &[0x08, 0xac, 0x02]);
        let f = decode(m.bytes()).unwrap();
        assert_eq!(f[0], (1, Value::Varint(300)));
        assert_eq!(f[1].1.as_f32(), Some(1.5));
        let g = decode(f[2].1.as_bytes().unwrap()).unwrap();
        assert_eq!(g[0].1.as_string().as_deref(), Some("x"));
        assert_eq!(g[1].1.as_i64(), Some(-1));
        assert!(decode(&[0x0a, 0x05, 0x01]).is_err());
    }
}
