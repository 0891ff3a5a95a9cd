//! Python's `random` module, stream for stream as CPython's: the Mersenne
//! Twister of `tpu_runtime::rng` seeded by CPython's `init_by_array`, and the
//! algorithms of CPython's `random.py` on top of it (`_randbelow` by rejection
//! on `getrandbits`, `shuffle`'s backwards Fisher–Yates, `sample`'s pool or set
//! strategy, `gauss`'s cached pair), so a seeded program prints what CPython
//! prints. This file is the generator and its seeding; the module's functions
//! and `Random`'s methods, with their arguments, are in `random_module`. Each
//! `random.Random` object owns its generator; the module's functions are the
//! methods of one hidden instance, as in CPython, and none of it touches
//! torch's generator.
//!
//! Differences from CPython, all refused with a clear error rather than
//! answered differently: ints are 64-bit here, so `getrandbits(k)` stops at 63
//! bits; seeding from a `str` or `bytes` (which hashes with SHA-512) is not
//! supported; `getstate`/`setstate` and the rarer distributions are missing.

use crate::python::error::PyErr;
use crate::python::interp::PyResult;
use crate::python::value::Value;
use tpu_runtime::rng::Mt19937;

/// One generator's state: the engine and `gauss`'s cached second value.
pub struct PythonRandom {
    engine: Mt19937,
    gauss_next: Option<f64>,
}

impl PythonRandom {
    /// A generator seeded as `random.seed(seed)` seeds one.
    pub fn new(seed: &Value) -> PyResult<Self> {
        Ok(PythonRandom {
            engine: Mt19937::from_key(&seed_key(seed)?),
            gauss_next: None,
        })
    }

    /// `random()`: 53 random bits from two words, as CPython's `genrand_res53`.
    pub fn random(&mut self) -> f64 {
        let a = (self.engine.next_u32() >> 5) as f64;
        let b = (self.engine.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for `k <= 63`: whole words from the least significant
    /// end, the last one shifted down to the bits still wanted.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return (self.engine.next_u32() >> (32 - k)) as u64;
        }
        let low = self.engine.next_u32() as u64;
        let high = self.engine.next_u32() >> (64 - k);
        low | (high as u64) << 32
    }

    /// `_randbelow(n)` for `n > 0`: `getrandbits(n.bit_length())` until below `n`.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `gauss(mu, sigma)`: Box–Muller, the sine half kept for the next call.
    pub fn gauss(&mut self, mu: f64, sigma: f64) -> f64 {
        let z = match self.gauss_next.take() {
            Some(z) => z,
            None => {
                let x2pi = self.random() * std::f64::consts::TAU;
                let g2rad = (-2.0 * (1.0 - self.random()).ln()).sqrt();
                self.gauss_next = Some(x2pi.sin() * g2rad);
                x2pi.cos() * g2rad
            }
        };
        mu + z * sigma
    }

    /// `normalvariate(mu, sigma)`: Kinderman and Monahan's ratio method.
    pub fn normalvariate(&mut self, mu: f64, sigma: f64) -> f64 {
        let magic = 4.0 * (-0.5f64).exp() / 2.0f64.sqrt();
        loop {
            let u1 = self.random();
            let u2 = 1.0 - self.random();
            let z = magic * (u1 - 0.5) / u2;
            if z * z / 4.0 <= -u2.ln() {
                return mu + z * sigma;
            }
        }
    }
}

/// The key `init_by_array` gets for a seed: the 32-bit words of `abs(n)` for an
/// int, of `abs(hash(x))` for a float, least significant first. No seed (or
/// `None`) seeds from the wall clock's nanoseconds, where CPython reads the
/// operating system's entropy; either way the stream differs run to run. A
/// browser's clock ticks in milliseconds at best, so each clock seed also mixes
/// in a count of the clock seeds drawn before it: two `random.Random()` made in
/// the same tick still draw apart, as they do in CPython.
fn seed_key(seed: &Value) -> PyResult<Vec<u32>> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static CLOCK_SEEDS: AtomicU64 = AtomicU64::new(0);
    let n: u64 = match seed {
        Value::None => {
            let nanos = web_time::SystemTime::now()
                .duration_since(web_time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            let count = CLOCK_SEEDS.fetch_add(1, Ordering::Relaxed);
            // An odd multiplier spreads consecutive counts over the high bits.
            nanos ^ count.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        }
        // CPython reads a non-int seed's hash as an unsigned word, not its abs.
        Value::Float(f) => float_hash(*f) as u64,
        Value::Str(_) => {
            return Err(PyErr::not_implemented(
                "random.seed() with a str is not supported here (CPython hashes it with \
                 SHA-512); seed with an int",
            ));
        }
        other => match other.as_int() {
            Some(i) => i.unsigned_abs(),
            None => {
                return Err(PyErr::type_error(
                    "The only supported seed types are: None,\nint, float, str, bytes, and bytearray.",
                ));
            }
        },
    };
    Ok(if n >> 32 == 0 {
        vec![n as u32]
    } else {
        vec![n as u32, (n >> 32) as u32]
    })
}

/// CPython's `hash(float)`: the value modulo the Mersenne prime 2**61 - 1.
fn float_hash(v: f64) -> i64 {
    const BITS: i32 = 61;
    const MODULUS: u64 = (1 << BITS) - 1;
    if v.is_infinite() {
        return if v > 0.0 { 314_159 } else { -314_159 };
    }
    if v.is_nan() {
        return 0;
    }
    let (mut m, mut e) = frexp(v);
    let sign: i64 = if m < 0.0 { -1 } else { 1 };
    m = m.abs();
    let mut x: u64 = 0;
    while m != 0.0 {
        x = ((x << 28) & MODULUS) | x >> (BITS - 28);
        m *= 268_435_456.0;
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        x += y;
        if x >= MODULUS {
            x -= MODULUS;
        }
    }
    let e = if e >= 0 {
        e % BITS
    } else {
        BITS - 1 - ((-1 - e) % BITS)
    };
    x = ((x << e) & MODULUS) | x >> (BITS - e);
    let hash = (x as i64).wrapping_mul(sign);
    if hash == -1 { -2 } else { hash }
}

/// C's `frexp`: `v = m * 2**e` with `0.5 <= |m| < 1`.
fn frexp(v: f64) -> (f64, i32) {
    if v == 0.0 {
        return (v, 0);
    }
    let bits = v.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    if exponent == 0 {
        // A subnormal: scale it into the normal range first.
        let (m, e) = frexp(v * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exponent - 1022)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_matches_cpython_bit_for_bit() {
        // `random.seed(42); random.random().hex()` in CPython 3.11.
        let mut g = PythonRandom::new(&Value::Int(42)).unwrap();
        assert_eq!(g.random(), f64::from_bits(0x3fe4_762f_3072_00c5));
        assert_eq!(g.getrandbits(32), 107_420_369);
    }

    #[test]
    fn float_seeds_hash_like_cpython() {
        // `hash(0.5)`, `hash(-2.25)`, `hash(1e300)` in CPython 3.11.
        assert_eq!(float_hash(0.5), 1_152_921_504_606_846_976);
        assert_eq!(float_hash(-2.25), -576_460_752_303_423_490);
        assert_eq!(float_hash(1e300), 1_224_995_262_755_759_164);
        assert_eq!(float_hash(3.0), 3);
    }
}
