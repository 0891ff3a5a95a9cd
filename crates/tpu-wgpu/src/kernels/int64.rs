//! Int64 in WGSL, which has no 64-bit integers: a value is a `vec2<u32>`,
//! low word first (the bytes of a little-endian `i64`, so uploads and reads
//! copy bytes), with wrapping two's-complement arithmetic as Rust's
//! `wrapping_*` and the conversions Rust's `as` makes. Every integer kernel
//! (`ints.rs`) computes in it, as the reference computes every integer dtype
//! in int64 and keeps int32's low word.
//!
//! Shifts stay below 32: WGSL takes a shift amount modulo the width.

use tpu_ir::DType;

/// The WGSL helpers; prepend to a kernel that calls any.
pub(super) const LIB: &str = "
fn i64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}
fn i64_neg(a: vec2<u32>) -> vec2<u32> {
    return i64_add(~a, vec2<u32>(1u, 0u));
}
fn i64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return i64_add(a, i64_neg(b));
}
fn u32_mul_wide(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    let hi = a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
    return vec2<u32>((p00 & 0xffffu) | (mid << 16u), hi);
}
fn i64_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let p = u32_mul_wide(a.x, b.x);
    return vec2<u32>(p.x, p.y + a.x * b.y + a.y * b.x);
}
fn i64_is_neg(a: vec2<u32>) -> bool {
    return (a.y >> 31u) == 1u;
}
fn i64_is_zero(a: vec2<u32>) -> bool {
    return (a.x | a.y) == 0u;
}
fn i64_eq(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.x == b.x && a.y == b.y;
}
fn i64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    let x = bitcast<i32>(a.y);
    let y = bitcast<i32>(b.y);
    return x < y || (x == y && a.x < b.x);
}
fn u64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}
fn i64_abs(a: vec2<u32>) -> vec2<u32> {
    return select(a, i64_neg(a), i64_is_neg(a));
}
fn u64_shl(v: vec2<u32>, s: u32) -> vec2<u32> {
    if (s == 0u) {
        return v;
    }
    if (s >= 32u) {
        return vec2<u32>(0u, v.x << (s - 32u));
    }
    return vec2<u32>(v.x << s, (v.y << s) | (v.x >> (32u - s)));
}
fn u64_shr(v: vec2<u32>, s: u32) -> vec2<u32> {
    if (s == 0u) {
        return v;
    }
    if (s >= 32u) {
        return vec2<u32>(v.y >> (s - 32u), 0u);
    }
    return vec2<u32>((v.x >> s) | (v.y << (32u - s)), v.y >> s);
}
fn i64_from_i32(x: i32) -> vec2<u32> {
    return vec2<u32>(bitcast<u32>(x), select(0u, 0xffffffffu, x < 0i));
}
// Unsigned quotient (xy) and remainder (zw), one bit a step. The divisor is
// a magnitude, at most 2^63, so the doubled remainder never overflows.
fn u64_divmod(n: vec2<u32>, d: vec2<u32>) -> vec4<u32> {
    var q = vec2<u32>(0u, 0u);
    var r = vec2<u32>(0u, 0u);
    for (var k = 0u; k < 64u; k = k + 1u) {
        let at = 63u - k;
        let word = select(n.x, n.y, at >= 32u);
        let bit = (word >> (at & 31u)) & 1u;
        r = vec2<u32>((r.x << 1u) | bit, (r.y << 1u) | (r.x >> 31u));
        if (!u64_lt(r, d)) {
            r = i64_sub(r, d);
            if (at >= 32u) {
                q.y = q.y | (1u << (at - 32u));
            } else {
                q.x = q.x | (1u << at);
            }
        }
    }
    return vec4<u32>(q, r);
}
// Quotient rounded toward zero (xy) and its remainder (zw); `b` is not zero.
// int64's minimum over -1 wraps to itself, as `wrapping_div`.
fn i64_divmod(a: vec2<u32>, b: vec2<u32>) -> vec4<u32> {
    let qr = u64_divmod(i64_abs(a), i64_abs(b));
    let q = select(qr.xy, i64_neg(qr.xy), i64_is_neg(a) != i64_is_neg(b));
    let r = select(qr.zw, i64_neg(qr.zw), i64_is_neg(a));
    return vec4<u32>(q, r);
}
// `as i64` of a float32: toward zero, saturating, NaN to zero.
fn f32_to_i64(x: f32) -> vec2<u32> {
    let bits = bitcast<u32>(x);
    let magnitude = bits & 0x7fffffffu;
    let negative = (bits >> 31u) == 1u;
    if (magnitude > 0x7f800000u) {
        return vec2<u32>(0u, 0u);
    }
    if (magnitude >= 0x5f000000u) {
        return select(vec2<u32>(0xffffffffu, 0x7fffffffu), vec2<u32>(0u, 0x80000000u), negative);
    }
    let e = i32(magnitude >> 23u) - 127i;
    if (e < 0i) {
        return vec2<u32>(0u, 0u);
    }
    let m = (magnitude & 0x7fffffu) | 0x800000u;
    var v = vec2<u32>(m, 0u);
    if (e <= 23i) {
        v = vec2<u32>(m >> u32(23i - e), 0u);
    } else {
        v = u64_shl(v, u32(e - 23i));
    }
    return select(v, i64_neg(v), negative);
}
// `as i32` of a float32: `as i64`, then saturated.
fn f32_to_i32(x: f32) -> i32 {
    let v = f32_to_i64(x);
    if (i64_lt(v, vec2<u32>(0x80000000u, 0xffffffffu))) {
        return bitcast<i32>(0x80000000u);
    }
    if (i64_lt(vec2<u32>(0x7fffffffu, 0u), v)) {
        return 0x7fffffffi;
    }
    return bitcast<i32>(v.x);
}
// `as f32` of an int64: the nearest float32, ties to even.
fn i64_to_f32(v: vec2<u32>) -> f32 {
    let negative = i64_is_neg(v);
    let m = select(v, i64_neg(v), negative);
    let sign = select(0u, 0x80000000u, negative);
    if (m.y == 0u && m.x < 0x1000000u) {
        return bitcast<f32>(bitcast<u32>(f32(m.x)) | sign);
    }
    var top = 31u - countLeadingZeros(m.x);
    if (m.y != 0u) {
        top = 63u - countLeadingZeros(m.y);
    }
    let s = top - 23u;
    var mantissa = u64_shr(m, s).x;
    let dropped = i64_sub(m, u64_shl(vec2<u32>(mantissa, 0u), s));
    let half = u64_shl(vec2<u32>(1u, 0u), s - 1u);
    if (u64_lt(half, dropped) || (i64_eq(dropped, half) && (mantissa & 1u) == 1u)) {
        mantissa = mantissa + 1u;
        if (mantissa == 0x1000000u) {
            mantissa = 0x800000u;
            top = top + 1u;
        }
    }
    return bitcast<f32>(sign | ((top + 127u) << 23u) | (mantissa & 0x7fffffu));
}
";

/// The WGSL storage type of an element of `dtype` on this backend.
pub(crate) fn storage(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool | DType::UInt8 => "u32",
        DType::Int32 => "i32",
        DType::Int64 => "vec2<u32>",
        _ => "f32",
    }
}

/// Bytes per element of `dtype` on this backend.
pub(crate) fn element_bytes(dtype: DType) -> u64 {
    if dtype == DType::Int64 { 8 } else { 4 }
}

/// `e`, an element of integer or bool `dtype`, as an int64.
pub(super) fn load(dtype: DType, e: &str) -> String {
    match dtype {
        DType::Int64 => e.to_string(),
        DType::Int32 => format!("i64_from_i32({e})"),
        _ => format!("vec2<u32>({e}, 0u)"),
    }
}

/// Int64 `v` as an element of `dtype`: int32 keeps the low word and uint8
/// its low byte, a bool is whether it is nonzero, a float32 is the nearest.
pub(super) fn store(dtype: DType, v: &str) -> String {
    match dtype {
        DType::Int64 => v.to_string(),
        DType::Int32 => format!("bitcast<i32>(({v}).x)"),
        DType::UInt8 => format!("(({v}).x & 0xffu)"),
        DType::Bool => format!("select(0u, 1u, !i64_is_zero({v}))"),
        _ => format!("i64_to_f32({v})"),
    }
}

/// An int64's two words, low first, for a kernel's `params`.
pub(super) fn words(v: i64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// `source` without the helper functions nothing in it calls: every kernel
/// writes `LIB` whole, and a shader compiler pays for each function it is
/// given (the division alone is a 64-step loop). A function is a line
/// `fn NAME(` at the start of a line through the next line that is `}`, with
/// the `//` lines just above it; `main` always stays.
pub(super) fn prune(source: &str) -> String {
    let mut items: Vec<(Option<String>, String)> = Vec::new();
    let mut pending = String::new();
    let mut lines = source.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let name = line
            .strip_prefix("fn ")
            .and_then(|rest| rest.split('(').next())
            .filter(|name| *name != "main");
        match name {
            Some(name) => {
                let mut text = std::mem::take(&mut pending);
                text.push_str(line);
                for line in lines.by_ref() {
                    text.push_str(line);
                    if line.trim_end() == "}" {
                        break;
                    }
                }
                items.push((Some(name.to_string()), text));
            }
            None if line.starts_with("//") => pending.push_str(line),
            None => {
                let text = std::mem::take(&mut pending) + line;
                items.push((None, text));
            }
        }
    }
    if !pending.is_empty() {
        items.push((None, pending));
    }
    // Keep what the kernel calls, then what that calls, until nothing changes.
    let mut kept: Vec<bool> = items.iter().map(|(name, _)| name.is_none()).collect();
    loop {
        let text: String = items
            .iter()
            .zip(&kept)
            .filter(|(_, k)| **k)
            .map(|((_, t), _)| t.as_str())
            .collect();
        let mut changed = false;
        for ((name, _), keep) in items.iter().zip(kept.iter_mut()) {
            if let Some(name) = name
                && !*keep
                && text.contains(&format!("{name}("))
            {
                *keep = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    items
        .into_iter()
        .zip(kept)
        .filter(|(_, k)| *k)
        .map(|((_, t), _)| t)
        .collect()
}
