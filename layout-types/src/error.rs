//! The error type of the algebra: a CuTe condition and the values that violated it.
use core::fmt;

/// A violated condition of the layout algebra (e.g. CuTe's "Shape Divisibility Condition"), with
/// up to two offending values. Built in `const fn`s, so the same error is reported at compile time
/// (as a const-evaluation failure) and at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Error {
    /// The condition, as a sentence.
    pub msg: &'static str,
    /// Offending values (how many are meaningful: `nvals`).
    pub vals: [i64; 2],
    /// Number of meaningful entries in `vals`.
    pub nvals: u8,
}

impl Error {
    /// An error with no values.
    pub const fn new(msg: &'static str) -> Error {
        Error { msg, vals: [0, 0], nvals: 0 }
    }
    /// An error naming one value.
    pub const fn with1(msg: &'static str, a: i64) -> Error {
        Error { msg, vals: [a, 0], nvals: 1 }
    }
    /// An error naming two values.
    pub const fn with2(msg: &'static str, a: i64, b: i64) -> Error {
        Error { msg, vals: [a, b], nvals: 2 }
    }
    /// Panics with this error's message (used in constant evaluation, where the panic becomes a
    /// compile error that shows the message and the values).
    #[track_caller]
    pub const fn panic(self) -> ! {
        match self.nvals {
            0 => const_panic::concat_panic!(display: self.msg),
            1 => const_panic::concat_panic!(display: self.msg, " (value: ", self.vals[0], ")"),
            _ => const_panic::concat_panic!(
                display: self.msg, " (values: ", self.vals[0], " and ", self.vals[1], ")"
            ),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.msg)?;
        match self.nvals {
            0 => Ok(()),
            1 => write!(f, " (value: {})", self.vals[0]),
            _ => write!(f, " (values: {} and {})", self.vals[0], self.vals[1]),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// Unwraps a `Result<T, Error>` inside a `const fn`, returning the error early (`?` is not const).
#[macro_export]
#[doc(hidden)]
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}
