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
    ///
    /// ```
    /// use layout_types::Error;
    /// let e = Error::new("expected a layout");
    /// assert_eq!((e.nvals, e.to_string()), (0, "expected a layout".to_string()));
    /// ```
    pub const fn new(msg: &'static str) -> Error {
        Error {
            msg,
            vals: [0, 0],
            nvals: 0,
        }
    }
    /// An error naming one value.
    ///
    /// ```
    /// use layout_types::Error;
    /// let e = Error::with1("{} threads is not a multiple of 32", 48); // the value fills the `{}`
    /// assert_eq!((e.vals[0], e.to_string()), (48, "48 threads is not a multiple of 32".to_string()));
    /// let e = Error::with1("not a multiple of 32", 48); // no `{}`: the value is appended
    /// assert_eq!(e.to_string(), "not a multiple of 32 (value: 48)");
    /// ```
    pub const fn with1(msg: &'static str, a: i64) -> Error {
        Error {
            msg,
            vals: [a, 0],
            nvals: 1,
        }
    }
    /// An error naming two values.
    ///
    /// ```
    /// use layout_types::Error;
    /// let e = Error::with2("Shape Divisibility Condition (shape, divisor)", 6, 4);
    /// assert_eq!(e.vals, [6, 4]);
    /// assert_eq!(e.to_string(), "Shape Divisibility Condition (shape, divisor) (values: 6 and 4)");
    /// assert_eq!(Error::with2("{} does not divide {}", 4, 6).to_string(), "4 does not divide 6");
    /// ```
    pub const fn with2(msg: &'static str, a: i64, b: i64) -> Error {
        Error {
            msg,
            vals: [a, b],
            nvals: 2,
        }
    }
    /// Panics with this error's message (used in constant evaluation, where the panic becomes a
    /// compile error that shows the message and the values). Each `{}` in the message is replaced
    /// by the next value; values without a `{}` are appended as ` (values: a and b)`.
    ///
    /// ```
    /// use layout_types::Error;
    /// let p = std::panic::catch_unwind(|| Error::with2("{} does not divide {}", 4, 6).panic());
    /// assert_eq!(p.unwrap_err().downcast_ref::<String>().unwrap(), "4 does not divide 6");
    /// // a value without its `{}` is appended, as `Display` writes it
    /// let e = Error::with2("{} does not divide", 4, 6);
    /// let p = std::panic::catch_unwind(|| e.panic());
    /// assert_eq!(p.unwrap_err().downcast_ref::<String>().unwrap(), &e.to_string());
    /// assert_eq!(e.to_string(), "4 does not divide (value: 6)");
    /// ```
    ///
    /// In a constant, the same panic is a compile error:
    ///
    /// ```compile_fail,E0080
    /// const _: () = layout_types::Error::with1("{} threads are too many", 2048).panic();
    /// ```
    #[track_caller]
    pub const fn panic(self) -> ! {
        let (a, r) = split_hole(self.msg);
        if self.nvals >= 1 && r.is_some() {
            let r = match r {
                Some(r) => r,
                None => "",
            };
            let (b, r2) = split_hole(r);
            match r2 {
                Some(c) if self.nvals >= 2 => {
                    const_panic::concat_panic!(display: a, self.vals[0], display: b, self.vals[1], display: c)
                }
                // a second value without its `{}`: appended, as `Display` does
                _ if self.nvals >= 2 => const_panic::concat_panic!(
                    display: a, self.vals[0], display: r, " (value: ", self.vals[1], ")"
                ),
                _ => const_panic::concat_panic!(display: a, self.vals[0], display: r),
            }
        }
        match self.nvals {
            0 => const_panic::concat_panic!(display: self.msg),
            1 => const_panic::concat_panic!(display: self.msg, " (value: ", self.vals[0], ")"),
            _ => const_panic::concat_panic!(
                display: self.msg, " (values: ", self.vals[0], " and ", self.vals[1], ")"
            ),
        }
    }
}

/// Splits a message at its first `{}`: `(before, Some(after))`, or `(msg, None)`.
const fn split_hole(msg: &'static str) -> (&'static str, Option<&'static str>) {
    let b = msg.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'{' && b[i + 1] == b'}' {
            let (head, tail) = b.split_at(i);
            let (_, tail) = tail.split_at(2);
            return match (core::str::from_utf8(head), core::str::from_utf8(tail)) {
                (Ok(h), Ok(t)) => (h, Some(t)),
                _ => (msg, None),
            };
        }
        i += 1;
    }
    (msg, None)
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.msg;
        let mut k = 0;
        while k < self.nvals as usize {
            match split_hole(rest) {
                (a, Some(r)) => {
                    write!(f, "{a}{}", self.vals[k])?;
                    rest = r;
                    k += 1;
                }
                _ => break,
            }
        }
        f.write_str(rest)?;
        match self.nvals as usize - k {
            0 => Ok(()),
            1 => write!(f, " (value: {})", self.vals[k]),
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
