//! Hayate game records (CSA, KIF/KI2, JKF) and training data (hcp, hcpe, hcpe3, psv)
#![deny(missing_docs)]
