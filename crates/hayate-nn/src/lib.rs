//! Hayate deep-learning foundations: dlshogi-compatible features, policy labels, datasets
#![deny(missing_docs)]
