//! The methods an entry type hands on to the entry it wraps, written once.
//!
//! [`SinkEntry`](super::SinkEntry) wraps an [`Entry`](super::Entry), the
//! layers' `LayerEntry` wraps an `Entry` too and `LayerSinkEntry` wraps a
//! `LayerEntry`. Each offers `push` and `try_push`, `others` and
//! `split_others` (and the sink entries `remove_to_sink`, the deprecated
//! `remove` and `take`) by calling the entry inside. These macros write those methods, their shared docs and
//! the `Deref`/`DerefMut` to the element; each caller adds the examples,
//! which must build its own type.

/// `push` and `try_push` inside an `impl` block of a type whose field
/// `$field` is an entry with the same two methods.
///
/// `summary` is `push`'s first sentence (where the value goes, when the
/// pass visits it); `bound` names what can be full ("collection",
/// "layer"). Each method's examples follow as doc comments, ended by
/// `fn push;` / `fn try_push;`.
macro_rules! entry_push_methods {
    (
        field: $field:ident,
        summary: $summary:literal,
        bound: $bound:literal;
        $(#[$push_doc:meta])* fn push;
        $(#[$try_push_doc:meta])* fn try_push;
    ) => {
        #[doc = $summary]
        ///
        /// # Panics
        ///
        #[doc = concat!("If the ", $bound, " is bounded and full; see [`try_push`](Self::try_push).")]
        ///
        $(#[$push_doc])*
        #[inline]
        #[track_caller]
        pub fn push(&mut self, value: T) {
            self.$field.push(value);
        }

        #[doc = concat!(
            "Like [`push`](Self::push), but a full bounded ", $bound,
            " hands the value back instead of panicking."
        )]
        ///
        /// # Errors
        ///
        #[doc = concat!(
            "[`CapacityError`](crate::error::CapacityError) holding `value` if the ",
            $bound, " is at its maximum length."
        )]
        ///
        $(#[$try_push_doc])*
        #[inline]
        pub fn try_push(&mut self, value: T) -> Result<(), crate::error::CapacityError<T>> {
            self.$field.try_push(value)
        }
    };
}

/// `others` and `split_others` inside an `impl` block of a type whose
/// field `$field` is an entry with the same two methods.
///
/// `whose` names where the other elements are ("collection", "layer");
/// `inner` the wrapped entry (in scope where the macro is used) for the
/// doc links. Each method's examples follow as doc comments, ended by
/// `fn others;` / `fn split_others;`.
macro_rules! entry_others_methods {
    (
        field: $field:ident,
        whose: $whose:literal,
        inner: $inner:literal;
        $(#[$others_doc:meta])* fn others;
        $(#[$split_doc:meta])* fn split_others;
    ) => {
        #[doc = concat!(
            "The ", $whose, "'s other elements while this one is held: those the pass ",
            "has already kept, in order, and those after this one (not yet visited, ",
            "then pushed during this pass), as [`", $inner, "::others`] gives them."
        )]
        ///
        $(#[$others_doc])*
        #[inline]
        pub fn others(&self) -> (&[T], &[T]) {
            self.$field.others()
        }

        #[doc = concat!(
            "This element and the ", $whose, "'s other elements, all mutable, as [`",
            $inner, "::split_others`] gives them. The slices borrow the entry: the ",
            "compiler ends them before the next push."
        )]
        ///
        $(#[$split_doc])*
        #[inline]
        pub fn split_others(&mut self) -> (&mut T, &mut [T], &mut [T]) {
            self.$field.split_others()
        }
    };
}

/// `remove_to_sink`, the deprecated `remove` and `take` inside an `impl`
/// block of a sink entry: field `$field` is the plain entry, whose
/// `remove` returns the element, and field `$sink` the pass's sink.
///
/// `inner` names the plain entry (in scope where the macro is used) for
/// the doc links;
/// `deprecated` is the old `remove`'s deprecation note. Each method's
/// examples follow as doc comments, ended by `fn remove_to_sink;`,
/// `fn remove;` and `fn take;`.
macro_rules! sink_entry_methods {
    (
        field: $field:ident,
        sink: $sink:ident,
        inner: $inner:literal,
        deprecated: $note:literal;
        $(#[$to_sink_doc:meta])* fn remove_to_sink;
        $(#[$remove_doc:meta])* fn remove;
        $(#[$take_doc:meta])* fn take;
    ) => {
        /// Removes the element and hands it to the pass's sink (where
        /// [`take`](Self::take) returns it).
        ///
        $(#[$to_sink_doc])*
        #[inline]
        pub fn remove_to_sink(self) {
            let value = self.$field.remove();
            (self.$sink)(value);
        }

        /// The old name of [`remove_to_sink`](Self::remove_to_sink), which it
        /// still calls: the element goes to the sink.
        #[doc = concat!(
            "[`", $inner, "::remove`] returns the element ",
            "instead; here that is [`take`](Self::take)."
        )]
        ///
        $(#[$remove_doc])*
        #[deprecated(note = $note)]
        #[inline]
        pub fn remove(self) {
            self.remove_to_sink();
        }

        /// Removes the element and returns it, bypassing the sink,
        #[doc = concat!(
            "as [`", $inner, "::remove`] does (for a split: ",
            "the value builds new elements, pushed with the cursor)."
        )]
        ///
        $(#[$take_doc])*
        #[inline]
        pub fn take(self) -> T {
            self.$field.remove()
        }
    };
}

/// `Deref` and `DerefMut` to the element, through field `$field` (an
/// entry that dereferences to it): `deref_to_element!([T, S] SinkEntry<'_, T, S>, entry);`.
macro_rules! deref_to_element {
    ([$($generic:ident),*] $ty:ty, $field:ident) => {
        impl<$($generic),*> core::ops::Deref for $ty {
            type Target = T;

            #[inline]
            fn deref(&self) -> &T {
                &self.$field
            }
        }

        impl<$($generic),*> core::ops::DerefMut for $ty {
            #[inline]
            fn deref_mut(&mut self) -> &mut T {
                &mut self.$field
            }
        }
    };
}

pub(crate) use {deref_to_element, entry_others_methods, entry_push_methods, sink_entry_methods};
