//! What both collections are set to: [`Mode`] and [`ShrinkPolicy`].

/// How a traversal fills the place of a removed element.
///
/// # Examples
///
/// ```
/// use read_write_collection::{Mode, ReadWriteCollection};
///
/// let mut c: ReadWriteCollection<i32> = (0..5).collect();
/// c.set_mode(Mode::Unordered);
/// c.traverse(|e| if *e == 1 { e.remove(); });
/// assert_eq!(c.as_slice(), [0, 4, 2, 3]); // the last element filled the hole
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Survivors keep their order; each moves at most once per traversal
    /// (back-copying). The default.
    #[default]
    Ordered,
    /// A removed element's slot is filled with the last unvisited element
    /// (swap-remove), which is then visited next. Fewer moves; order is not
    /// kept. Every element present at the start and every pushed element is
    /// still visited exactly once.
    Unordered,
}

/// When a collection gives memory back: after `passes` traversals in a row
/// that end with fewer than `below_percent` % of the capacity in use, the
/// capacity is shrunk to twice the length.
///
/// Off by default. Shrinking happens when a traversal completes (when the
/// cursor is dropped), and never below what the elements need.
///
/// # Examples
///
/// ```
/// use read_write_collection::{ReadWriteCollection, ShrinkPolicy};
///
/// let mut c: ReadWriteCollection<u32> = (0..1000).collect();
/// c.set_shrink_policy(Some(ShrinkPolicy::new(25, 2)));
/// c.traverse(|e| if *e >= 10 { e.remove(); });
/// assert!(c.capacity() >= 1000); // one low pass is not enough
/// c.traverse(|_| {});
/// assert!(c.capacity() < 1000);
/// assert_eq!(c.len(), 10);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShrinkPolicy {
    below_percent: u8,
    passes: u32,
}

/// Making a policy and reading it back.
impl ShrinkPolicy {
    /// Shrink after `passes` consecutive traversals ending with less than
    /// `below_percent` % of the capacity in use.
    ///
    /// # Panics
    ///
    /// If `below_percent` is over 100 or `passes` is 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ShrinkPolicy;
    ///
    /// let p = ShrinkPolicy::new(25, 60); // a second at 60 fps below a quarter of the capacity
    /// assert_eq!(p.passes(), 60);
    /// ```
    #[track_caller]
    pub const fn new(below_percent: u8, passes: u32) -> Self {
        assert!(below_percent <= 100, "below_percent is a percentage");
        assert!(passes > 0, "passes must be at least 1");
        ShrinkPolicy {
            below_percent,
            passes,
        }
    }

    /// The threshold of capacity in use (length / capacity), in percent.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ShrinkPolicy;
    /// assert_eq!(ShrinkPolicy::new(25, 60).below_percent(), 25);
    /// ```
    pub const fn below_percent(&self) -> u8 {
        self.below_percent
    }

    /// How many low traversals in a row trigger a shrink.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ShrinkPolicy;
    /// assert_eq!(ShrinkPolicy::new(25, 60).passes(), 60);
    /// ```
    pub const fn passes(&self) -> u32 {
        self.passes
    }
}
