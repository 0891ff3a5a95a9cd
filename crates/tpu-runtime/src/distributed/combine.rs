//! What a collective computes once every member of its group has arrived: each
//! member's inputs, in group-rank order, become each member's outputs. The
//! values are combined on the host in group-rank order (the order gloo's ring
//! reduces in is an implementation detail; the sums agree to float32's last
//! place on the corpus), in the tensors' own dtype: float32 sums stay
//! float32, bfloat16 is combined in float32 and rounded once, integers wrap.

use super::{CollectiveCall, ReduceOp};
use crate::data::{HostData, bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};

/// Combines `a` into `acc` element by element with `op` (not `Avg`, which is
/// a sum divided at the end). Bitwise operations are refused for floats by
/// the caller.
fn fold(acc: &mut HostData, a: &HostData, op: ReduceOp) {
    macro_rules! arith {
        ($acc:expr, $a:expr, $add:expr, $mul:expr, $min:expr, $max:expr) => {
            for (x, &y) in $acc.iter_mut().zip($a.iter()) {
                *x = match op {
                    ReduceOp::Sum | ReduceOp::Avg => $add(*x, y),
                    ReduceOp::Product => $mul(*x, y),
                    ReduceOp::Min => $min(*x, y),
                    ReduceOp::Max => $max(*x, y),
                    ReduceOp::BAnd | ReduceOp::BOr | ReduceOp::BXor => *x,
                };
            }
        };
    }
    macro_rules! bits {
        ($acc:expr, $a:expr) => {
            for (x, &y) in $acc.iter_mut().zip($a.iter()) {
                match op {
                    ReduceOp::BAnd => *x &= y,
                    ReduceOp::BOr => *x |= y,
                    ReduceOp::BXor => *x ^= y,
                    _ => {}
                }
            }
        };
    }
    let float_max = |x: f64, y: f64| if x.is_nan() || y > x { y } else { x };
    let float_min = |x: f64, y: f64| if x.is_nan() || y < x { y } else { x };
    match (acc, a) {
        (HostData::F32(acc), HostData::F32(a)) => arith!(
            acc,
            a,
            |x: f32, y: f32| x + y,
            |x: f32, y: f32| x * y,
            |x: f32, y: f32| float_min(x as f64, y as f64) as f32,
            |x: f32, y: f32| float_max(x as f64, y as f64) as f32
        ),
        (HostData::F64(acc), HostData::F64(a)) => arith!(
            acc,
            a,
            |x: f64, y: f64| x + y,
            |x: f64, y: f64| x * y,
            float_min,
            float_max
        ),
        (HostData::BF16(acc), HostData::BF16(a)) => {
            let mut wide = HostData::F32(acc.iter().map(|&x| bf16_to_f32(x)).collect());
            let other = HostData::F32(a.iter().map(|&x| bf16_to_f32(x)).collect());
            fold(&mut wide, &other, op);
            if let HostData::F32(w) = wide {
                for (x, y) in acc.iter_mut().zip(w) {
                    *x = f32_to_bf16(y);
                }
            }
        }
        (HostData::F16(acc), HostData::F16(a)) => {
            let mut wide = HostData::F32(acc.iter().map(|&x| f16_to_f32(x)).collect());
            let other = HostData::F32(a.iter().map(|&x| f16_to_f32(x)).collect());
            fold(&mut wide, &other, op);
            if let HostData::F32(w) = wide {
                for (x, y) in acc.iter_mut().zip(w) {
                    *x = f32_to_f16(y);
                }
            }
        }
        (HostData::I32(acc), HostData::I32(a)) => {
            if op.is_bitwise() {
                bits!(acc, a)
            } else {
                arith!(
                    acc,
                    a,
                    i32::wrapping_add,
                    i32::wrapping_mul,
                    i32::min,
                    i32::max
                )
            }
        }
        (HostData::I64(acc), HostData::I64(a)) => {
            if op.is_bitwise() {
                bits!(acc, a)
            } else {
                arith!(
                    acc,
                    a,
                    i64::wrapping_add,
                    i64::wrapping_mul,
                    i64::min,
                    i64::max
                )
            }
        }
        (HostData::U8(acc), HostData::U8(a)) => {
            if op.is_bitwise() {
                bits!(acc, a)
            } else {
                arith!(acc, a, u8::wrapping_add, u8::wrapping_mul, u8::min, u8::max)
            }
        }
        (HostData::Bool(acc), HostData::Bool(a)) => {
            for (x, &y) in acc.iter_mut().zip(a.iter()) {
                *x = match op {
                    ReduceOp::Sum | ReduceOp::Max | ReduceOp::BOr | ReduceOp::Avg => *x || y,
                    ReduceOp::Product | ReduceOp::Min | ReduceOp::BAnd => *x && y,
                    ReduceOp::BXor => *x ^ y,
                };
            }
        }
        // Dtypes are checked to agree before anything is combined.
        _ => {}
    }
}

/// Every member's input reduced with `op`.
fn reduce(inputs: &[HostData], op: ReduceOp) -> Result<HostData, String> {
    let dtype = inputs[0].dtype();
    if op.is_bitwise() && dtype.is_floating() {
        return Err(format!(
            "Cannot use ReduceOp.{} with non-integral dtype",
            op.name()
        ));
    }
    let mut acc = inputs[0].clone();
    for a in &inputs[1..] {
        fold(&mut acc, a, op);
    }
    if op == ReduceOp::Avg {
        let n = inputs.len() as f64;
        acc = match acc {
            HostData::F32(v) => HostData::F32(v.into_iter().map(|x| x / n as f32).collect()),
            HostData::F64(v) => HostData::F64(v.into_iter().map(|x| x / n).collect()),
            HostData::BF16(v) => HostData::BF16(
                v.into_iter()
                    .map(|x| f32_to_bf16(bf16_to_f32(x) / n as f32))
                    .collect(),
            ),
            HostData::F16(v) => HostData::F16(
                v.into_iter()
                    .map(|x| f32_to_f16(f16_to_f32(x) / n as f32))
                    .collect(),
            ),
            other => {
                return Err(format!(
                    "result type Float can't be cast to the desired output type {}",
                    crate::scalar_type_name(other.dtype())
                ));
            }
        };
    }
    Ok(acc)
}

/// `data[start..start + len]` as its own buffer.
fn window(data: &HostData, start: usize, len: usize) -> HostData {
    let r = start..start + len;
    match data {
        HostData::F32(v) => HostData::F32(v[r].to_vec()),
        HostData::F64(v) => HostData::F64(v[r].to_vec()),
        HostData::BF16(v) => HostData::BF16(v[r].to_vec()),
        HostData::F16(v) => HostData::F16(v[r].to_vec()),
        HostData::I32(v) => HostData::I32(v[r].to_vec()),
        HostData::U8(v) => HostData::U8(v[r].to_vec()),
        HostData::I64(v) => HostData::I64(v[r].to_vec()),
        HostData::Bool(v) => HostData::Bool(v[r].to_vec()),
    }
}

/// The buffers one after another (all of one dtype).
pub(crate) fn concat(parts: &[HostData]) -> HostData {
    let mut out = match parts.first() {
        Some(first) => window(first, 0, 0),
        None => return HostData::F32(Vec::new()),
    };
    for p in parts {
        match (&mut out, p) {
            (HostData::F32(o), HostData::F32(v)) => o.extend_from_slice(v),
            (HostData::F64(o), HostData::F64(v)) => o.extend_from_slice(v),
            (HostData::BF16(o), HostData::BF16(v)) => o.extend_from_slice(v),
            (HostData::F16(o), HostData::F16(v)) => o.extend_from_slice(v),
            (HostData::I32(o), HostData::I32(v)) => o.extend_from_slice(v),
            (HostData::U8(o), HostData::U8(v)) => o.extend_from_slice(v),
            (HostData::I64(o), HostData::I64(v)) => o.extend_from_slice(v),
            (HostData::Bool(o), HostData::Bool(v)) => o.extend_from_slice(v),
            _ => {}
        }
    }
    out
}

/// Each member's outputs, given every member's call and input in group-rank
/// order (`inputs[i]` is member i's). `src` positions are group ranks here.
pub(crate) fn combine(
    calls: &[CollectiveCall],
    inputs: &[HostData],
) -> Result<Vec<Vec<HostData>>, String> {
    let n = inputs.len();
    Ok(match &calls[0] {
        CollectiveCall::AllReduce { op } => {
            let reduced = reduce(inputs, *op)?;
            vec![vec![reduced]; n]
        }
        CollectiveCall::Broadcast { src } => vec![vec![inputs[*src].clone()]; n],
        CollectiveCall::AllGather => vec![inputs.to_vec(); n],
        CollectiveCall::ReduceScatter { op } => {
            let reduced = reduce(inputs, *op)?;
            let chunk = reduced.len() / n;
            (0..n)
                .map(|r| vec![window(&reduced, r * chunk, chunk)])
                .collect()
        }
        CollectiveCall::AllToAll { row, .. } => {
            // Member j's input is split into n chunks (rows along dim 0, by
            // its input splits); member r receives chunk r of every member.
            let splits: Vec<Vec<usize>> = calls
                .iter()
                .zip(inputs)
                .map(|(c, data)| match c {
                    CollectiveCall::AllToAll { input_splits, .. } if !input_splits.is_empty() => {
                        input_splits.clone()
                    }
                    _ => vec![data.len() / row.max(&1) / n; n],
                })
                .collect();
            // What member r sends member j must be what j expects from r.
            for (r, call) in calls.iter().enumerate() {
                if let CollectiveCall::AllToAll { output_splits, .. } = call
                    && !output_splits.is_empty()
                {
                    for (j, sent) in splits.iter().enumerate() {
                        if sent[r] != output_splits[j] {
                            return Err(format!(
                                "all_to_all split sizes disagree: rank {j} sends {} rows to rank {r}, which \
                                 expects {} from it",
                                sent[r], output_splits[j]
                            ));
                        }
                    }
                }
            }
            (0..n)
                .map(|r| {
                    let parts: Vec<HostData> = (0..n)
                        .map(|j| {
                            let start: usize = splits[j][..r].iter().sum::<usize>() * row;
                            window(&inputs[j], start, splits[j][r] * row)
                        })
                        .collect();
                    vec![concat(&parts)]
                })
                .collect()
        }
        CollectiveCall::Barrier => vec![Vec::new(); n],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: &[f32]) -> HostData {
        HostData::F32(v.to_vec())
    }

    #[test]
    fn all_reduce_combines_in_the_tensors_dtype() {
        let call = CollectiveCall::AllReduce { op: ReduceOp::Sum };
        let inputs = [f32s(&[1.0, 2.0]), f32s(&[3.0, 4.5]), f32s(&[0.25, -1.0])];
        let out = combine(&[call.clone(), call.clone(), call], &inputs).unwrap();
        assert_eq!(out[2], vec![f32s(&[4.25, 5.5])]);
        let ints = [HostData::I32(vec![i32::MAX]), HostData::I32(vec![1])];
        let call = CollectiveCall::AllReduce { op: ReduceOp::Sum };
        let out = combine(&[call.clone(), call], &ints).unwrap();
        assert_eq!(out[0], vec![HostData::I32(vec![i32::MIN])], "int32 wraps");
    }

    #[test]
    fn reduce_scatter_gives_each_member_its_chunk_of_the_sum() {
        let call = CollectiveCall::ReduceScatter { op: ReduceOp::Max };
        let inputs = [f32s(&[1.0, 5.0, 0.0, 2.0]), f32s(&[3.0, 4.0, -1.0, 7.0])];
        let out = combine(&[call.clone(), call], &inputs).unwrap();
        assert_eq!(out[0], vec![f32s(&[3.0, 5.0])]);
        assert_eq!(out[1], vec![f32s(&[0.0, 7.0])]);
    }

    #[test]
    fn all_to_all_sends_chunk_r_of_every_member_to_member_r() {
        let call = CollectiveCall::AllToAll {
            input_splits: vec![],
            output_splits: vec![],
            row: 1,
        };
        let inputs = [f32s(&[0.0, 1.0]), f32s(&[10.0, 11.0])];
        let out = combine(&[call.clone(), call], &inputs).unwrap();
        assert_eq!(out[0], vec![f32s(&[0.0, 10.0])]);
        assert_eq!(out[1], vec![f32s(&[1.0, 11.0])]);
    }

    #[test]
    fn uneven_all_to_all_sends_each_member_its_split_and_checks_the_splits_agree() {
        let zero = CollectiveCall::AllToAll {
            input_splits: vec![1, 2],
            output_splits: vec![1, 1],
            row: 1,
        };
        let one = CollectiveCall::AllToAll {
            input_splits: vec![1, 1],
            output_splits: vec![2, 1],
            row: 1,
        };
        let inputs = [f32s(&[0.0, 1.0, 2.0]), f32s(&[10.0, 11.0])];
        let out = combine(&[zero.clone(), one], &inputs).unwrap();
        assert_eq!(out[0], vec![f32s(&[0.0, 10.0])]);
        assert_eq!(out[1], vec![f32s(&[1.0, 2.0, 11.0])]);
        let wrong = CollectiveCall::AllToAll {
            input_splits: vec![1, 1],
            output_splits: vec![1, 1],
            row: 1,
        };
        assert!(combine(&[zero, wrong], &inputs).is_err());
    }

    #[test]
    fn average_of_integers_and_bitwise_of_floats_are_refused() {
        let call = CollectiveCall::AllReduce { op: ReduceOp::Avg };
        let ints = [HostData::I64(vec![1]), HostData::I64(vec![2])];
        assert!(combine(&[call.clone(), call], &ints).is_err());
        let call = CollectiveCall::AllReduce { op: ReduceOp::BAnd };
        assert!(combine(&[call.clone(), call], &[f32s(&[1.0]), f32s(&[1.0])]).is_err());
    }
}
