//! The small statistics the diff gate needs ([`super::gate`]): mean, sample variance, and Welch's unequal-variance
//! t-test (optionally with a floor under each side's variance) with a one-sided p-value from Student's t
//! distribution (through the regularised incomplete beta function, as in Numerical Recipes §6.4). Checked against SciPy's `scipy.stats.t.sf` and
//! `scipy.stats.ttest_ind(equal_var=False, alternative="greater")` in the tests below.

/// Arithmetic mean (0 for no values).
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Sample variance (divisor n − 1; 0 for fewer than two values).
pub fn variance(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64
}

/// The outcome of Welch's test of "the target's mean is larger than the base's".
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Welch {
    /// `mean(target) − mean(base)`.
    pub delta: f64,
    /// The t statistic (±∞ when both sides have no spread and the means differ).
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: f64,
    /// One-sided p-value: the chance of a t this large if the target's mean were not larger.
    pub p: f64,
}

/// Welch's t-test, one-sided (target > base). `None` when a side has fewer than two values (no spread to
/// compare against).
pub fn welch_greater(base: &[f64], target: &[f64]) -> Option<Welch> {
    welch_greater_floored(base, target, 0.0, 0.0)
}

/// Welch's t-test, one-sided (target > base), with each side's variance at least `floor_base` and
/// `floor_target` (a variance known from elsewhere: the gate's sampling variance of a share). `None` when a side
/// has fewer than two values.
pub fn welch_greater_floored(
    base: &[f64],
    target: &[f64],
    floor_base: f64,
    floor_target: f64,
) -> Option<Welch> {
    let (n1, n2) = (base.len(), target.len());
    if n1 < 2 || n2 < 2 {
        return None;
    }
    let delta = mean(target) - mean(base);
    let a = variance(base).max(floor_base) / n1 as f64;
    let b = variance(target).max(floor_target) / n2 as f64;
    let se2 = a + b;
    if se2 <= 0.0 || !se2.is_finite() {
        // No spread on either side: the difference is exact.
        let df = (n1 + n2 - 2) as f64;
        let (t, p) = if delta > 0.0 {
            (f64::INFINITY, 0.0)
        } else if delta < 0.0 {
            (f64::NEG_INFINITY, 1.0)
        } else {
            (0.0, 0.5)
        };
        return Some(Welch { delta, t, df, p });
    }
    let t = delta / se2.sqrt();
    let df = se2 * se2 / (a * a / (n1 - 1) as f64 + b * b / (n2 - 1) as f64);
    Some(Welch {
        delta,
        t,
        df,
        p: t_sf(t, df),
    })
}

/// Student's t survival function `P(T > t)` with `df` degrees of freedom (`df > 0`).
pub fn t_sf(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t == f64::INFINITY {
        return 0.0;
    }
    if t == f64::NEG_INFINITY {
        return 1.0;
    }
    let tail = 0.5 * beta_inc(df / 2.0, 0.5, df / (df + t * t));
    if t >= 0.0 {
        tail
    } else {
        1.0 - tail
    }
}

/// Regularised incomplete beta function `I_x(a, b)` for `a, b > 0`.
pub fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_cf(a, b, x) / a
    } else {
        1.0 - front * beta_cf(b, a, 1.0 - x) / b
    }
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    const EPS: f64 = 1e-15;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=300 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < EPS {
            break;
        }
    }
    h
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, nine coefficients; relative error about 1e-15).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = C[0];
    for (i, c) in C.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-300)
    }

    #[test]
    fn t_sf_matches_scipy() {
        // scipy 1.17.1: `from scipy.stats import t; t.sf(T, DF)`.
        let cases = [
            (0.0, 3.0, 0.5),
            (1.0, 1.0, 0.25),
            (2.0, 2.0, 0.09175170953613698),
            (2.5, 4.0, 0.03338327240599407),
            (-1.5, 5.0, 0.9030481598787634),
            (10.0, 2.5, 0.0022207478836537117),
            (30.0, 3.7, 7.42852062617601e-06),
            (3.0, 100.0, 0.0017039576716647233),
            (1e3, 4.0, 2.999980000104999e-12),
        ];
        for (t, df, want) in cases {
            let got = t_sf(t, df);
            assert!(close(got, want, 1e-9), "t_sf({t}, {df}) = {got}, scipy {want}");
        }
        assert_eq!(t_sf(f64::INFINITY, 3.0), 0.0);
        assert_eq!(t_sf(f64::NEG_INFINITY, 3.0), 1.0);
        assert!(t_sf(1.0, 0.0).is_nan());
    }

    #[test]
    fn welch_matches_scipy() {
        // `ttest_ind(target, base, equal_var=False, alternative="greater")`; df from the Welch–Satterthwaite
        // formula as scipy computes it.
        let base = [25.1, 26.3, 24.8];
        let target = [28.9, 27.5, 29.4, 28.0];
        let w = welch_greater(&base, &target).unwrap();
        assert!(close(w.t, 4.858_026_639_797_373, 1e-9), "{w:?}");
        assert!(close(w.df, 4.657_883_231_434_378, 1e-9), "{w:?}");
        assert!(close(w.p, 0.002_799_555_825_190_633, 1e-8), "{w:?}");
        // Swapped: the same t negated, the other tail.
        let s = welch_greater(&target, &base).unwrap();
        assert!(close(s.t, -w.t, 1e-12) && close(s.p, 1.0 - w.p, 1e-9), "{s:?}");
    }

    #[test]
    fn a_floor_replaces_a_smaller_variance_only() {
        let (base, target) = ([10.0, 10.2, 9.8], [12.0, 12.1, 11.9]);
        // Sample variances 0.04 and 0.01; floors of 1.0 replace both: se = √(2/3), df = 4 (equal variances).
        let w = welch_greater_floored(&base, &target, 1.0, 1.0).unwrap();
        assert!(close(w.t, 2.0 / (2.0f64 / 3.0).sqrt(), 1e-12), "{w:?}");
        assert!(close(w.df, 4.0, 1e-12), "{w:?}");
        assert!(close(w.p, t_sf(w.t, 4.0), 1e-15));
        // Floors below the sample variances change nothing.
        assert_eq!(
            welch_greater_floored(&base, &target, 1e-6, 1e-6),
            welch_greater(&base, &target)
        );
    }

    #[test]
    fn welch_edges() {
        assert_eq!(welch_greater(&[1.0], &[2.0, 3.0]), None);
        let w = welch_greater(&[1.0, 1.0], &[2.0, 2.0]).unwrap();
        assert_eq!((w.t, w.p), (f64::INFINITY, 0.0));
        let w = welch_greater(&[1.0, 1.0], &[1.0, 1.0]).unwrap();
        assert_eq!((w.delta, w.p), (0.0, 0.5));
    }

    #[test]
    fn ln_gamma_known_values() {
        // Γ(1) = Γ(2) = 1, Γ(0.5) = √π, Γ(5) = 24, Γ(0.1) = 9.513507698668732.
        assert!(ln_gamma(1.0).abs() < 1e-14);
        assert!(ln_gamma(2.0).abs() < 1e-14);
        assert!(close(ln_gamma(0.5), std::f64::consts::PI.sqrt().ln(), 1e-13));
        assert!(close(ln_gamma(5.0), 24f64.ln(), 1e-13));
        assert!(close(ln_gamma(0.1), 9.513_507_698_668_732f64.ln(), 1e-13));
    }
}
