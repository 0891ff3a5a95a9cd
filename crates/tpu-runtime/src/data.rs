//! Tensor values on the host, one vector per dtype, and the conversions between
//! dtypes as PyTorch defines them: floats to integers truncate toward zero (NaN
//! and out-of-range values saturate here, where C++ leaves them undefined), any
//! nonzero value is `True`, and float32 to bfloat16 or float16 rounds to nearest
//! even.

use tpu_ir::DType;

/// A tensor's elements in row-major order, in its dtype.
#[derive(Clone, Debug, PartialEq)]
pub enum HostData {
    F32(Vec<f32>),
    F64(Vec<f64>),
    /// bfloat16 bit patterns (the high half of a float32).
    BF16(Vec<u16>),
    /// IEEE half-precision (float16) bit patterns.
    F16(Vec<u16>),
    U8(Vec<u8>),
    I32(Vec<i32>),
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

pub fn f16_to_f32(bits: u16) -> f32 {
    half::f16::from_bits(bits).to_f32()
}

/// Rounds to the nearest float16, ties to even, overflowing to infinity.
pub fn f32_to_f16(value: f32) -> u16 {
    half::f16::from_f32(value).to_bits()
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

/// A float truncated toward zero to int32, saturating, NaN as 0 (C++ leaves
/// out-of-range conversions undefined).
fn float_to_i32(v: f64) -> i32 {
    v as i32
}

impl HostData {
    pub fn dtype(&self) -> DType {
        match self {
            HostData::F32(_) => DType::Float32,
            HostData::F64(_) => DType::Float64,
            HostData::BF16(_) => DType::BFloat16,
            HostData::F16(_) => DType::Float16,
            HostData::U8(_) => DType::UInt8,
            HostData::I32(_) => DType::Int32,
            HostData::I64(_) => DType::Int64,
            HostData::Bool(_) => DType::Bool,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            HostData::F32(v) => v.len(),
            HostData::F64(v) => v.len(),
            HostData::BF16(v) | HostData::F16(v) => v.len(),
            HostData::U8(v) => v.len(),
            HostData::I32(v) => v.len(),
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
            DType::Float64 => HostData::F64(vec![value; n]),
            DType::BFloat16 => HostData::BF16(vec![f32_to_bf16(value as f32); n]),
            DType::Float16 => HostData::F16(vec![f32_to_f16(value as f32); n]),
            DType::UInt8 => HostData::U8(vec![float_to_i64(value) as u8; n]),
            DType::Int32 => HostData::I32(vec![float_to_i32(value); n]),
            DType::Int64 => HostData::I64(vec![float_to_i64(value); n]),
            DType::Bool => HostData::Bool(vec![value != 0.0; n]),
        }
    }

    /// Element `i` as a Python value of its kind.
    pub fn scalar(&self, i: usize) -> Scalar {
        match self {
            HostData::F32(v) => Scalar::Float(v[i] as f64),
            HostData::F64(v) => Scalar::Float(v[i]),
            HostData::BF16(v) => Scalar::Float(bf16_to_f32(v[i]) as f64),
            HostData::F16(v) => Scalar::Float(f16_to_f32(v[i]) as f64),
            HostData::U8(v) => Scalar::Int(v[i] as i64),
            HostData::I32(v) => Scalar::Int(v[i] as i64),
            HostData::I64(v) => Scalar::Int(v[i]),
            HostData::Bool(v) => Scalar::Bool(v[i]),
        }
    }

    /// Every element widened to f64 (exact for all but int64 beyond 2^53), for
    /// printing and for arithmetic the reference does in a wider type.
    pub fn to_f64(&self) -> Vec<f64> {
        match self {
            HostData::F32(v) => v.iter().map(|&x| x as f64).collect(),
            HostData::F64(v) => v.clone(),
            HostData::BF16(v) => v.iter().map(|&x| bf16_to_f32(x) as f64).collect(),
            HostData::F16(v) => v.iter().map(|&x| f16_to_f32(x) as f64).collect(),
            HostData::U8(v) => v.iter().map(|&x| x as f64).collect(),
            HostData::I32(v) => v.iter().map(|&x| x as f64).collect(),
            HostData::I64(v) => v.iter().map(|&x| x as f64).collect(),
            HostData::Bool(v) => v.iter().map(|&x| x as u8 as f64).collect(),
        }
    }

    /// Float32, bfloat16 and float16 values as float32; `None` for every other
    /// dtype (float64 included: it never computes in float32).
    pub fn as_f32(&self) -> Option<Vec<f32>> {
        match self {
            HostData::F32(v) => Some(v.clone()),
            HostData::BF16(v) => Some(v.iter().map(|&x| bf16_to_f32(x)).collect()),
            HostData::F16(v) => Some(v.iter().map(|&x| f16_to_f32(x)).collect()),
            _ => None,
        }
    }

    /// `as_f32` without a copy for float32 data.
    pub fn f32_values(&self) -> Option<std::borrow::Cow<'_, [f32]>> {
        match self {
            HostData::F32(v) => Some(std::borrow::Cow::Borrowed(v)),
            other => other.as_f32().map(std::borrow::Cow::Owned),
        }
    }

    /// The values as `to`: themselves when they already are (no copy), else
    /// `cast`.
    pub fn into_dtype(self, to: DType) -> HostData {
        if self.dtype() == to {
            self
        } else {
            self.cast(to)
        }
    }

    /// Integer and bool values widened to int64; `None` for floats.
    pub fn as_i64(&self) -> Option<Vec<i64>> {
        match self {
            HostData::I64(v) => Some(v.clone()),
            HostData::I32(v) => Some(v.iter().map(|&x| x as i64).collect()),
            HostData::U8(v) => Some(v.iter().map(|&x| x as i64).collect()),
            HostData::Bool(v) => Some(v.iter().map(|&x| x as i64).collect()),
            _ => None,
        }
    }

    /// Integer data of an integer dtype from int64 values: int32 keeps the low
    /// 32 bits and uint8 the low 8, so arithmetic done in int64 wraps as theirs
    /// would.
    pub fn from_i64(dtype: DType, values: Vec<i64>) -> HostData {
        match dtype {
            DType::Int32 => HostData::I32(values.into_iter().map(|x| x as i32).collect()),
            DType::UInt8 => HostData::U8(values.into_iter().map(|x| x as u8).collect()),
            _ => HostData::I64(values),
        }
    }

    /// The values converted to `to`, as `tensor.to(dtype)` converts them: an
    /// integer narrows by keeping its low bits, a float becomes an integer by
    /// truncation, anything nonzero is `True`, and a float64 becomes bfloat16
    /// or float16 through float32 (as `c10::BFloat16` and `c10::Half` convert
    /// it).
    pub fn cast(&self, to: DType) -> HostData {
        if self.dtype() == to {
            return self.clone();
        }
        let ints = self.as_i64();
        match to {
            DType::Bool => HostData::Bool(self.to_f64().into_iter().map(|x| x != 0.0).collect()),
            DType::Int64 | DType::Int32 | DType::UInt8 => {
                let values = ints.unwrap_or_else(|| {
                    let floats = self.to_f64().into_iter();
                    match to {
                        DType::Int32 => floats.map(|x| float_to_i32(x) as i64).collect(),
                        _ => floats.map(float_to_i64).collect(),
                    }
                });
                HostData::from_i64(to, values)
            }
            DType::Float64 => match ints {
                Some(v) => HostData::F64(v.into_iter().map(|x| x as f64).collect()),
                None => HostData::F64(self.to_f64()),
            },
            DType::Float32 | DType::BFloat16 | DType::Float16 => {
                let f32s: Vec<f32> = match (self, ints) {
                    // Straight to float32, rounding once (int64 past 2^24 included).
                    (_, Some(v)) => v.into_iter().map(|x| x as f32).collect(),
                    (HostData::F64(v), None) => v.iter().map(|&x| x as f32).collect(),
                    _ => self.as_f32().unwrap_or_default(),
                };
                match to {
                    DType::BFloat16 => HostData::BF16(f32s.into_iter().map(f32_to_bf16).collect()),
                    DType::Float16 => HostData::F16(f32s.into_iter().map(f32_to_f16).collect()),
                    _ => HostData::F32(f32s),
                }
            }
        }
    }

    /// Float data of this dtype from float32 values (rounded for bfloat16 and
    /// float16).
    pub fn with_f32_values(&self, values: impl Iterator<Item = f32>) -> HostData {
        match self.dtype() {
            DType::Float64 => HostData::F64(values.map(|x| x as f64).collect()),
            DType::BFloat16 => HostData::BF16(values.map(f32_to_bf16).collect()),
            DType::Float16 => HostData::F16(values.map(f32_to_f16).collect()),
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

    #[test]
    fn int32_and_float64_casts_follow_pytorch() {
        let f = HostData::F32(vec![2.7, -2.7, 0.1]);
        assert_eq!(f.cast(DType::Int32), HostData::I32(vec![2, -2, 0]));
        // float32's 0.1 widens exactly, it is not the double 0.1.
        assert_eq!(
            f.cast(DType::Float64),
            HostData::F64(vec![
                2.700000047683716,
                -2.700000047683716,
                0.10000000149011612
            ])
        );
        let d = HostData::F64(vec![0.1, 1e300, -1.5]);
        assert_eq!(
            d.cast(DType::Float32),
            HostData::F32(vec![0.1, f32::INFINITY, -1.5])
        );
        assert_eq!(d.cast(DType::Int64), HostData::I64(vec![0, i64::MAX, -1]));
        let big = HostData::I64(vec![(1 << 40) + 5, -1]);
        assert_eq!(big.cast(DType::Int32), HostData::I32(vec![5, -1]));
        assert_eq!(
            HostData::I32(vec![7, 0]).cast(DType::Bool),
            HostData::Bool(vec![true, false])
        );
        assert_eq!(
            HostData::Bool(vec![true]).cast(DType::Float64),
            HostData::F64(vec![1.0])
        );
    }
}
