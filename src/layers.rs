//! Layers: a fixed, ordered set of collections traversed in order (in progress).

/// A fixed, ordered set of collections (in progress).
#[derive(Debug, Default)]
pub struct Layers<T> {
    _layers: alloc::vec::Vec<crate::ReadWriteCollection<T>>,
}
