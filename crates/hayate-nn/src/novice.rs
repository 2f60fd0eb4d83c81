//! Novice's 85 input channels (todo).
