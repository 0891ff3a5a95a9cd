//! PyTorch's CPU random generator, value for value: the mt19937 engine that
//! `torch.manual_seed` seeds, and the transforms ATen applies to its words
//! (`aten/src/ATen/core/TransformationHelper.h`, `DistributionsHelper.h`,
//! `native/cpu/DistributionTemplates.h`, `randperm` in `TensorFactories.cpp`).
//! Every stream here is checked against values real PyTorch produced
//! (`tests/rng/`), because a program that seeds its generator expects exactly
//! PyTorch's numbers. The engine also serves the interpreter's Python `random`
//! module, which seeds it CPython's way (`Mt19937::from_key`) and keeps its own
//! state, apart from torch's generator.

/// The 32-bit Mersenne Twister, as `at::mt19937` (the standard MT19937).
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; 624],
    index: usize,
    /// Seeded and not drawn from yet: PyTorch's state says `next = 0` then,
    /// where after 624 draws it says 624 (both twist at the next draw).
    fresh: bool,
}

impl Mt19937 {
    pub fn new(seed: u32) -> Self {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            state[i] = 1_812_433_253u32
                .wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 {
            state,
            index: 624,
            fresh: true,
        }
    }

    /// `init_by_array`, the seeding CPython's `random.seed` uses: the key words
    /// are mixed into a state first filled from 19650218.
    pub fn from_key(key: &[u32]) -> Self {
        const N: usize = 624;
        let mut mt = Mt19937::new(19_650_218);
        let state = &mut mt.state;
        let key: &[u32] = if key.is_empty() { &[0] } else { key };
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = state[i - 1] ^ (state[i - 1] >> 30);
            state[i] = (state[i] ^ prev.wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                state[0] = state[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = state[i - 1] ^ (state[i - 1] >> 30);
            state[i] = (state[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                state[0] = state[N - 1];
                i = 1;
            }
        }
        // The top bit set assures a state that is not all zeros.
        state[0] = 0x8000_0000;
        mt.index = N;
        mt
    }

    fn twist(&mut self) {
        for i in 0..624 {
            let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % 624] & 0x7fff_ffff);
            let mut next = self.state[(i + 397) % 624] ^ (y >> 1);
            if y & 1 != 0 {
                next ^= 0x9908_b0df;
            }
            self.state[i] = next;
        }
        self.index = 0;
    }

    pub fn next_u32(&mut self) -> u32 {
        self.fresh = false;
        if self.index >= 624 {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}

/// `torch.Generator` for the CPU: the engine plus the cached second value of the
/// Box–Muller pair that ATen's scalar normal path keeps between calls.
#[derive(Clone)]
pub struct Generator {
    engine: Mt19937,
    next_double_normal: Option<f64>,
}

/// PyTorch's default seed, used until `torch.manual_seed` is called.
pub const DEFAULT_SEED: u64 = 67_280_421_310_721;

/// Sizes of PyTorch's serialised CPU generator state (`torch.get_rng_state()`)
/// and of its legacy form without the float sample.
pub const PYTORCH_STATE_BYTES: usize = 5056;
pub const LEGACY_STATE_BYTES: usize = 5048;

impl Default for Generator {
    fn default() -> Self {
        Generator::new(DEFAULT_SEED)
    }
}

impl Generator {
    /// `torch.manual_seed(seed)`: mt19937 takes the low 32 bits.
    pub fn new(seed: u64) -> Self {
        Generator {
            engine: Mt19937::new(seed as u32),
            next_double_normal: None,
        }
    }

    /// `random()`: one 32-bit word.
    /// The state as `torch.get_rng_state()` gives it: PyTorch's
    /// `CPUGeneratorImplState`, 5056 bytes (little-endian): the initial seed,
    /// mt19937's `left` and `next` counters, `seeded`, the 624 words widened
    /// to 64 bits, the cached second normal sample (`normal_y`, valid flag),
    /// then the float sample slot this generator never fills.
    pub fn pytorch_state(&self, initial_seed: u64) -> Vec<u8> {
        let mt = &self.engine;
        let next = if mt.fresh { 0 } else { mt.index as u64 };
        let left = 625 - mt.index as i32;
        let mut out = Vec::with_capacity(PYTORCH_STATE_BYTES);
        out.extend_from_slice(&initial_seed.to_le_bytes());
        out.extend_from_slice(&left.to_le_bytes());
        out.extend_from_slice(&1i32.to_le_bytes());
        out.extend_from_slice(&next.to_le_bytes());
        for word in mt.state {
            out.extend_from_slice(&u64::from(word).to_le_bytes());
        }
        let cached = self.next_double_normal;
        out.extend_from_slice(&0f64.to_le_bytes());
        out.extend_from_slice(&cached.unwrap_or(0.0).to_le_bytes());
        out.extend_from_slice(&0f64.to_le_bytes());
        out.extend_from_slice(&i32::from(cached.is_some()).to_le_bytes());
        out.resize(PYTORCH_STATE_BYTES, 0);
        out
    }

    /// A generator from `torch.set_rng_state`'s bytes (PyTorch's 5056-byte
    /// state, or the 5048-byte legacy one), and its initial seed.
    pub fn from_pytorch_state(bytes: &[u8]) -> Result<(Generator, u64), String> {
        if bytes.len() != PYTORCH_STATE_BYTES && bytes.len() != LEGACY_STATE_BYTES {
            return Err(format!(
                "Expected a CPUGeneratorImplState of size {PYTORCH_STATE_BYTES} but found the input RNG state size \
                 to be {}",
                bytes.len()
            ));
        }
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let i32_at = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let (seed, left, next) = (u64_at(0), i32_at(8), u64_at(16));
        if !(1..=624).contains(&left) {
            return Err(format!(
                "The provided RNG state has an invalid `left` counter: {left}"
            ));
        }
        let mut state = [0u32; 624];
        for (i, word) in state.iter_mut().enumerate() {
            *word = u64_at(24 + 8 * i) as u32;
        }
        let normal_at = 24 + 8 * 624;
        let valid = i32_at(normal_at + 24) != 0;
        let engine = Mt19937 {
            state,
            index: (625 - left) as usize,
            fresh: left == 1 && next == 0,
        };
        let next_double_normal = valid.then(|| {
            f64::from_le_bytes(
                bytes[normal_at + 8..normal_at + 16]
                    .try_into()
                    .expect("8 bytes"),
            )
        });
        Ok((
            Generator {
                engine,
                next_double_normal,
            },
            seed,
        ))
    }

    pub fn random(&mut self) -> u32 {
        self.engine.next_u32()
    }

    /// `random64()`: two words, the first one high.
    pub fn random64(&mut self) -> u64 {
        let hi = self.random() as u64;
        let lo = self.random() as u64;
        (hi << 32) | lo
    }

    /// A float32 uniform on [from, to): 24 masked bits of one word.
    pub fn uniform_f32(&mut self, from: f32, to: f32) -> f32 {
        let x = (self.random() & 0x00ff_ffff) as f32 * (1.0 / (1u32 << 24) as f32);
        x * (to - from) + from
    }

    /// A float64 uniform on [from, to): 53 masked bits of two words.
    pub fn uniform_f64(&mut self, from: f64, to: f64) -> f64 {
        let x = (self.random64() & ((1u64 << 53) - 1)) as f64 * (1.0 / (1u64 << 53) as f64);
        x * (to - from) + from
    }

    /// `at::normal_distribution<double>`: Box–Muller on two double uniforms, the
    /// sine half cached for the next call.
    pub fn normal_f64(&mut self, mean: f64, std: f64) -> f64 {
        if let Some(z) = self.next_double_normal.take() {
            return z * std + mean;
        }
        let u1 = self.uniform_f64(0.0, 1.0);
        let u2 = self.uniform_f64(0.0, 1.0);
        let r = (-2.0 * (-u2).ln_1p()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u1;
        self.next_double_normal = Some(r * theta.sin());
        r * theta.cos() * std + mean
    }

    /// `uniform_(from, to)` / `torch.rand` on float32 values, in order.
    pub fn fill_uniform_f32(&mut self, out: &mut [f32], from: f64, to: f64) {
        let (from, to) = (from as f32, to as f32);
        for v in out {
            *v = self.uniform_f32(from, to);
        }
    }

    /// `normal_(mean, std)` / `torch.randn` on float32 values. ATen fills 16 or
    /// more contiguous floats in blocks of 16 (uniforms first, then Box–Muller in
    /// float, a ragged tail redone as the last 16), and fewer one double normal
    /// at a time.
    pub fn fill_normal_f32(&mut self, out: &mut [f32], mean: f64, std: f64) {
        let n = out.len();
        if n < 16 {
            for v in out {
                *v = self.normal_f64(mean, std) as f32;
            }
            return;
        }
        let (mean, std) = (mean as f32, std as f32);
        for v in out.iter_mut() {
            *v = self.uniform_f32(0.0, 1.0);
        }
        for start in (0..n - 15).step_by(16) {
            normal_fill_16(&mut out[start..start + 16], mean, std);
        }
        if !n.is_multiple_of(16) {
            let tail = &mut out[n - 16..];
            for v in tail.iter_mut() {
                *v = self.uniform_f32(0.0, 1.0);
            }
            normal_fill_16(tail, mean, std);
        }
    }

    /// `uniform_(from, to)` / `torch.rand` on float64 values, in order.
    pub fn fill_uniform_f64(&mut self, out: &mut [f64], from: f64, to: f64) {
        for v in out {
            *v = self.uniform_f64(from, to);
        }
    }

    /// `normal_(mean, std)` / `torch.randn` on float64 values: ATen's generic
    /// `normal_fill` (no AVX2 path for doubles) for 16 or more, Box–Muller in
    /// double on blocks of 16 uniforms; fewer, one double normal at a time.
    pub fn fill_normal_f64(&mut self, out: &mut [f64], mean: f64, std: f64) {
        let n = out.len();
        if n < 16 {
            for v in out {
                *v = self.normal_f64(mean, std);
            }
            return;
        }
        self.fill_uniform_f64(out, 0.0, 1.0);
        for start in (0..n - 15).step_by(16) {
            normal_fill_16_f64(&mut out[start..start + 16], mean, std);
        }
        if !n.is_multiple_of(16) {
            let tail = &mut out[n - 16..];
            self.fill_uniform_f64(tail, 0.0, 1.0);
            normal_fill_16_f64(tail, mean, std);
        }
    }

    /// `torch.randint(low, high)` values: `random() % range + low`, or
    /// `random64()` when the range needs more than 32 bits.
    pub fn randint(&mut self, low: i64, high: i64, count: usize) -> Vec<i64> {
        let range = (high - low) as u64;
        (0..count)
            .map(|_| {
                let draw = if range >= 1 << 32 {
                    self.random64()
                } else {
                    self.random() as u64
                };
                (draw % range) as i64 + low
            })
            .collect()
    }

    /// `torch.randperm(n)`: ATen's Fisher–Yates over 0..n, swapping position i
    /// with i + random() % (n - i).
    pub fn randperm(&mut self, n: usize) -> Vec<i64> {
        let mut r: Vec<i64> = (0..n as i64).collect();
        for i in 0..n.saturating_sub(1) {
            let z = (self.random() as u64 % (n - i) as u64) as usize;
            r.swap(i, i + z);
        }
        r
    }
}

/// Box–Muller on 16 uniforms in place: the first 8 give the radii, the last 8
/// the angles, all in float32 as ATen's AVX2 `normal_fill_16_AVX2` does (the
/// build PyTorch ships on x86; its angle is a float product with 2π rounded to
/// float, where the scalar fallback would round a double product).
fn normal_fill_16(data: &mut [f32], mean: f32, std: f32) {
    const TWO_PI: f32 = (2.0 * std::f64::consts::PI) as f32;
    for j in 0..8 {
        let u1 = 1.0 - data[j];
        let u2 = data[j + 8];
        let radius = (-2.0 * u1.ln()).sqrt();
        let theta = TWO_PI * u2;
        // AVX2 fuses the scaling into one multiply-add.
        data[j] = (radius * theta.cos()).mul_add(std, mean);
        data[j + 8] = (radius * theta.sin()).mul_add(std, mean);
    }
}

/// ATen's scalar `normal_fill_16` in double: radii from the first 8 uniforms,
/// angles from the last 8.
fn normal_fill_16_f64(data: &mut [f64], mean: f64, std: f64) {
    for j in 0..8 {
        let u1 = 1.0 - data[j];
        let u2 = data[j + 8];
        let radius = (-2.0 * u1.ln()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u2;
        data[j] = radius * theta.cos() * std + mean;
        data[j + 8] = radius * theta.sin() * std + mean;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt19937_matches_the_reference_sequence() {
        // The 10,000th output for seed 5489 is 4123659995 (C++ [rand.predef]).
        let mut mt = Mt19937::new(5489);
        let mut last = 0;
        for _ in 0..10_000 {
            last = mt.next_u32();
        }
        assert_eq!(last, 4_123_659_995);
    }

    #[test]
    fn init_by_array_matches_cpython_random_seed() {
        // `random.Random(n).getrandbits(32)` three times, from CPython 3.11:
        // seed 0 is the one-word key [0]; 2**40 + 5 is the key [5, 256].
        for (key, words) in [
            (
                &[0u32][..],
                [3_626_764_237u32, 1_654_615_998, 3_255_389_356],
            ),
            (&[5, 256][..], [2_166_296_868, 2_220_160_828, 1_153_647_273]),
        ] {
            let mut mt = Mt19937::from_key(key);
            let got: Vec<u32> = (0..3).map(|_| mt.next_u32()).collect();
            assert_eq!(got, words, "key {key:?}");
        }
    }
}
