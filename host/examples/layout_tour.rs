//! The README's tour of the layout API, as a program: `cargo run -p host --example layout_tour`.
//!
//! CPU only. The typed layer (`layout_types::prelude`) is what kernels use: `_N` leaves are
//! types, integer leaves are run-time values, and the results are typed the same way. The value
//! algebra (`DynLayout`, `eval`) is the same algebra on values that print and parse like
//! `cute::print`: the CLI's engine and the reference the typed layer is tested against.

use layout_types::prelude::*;
use layout_types::{text::eval::eval, value::copy::TvLayout, value::layout::DynLayout};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = 8i32;
    let a = layout!((_4, n):(_1, _4)); // mixed: _4 and _1 are types, n is a field
    println!("{a}  size={} cosize={}", a.size(), a.cosize());
    println!("a(9)={}  a((1,2))={}", a.call(9), a.crd2idx((1, 2)));
    let s = layout!((_32, _256):(_256, _1)); // fully static: a zero-sized type
    let z = zipped_divide(s, (_32, _8)); // its result type is the layout
    println!("{z}  ({} bytes)", core::mem::size_of_val(&z));
    println!("{}", coalesce(layout!(((_2, _4), _8):((_1, _2), _8))));
    println!(
        "{}",
        composition(layout!((_4, _8):(_8, _1)), layout!((_2, _4):(_1, _2)))
    );
    println!("{}", complement(layout!((_2, _4):(_1, _8)), _64));
    println!(
        "{}",
        logical_product(layout!((_2, _2):(_1, _2)), layout!((_3, _4):(_4, _1)))
    );
    // The value algebra: the same operations on CuTe text, at run time.
    let d: DynLayout = "(_4,8):(_1,_4)".parse()?;
    println!("{d}  coord of 9={}", d.get_hier_coord(9));
    println!(
        "{}",
        eval("zipped_divide", &["(_32,_256):(_256,_1)", "(_32,_8)"])?
    ); // = z
    let tv = TvLayout::new(&"(_32,_8):(_8,_1)".parse()?, &"(_1,_4):(_0,_1)".parse()?)?;
    println!("TiledCopy: layout_tv {}  tiler {}", tv.layout_tv, tv.tiler);
    Ok(())
}
