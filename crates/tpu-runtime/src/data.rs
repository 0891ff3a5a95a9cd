//! Tensor values on the host, one vector per dtype, and the conversions between
//! dtypes as PyTorch defines them: floats to integers truncate toward zero (NaN
//! and out-of-range values saturate here, where C++ leaves them undefined), any
//! nonzero value is `True`, and float32 to bfloat16 rounds to nearest even.

use tpu_ir::DType;

/// A tensor's elements in row-major order, in its dtype.
#[derive(Clone, Debug, PartialEq)]
pub enum HostData {
    F32(Vec<f32>),
    /// bfloat16 bit patterns (the high half of a float32).
    BF16(Vec<u16>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
}

/// One element read back with its dtype: what `.item()` returns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Float(f64),
    Int(i64),
    Bool(bool),
}

pub fn bf16_to_f32(bits: u16) -> f32 {
    f32::from_bits((bits as u32) << 16)
}

/// Round-to-nearest-even from float32, keeping NaN a (quiet) NaN.
pub fn f32_to_bf16(value: f32) -> u16 {
    let bits = value.to_bits();
    if value.is_nan() {
        return ((bits >> 16) as u16) | 0x0040;
    }
    let rounding = 0x7fff + ((bits >> 16) & 1);
    (bits.wrapping_add(rounding) >> 16) as u16
}

/// A float truncated toward zero to int64, saturating, NaN as 0.
fn float_to_i64(v: f64) -> i64 {
    v as i64
}

impl HostData {
    pub fn dtype(&self) -> DType {
        match self {
            HostData::F32(_) => DType::Float32,
            HostData::BF16(_) => DType::BFloat16,
            HostData::I64(_) => DType::Int64,
            HostData::Bool(_) => DType::Bool,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            HostData::F32(v) => v.len(),
            HostData::BF16(v) => v.len(),
            HostData::I64(v) => v.len(),
            HostData::Bool(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `n` copies of `value` converted to `dtype`.
    pub fn filled(dtype: DType, n: usize, value: f64) -> HostData {
        match dtype {
            DType::Float32 => HostData::F32(vec![value as f32; n]),
            DType::BFloat16 => HostData::BF16(vec![f32_to_bf16(value as f32); n]),
            DType::Int64 => HostData::I64(vec![float_to_i64(value); n]),
            DType::Bool => HostData::Bool(vec![value != 0.0; n]),
        }
    }

    /// Element `i` as a Python value of its kind.
    pub fn scalar(&self, i: usize) -> Scalar {
        match self {
            HostData::F32(v) => Scalar::Float(v[i] as f64),
            HostData::BF16(v) => Scalar::Float(bf16_to_f32(v[i]) as f64),
            HostData::I64(v) => Scalar::Int(v[i]),
            HostData::Bool(v) => Scalar::Bool(v[i]),
        }
    }

    /// Every element widened to f64 (exact for all but int64 beyond 2^53), for
    /// printing and for arithmetic the reference does in a wider type.
    pub fn to_f64(&self) -> Vec<f64> {
        match self {
            HostData::F32(v) => v.iter().map(|&x| x as f64).collect(),
            HostData::BF16(v) => v.iter().map(|&x| bf16_to_f32(x) as f64).collect(),
            HostData::I64(v) => v.iter().map(|&x| x as f64).collect(),
            HostData::Bool(v) => v.iter().map(|&x| x as u8 as f64).collect(),
        }
    }

    /// Float32 values (bfloat16 widened); `None` for integer and bool data.
    pub fn as_f32(&self) -> Option<Vec<f32>> {
        match self {
            HostData::F32(v) => Some(v.clone()),
            HostData::BF16(v) => Some(v.iter().map(|&x| bf16_to_f32(x)).collect()),
            _ => None,
        }
    }

    /// The values converted to `to`, as `tensor.to(dtype)` converts them.
    pub fn cast(&self, to: DType) -> HostData {
        if self.dtype() == to {
            return self.clone();
        }
        match (self, to) {
            (HostData::I64(v), DType::Float32) => {
                HostData::F32(v.iter().map(|&x| x as f32).collect())
            }
            (HostData::I64(v), DType::BFloat16) => {
                HostData::BF16(v.iter().map(|&x| f32_to_bf16(x as f32)).collect())
            }
            (HostData::I64(v), DType::Bool) => HostData::Bool(v.iter().map(|&x| x != 0).collect()),
            (HostData::Bool(v), DType::Int64) => {
                HostData::I64(v.iter().map(|&x| x as i64).collect())
            }
            (HostData::Bool(v), _) => {
                HostData::filled(to, 0, 0.0).with_f32_values(v.iter().map(|&x| x as u8 as f32))
            }
            (HostData::F32(_) | HostData::BF16(_), DType::Int64) => {
                HostData::I64(self.to_f64().into_iter().map(float_to_i64).collect())
            }
            (HostData::F32(_) | HostData::BF16(_), DType::Bool) => {
                HostData::Bool(self.to_f64().into_iter().map(|x| x != 0.0).collect())
            }
            (HostData::F32(v), DType::BFloat16) => {
                HostData::BF16(v.iter().map(|&x| f32_to_bf16(x)).collect())
            }
            (HostData::BF16(v), DType::Float32) => {
                HostData::F32(v.iter().map(|&x| bf16_to_f32(x)).collect())
            }
            _ => unreachable!("same-dtype casts return early"),
        }
    }

    /// Float data of this dtype from float32 values (rounded for bfloat16).
    pub fn with_f32_values(&self, values: impl Iterator<Item = f32>) -> HostData {
        match self.dtype() {
            DType::BFloat16 => HostData::BF16(values.map(f32_to_bf16).collect()),
            _ => HostData::F32(values.collect()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfloat16_rounds_to_nearest_even() {
        assert_eq!(bf16_to_f32(f32_to_bf16(1.0)), 1.0);
        // 1 + 2^-8 is halfway between two bfloat16 values; ties go to even (1.0).
        assert_eq!(bf16_to_f32(f32_to_bf16(1.0 + 1.0 / 256.0)), 1.0);
        assert_eq!(bf16_to_f32(f32_to_bf16(3.25)), 3.25);
        // 0.1 is 0x3dcccccd in float32; the dropped half 0xcccd rounds up.
        assert_eq!(f32_to_bf16(0.1), 0x3dcd);
        assert!(bf16_to_f32(f32_to_bf16(f32::NAN)).is_nan());
    }

    #[test]
    fn casts_follow_pytorch() {
        let f = HostData::F32(vec![-1.7, 0.0, 2.9, f32::NAN]);
        assert_eq!(f.cast(DType::Int64), HostData::I64(vec![-1, 0, 2, 0]));
        assert_eq!(
            f.cast(DType::Bool),
            HostData::Bool(vec![true, false, true, true])
        );
        let b = HostData::Bool(vec![true, false]);
        assert_eq!(b.cast(DType::Float32), HostData::F32(vec![1.0, 0.0]));
        assert_eq!(b.cast(DType::Int64), HostData::I64(vec![1, 0]));
    }
}
