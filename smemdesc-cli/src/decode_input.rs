//! How `decode` reads a raw descriptor from the command line, without guessing silently.
//!
//! A descriptor is usually copied from a hex dump, often without its `0x`: `4000004000010000`
//! read as decimal is another descriptor (`0x000e35fb81854f10`) that decodes without error. So:
//!
//! * `0x…` is hex, always;
//! * with `--decimal`, every value without `0x` is decimal;
//! * bare digits with a hex letter (`a`-`f`) are hex, and the report says so;
//! * bare decimal digits that cannot be hex of the value's width (more than 16 digits for a 64-bit
//!   descriptor, more than 8 for a 32-bit instruction descriptor) are decimal, and the report says
//!   so (a descriptor printed in decimal has up to 20 digits);
//! * a single digit is the same number either way;
//! * any other bare digit string reads as two different numbers: refused, naming both readings
//!   and how to write each (`0x…`, or `--decimal`).
//!
//! (No `0d` prefix for decimal: `0d12` is also the hex digits `0d12`.)
//!
//! `_` separators are allowed anywhere. Only `decode` reads numbers this way; every other flag
//! takes decimal or `0x` hex (`parse_num`).

/// A number from the command line and, when it was read by inference, what was inferred.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawInput {
    /// The value.
    pub value: u64,
    /// How a value written without `0x` was read, for the report (`None`: no inference).
    pub note: Option<String>,
}

/// Reads a raw value of `bits` bits (64: SMEM descriptor, 32: instruction descriptor) by the rules
/// of the module docs (`decimal`: `--decimal` was given). The width only decides which bare digit
/// strings can be hex; a value too wide for it is the caller's error to report.
pub fn parse_raw(s: &str, bits: u32, decimal: bool) -> Result<RawInput, String> {
    let t = s.trim().replace('_', "");
    if t.is_empty() {
        return Err("empty number".to_string());
    }
    let malformed = |why: String| {
        format!(
            "malformed number `{s}` ({why}); expected 0x-prefixed hex, hex digits with a letter a-f, or decimal digits"
        )
    };
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        // `from_str_radix` takes a leading `+`: `0x+1` is not hex.
        if !h.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(malformed("0x takes hex digits only".to_string()));
        }
        let value = u64::from_str_radix(h, 16).map_err(|e| malformed(e.to_string()))?;
        return Ok(RawInput { value, note: None });
    }
    if decimal {
        if !t.chars().all(|c| c.is_ascii_digit()) {
            return Err(malformed("--decimal takes decimal digits only".to_string()));
        }
        let value = t
            .parse::<u64>()
            .map_err(|e| malformed(format!("--decimal: {e}")))?;
        return Ok(RawInput { value, note: None });
    }
    if !t.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(malformed("not a number".to_string()));
    }
    let hex_digits = (bits / 4) as usize;
    // `0x` and the value's width in hex digits, e.g. 0x000e35fb81854f10.
    let full = |v: u64| format!("{v:#0w$x}", w = hex_digits + 2);
    if t.chars().any(|c| c.is_ascii_alphabetic()) {
        let value = u64::from_str_radix(&t, 16).map_err(|e| malformed(e.to_string()))?;
        let note = format!(
            "read `{s}` as hex {} (it has hex digits a-f); write 0x{t} to say so",
            full(value)
        );
        return Ok(RawInput {
            value,
            note: Some(note),
        });
    }
    // Only decimal digits from here on.
    let decimal = t.parse::<u64>().map_err(|e| malformed(e.to_string()))?;
    if t.len() > hex_digits {
        let note = format!(
            "read `{s}` as decimal {decimal} = {} ({} digits are too many for {bits} bits in hex); add --decimal to say so",
            full(decimal),
            t.len()
        );
        return Ok(RawInput {
            value: decimal,
            note: Some(note),
        });
    }
    // At most `hex_digits` <= 16 digits: the hex reading fits in u64.
    let hex = u64::from_str_radix(&t, 16).map_err(|e| malformed(e.to_string()))?;
    if hex == decimal {
        return Ok(RawInput {
            value: hex,
            note: None,
        });
    }
    Err(format!(
        "`{s}` is ambiguous without a prefix: as hex it is {}, as decimal it is {decimal} = {}; write 0x{t} for hex, or add --decimal",
        full(hex),
        full(decimal)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings() {
        let ok = |s: &str, bits| parse_raw(s, bits, false).unwrap();
        assert_eq!(ok("0x4000004000010000", 64).value, 0x4000_0040_0001_0000);
        assert_eq!(ok("0x4000004000010000", 64).note, None);
        assert_eq!(
            parse_raw("1024", 64, true).unwrap(),
            RawInput {
                value: 1024,
                note: None
            }
        );
        assert!(parse_raw("10a40", 64, true)
            .unwrap_err()
            .contains("--decimal"));
        assert_eq!(
            ok("7", 64),
            RawInput {
                value: 7,
                note: None
            }
        );
        assert_eq!(ok("4000_0040_0001_0a40", 64).value, 0x4000_0040_0001_0a40);
        assert!(ok("10a40", 64)
            .note
            .unwrap()
            .contains("as hex 0x0000000000010a40"));
        // 2^64 - 1 has 20 decimal digits: only decimal.
        let max = ok("18446744073709551615", 64);
        assert_eq!(max.value, u64::MAX);
        assert!(max.note.unwrap().contains("decimal"));
        // A 32-bit idesc in decimal: 9 digits cannot be 32-bit hex.
        assert_eq!(ok("134874256", 32).value, 134_874_256);
        for bad in ["4000004000010000", "10", "04020910"] {
            let e = parse_raw(bad, 64, false).unwrap_err();
            assert!(
                e.contains("ambiguous") && e.contains("--decimal"),
                "{bad}: {e}"
            );
        }
        assert!(parse_raw("04020910", 32, false)
            .unwrap_err()
            .contains("ambiguous"));
        assert!(parse_raw("0xzz", 64, false)
            .unwrap_err()
            .contains("malformed number"));
        assert_eq!(parse_raw(" _ ", 64, false).unwrap_err(), "empty number");
        assert!(parse_raw("-5", 64, false)
            .unwrap_err()
            .contains("malformed number"));
    }
}
