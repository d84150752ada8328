//! `arbitrary_impls` (in progress).
