//! bfloat16 and float16 on the device: a tensor of either is held as float32
//! words whose values the dtype represents exactly, so every float32 kernel
//! reads it as it is. A kernel whose output is one of them rounds each value
//! it stores (nearest even, as `HostData`'s conversions do): the reference
//! computes such ops in float32 and rounds once, and so does the kernel.
//! `rounded_stores` makes that variant from the float32 kernel's source by
//! wrapping every `out[...] = value;` store.

use tpu_ir::DType;
use tpu_runtime::data::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};

/// Whether `dtype` is held as rounded float32 words.
pub(crate) fn is_half(dtype: DType) -> bool {
    matches!(dtype, DType::BFloat16 | DType::Float16)
}

/// The dtype the kernels see for `dtype`: float32 for the half dtypes.
pub(crate) fn storage(dtype: DType) -> DType {
    if is_half(dtype) {
        DType::Float32
    } else {
        dtype
    }
}

/// `value` rounded to half `dtype` on the host, for a number a kernel
/// compares with (PyTorch rounds it to the tensor's dtype first).
pub(crate) fn round_number(dtype: DType, value: f64) -> f64 {
    let x = value as f32;
    f64::from(match dtype {
        DType::BFloat16 => bf16_to_f32(f32_to_bf16(x)),
        DType::Float16 => f16_to_f32(f32_to_f16(x)),
        _ => x,
    })
}

/// The suffix of a rounding variant's pipeline name.
pub(crate) fn suffix(dtype: DType) -> &'static str {
    match dtype {
        DType::BFloat16 => "_bf16",
        _ => "_f16",
    }
}

/// The WGSL function that rounds to `dtype`, and its name.
fn rounding(dtype: DType) -> (&'static str, &'static str) {
    match dtype {
        DType::BFloat16 => ("round_bf16", ROUND_BF16),
        _ => ("round_f16", ROUND_F16),
    }
}

/// bfloat16 is float32's top half: drop the low 16 bits, nearest even (a
/// carry into the exponent makes the next binade, or infinity).
const ROUND_BF16: &str = "
fn round_bf16(x: f32) -> f32 {
    if (x != x) { return x; }
    let b = bitcast<u32>(x);
    return bitcast<f32>((b + 0x7fffu + ((b >> 16u) & 1u)) & 0xffff0000u);
}
";

/// float16, on the magnitude with the sign put back (so -0.0 stays -0.0):
/// infinity from 65520 (half way past the largest, 65504); below 2^-14 a
/// multiple of 2^-24 (WGSL's `round` is nearest even); otherwise 13 low
/// mantissa bits dropped, nearest even.
const ROUND_F16: &str = "
fn round_f16(x: f32) -> f32 {
    if (x != x) { return x; }
    let b = bitcast<u32>(x);
    let a = bitcast<f32>(b & 0x7fffffffu);
    var m = bitcast<u32>(round(a * 16777216.0) * 5.9604644775390625e-08);
    if (a >= 65520.0) {
        m = 0x7f800000u;
    } else if (a >= 6.103515625e-05) {
        let c = b & 0x7fffffffu;
        m = (c + 0xfffu + ((c >> 13u) & 1u)) & 0xffffe000u;
    }
    return bitcast<f32>(m | (b & 0x80000000u));
}
";

/// `source` with every store to `out` rounded to `dtype`, and the rounding
/// function added. A store is a line `out[INDEX] = VALUE;`.
pub(crate) fn rounded_stores(source: &str, dtype: DType) -> String {
    let (name, function) = rounding(dtype);
    let mut text = String::with_capacity(source.len() + function.len() + 64);
    for line in source.lines() {
        match store(line) {
            Some((target, value)) => {
                text.push_str(target);
                text.push_str(" = ");
                text.push_str(name);
                text.push('(');
                text.push_str(value);
                text.push_str(");");
            }
            None => text.push_str(line),
        }
        text.push('\n');
    }
    text.push_str(function);
    text
}

/// A line that stores into `out`, split into its target (with the line's
/// indent) and the value stored: `    out[i] = acc;` is `("    out[i]", "acc")`.
pub(crate) fn store(line: &str) -> Option<(&str, &str)> {
    let (target, value) = line.split_once(" = ")?;
    let index = target.trim_start().strip_prefix("out[")?;
    let value = value.strip_suffix(';')?;
    (index.ends_with(']') && !value.contains(';')).then_some((target, value))
}
