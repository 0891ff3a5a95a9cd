//! `unicode_names2` 1.3's functions, answered by 3.1's tables: the one
//! the parser calls (`character`, for `"\N{...}"` escapes) and its inverse
//! have the same signatures in both.
pub use names::{character, name, Name};
