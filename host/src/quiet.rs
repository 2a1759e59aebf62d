//! Running code that may panic (cudarc's loader, the const-fn layout algebra on impossible
//! input) without the default panic message, turning the panic into its first line.

/// Runs `f`; a panic becomes `Err(first line of its message)`, printed by nobody.
///
/// The process-wide panic hook is swapped out while `f` runs.
///
/// ```
/// let r: Result<(), String> = host::quiet::catch_quiet(|| panic!("boom\nmore"));
/// assert_eq!(r.unwrap_err(), "boom");
/// ```
pub fn catch_quiet<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    r.map_err(|p| {
        let msg = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("panic");
        msg.lines().next().unwrap_or(msg).to_string()
    })
}
