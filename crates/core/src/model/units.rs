//! Units of weight and how numbers are written for people.
//!
//! Weights are exact integers (u64). A profile with fractional counts stores them scaled by
//! `10^decimals` (see [`Weight`]) so that no binary floating point is involved until display.

use std::fmt;

/// What one unit of weight means.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Unit {
    /// Sample counts (folded stacks, perf without a period).
    Samples,
    /// Time in nanoseconds (perf cpu-clock periods, pprof `nanoseconds`).
    Nanoseconds,
    /// Memory in bytes.
    Bytes,
    /// Another count, named (perf `events`, pprof `count`, …).
    Other(String),
}

impl Unit {
    pub fn name(&self) -> &str {
        match self {
            Unit::Samples => "samples",
            Unit::Nanoseconds => "nanoseconds",
            Unit::Bytes => "bytes",
            Unit::Other(s) => s,
        }
    }
}

/// An exact weight with its decimal scale: the value is `raw / 10^decimals`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weight {
    pub raw: u64,
    pub decimals: u32,
}

impl Weight {
    pub fn as_f64(self) -> f64 {
        self.raw as f64 / 10f64.powi(self.decimals as i32)
    }
}

/// Writes the exact decimal value: `31230` with 2 decimals is `312.3`.
impl fmt::Display for Weight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.decimals == 0 {
            return write!(f, "{}", self.raw);
        }
        let p = 10u64.pow(self.decimals.min(19));
        let int = self.raw / p;
        let frac = self.raw % p;
        if frac == 0 {
            return write!(f, "{int}");
        }
        let s = format!("{:0width$}", frac, width = self.decimals as usize);
        write!(f, "{int}.{}", s.trim_end_matches('0'))
    }
}

/// Groups thousands: `1234567` → `1,234,567`.
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A value with its unit, for people: "1.24 s", "412 MiB", "9,210 samples".
pub fn format_value(value: f64, unit: &Unit) -> String {
    match unit {
        Unit::Nanoseconds => format_duration_ns(value),
        Unit::Bytes => format_bytes(value),
        Unit::Samples if value == 1.0 => "1 sample".to_string(),
        Unit::Samples => format!("{} samples", format_count(value)),
        Unit::Other(name) => format!("{} {}", format_count(value), name),
    }
}

fn format_count(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e18 {
        let sign = if v < 0.0 { "-" } else { "" };
        format!("{sign}{}", group_thousands(v.abs() as u64))
    } else {
        format!("{v:.2}")
    }
}

fn format_duration_ns(ns: f64) -> String {
    let a = ns.abs();
    if a >= 60e9 {
        let m = (ns / 60e9).trunc();
        format!("{} min {:.1} s", m, (ns - m * 60e9) / 1e9)
    } else if a >= 1e9 {
        format!("{:.3} s", ns / 1e9)
    } else if a >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if a >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn format_bytes(b: f64) -> String {
    let a = b.abs();
    if a >= 1024.0 * 1024.0 * 1024.0 {
        format!("{:.2} GiB", b / (1024.0 * 1024.0 * 1024.0))
    } else if a >= 1024.0 * 1024.0 {
        format!("{:.2} MiB", b / (1024.0 * 1024.0))
    } else if a >= 1024.0 {
        format!("{:.2} KiB", b / 1024.0)
    } else {
        format!("{b:.0} B")
    }
}

/// A share as a percentage with adaptive precision: "31.2 %", "0.042 %".
pub fn format_percent(part: f64, whole: f64) -> String {
    if whole <= 0.0 {
        return "0 %".to_string();
    }
    let p = part / whole * 100.0;
    if p == 0.0 {
        "0 %".to_string()
    } else if p.abs() >= 10.0 {
        format!("{p:.1} %")
    } else if p.abs() >= 0.1 {
        format!("{p:.2} %")
    } else {
        format!("{p:.3} %")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_display_is_exact() {
        assert_eq!(
            Weight {
                raw: 3123,
                decimals: 2
            }
            .to_string(),
            "31.23"
        );
        assert_eq!(
            Weight {
                raw: 3120,
                decimals: 2
            }
            .to_string(),
            "31.2"
        );
        assert_eq!(
            Weight {
                raw: 3100,
                decimals: 2
            }
            .to_string(),
            "31"
        );
        assert_eq!(Weight { raw: 5, decimals: 3 }.to_string(), "0.005");
        assert_eq!(Weight { raw: 7, decimals: 0 }.to_string(), "7");
    }

    #[test]
    fn values_carry_units() {
        assert_eq!(format_value(9210.0, &Unit::Samples), "9,210 samples");
        assert_eq!(format_value(1.24e9, &Unit::Nanoseconds), "1.240 s");
        assert_eq!(format_value(412.0 * 1024.0 * 1024.0, &Unit::Bytes), "412.00 MiB");
        assert_eq!(format_percent(312.0, 1000.0), "31.2 %");
        assert_eq!(group_thousands(1_234_567), "1,234,567");
        assert_eq!(group_thousands(12), "12");
    }
}
