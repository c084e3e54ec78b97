// A small Rust program for scorch's perf.data demangling test: a generic function, a trait method through
// `dyn`, a closure and a method of a generic struct, each burning CPU so perf samples them.
use std::hint::black_box;

trait Shape {
    fn area(&self, n: u64) -> u64;
}

struct Square(u64);

impl Shape for Square {
    #[inline(never)]
    fn area(&self, n: u64) -> u64 {
        let mut s = self.0;
        for i in 0..n {
            s = black_box(s.wrapping_mul(31).wrapping_add(i));
        }
        s
    }
}

struct Acc<T> {
    total: T,
}

impl<T: Copy + std::ops::Add<Output = T>> Acc<T> {
    #[inline(never)]
    fn add_many(&mut self, v: T, n: u64) {
        for _ in 0..n {
            self.total = black_box(self.total + v);
        }
    }
}

#[inline(never)]
fn generic_burn<T: Into<u64> + Copy>(x: T, n: u64) -> u64 {
    let mut s: u64 = x.into();
    for i in 0..n {
        s = black_box(s ^ i.rotate_left(7));
    }
    s
}

#[inline(never)]
fn run_closure<F: Fn(u64) -> u64>(f: F, n: u64) -> u64 {
    f(n)
}

fn main() {
    let rounds: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let shape: Box<dyn Shape> = Box::new(Square(3));
    let mut acc = Acc { total: 0u64 };
    let mut accf = Acc { total: 0f64 };
    let mut sink = 0u64;
    for r in 0..rounds {
        sink ^= shape.area(20_000);
        acc.add_many(r, 20_000);
        accf.add_many(0.5, 20_000);
        sink ^= generic_burn(7u32, 20_000);
        sink ^= generic_burn(9u8, 20_000);
        sink ^= run_closure(|n| {
            let mut s = sink;
            for i in 0..n {
                s = black_box(s.wrapping_add(i * 3));
            }
            s
        }, 20_000);
    }
    println!("{} {} {}", sink, acc.total, accf.total);
}
