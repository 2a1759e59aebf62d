//! `host info`: what this binary embeds, and what this machine's device loads of it.

/// Prints the PTX architectures, size, build error (if any) and kernels of every embedded
/// module; with a GPU, which build of each family the device loads (or why none).
pub fn main() -> u8 {
    let load = crate::load_options();
    let modules = host::ptx::modules_with(load.ptx_dir.as_deref(), load.extra_modules);
    println!("ptx arch: {}", host::ptx::ARCH);
    println!("ptx archs: {}", host::ptx::ARCHS.join(", "));
    println!(
        "ptx bytes: {}",
        modules.iter().map(|m| m.text.len()).sum::<usize>()
    );
    if let Some(why) = host::ptx::build_error() {
        println!("ptx error: {why}");
    }
    for m in &modules {
        // the cubin `CUTE_RS_CUBIN_DIR` holds of this very text, loaded in place of a JIT
        let cubin = load
            .cubin_dir
            .as_deref()
            .map(|d| host::ptx::cubin_path(d, m))
            .filter(|p| std::fs::read(p).is_ok_and(|b| host::ptx::whole_cubin(&b)))
            .map_or(String::new(), |p| format!(", cubin {}", p.display()));
        println!(
            "module: {} {} ({} kernels{cubin})",
            m.arch,
            m.name,
            host::ptx::entries(m.text).len()
        );
    }
    for m in modules.iter().filter(|m| m.arch == host::ptx::ARCH) {
        for k in host::ptx::entries(m.text) {
            println!("kernel: {k}");
        }
    }
    match host::Context::open_with(0, &load) {
        Ok(ctx) => {
            println!("device: {}", ctx.device());
            if let Some(a) = ctx.forced_arch() {
                println!("forced arch: {a}");
            }
            let loaded = ctx.families();
            for (family, arch) in &loaded {
                println!("loaded: {family} ({arch})");
            }
            for m in modules.iter().filter(|m| m.arch == host::ptx::ARCH) {
                if !loaded.iter().any(|(f, _)| *f == m.name) {
                    println!(
                        "unavailable: {} (needs {}; this device runs {})",
                        m.name,
                        m.arch,
                        ctx.archs().join("+")
                    );
                }
            }
        }
        Err(e) => println!("device: none ({e})"),
    }
    0
}
