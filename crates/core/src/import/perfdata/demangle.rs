//! Symbol names as `perf script` prints them. perf 6.1 without libbfd (Debian's) demangles every user-space
//! symbol with libiberty's `cplus_demangle(name, DMGL_NO_OPTS)` (`demangle_sym` in `util/symbol-elf.c`), which
//! tries Rust first, then C++ (Itanium ABI): no parameter lists, no return types, no Rust hashes or crate
//! disambiguators, the standard abbreviations short (`std::string`), and anything after the mangled name (a
//! clone suffix such as `.isra.0`, `.cold`, `.llvm.123`) dropped. Kernel symbols are not demangled (perf's
//! `--demangle-kernel` is off by default). The demanglers are `rustc-demangle` and, with the `cpp-demangle`
//! feature (the CLI's; not the browser's, for its size), `cpp_demangle`; a name neither reads stays as it is.

#[cfg(feature = "cpp-demangle")]
use cpp_demangle::{BorrowedSymbol, DemangleOptions, ParseOptions};
use std::borrow::Cow;

/// Deeper than any real symbol; bounds the C++ parser's recursion on hostile names.
#[cfg(feature = "cpp-demangle")]
const RECURSION_LIMIT: u32 = 256;
/// Longer names are left as they are (a real mangled name is a few KB at most).
const MAX_LEN: usize = 64 << 10;

/// `name` demangled as perf prints it, or `name` itself.
pub fn demangle(name: &str) -> Cow<'_, str> {
    if name.len() > MAX_LEN {
        return Cow::Borrowed(name);
    }
    if let Some(r) = rust(name) {
        return Cow::Owned(r);
    }
    match cpp(name) {
        Some(c) => Cow::Owned(c),
        None => Cow::Borrowed(name),
    }
}

/// A Rust symbol as libiberty's `rust_demangle` reads it: v0 (`_R…`, up to a `.` suffix), or legacy
/// (`_ZN…17h<16 hex digits>E`, then any `.` suffix), printed without hash and crate disambiguators.
fn rust(name: &str) -> Option<String> {
    let core = if name.starts_with("_R") {
        name.split('.').next().unwrap_or(name)
    } else if name.starts_with("_ZN") {
        // The legacy name ends at the last `E` that ends the name or is followed by a `.` suffix.
        let b = name.as_bytes();
        let end = (4..=b.len())
            .rev()
            .find(|&end| b.get(end - 1) == Some(&b'E') && (end == b.len() || b.get(end) == Some(&b'.')))?;
        let core = name.get(..end)?;
        let body = core.strip_suffix('E')?;
        let hash = body.get(body.len().checked_sub(19)?..)?;
        let hex = hash.strip_prefix("17h")?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        core
    } else {
        return None;
    };
    let d = rustc_demangle::try_demangle(core).ok()?;
    Some(format!("{d:#}"))
}

/// A C++ symbol as libiberty's `cplus_demangle_v3` reads it without `DMGL_PARAMS`: the name of the function
/// (no parameters, return type or ref-qualifier), what follows its encoding ignored.
fn cpp(name: &str) -> Option<String> {
    if !name.starts_with("_Z") {
        return global_ctor_dtor(name);
    }
    #[cfg(feature = "cpp-demangle")]
    {
        if let Some(thunk) = thunk(name) {
            return Some(thunk);
        }
        let out = cpp_with(name, false)?;
        let out = out
            .strip_suffix(" &&")
            .or_else(|| out.strip_suffix(" &"))
            .unwrap_or(&out);
        Some(out.to_string())
    }
    #[cfg(not(feature = "cpp-demangle"))]
    None
}

#[cfg(feature = "cpp-demangle")]
/// libiberty's thunks print their target in full (their inner encoding is not the top level):
/// `_ZTh<offset>_<encoding>`, `_ZTv<offset>_<offset>_<encoding>`, `_ZTc<offset><offset><encoding>`.
fn thunk(name: &str) -> Option<String> {
    // A call offset: `h<number>_` or `v<number>_<number>_` (numbers may start with `n`).
    fn skip(s: &str) -> Option<&str> {
        let s = s.strip_prefix('n').unwrap_or(s);
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        (digits > 0).then(|| s.get(digits..)).flatten()?.strip_prefix('_')
    }
    fn offset(s: &str) -> Option<&str> {
        if let Some(rest) = s.strip_prefix('h') {
            skip(rest)
        } else {
            skip(s.strip_prefix('v')?).and_then(skip)
        }
    }
    let (what, inner) = if let Some(rest) = name.strip_prefix("_ZTc") {
        ("covariant return thunk to ", offset(offset(rest)?)?)
    } else if let Some(rest) = name.strip_prefix("_ZGTt") {
        ("transaction clone for ", rest)
    } else if let Some(rest) = name.strip_prefix("_ZT") {
        let what = match rest.as_bytes().first()? {
            b'h' => "non-virtual thunk to ",
            b'v' => "virtual thunk to ",
            _ => return None,
        };
        (what, offset(rest)?)
    } else {
        return None;
    };
    Some(format!("{what}{}", cpp_with(&format!("_Z{inner}"), true)?))
}

#[cfg(feature = "cpp-demangle")]
/// The standard abbreviations libiberty prints short unless verbose (`Ss`, `Si`, `So`, `Sd`), each with its
/// full form, which it prints for the prefix of a constructor or destructor (`_ZNSsC1Ev`).
const ABBREVIATIONS: [(u8, &str, &str); 4] = [
    (
        b's',
        "std::string",
        "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
    ),
    (
        b'i',
        "std::istream",
        "std::basic_istream<char, std::char_traits<char> >",
    ),
    (
        b'o',
        "std::ostream",
        "std::basic_ostream<char, std::char_traits<char> >",
    ),
    (
        b'd',
        "std::iostream",
        "std::basic_iostream<char, std::char_traits<char> >",
    ),
];

#[cfg(feature = "cpp-demangle")]
/// `cpp_demangle`'s reading, with the standard abbreviations as libiberty prints them.
fn cpp_with(name: &str, params: bool) -> Option<String> {
    let parse = ParseOptions::default().recursion_limit(RECURSION_LIMIT);
    let opts = DemangleOptions::new().recursion_limit(RECURSION_LIMIT);
    let opts = if params {
        opts
    } else {
        opts.no_params().no_return_type()
    };
    let bytes = name.as_bytes();
    let (sym, _tail) = BorrowedSymbol::with_tail_and_options(bytes, &parse).ok()?;
    let mut out = sym.demangle_with_options(&opts).ok()?;
    if out.contains(')') {
        out = literals(&out);
    }
    // An empty template argument pack: libiberty takes back the `, ` before it (and then adds no space
    // between the `>` it closes and the one before).
    while out.contains(", >") {
        out = out.replace(", >", ">");
    }
    // `Dn`.
    if out.contains("std::nullptr_t") {
        out = out.replace("std::nullptr_t", "decltype(nullptr)");
    }
    for (_, short, full) in ABBREVIATIONS {
        if out.contains(full) {
            out = out.replace(full, short);
        }
    }
    // A constructor or destructor of an abbreviated class: `_Z` `N`, qualifiers, `S?`, then `C` or `D`.
    let enc = name.get(2..)?.strip_prefix('N').unwrap_or_default();
    let enc = enc.trim_start_matches(['r', 'V', 'K']);
    let enc = enc.strip_prefix(['R', 'O']).unwrap_or(enc);
    let b = enc.as_bytes();
    if let (Some(b'S'), Some(&letter), Some(b'C' | b'D')) = (b.first(), b.get(1), b.get(2)) {
        if let Some((_, short, full)) = ABBREVIATIONS.iter().find(|a| a.0 == letter) {
            let class = short.trim_start_matches("std::");
            let head = format!("{short}::");
            if let Some(rest) = out.strip_prefix(&head) {
                let (tilde, rest) = match rest.strip_prefix('~') {
                    Some(r) => ("~", r),
                    None => ("", rest),
                };
                let rest = rest.strip_prefix("basic_").unwrap_or(rest);
                let rest = rest.strip_prefix(class).unwrap_or(rest);
                out = format!("{full}::{tilde}basic_{class}{rest}");
            }
        }
    }
    Some(out)
}

#[cfg(feature = "cpp-demangle")]
/// Integer literals as libiberty prints them: `8u` where `cpp_demangle` writes `(unsigned int)8`, and `l`, `ul`,
/// `ll`, `ull` for the other integer types (`int`'s literals are plain in both).
fn literals(s: &str) -> String {
    const SUFFIXES: [(&str, &str); 5] = [
        ("(unsigned int)", "u"),
        ("(long)", "l"),
        ("(unsigned long)", "ul"),
        ("(long long)", "ll"),
        ("(unsigned long long)", "ull"),
    ];
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    'scan: while let Some(open) = rest.find('(') {
        let (head, tail) = rest.split_at(open);
        out.push_str(head);
        for (cast, suffix) in SUFFIXES {
            if let Some(after) = tail.strip_prefix(cast) {
                let minus = usize::from(after.starts_with('-'));
                let digits = after.bytes().skip(minus).take_while(u8::is_ascii_digit).count();
                if digits > 0 {
                    let (number, after) = after.split_at(minus + digits);
                    out.push_str(number);
                    out.push_str(suffix);
                    rest = after;
                    continue 'scan;
                }
            }
        }
        out.push('(');
        rest = tail.get(1..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// libiberty's names for GCC's `_GLOBAL__sub_I_…` / `_GLOBAL__D_…` functions (`_GLOBAL_` then `.`, `_` or `$`,
/// `I` or `D`, `_`): "global constructors keyed to …", "global destructors keyed to …".
fn global_ctor_dtor(name: &str) -> Option<String> {
    let rest = name.strip_prefix("_GLOBAL_")?;
    let mut c = rest.chars();
    let (sep, kind, under) = (c.next()?, c.next()?, c.next()?);
    if !matches!(sep, '.' | '_' | '$') || under != '_' {
        return None;
    }
    let what = match kind {
        'I' => "constructors",
        'D' => "destructors",
        _ => return None,
    };
    let keyed = rest.get(3..)?;
    let keyed = demangle(keyed);
    Some(format!("global {what} keyed to {keyed}"))
}

#[cfg(test)]
mod tests {
    use super::demangle;

    #[test]
    fn names_as_perf_prints_them() {
        #[cfg(feature = "cpp-demangle")]
        for (mangled, want) in [
            ("_ZN4work4burnEl", "work::burn"),
            ("_ZN4work3AccIlEpLERKS1_.isra.0", "work::Acc<long>::operator+="),
            (
                "_ZN12_GLOBAL__N_16hiddenERSt6vectorIiSaIiEE",
                "(anonymous namespace)::hidden",
            ),
        ] {
            assert_eq!(demangle(mangled), want, "{mangled}");
        }
        // Without `cpp-demangle` C++ names stay as they are.
        #[cfg(not(feature = "cpp-demangle"))]
        assert_eq!(demangle("_ZN4work4burnEl"), "_ZN4work4burnEl");
        for (mangled, want) in [
            (
                "_ZN2rs12Acc$LT$T$GT$8add_many17h654b6866e61ebc24E",
                "rs::Acc<T>::add_many",
            ),
            (
                "_ZN2rs11run_closure17h1c450718c9bc8a25E.llvm.123",
                "rs::run_closure",
            ),
            (
                "_RINvCsbFYJioi4cCO_2rs12generic_burnhEB2_",
                "rs::generic_burn::<u8>",
            ),
            ("main", "main"),
            ("main.cold", "main.cold"),
            ("_Z", "_Z"),
        ] {
            assert_eq!(demangle(mangled), want, "{mangled}");
        }
    }

    #[test]
    fn hostile_names_stay_as_they_are() {
        let deep = format!("_Z{}", "PF".repeat(5000));
        assert_eq!(demangle(&deep), deep);
        let long = format!("_ZN{}E", "3abc".repeat(100_000));
        assert_eq!(demangle(&long), long);
        for cut in 0.."_ZN4work3AccIlEpLERKS1_".len() {
            let _ = demangle(&"_ZN4work3AccIlEpLERKS1_"[..cut]);
        }
    }
}
