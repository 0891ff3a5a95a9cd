//! How a case's program is made: random bytes, or a corpus program with one
//! to four mutations (lines dropped, duplicated and swapped, characters and
//! tokens replaced, and value-level mutations that keep the syntax: numbers
//! replaced by hostile values such as huge or negative sizes, NaN and
//! out-of-range indices, and torch calls swapped for others).

use tpu_runtime::rng::Mt19937;

const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    ".",
    "=",
    "+",
    "-",
    "*",
    "**",
    "/",
    "//",
    "%",
    "@",
    "<",
    "==",
    "not ",
    " and ",
    " or ",
    "lambda x: x",
    " if ",
    " else ",
    "for ",
    " in ",
    "def ",
    "class ",
    "return ",
    "yield ",
    "try:",
    "except:",
    "raise ",
    "with ",
    "import torch",
    "torch.ones(2, 3)",
    "x",
    "self",
    "None",
    "True",
    "0",
    "1",
    "-1",
    "10**9",
    "1e308",
    "float('nan')",
    "'s'",
    "f'{x}'",
    "[1, 2]",
    "{1: 2}",
    "range(5)",
    "print(",
    "len(",
    "\n",
    "\n    ",
    "\t",
    "\\",
    "#",
    "\"\"\"",
    "'",
    "\"",
    "*",
    "...",
    "super()",
    "* 10**12",
    "10**10, 10**10",
    "x.append(x)",
    ".ljust(10**11)",
    ":>99999999999",
    "while True: pass",
];

/// Values a number in a program may be replaced by: edge sizes, negative and
/// huge dimensions, out-of-range indices, non-finite floats.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-2",
    "5",
    "64",
    "100",
    "-100",
    "2**31",
    "10**6",
    "10**12",
    "0.0",
    "-0.0",
    "0.5",
    "1e-30",
    "1e30",
    "float('nan')",
    "float('inf')",
    "-float('inf')",
    "True",
];

/// Tensor functions and methods a call may be swapped for, so that mutated
/// programs reach ops with arguments they were not written for.
const CALLS: &[&str] = &[
    "sum",
    "mean",
    "max",
    "min",
    "argmax",
    "prod",
    "var",
    "std",
    "cumsum",
    "softmax",
    "log_softmax",
    "logsumexp",
    "reshape",
    "view",
    "permute",
    "transpose",
    "expand",
    "unsqueeze",
    "squeeze",
    "flatten",
    "contiguous",
    "split",
    "chunk",
    "cat",
    "stack",
    "matmul",
    "mm",
    "bmm",
    "where",
    "masked_fill",
    "triu",
    "tril",
    "clamp",
    "pow",
    "exp",
    "log",
    "sqrt",
    "relu",
    "tanh",
    "backward",
    "detach",
    "zero_",
    "add_",
    "mul_",
    "item",
    "tolist",
    "to",
    "float",
    "long",
    "bool",
    "bfloat16",
    "uniform_",
    "normal_",
    "randn",
    "randint",
    "randperm",
    "arange",
    "linspace",
    "eye",
    "zeros",
    "ones",
    "full",
];

/// Replaces one number, or one call name, in `line`, keeping the syntax intact.
fn mutate_value(rng: &mut Rng, line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    // Spans of numbers (digits not inside identifiers) and of identifiers
    // followed by '(' (calls).
    let mut numbers = Vec::new();
    let mut calls = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if is_word(chars[i]) {
            let start = i;
            while i < chars.len()
                && (is_word(chars[i]) || chars[i] == '.' && chars[start].is_ascii_digit())
            {
                i += 1;
            }
            if chars[start].is_ascii_digit() {
                numbers.push((start, i));
            } else if chars.get(i) == Some(&'(') {
                calls.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    let (spans, choices) = if !calls.is_empty() && (numbers.is_empty() || rng.below(2) == 0) {
        (calls, CALLS)
    } else {
        (numbers, NUMBERS)
    };
    if spans.is_empty() {
        return line.to_string();
    }
    let (start, end) = spans[rng.below(spans.len())];
    let replacement = choices[rng.below(choices.len())];
    chars[..start].iter().collect::<String>()
        + replacement
        + &chars[end..].iter().collect::<String>()
}

/// The cases' random numbers: one Mersenne Twister per case, seeded from the
/// campaign's seed and the case's index, so a case is made the same way
/// whether or not the cases before it ran.
pub struct Rng(pub Mt19937);

impl Rng {
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.0.next_u32() as usize) % n.max(1)
    }
}

/// `source` with one to four of the mutations above.
pub fn mutate(rng: &mut Rng, source: &str) -> String {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(4) {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let i = rng.below(lines.len());
        match rng.below(9) {
            6..=8 => {
                let mutated = mutate_value(rng, &lines[i]);
                lines[i] = mutated;
            }
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            3 | 4 => {
                let line = &mut lines[i];
                let chars: Vec<char> = line.chars().collect();
                let at = rng.below(chars.len() + 1);
                let token = TOKENS[rng.below(TOKENS.len())];
                let end = (at + rng.below(3)).min(chars.len());
                *line = chars[..at].iter().collect::<String>()
                    + token
                    + &chars[end..].iter().collect::<String>();
            }
            _ => {
                let line = &mut lines[i];
                let chars: Vec<char> = line.chars().collect();
                if !chars.is_empty() {
                    let at = rng.below(chars.len());
                    let c = char::from_u32(32 + rng.below(95) as u32).unwrap_or('x');
                    *line = chars[..at].iter().collect::<String>()
                        + &c.to_string()
                        + &chars[at + 1..].iter().collect::<String>();
                }
            }
        }
    }
    lines.join("\n") + "\n"
}

/// Up to 200 random bytes, read as UTF-8 with replacement characters.
pub fn random_bytes(rng: &mut Rng) -> String {
    let n = rng.below(200);
    let bytes: Vec<u8> = (0..n).map(|_| rng.below(256) as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}
