//! A fixed-capacity text buffer usable in `const fn`, so that a compile-time panic can carry a
//! message built from computed numbers (a `const` panic only takes a `&str`).

/// Text of at most `CAP` bytes, written in `const fn`. Writes past the capacity are dropped and the
/// text ends with `...`.
///
/// ```
/// use smemdesc_core::ConstText;
/// const T: ConstText<32> = ConstText::new().str("a is ").num(65536).str(" B");
/// assert_eq!(T.as_str(), "a is 65536 B");
/// const U: ConstText<8> = ConstText::new().str("0123456789");
/// assert_eq!(U.as_str(), "01234...");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConstText<const CAP: usize> {
    buf: [u8; CAP],
    len: usize,
    full: bool,
}

impl<const CAP: usize> ConstText<CAP> {
    /// Empty text.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ConstText::<4>::new().as_str(), "");
    /// ```
    pub const fn new() -> Self {
        ConstText {
            buf: [0; CAP],
            len: 0,
            full: false,
        }
    }

    /// Appends `s` (ASCII is kept whole; on overflow the text is cut and ends with `...`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ConstText::<8>::new().str("ab").str("cd").as_str(), "abcd");
    /// ```
    pub const fn str(mut self, s: &str) -> Self {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if self.full {
                return self;
            }
            if self.len == CAP {
                // Overflow: cut at a character boundary and end with "...".
                let mut j = CAP.saturating_sub(3);
                while j > 0 && (self.buf[j] & 0xC0) == 0x80 {
                    j -= 1;
                }
                self.len = j;
                while self.len < CAP && self.len < j + 3 {
                    self.buf[self.len] = b'.';
                    self.len += 1;
                }
                self.full = true;
                return self;
            }
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// Appends `v` in decimal.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ConstText::<16>::new().num(0).str(" ").num(4294967295).as_str(), "0 4294967295");
    /// ```
    pub const fn num(self, v: u32) -> Self {
        let mut digits = [0u8; 10];
        let mut n = 0;
        let mut x = v;
        loop {
            digits[9 - n] = b'0' + (x % 10) as u8;
            n += 1;
            x /= 10;
            if x == 0 {
                break;
            }
        }
        let (_, tail) = digits.split_at(10 - n);
        match core::str::from_utf8(tail) {
            Ok(s) => self.str(s),
            Err(_) => self,
        }
    }

    /// The text.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ConstText::<4>::new().str("hi").as_str().len(), 2);
    /// ```
    pub const fn as_str(&self) -> &str {
        let (head, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(head) {
            Ok(s) => s,
            Err(_) => "",
        }
    }
}

impl<const CAP: usize> Default for ConstText<CAP> {
    fn default() -> Self {
        Self::new()
    }
}
