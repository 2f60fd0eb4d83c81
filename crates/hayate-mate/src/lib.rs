//! Hayate mate solvers: mate-in-1, fixed-depth odd-ply mate search, df-pn
#![deny(missing_docs)]
