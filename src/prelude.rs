//! The everyday names, for a glob import:
//!
//! ```
//! use read_write_collection::prelude::*;
//!
//! remove_when!(struct Spent for u32: |ttl| *ttl == 0);
//! layer_keys!(enum Layer { Ships, Sparks });
//!
//! let mut sparks: ReadWriteCollection<u32, Spent> = Builder::new().policy(Spent).build();
//! sparks.extend([0, 2]);
//! assert_eq!(sparks.prune(), 1);
//!
//! let mut world: Layers<u32, Layer> = Layers::default();
//! world.push(Layer::Sparks, 1);
//! assert_eq!(Layer::Sparks.index(), 1); // `LayerKey` is in scope
//! ```
//!
//! It holds the collection types ([`ReadWriteCollection`],
//! [`BufferedCollection`], [`Layers`]), [`Builder`], the traits a user
//! implements or calls ([`AutoRemove`], [`LayerKey`], and `ParAutoRemove`
//! with the `rayon` feature) and the macros [`remove_when!`] and
//! [`layer_keys!`]. Nothing in it shares a name with the standard library's
//! prelude, `rayon::prelude` or `proptest::prelude`, so it is glob-imported
//! beside them (a test suite's usual header):
//!
#![cfg_attr(feature = "proptest", doc = "```")]
#![cfg_attr(not(feature = "proptest"), doc = "```ignore")]
//! use proptest::prelude::*;
//! use read_write_collection::prelude::*;
//!
//! proptest!(|(c in any::<ReadWriteCollection<u8>>())| {
//!     prop_assert_eq!(c.max_len(), None);
//! });
//! ```
//!
//! Everything else (cursors and entries, which a pass hands out; [`Mode`],
//! [`ShrinkPolicy`], the error types, [`Producer`]) is at the crate root.
//!
//! [`Mode`]: crate::Mode
//! [`ShrinkPolicy`]: crate::ShrinkPolicy
//! [`Producer`]: crate::Producer

pub use crate::auto_remove::AutoRemove;
pub use crate::buffered::BufferedCollection;
pub use crate::builder::Builder;
pub use crate::collection::ReadWriteCollection;
pub use crate::keyed::KeyedCollection;
pub use crate::layers::{LayerKey, Layers};
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub use crate::parallel::ParAutoRemove;
pub use crate::{layer_keys, remove_when};
