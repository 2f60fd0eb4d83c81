//! Hayate USI protocol: messages as types, parse and format, engine and GUI side
#![deny(missing_docs)]
