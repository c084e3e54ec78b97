//! A function's name as flame graphs show it, shared by the perf script reader (`perf/names.rs`) and the
//! perf.data reader's symbols (`perfdata/symbols.rs`), so both name a frame alike.

/// Removes argument lists (`foo(int)` → `foo`) but keeps Go methods (`pkg.(*T).M`), C++ anonymous
/// namespaces and parentheses inside templates or lambdas; `;` becomes `:` (as inferno and flamegraph.pl do).
pub(crate) fn tidy_generic(func: &str) -> String {
    let func = func.replace(';', ":");
    let mut depth: i64 = 0;
    let mut last_dot: Option<usize> = None;
    let mut cut = func.len();
    for (i, c) in func.char_indices() {
        match c {
            '<' | '{' | '[' => depth += 1,
            '>' | '}' | ']' | ')' => depth -= 1,
            '(' => {
                if depth == 0 {
                    let go = last_dot == Some(i);
                    let anon = func[i..].starts_with("(anonymous namespace)");
                    if !go && !anon {
                        cut = i;
                        break;
                    }
                }
                depth += 1;
            }
            '.' => last_dot = Some(i + 1),
            _ => {}
        }
    }
    let mut func = func;
    func.truncate(cut);
    func
}
