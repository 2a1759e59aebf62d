//! The README's tour of the layout API, as a program: `cargo run -p host --example layout_tour`.
//!
//! CPU only: layouts are values that print and parse like `cute::print`.

use layout_types::{DynLayout, copy::TvLayout, eval::eval};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: DynLayout = "(_4,8):(_1,_4)".parse()?; // CuTe text in, CuTe text out
    println!("{a}  size={} cosize={}", a.size(), a.cosize());
    println!(
        "a(9)={}  coord of 9={}  a((1,2))={}",
        a.call(9),
        a.get_hier_coord(9),
        a.crd2idx(&"(1,2)".parse()?)
    );
    println!("{}", eval("coalesce", &["((_2,_4),_8):((_1,_2),_8)"])?);
    println!(
        "{}",
        eval("composition", &["(_4,_8):(_8,_1)", "(_2,_4):(_1,_2)"])?
    );
    println!("{}", eval("complement", &["(_2,_4):(_1,_8)", "_64"])?);
    println!(
        "{}",
        eval(
            "zipped_divide",
            &["(_32,_256):(_256,_1)", "(_32,_8):(_8,_1)"]
        )?
    );
    println!(
        "{}",
        eval("logical_product", &["(_2,_2):(_1,_2)", "(_3,_4):(_4,_1)"])?
    );
    let tv = TvLayout::new(&"(_32,_8):(_8,_1)".parse()?, &"(_1,_4):(_0,_1)".parse()?)?;
    println!("TiledCopy: layout_tv {}  tiler {}", tv.layout_tv, tv.tiler);
    Ok(())
}
