//! CuTe's text: [`parse`] reads `cute::print`'s form (`(_4,8):(_1,_4)`, tilers with `_`) into
//! the value algebra (printing is each value's `Display`), and [`eval`] runs one operation on
//! CuTe text — the engine of `host eval` and of the differential tests. Each module is also at
//! the crate root (`layout_types::text::parse`, `layout_types::text::eval`).

pub mod eval;
pub mod parse;
