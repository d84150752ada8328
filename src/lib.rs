//! A `Vec`-backed collection walked by a **lending cursor** that can remove
//! the element in hand and push new elements that the same pass visits, in
//! one pass where every element moves at most once.
//!
//! (Crate documentation is completed below.)
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs, unreachable_pub)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "arbitrary")]
mod arbitrary_impls;
pub mod auto_remove;
mod buffered;
mod collection;
mod cursor;
mod error;
pub mod layers;
#[cfg(feature = "std")]
mod producer;
#[cfg(feature = "quickcheck")]
mod quickcheck_impls;
#[allow(unsafe_code)]
mod raw;
#[cfg(feature = "serde")]
mod serde_impls;
#[cfg(feature = "std")]
mod sync;

pub use auto_remove::{AutoRemove, NoAutoRemove, WithHook};
pub use buffered::BufferedCollection;
pub use collection::{Mode, ReadWriteCollection, ShrinkPolicy};
pub use cursor::{Cursor, Entry};
pub use error::CapacityError;
pub use layers::Layers;
#[cfg(feature = "std")]
pub use producer::{Producer, ProducerClosed};
