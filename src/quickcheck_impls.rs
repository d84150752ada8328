//! `quickcheck_impls` (in progress).
