#![no_std]
//! CuTe's layout algebra (being written).

pub mod eval {
    //! Text-level evaluation of one CuTe operation (the `host eval` interface).
    use core::fmt;

    /// Why an evaluation failed.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Error(pub &'static str);
    impl fmt::Display for Error {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }

    /// Result of an evaluation; its `Display` is CuTe's print text.
    #[derive(Debug, Clone, Copy)]
    pub struct Value;
    impl fmt::Display for Value {
        fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
            Ok(())
        }
    }

    /// Evaluates CuTe operation `op` on `args` (CuTe text), as listed in FORMAT.md.
    pub fn eval(_op: &str, _args: &[&str]) -> Result<Value, Error> {
        Err(Error("not implemented yet"))
    }
}
