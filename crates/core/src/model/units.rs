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
    /// Time in microseconds (declared: BCC's `offcputime -f` writes µs).
    Microseconds,
    /// Time in milliseconds (declared).
    Milliseconds,
    /// Time in seconds (declared).
    Seconds,
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
            Unit::Microseconds => "microseconds",
            Unit::Milliseconds => "milliseconds",
            Unit::Seconds => "seconds",
            Unit::Bytes => "bytes",
            Unit::Other(s) => s,
        }
    }

    /// The unit a name stands for: scorch's own names ([`Unit::name`]), which links and `# scorch-unit:` lines
    /// carry, and any other name as [`Unit::Other`].
    pub fn from_name(name: &str) -> Unit {
        match name {
            "samples" => Unit::Samples,
            "nanoseconds" => Unit::Nanoseconds,
            "microseconds" => Unit::Microseconds,
            "milliseconds" => Unit::Milliseconds,
            "seconds" => Unit::Seconds,
            "bytes" => Unit::Bytes,
            other => Unit::Other(other.to_string()),
        }
    }

    /// Nanoseconds per unit, for the units of time.
    pub fn ns_per_unit(&self) -> Option<f64> {
        match self {
            Unit::Nanoseconds => Some(1.0),
            Unit::Microseconds => Some(1e3),
            Unit::Milliseconds => Some(1e6),
            Unit::Seconds => Some(1e9),
            Unit::Samples | Unit::Bytes | Unit::Other(_) => None,
        }
    }
}

/// A unit a user declares for a unit-less input (folded stacks: the file does not say what its counts are).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DeclaredUnit {
    Samples,
    Nanoseconds,
    Microseconds,
    Milliseconds,
    Seconds,
    Bytes,
    Count,
}

impl DeclaredUnit {
    /// Every declarable unit, in the order a picker lists them.
    pub const ALL: [DeclaredUnit; 7] = [
        DeclaredUnit::Samples,
        DeclaredUnit::Nanoseconds,
        DeclaredUnit::Microseconds,
        DeclaredUnit::Milliseconds,
        DeclaredUnit::Seconds,
        DeclaredUnit::Bytes,
        DeclaredUnit::Count,
    ];

    /// `samples`, `ns`, `us` (or `µs`, `usecs`), `ms`, `s`, `bytes`, `count`, and the long names.
    pub fn parse(s: &str) -> Option<DeclaredUnit> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "samples" | "sample" => DeclaredUnit::Samples,
            "ns" | "nsecs" | "nanoseconds" => DeclaredUnit::Nanoseconds,
            "us" | "µs" | "usecs" | "microseconds" => DeclaredUnit::Microseconds,
            "ms" | "msecs" | "milliseconds" => DeclaredUnit::Milliseconds,
            "s" | "secs" | "seconds" => DeclaredUnit::Seconds,
            "b" | "bytes" => DeclaredUnit::Bytes,
            "count" | "counts" => DeclaredUnit::Count,
            _ => return None,
        })
    }

    /// The short name links and the CLI use: `us`, `bytes`, …
    pub fn short(self) -> &'static str {
        match self {
            DeclaredUnit::Samples => "samples",
            DeclaredUnit::Nanoseconds => "ns",
            DeclaredUnit::Microseconds => "us",
            DeclaredUnit::Milliseconds => "ms",
            DeclaredUnit::Seconds => "s",
            DeclaredUnit::Bytes => "bytes",
            DeclaredUnit::Count => "count",
        }
    }

    /// How a picker labels it.
    pub fn label(self) -> &'static str {
        match self {
            DeclaredUnit::Samples => "samples",
            DeclaredUnit::Nanoseconds => "ns",
            DeclaredUnit::Microseconds => "µs",
            DeclaredUnit::Milliseconds => "ms",
            DeclaredUnit::Seconds => "s",
            DeclaredUnit::Bytes => "bytes",
            DeclaredUnit::Count => "count",
        }
    }

    pub fn unit(self) -> Unit {
        match self {
            DeclaredUnit::Samples => Unit::Samples,
            DeclaredUnit::Nanoseconds => Unit::Nanoseconds,
            DeclaredUnit::Microseconds => Unit::Microseconds,
            DeclaredUnit::Milliseconds => Unit::Milliseconds,
            DeclaredUnit::Seconds => Unit::Seconds,
            DeclaredUnit::Bytes => Unit::Bytes,
            DeclaredUnit::Count => Unit::Other("count".into()),
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
        Unit::Nanoseconds | Unit::Microseconds | Unit::Milliseconds | Unit::Seconds => {
            format_duration_ns(value * unit.ns_per_unit().unwrap_or(1.0))
        }
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
    fn declared_units() {
        for d in DeclaredUnit::ALL {
            assert_eq!(DeclaredUnit::parse(d.short()), Some(d));
            assert_eq!(
                Unit::from_name(d.unit().name()),
                d.unit(),
                "scorch's own names read back"
            );
        }
        assert_eq!(DeclaredUnit::parse("µs"), Some(DeclaredUnit::Microseconds));
        assert_eq!(DeclaredUnit::parse("usecs"), Some(DeclaredUnit::Microseconds));
        assert_eq!(DeclaredUnit::parse("furlongs"), None);
        assert_eq!(format_value(1500.0, &Unit::Microseconds), "1.50 ms");
        assert_eq!(format_value(250.0, &Unit::Milliseconds), "250.00 ms");
        assert_eq!(format_value(90.0, &Unit::Seconds), "1 min 30.0 s");
        assert_eq!(format_value(3.0 * 1048576.0, &Unit::Bytes), "3.00 MiB");
        assert_eq!(format_value(7.0, &Unit::Other("count".into())), "7 count");
    }

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
