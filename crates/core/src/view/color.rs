//! Colours: the palettes (name hash, module, kind, self time, diff) and the scheme the user picks. Pure data and
//! arithmetic, shared by the app's canvas and the SVG export (export::svg), so both colour a frame alike.

use crate::model::FrameKind;

/// The module (package, namespace, class) a frame belongs to, read from its name: `a::b::f` → `a`,
/// `math/big.nat.add` → `math/big`, `runtime.mallocgc` → `runtime`; kernel frames are `kernel`, process roots
/// `process`; a name without a separator is its own module.
pub fn module_name(name: &str, kind: FrameKind) -> &str {
    match kind {
        FrameKind::Kernel => return "kernel",
        FrameKind::Process => return "process",
        _ => {}
    }
    let name = name.trim_start_matches(['<', '&', '*', '(']);
    if let Some(head) = name.find("::").and_then(|i| name.get(..i)) {
        return head;
    }
    let tail_start = name.rfind('/').map_or(0, |i| i + 1);
    match name.get(tail_start..).and_then(|t| t.find('.')) {
        Some(i) if tail_start + i > 0 => name.get(..tail_start + i).unwrap_or(name),
        _ => name,
    }
}

/// How frames are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorScheme {
    /// A warm hue hashed from the name: the same function has the same colour in every view.
    #[default]
    Name,
    /// A hue hashed from the module (package, namespace, class).
    Module,
    /// One colour per frame kind: user, kernel, JIT, inline, process.
    Kind,
    /// From pale to deep red by the frame's share of self time in its own total.
    SelfTime,
    /// Stack health (`scorch_core::analysis::health`): red where every stack below reaches no entry point,
    /// orange where some do not, grey-green where all do; purple for frames without a name.
    Health,
    /// Hot/cold (wall-clock profiles, whose samples carry `cpu=on|off`): warm where the frame's time was on a CPU,
    /// blue where it was waiting off-CPU, mixed in proportion ([`hot_cold`]).
    OnOffCpu,
}

impl ColorScheme {
    pub const ALL: [ColorScheme; 6] = [
        ColorScheme::Name,
        ColorScheme::Module,
        ColorScheme::Kind,
        ColorScheme::SelfTime,
        ColorScheme::Health,
        ColorScheme::OnOffCpu,
    ];
    pub fn label(self) -> &'static str {
        match self {
            ColorScheme::Name => "function",
            ColorScheme::Module => "module",
            ColorScheme::Kind => "kind",
            ColorScheme::SelfTime => "self time",
            ColorScheme::Health => "stack health",
            ColorScheme::OnOffCpu => "on/off-CPU",
        }
    }
}

/// Highlight colour of search matches (flamegraph.pl's magenta).
pub const MATCH_COLOR: &str = "rgb(230,0,230)";

/// Fill colours of the kind scheme (also the legend's swatches).
pub const KIND_COLORS: [(FrameKind, &str); 5] = [
    (FrameKind::User, "rgb(242,179,90)"),
    (FrameKind::Kernel, "rgb(232,116,59)"),
    (FrameKind::Jit, "rgb(95,181,95)"),
    (FrameKind::Inline, "rgb(94,196,196)"),
    (FrameKind::Process, "rgb(180,180,200)"),
];

/// Fill colours of the stack-health scheme (also the legend's swatches), by [`HealthClass`].
pub const HEALTH_COLORS: [(HealthClass, &str); 4] = [
    (HealthClass::Whole, "rgb(178,204,170)"),
    (HealthClass::Mixed, "rgb(242,160,60)"),
    (HealthClass::Truncated, "rgb(214,58,52)"),
    (HealthClass::Unnamed, "rgb(150,100,205)"),
];

/// What the stack-health scheme says of a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HealthClass {
    /// Every stack through it reaches an entry point.
    Whole,
    /// Some stacks through it do, some do not.
    Mixed,
    /// No stack through it reaches an entry point: it may not be the real caller.
    Truncated,
    /// The frame has no name (`[unknown]`, a bare module or address).
    Unnamed,
}

impl HealthClass {
    pub fn label(self) -> &'static str {
        match self {
            HealthClass::Whole => "whole stacks",
            HealthClass::Mixed => "some truncated",
            HealthClass::Truncated => "truncated stacks",
            HealthClass::Unnamed => "unnamed frame",
        }
    }
}

/// Ten steps from pale yellow (no self time) to deep red (all self time).
pub const SELF_COLORS: [&str; 10] = [
    "rgb(250,240,200)",
    "rgb(250,225,170)",
    "rgb(250,205,140)",
    "rgb(248,185,115)",
    "rgb(244,160,95)",
    "rgb(238,135,80)",
    "rgb(228,108,66)",
    "rgb(214,80,55)",
    "rgb(196,52,45)",
    "rgb(170,28,36)",
];

/// A frame's fill colour, hashed from its name (FNV-1a), so the same function has the same colour in every view
/// and profile. Warm hues for user code; orange kernel, green JIT, aqua inline, as flamegraph.pl's java palette.
pub fn frame_color(name: &str, kind: FrameKind) -> Rgb {
    let h = fnv1a(name.as_bytes());
    let v1 = (h & 0xff) as f64 / 255.0;
    let v2 = ((h >> 8) & 0xff) as f64 / 255.0;
    let v3 = ((h >> 16) & 0xff) as f64 / 255.0;
    let (r, g, b) = match kind {
        FrameKind::User => (205.0 + 50.0 * v3, 230.0 * v1, 55.0 * v2),
        FrameKind::Kernel => (200.0 + 55.0 * v1, 110.0 + 50.0 * v2, 30.0 * v3),
        FrameKind::Jit => (50.0 + 60.0 * v1, 170.0 + 60.0 * v2, 50.0 + 60.0 * v3),
        FrameKind::Inline => (50.0 + 60.0 * v1, 165.0 + 55.0 * v2, 165.0 + 55.0 * v2),
        FrameKind::Process => (160.0 + 40.0 * v1, 160.0 + 40.0 * v1, 170.0 + 40.0 * v1),
    };
    [r as u8, g as u8, b as u8]
}

/// A colour as red, green, blue.
pub type Rgb = [u8; 3];

/// `rgb(r,g,b)` → [r, g, b] (the constants above; anything else is grey).
pub fn css_rgb(s: &str) -> Rgb {
    let mut out = [204u8; 3];
    let inner = s.trim_start_matches("rgb(").trim_end_matches(')');
    for (o, part) in out.iter_mut().zip(inner.split(',')) {
        *o = part.trim().parse().unwrap_or(204);
    }
    out
}

/// Differential colour: red grew, blue shrank, grey unchanged; intensity relative to the largest change shown.
pub fn diff_color(delta: f64, max: f64) -> Rgb {
    if max <= 0.0 || delta.abs() < max * 1e-3 {
        return [210, 210, 210];
    }
    let a = (delta.abs() / max).clamp(0.0, 1.0);
    // From light grey towards saturated red or blue.
    let fade = |full: f64| (210.0 + (full - 210.0) * a).round() as u8;
    if delta > 0.0 {
        [fade(230.0), fade(40.0), fade(40.0)]
    } else {
        [fade(40.0), fade(90.0), fade(230.0)]
    }
}

/// Hot/cold: a frame whose time was all on a CPU keeps its warm name colour ([`frame_color`]); one whose time was
/// all spent waiting off-CPU gets a blue of the same name hash; in between, mixed by `off`, the off-CPU fraction
/// of its total (as Brendan Gregg's hot/cold flame graphs tell the two apart).
pub fn hot_cold(name: &str, kind: FrameKind, off: f64) -> Rgb {
    let warm = frame_color(name, kind);
    let h = fnv1a(name.as_bytes());
    let v = ((h >> 4) & 0xff) as f64 / 255.0;
    let cold = [(40.0 + 50.0 * v), (110.0 + 60.0 * v), 225.0];
    let t = off.clamp(0.0, 1.0);
    let mix = |a: u8, b: f64| (f64::from(a) * (1.0 - t) + b * t).round() as u8;
    let [wr, wg, wb] = warm;
    let [cr, cg, cb] = cold;
    [mix(wr, cr), mix(wg, cg), mix(wb, cb)]
}

/// A [`diff_color`] in the colour-blind-safe palette (Okabe and Ito's orange and blue, told apart with every
/// common colour-vision deficiency): the same intensity from the same light grey, orange for growth.
pub fn colorblind_safe(c: Rgb) -> Rgb {
    let (grey, r, b) = (210.0, f64::from(c[0]), f64::from(c[2]));
    let (a, full) = if r > b {
        ((grey - b) / 170.0, [230.0, 159.0, 0.0])
    } else if b > r {
        ((grey - r) / 170.0, [0.0, 114.0, 178.0])
    } else {
        return c;
    };
    let a = a.clamp(0.0, 1.0);
    full.map(|f| (grey + (f - grey) * a).round() as u8)
}

pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// WCAG 2.2 relative luminance of an sRGB colour (0 black … 1 white).
pub fn relative_luminance(c: Rgb) -> f64 {
    let lin = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// WCAG contrast ratio of two colours (1 … 21).
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (relative_luminance(a), relative_luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The label colour for a box of colour `fill`: black or white, whichever contrasts more. The better of the
/// two is never under √21 ≈ 4.58:1, above WCAG AA's 4.5:1 for text.
pub fn label_color(fill: Rgb) -> Rgb {
    if contrast(fill, [0, 0, 0]) >= contrast(fill, [255, 255, 255]) {
        [0, 0, 0]
    } else {
        [255, 255, 255]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_colour_meets_aa_on_every_grey_and_hue() {
        // Every 8th value of each channel: the better of black and white always reaches 4.5:1.
        for r in (0..=255u16).step_by(8) {
            for g in (0..=255u16).step_by(8) {
                for b in (0..=255u16).step_by(8) {
                    let fill = [r as u8, g as u8, b as u8];
                    let c = contrast(fill, label_color(fill));
                    assert!(c >= 4.5, "{fill:?}: {c}");
                }
            }
        }
        // Known values (WebAIM's contrast checker): white on black 21:1, #777 on white 4.48:1.
        assert!((contrast([0, 0, 0], [255, 255, 255]) - 21.0).abs() < 1e-9);
        assert!((contrast([0x77, 0x77, 0x77], [255, 255, 255]) - 4.48).abs() < 0.01);
        assert_eq!(label_color([40, 40, 120]), [255, 255, 255]);
        assert_eq!(label_color([245, 200, 90]), [0, 0, 0]);
    }

    #[test]
    fn colorblind_palette_keeps_sign_and_intensity() {
        assert_eq!(colorblind_safe(diff_color(1.0, 1.0)), [230, 159, 0]);
        assert_eq!(colorblind_safe(diff_color(-1.0, 1.0)), [0, 114, 178]);
        assert_eq!(colorblind_safe(diff_color(0.0, 1.0)), [210, 210, 210]);
        // Half the change: half way from the grey (210) to the full colour.
        assert_eq!(colorblind_safe(diff_color(0.5, 1.0)), [220, 185, 105]);
    }
}
