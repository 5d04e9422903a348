//! Straight-line expansion of a per-element body: `each!(n, |i| { ... })` is the body at
//! `i = 0, 1, … n - 1` as constants (each copy guarded by `i < n`, which folds), so every array
//! index inside is a constant and the accumulator stays in registers. LLVM unrolls loops of 8
//! trips, not of 32 or 64: a run-time loop over the elements would demote the array to local
//! memory (issue 43). At most 128 copies (the m64n256 f32 accumulator's elements); `each!(8: …)`,
//! `each!(16: …)`, `each!(32: …)`, `each!(64: …)` for shorter counts (k-steps, pair groups).

macro_rules! each {
    (8: $n:expr, |$i:ident| $body:block) => {
        each!(@ $n, $i, $body, [0 1 2 3 4 5 6 7])
    };
    (32: $n:expr, |$i:ident| $body:block) => {
        each!(@ $n, $i, $body, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31])
    };
    (16: $n:expr, |$i:ident| $body:block) => {
        each!(@ $n, $i, $body, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15])
    };
    (64: $n:expr, |$i:ident| $body:block) => {
        each!(@ $n, $i, $body, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63])
    };
    ($n:expr, |$i:ident| $body:block) => {
        each!(@ $n, $i, $body, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127])
    };
    (@ $n:expr, $i:ident, $body:block, [$($k:literal)*]) => {{
        $(
            if $k < $n {
                let $i: usize = $k;
                $body
            }
        )*
    }};
}

pub(crate) use each;
