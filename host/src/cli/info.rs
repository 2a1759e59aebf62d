//! `host info`: what this binary embeds.

/// Prints the PTX arch, size, build error (if any) and kernels of every embedded module.
pub fn main() -> u8 {
    let modules = host::ptx::modules();
    println!("ptx arch: {}", host::ptx::ARCH);
    println!(
        "ptx bytes: {}",
        modules.iter().map(|m| m.text.len()).sum::<usize>()
    );
    if let Some(why) = host::ptx::build_error() {
        println!("ptx error: {why}");
    }
    for m in &modules {
        for k in host::ptx::entries(m.text) {
            println!("kernel: {k}");
        }
    }
    0
}
