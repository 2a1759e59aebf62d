//! The README's "From candle" code (the ```rust block of that section: `cuda_fwd` of
//! `impl CustomOp2 for HGemm`) inside the impl it names, written to `$OUT_DIR/readme_candle.rs`
//! for src/lib.rs to compile, as test_readme.py does for the Python block.

use std::path::Path;

fn main() {
    if std::env::var_os("CARGO_FEATURE_CANDLE").is_none() {
        return; // src/lib.rs compiles the block with feature `candle` only
    }
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    println!("cargo::rerun-if-changed={}", readme.display());
    let text = std::fs::read_to_string(&readme).expect("README.md");
    let block = text
        .split("\n## From candle")
        .nth(1)
        .map(|s| s.split("\n## ").next().unwrap_or(s))
        .and_then(|s| s.split("```rust\n").nth(1))
        .and_then(|s| s.split("```").next())
        .expect("README.md: no ```rust block in the \"From candle\" section");
    let code = format!(
        "use candle_core::{{CpuStorage, CudaStorage, CustomOp2, Layout, Result, Shape, bail}};
use host::{{Context, GemmConfig, half::bf16}};

/// The README's candle GEMM.
pub struct HGemm(pub Context);

impl CustomOp2 for HGemm {{
    fn name(&self) -> &'static str {{
        \"readme-hgemm\"
    }}
    fn cpu_fwd(&self, _: &CpuStorage, _: &Layout, _: &CpuStorage, _: &Layout) -> Result<(CpuStorage, Shape)> {{
        bail!(\"CUDA only\")
    }}
// README.md, \"From candle\":
{block}}}
"
    );
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("readme_candle.rs");
    std::fs::write(out, code).expect("writing readme_candle.rs");
}
