//! Hayate CSA network protocol client (floodgate and championship servers)
#![deny(missing_docs)]
