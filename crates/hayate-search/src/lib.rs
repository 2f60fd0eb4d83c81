//! Hayate alpha-beta search: iterative deepening PVS, TT, pruning, time management, Lazy SMP
#![deny(missing_docs)]
