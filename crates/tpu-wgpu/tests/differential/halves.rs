//! bfloat16 and float16 cases (`src/kernels/half.rs`): every float32 case
//! again in each half dtype, its float inputs rounded to the dtype, and the
//! casts into and out of them on the values rounding can get wrong: ties to
//! even, the largest finite values and the first that overflow, float16's
//! subnormals, signed zeros, NaN and infinities.

use crate::case::{Case, Expect, Tolerance};
use crate::integers::{bools, int64s};
use crate::values::mixed;
use tpu_ir::{DType, Op, Shape};
use tpu_runtime::HostData;
use tpu_runtime::data::{f32_to_bf16, f32_to_f16};

pub const HALVES: [DType; 2] = [DType::BFloat16, DType::Float16];

/// `data` rounded to half `dtype`, if it is float32.
fn rounded(data: &HostData, dtype: DType) -> HostData {
    match data {
        HostData::F32(v) if dtype == DType::BFloat16 => {
            HostData::BF16(v.iter().map(|&x| f32_to_bf16(x)).collect())
        }
        HostData::F32(v) => HostData::F16(v.iter().map(|&x| f32_to_f16(x)).collect()),
        other => other.clone(),
    }
}

/// `case`, a float32 case, in half `dtype`: its float32 inputs rounded, a
/// float32 result made `dtype`. Exact cases stay exact (the kernel computes in
/// float32 as the reference does and both round once); a tolerance grows to
/// one unit in the half dtype's last place, since a float32 result a few ulps
/// apart can round to the neighbouring half value. `None` for a Pallas case
/// and a case with no float32 input or output. A cast keeps its target:
/// `casts` has the casts into the half dtypes.
pub fn of(case: &Case, dtype: DType) -> Option<Case> {
    let floats = case.inputs.iter().any(|(d, _)| d.dtype() == DType::Float32);
    // A Pallas kernel's refs name their dtypes; the corpus's
    // `pallas/bf16_inputs.py` runs one with bfloat16 refs.
    if (!floats && case.dtype != DType::Float32) || matches!(case.op, Op::Pallas { .. }) {
        return None;
    }
    let expect = match case.expect {
        Expect::Close(Tolerance::Ulps { ulps, floor }) => {
            // One half ulp, in float32 ulps: 2^16 for bfloat16 and 2^13 for
            // float16, and float16's smallest subnormal near zero.
            let (half_ulps, half_floor) = match dtype {
                DType::BFloat16 => (65_536.0, 0.0),
                _ => (8_192.0, 5.960_464_5e-8),
            };
            Expect::Close(Tolerance::Ulps {
                ulps: ulps.max(half_ulps),
                floor: floor.max(half_floor),
            })
        }
        other => other,
    };
    Some(Case {
        op: case.op.clone(),
        inputs: case
            .inputs
            .iter()
            .map(|(d, s)| (rounded(d, dtype), s.clone()))
            .collect(),
        out: case.out.clone(),
        // A cast's dtype is its op's.
        dtype: if case.dtype == DType::Float32 && !matches!(case.op, Op::Cast { .. }) {
            dtype
        } else {
            case.dtype
        },
        expect,
    })
}

/// Float32 values at the edges of rounding to bfloat16 and float16.
fn edges() -> Vec<f32> {
    let tiny = 2f32.powi(-24);
    let mut v = vec![
        // bfloat16 ties (8 bits of mantissa): to even below, up above.
        1.0 + 2f32.powi(-8),
        1.0 + 3.0 * 2f32.powi(-8),
        -(1.0 + 2f32.powi(-8)),
        1.0 + 2f32.powi(-8) + 2f32.powi(-20),
        // float16 ties (11 bits).
        1.0 + 2f32.powi(-11),
        1.0 + 3.0 * 2f32.powi(-11),
        2049.0,
        2051.0,
        // float16's largest, the last value that rounds to it, the first
        // that overflows, and past it.
        65_504.0,
        65_519.996,
        65_520.0,
        -65_520.0,
        1e5,
        // float16 subnormals: exact, ties to even, below half the smallest.
        tiny,
        1.5 * tiny,
        2.5 * tiny,
        0.5 * tiny,
        0.75 * tiny,
        -0.75 * tiny,
        1023.5 * tiny,
        2f32.powi(-14) - tiny / 4.0,
        2f32.powi(-14),
        // bfloat16's largest and overflow.
        f32::MAX,
        -f32::MAX,
        3.389_531_4e38,
        -0.0,
        0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.1,
        -1.0 / 3.0,
        1e-30,
        6e-8,
    ];
    v.extend(mixed(70));
    v
}

/// Casts into the half dtypes from every dtype the device holds, and out of
/// them, all exact.
pub fn casts() -> Vec<Case> {
    let floats = edges();
    let n = floats.len();
    let source = |dtype: DType| match dtype {
        DType::Float32 => (HostData::F32(floats.clone()), Shape::new([n])),
        DType::Bool => (HostData::Bool(bools(n)), Shape::new([n])),
        DType::BFloat16 | DType::Float16 => (
            rounded(&HostData::F32(floats.clone()), dtype),
            Shape::new([n]),
        ),
        _ => (HostData::from_i64(dtype, int64s(n)), Shape::new([n])),
    };
    let held = [
        DType::Float32,
        DType::Bool,
        DType::Int32,
        DType::Int64,
        DType::BFloat16,
        DType::Float16,
    ];
    let mut cases = Vec::new();
    for from in held {
        for to in held {
            if HALVES.contains(&from) || HALVES.contains(&to) {
                cases.push(Case::exact(Op::Cast { to }, vec![source(from)], [n], to));
            }
        }
    }
    cases
}
