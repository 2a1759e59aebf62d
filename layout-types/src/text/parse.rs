//! Parsing CuTe's print text back into values: IntTuples, layouts and tilers.
//!
//! Everything `cute::print` writes can be read back: `_N` is static, `N` dynamic, `(a,b)` a tuple,
//! `shape:stride` a layout, `_` an underscore and `X` a projection marker. A tiler is a layout, a
//! shape tuple (one `N:_1` layout a mode) or a by-mode list `[4:1,(2,2):(1,8)]`.
//!
//! ```
//! use layout_types::{value::layout::DynLayout, value::int_tuple::IntTuple};
//! let l: DynLayout = "((_32,_8),_32):((_1,_32),_256)".parse().unwrap();
//! assert_eq!(l.to_string(), "((_32,_8),_32):((_1,_32),_256)");
//! assert!("(_2,_3".parse::<IntTuple>().is_err());
//! ```

use crate::value::algebra::{Tiler, TilerMode};
use crate::{Error, value::int_tuple::IntTuple, value::int_tuple::Val, value::layout::DynLayout};

/// One mode of a by-mode tiler, as parsed.
// Plain `Copy` values (no_std, no allocation): the size difference is accepted.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub enum ParsedMode {
    /// A layout `s:d`.
    Layout(DynLayout),
    /// An integer `N` (meaning `N:_1`).
    Int(Val),
    /// `_`.
    Under,
    /// A nested shape tuple.
    Shape(IntTuple),
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
}

impl P<'_> {
    fn skip(&mut self) {
        while self.i < self.s.len() && (self.s[self.i] as char).is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip();
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Result<(), Error> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(Error::new(EXPECT[idx(c)]))
        }
    }
    fn number(&mut self) -> Result<i64, Error> {
        self.skip();
        let neg = self.eat(b'-');
        let start = self.i;
        let mut v: i64 = 0;
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add((self.s[self.i] - b'0') as i64))
                .ok_or(Error::new("integer too large"))?;
            self.i += 1;
        }
        if self.i == start {
            return Err(Error::new("expected an integer"));
        }
        if v > (1 << 40) {
            return Err(Error::new("integer too large (limit 2^40)"));
        }
        Ok(if neg { -v } else { v })
    }
    fn int_tuple(&mut self, depth: usize) -> Result<IntTuple, Error> {
        if depth > 8 {
            return Err(Error::new("tuple nested too deeply"));
        }
        match self.peek() {
            Some(b'(') => {
                self.i += 1;
                let mut t = IntTuple::empty();
                if self.eat(b')') {
                    return Ok(t);
                }
                loop {
                    let c = self.int_tuple(depth + 1)?;
                    if t.node_count() + c.node_count() > crate::value::int_tuple::CAP / 2 {
                        return Err(Error::new("tuple too large (at most 32 nodes accepted)"));
                    }
                    t.push(&c);
                    if self.eat(b',') {
                        continue;
                    }
                    self.expect(b')')?;
                    return Ok(t);
                }
            }
            Some(b'_') => {
                self.i += 1;
                match self.s.get(self.i) {
                    Some(c) if c.is_ascii_digit() || *c == b'-' => {
                        Ok(IntTuple::leaf(Val::st(self.number()?)))
                    }
                    _ => Ok(IntTuple::under()),
                }
            }
            Some(b'X') => {
                self.i += 1;
                Ok(IntTuple::x())
            }
            Some(c) if c.is_ascii_digit() || c == b'-' => {
                Ok(IntTuple::leaf(Val::dy(self.number()?)))
            }
            Some(_) => Err(Error::new(
                "unexpected character: expected an integer, `_N`, `_`, `X` or `(`",
            )),
            None => Err(Error::new("unexpected end of text")),
        }
    }
    fn end(&mut self) -> Result<(), Error> {
        if self.peek().is_some() {
            Err(Error::new("unexpected text after the value"))
        } else {
            Ok(())
        }
    }
}

const EXPECT: [&str; 4] = [
    "expected `)`",
    "expected `:`",
    "expected `]`",
    "expected a different character",
];
const fn idx(c: u8) -> usize {
    match c {
        b')' => 0,
        b':' => 1,
        b']' => 2,
        _ => 3,
    }
}

/// Parses an IntTuple (also coordinates with `_` and steps with `X`).
///
/// ```
/// use layout_types::text::parse::parse_int_tuple;
/// let t = parse_int_tuple("((_2, 3), _)").unwrap();
/// assert_eq!(t.to_string(), "((_2,3),_)");
/// assert!(parse_int_tuple("(_2,3").is_err());
/// ```
pub fn parse_int_tuple(s: &str) -> Result<IntTuple, Error> {
    let mut p = P {
        s: s.as_bytes(),
        i: 0,
    };
    let t = p.int_tuple(0)?;
    p.end()?;
    Ok(t)
}

fn layout_at(p: &mut P<'_>) -> Result<DynLayout, Error> {
    let shape = p.int_tuple(0)?;
    if p.eat(b':') {
        let stride = p.int_tuple(0)?;
        DynLayout::new(shape, stride)
    } else {
        Ok(DynLayout::make_layout(&shape, false))
    }
}

/// Parses a layout `shape:stride`; a bare shape gets compact column-major strides.
///
/// ```
/// use layout_types::text::parse::parse_layout;
/// assert_eq!(parse_layout("(_4,8)").unwrap().to_string(), "(_4,8):(_1,_4)");
/// assert_eq!(parse_layout("(_4,_2):(_2,_1)").unwrap().to_string(), "(_4,_2):(_2,_1)");
/// assert!(parse_layout("(_4,_2):_1").is_err()); // not congruent
/// ```
pub fn parse_layout(s: &str) -> Result<DynLayout, Error> {
    let mut p = P {
        s: s.as_bytes(),
        i: 0,
    };
    let l = layout_at(&mut p)?;
    p.end()?;
    Ok(l)
}

fn tiler_mode(p: &mut P<'_>) -> Result<ParsedMode, Error> {
    if p.peek() == Some(b'[') {
        return Err(Error::new(
            "nested `[...]` tilers are not supported: write the inner tiler as a shape tuple",
        ));
    }
    let shape = p.int_tuple(0)?;
    if shape.is_under() || shape.is_x() {
        return Ok(ParsedMode::Under);
    }
    if p.eat(b':') {
        let stride = p.int_tuple(0)?;
        return Ok(ParsedMode::Layout(DynLayout::new(shape, stride)?));
    }
    if shape.is_tuple() {
        // A nested shape tuple inside a tiler is itself a by-mode tiler.
        Ok(ParsedMode::Shape(shape))
    } else {
        Ok(ParsedMode::Int(shape.val()))
    }
}

fn tiler_list(p: &mut P<'_>) -> Result<Tiler, Error> {
    let mut t = Tiler::by_mode();
    if p.eat(b']') {
        return Ok(t);
    }
    loop {
        let m = tiler_mode(p)?;
        t.push(m)?;
        if p.eat(b',') {
            continue;
        }
        p.expect(b']')?;
        return Ok(t);
    }
}

/// Parses a tiler: a layout (`8:2`), a shape tuple (`(_2,_2)`, one `N:_1` layout a mode), a
/// by-mode list (`[4:1,(2,2):(1,8)]`) or the whole tiler `_` (keep the layout as it is).
///
/// ```
/// use layout_types::text::parse::parse_tiler;
/// assert!(!parse_tiler("8:2").unwrap().by_mode);
/// assert_eq!(parse_tiler("(_2,_2)").unwrap().shape().to_string(), "(_2,_2)");
/// let t = parse_tiler("[4:1,(2,2):(1,8)]").unwrap();
/// assert_eq!(t.shape().to_string(), "(4,4)");
/// assert!(parse_tiler("_").unwrap().is_whole_under());
/// assert!(parse_tiler("X").is_err());
/// ```
pub fn parse_tiler(s: &str) -> Result<Tiler, Error> {
    let mut p = P {
        s: s.as_bytes(),
        i: 0,
    };
    let t = if p.eat(b'[') {
        tiler_list(&mut p)?
    } else {
        let shape = p.int_tuple(0)?;
        if p.eat(b':') {
            let stride = p.int_tuple(0)?;
            Tiler::layout(DynLayout::new(shape, stride)?)
        } else if shape.is_tuple() {
            Tiler::from_shape(&shape)?
        } else if shape.is_int() {
            Tiler::layout(DynLayout::make_layout(&shape, false))
        } else if shape.is_under() {
            Tiler::under()
        } else {
            return Err(Error::new(
                "a tiler must be a layout, a shape or a `[...]` list",
            ));
        }
    };
    p.end()?;
    Ok(t)
}

impl core::str::FromStr for DynLayout {
    type Err = Error;
    /// Parses CuTe text, as [`parse_layout`]: `shape:stride`, or a bare shape (compact
    /// column-major strides).
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_4, 8)".parse().unwrap();
    /// assert_eq!(l.to_string(), "(_4,8):(_1,_4)");
    /// assert!("(_4,8):(_1)".parse::<DynLayout>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_layout(s)
    }
}

impl core::str::FromStr for IntTuple {
    type Err = Error;
    /// Parses CuTe text: `_N` static, `N` dynamic, `(a,b)`, `_`, `X`. Spaces are ignored.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "( _2, 3 )".parse().unwrap();
    /// assert_eq!(t.to_string(), "(_2,3)");
    /// assert!("(_2,3".parse::<IntTuple>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_int_tuple(s)
    }
}

/// Tilers from parsed text.
impl Tiler {
    /// Appends a mode given as a parsed item.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::int_tuple::Val, value::algebra::*, text::parse::ParsedMode};
    /// let mut t = Tiler::by_mode();
    /// t.push(ParsedMode::Int(Val::st(4))).unwrap();
    /// t.push(ParsedMode::Under).unwrap();
    /// let l: DynLayout = "(_8,_6):(_1,_8)".parse().unwrap();
    /// assert_eq!(composition_tiler(&l, &t).unwrap().to_string(), "(_4,_6):(_1,_8)");
    /// ```
    pub fn push(&mut self, m: ParsedMode) -> Result<(), Error> {
        use ParsedMode as P;
        match m {
            P::Layout(l) => self.push_layout(&l),
            P::Int(v) => self.push_kind(TilerMode::Int, &IntTuple::leaf(v), &IntTuple::st(1)),
            P::Under => self.push_kind(TilerMode::Under, &IntTuple::under(), &IntTuple::st(0)),
            P::Shape(s) => self.push_kind(TilerMode::Shape, &s, &s.repeat_like(&IntTuple::st(1))),
        }
    }
}
