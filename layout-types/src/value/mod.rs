//! The value algebra: CuTe's layouts as run-time values ([`DynLayout`](layout::DynLayout),
//! [`IntTuple`](int_tuple::IntTuple), each leaf with its static mark) and every operation on
//! them as a `const fn` — the reference the typed layer ([`crate::cute`]) is tested against, the
//! engine of the CLI ([`crate::text::eval`]) and what the static checks ([`crate::check`])
//! evaluate at compile time. Its modules import each other as a DAG: `int_tuple` ← `layout` ←
//! `algebra` (coalesce, composition, complement, inverses, tilers) ← `divide` ← `product`, then
//! `partition`, `tensor`, `swizzle`, `recast` and the atoms (`copy`, `mma`, `gmma`).
//! Each module is also at the crate root (`layout_types::value::algebra`, …).

pub mod algebra;
pub mod copy;
pub mod divide;
pub mod gmma;
pub mod int_tuple;
pub mod layout;
pub mod mma;
pub mod partition;
pub mod product;
pub mod recast;
pub mod swizzle;
pub mod tensor;
