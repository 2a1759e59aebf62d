fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let r: Vec<&str> = a[1..].iter().map(|s| s.as_str()).collect();
    println!(
        "{:?}",
        layout_types::eval::eval(&a[0], &r).map(|v| v.to_string())
    );
}
