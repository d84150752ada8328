//! `serde_impls` (in progress).
