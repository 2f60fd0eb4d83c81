//! prelude's 95 tokens (todo).
