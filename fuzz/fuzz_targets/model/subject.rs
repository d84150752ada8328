//! The collections under test, behind one interface.

use super::*;

// ---------------------------------------------------------------------------
// The collections under test, behind one interface

/// The operations the checker needs, for both collection types.
pub trait Subject {
    type P: AutoRemove<Elem>;
    fn cursor(&mut self) -> Cursor<'_, Elem, Self::P>;
    fn traverse(&mut self, f: &mut dyn FnMut(Entry<'_, Elem>));
    fn items(&self) -> &[Elem];
    fn capacity(&self) -> usize;
    /// Outside a pass; bounded plain collections use `try_push`.
    fn push(&mut self, e: Elem, bounded: bool) -> Result<(), Elem>;
    fn extend(&mut self, v: Vec<Elem>);
    fn prune(&mut self) -> usize;
    fn clear(&mut self);
    /// `None`: not supported by this type.
    fn pop(&mut self) -> Option<Option<Elem>>;
    fn set_unordered(&mut self, on: bool);
    fn shrink_to_fit(&mut self);
    fn commit(&mut self) -> Option<usize>;
    /// Local pending slice and `pending_len()`.
    fn local_pending(&self) -> Option<(&[Elem], usize)>;
    fn clear_pending(&mut self);
    fn clear_visible(&mut self);
    fn producer(&self) -> Option<Producer<Elem>>;
    /// The plain collection, for [`VecOp`]s (`None` for buffered).
    fn vec_api(&mut self) -> Option<&mut ReadWriteCollection<Elem, Self::P>> {
        None
    }
    /// `close()`; buffered only.
    fn close(&mut self) {}
    /// `into_parts` / `into_vec` / `into_iter` (`how % 3`) as (visible,
    /// pending), or `into_vec`'s result as visible with nothing pending;
    /// `Err(self)` where not supported.
    fn into_owned(self, _how: u8) -> Result<(Vec<Elem>, Vec<Elem>), Self>
    where
        Self: Sized,
    {
        Err(self)
    }
}

impl<A: AutoRemove<Elem>> Subject for ReadWriteCollection<Elem, A> {
    type P = A;
    fn cursor(&mut self) -> Cursor<'_, Elem, A> {
        ReadWriteCollection::cursor(self)
    }
    fn traverse(&mut self, f: &mut dyn FnMut(Entry<'_, Elem>)) {
        ReadWriteCollection::traverse(self, f)
    }
    fn items(&self) -> &[Elem] {
        self.as_slice()
    }
    fn capacity(&self) -> usize {
        ReadWriteCollection::capacity(self)
    }
    fn push(&mut self, e: Elem, bounded: bool) -> Result<(), Elem> {
        if bounded {
            self.try_push(e).map_err(|err| err.into_inner())
        } else {
            ReadWriteCollection::push(self, e);
            Ok(())
        }
    }
    fn extend(&mut self, v: Vec<Elem>) {
        Extend::extend(self, v)
    }
    fn prune(&mut self) -> usize {
        ReadWriteCollection::prune(self)
    }
    fn clear(&mut self) {
        ReadWriteCollection::clear(self)
    }
    fn pop(&mut self) -> Option<Option<Elem>> {
        Some(ReadWriteCollection::pop(self))
    }
    fn set_unordered(&mut self, on: bool) {
        self.set_mode(if on { Mode::Unordered } else { Mode::Ordered });
    }
    fn shrink_to_fit(&mut self) {
        ReadWriteCollection::shrink_to_fit(self)
    }
    fn commit(&mut self) -> Option<usize> {
        None
    }
    fn local_pending(&self) -> Option<(&[Elem], usize)> {
        None
    }
    fn clear_pending(&mut self) {}
    fn clear_visible(&mut self) {}
    fn producer(&self) -> Option<Producer<Elem>> {
        None
    }
    fn vec_api(&mut self) -> Option<&mut ReadWriteCollection<Elem, A>> {
        Some(self)
    }
}

impl<A: AutoRemove<Elem>> Subject for BufferedCollection<Elem, A> {
    type P = A;
    fn cursor(&mut self) -> Cursor<'_, Elem, A> {
        BufferedCollection::cursor(self)
    }
    fn traverse(&mut self, f: &mut dyn FnMut(Entry<'_, Elem>)) {
        BufferedCollection::traverse(self, f)
    }
    fn items(&self) -> &[Elem] {
        self.as_slice()
    }
    fn capacity(&self) -> usize {
        BufferedCollection::capacity(self)
    }
    fn push(&mut self, e: Elem, bounded: bool) -> Result<(), Elem> {
        if bounded {
            return BufferedCollection::try_push(self, e).map_err(|err| err.into_inner());
        }
        BufferedCollection::push(self, e);
        Ok(())
    }
    fn extend(&mut self, v: Vec<Elem>) {
        Extend::extend(self, v)
    }
    fn prune(&mut self) -> usize {
        BufferedCollection::prune(self)
    }
    fn clear(&mut self) {
        BufferedCollection::clear(self)
    }
    fn pop(&mut self) -> Option<Option<Elem>> {
        None
    }
    fn set_unordered(&mut self, _on: bool) {}
    fn shrink_to_fit(&mut self) {}
    fn commit(&mut self) -> Option<usize> {
        Some(BufferedCollection::commit(self))
    }
    fn local_pending(&self) -> Option<(&[Elem], usize)> {
        Some((BufferedCollection::local_pending(self), self.pending_len()))
    }
    fn clear_pending(&mut self) {
        BufferedCollection::clear_pending(self)
    }
    fn clear_visible(&mut self) {
        BufferedCollection::clear_visible(self)
    }
    fn producer(&self) -> Option<Producer<Elem>> {
        Some(BufferedCollection::producer(self))
    }
    fn close(&mut self) {
        BufferedCollection::close(self)
    }
    fn into_owned(self, how: u8) -> Result<(Vec<Elem>, Vec<Elem>), Self> {
        Ok(match how % 3 {
            0 => self.into_parts(),
            1 => (self.into_vec(), Vec::new()),
            _ => (self.into_iter().collect(), Vec::new()),
        })
    }
}
