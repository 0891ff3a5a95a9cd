//! A differential case (an op, its inputs, what wgpu must do with it), the
//! tolerances, and running a case on both backends.

use tpu_ir::{DType, Op, Shape};
use tpu_runtime::{Backend, BackendError, BufferId, HostData, Operand, ReferenceBackend, run_op};
use tpu_wgpu::WgpuBackend;

/// How close wgpu must come to the reference, per op family.
#[derive(Clone, Copy, Debug)]
pub enum Tolerance {
    /// The same value (NaN where the reference has NaN; `-0.0` equals `0.0`).
    /// For data movement, for ops WGSL defines as correctly rounded (`+`, `-`,
    /// `*`, `floor`, `round`, `max`, ...), and for sums and products whose
    /// inputs make every partial result exact, so that the kernels' order of
    /// accumulation (sequential, or a tree) cannot change the result.
    Exact,
    /// Within `ulps` units in the last place of the reference's result, or
    /// `floor` absolutely (for results near zero, where an ulp is tiny).
    Ulps { ulps: f32, floor: f32 },
}

/// What a case expects of wgpu.
#[derive(Clone, Copy, Debug)]
pub enum Expect {
    Close(Tolerance),
    /// Refused with `BackendError::Unsupported`, so placement falls back.
    Refused,
    /// Refused by every backend: the runtime itself makes the values (the
    /// generator's draws), and the op only records that it did.
    RuntimeOnly,
}

pub struct Case {
    pub op: Op,
    pub inputs: Vec<(HostData, Shape)>,
    pub out: Shape,
    pub dtype: DType,
    pub expect: Expect,
}

impl Case {
    pub fn f32(op: Op, inputs: Vec<(Vec<f32>, Shape)>, out: Shape, tolerance: Tolerance) -> Case {
        Case {
            op,
            inputs: inputs
                .into_iter()
                .map(|(d, s)| (HostData::F32(d), s))
                .collect(),
            out,
            dtype: DType::Float32,
            expect: Expect::Close(tolerance),
        }
    }

    /// A case of any dtypes whose result must be the reference's exactly.
    pub fn exact<const R: usize>(
        op: Op,
        inputs: Vec<(HostData, Shape)>,
        out: [usize; R],
        dtype: DType,
    ) -> Case {
        Case {
            op,
            inputs,
            out: Shape::new(out),
            dtype,
            expect: Expect::Close(Tolerance::Exact),
        }
    }

    pub fn refused(op: Op, inputs: Vec<(HostData, Shape)>, out: Shape, dtype: DType) -> Case {
        Case {
            op,
            inputs,
            out,
            dtype,
            expect: Expect::Refused,
        }
    }

    pub fn runtime_only(op: Op, out: Shape, dtype: DType) -> Case {
        Case {
            op,
            inputs: vec![],
            out,
            dtype,
            expect: Expect::RuntimeOnly,
        }
    }
}

/// Whether `actual` is within `tolerance` of `expected`.
fn agrees(expected: f32, actual: f32, tolerance: Tolerance) -> bool {
    if expected.is_nan() || actual.is_nan() {
        return expected.is_nan() && actual.is_nan();
    }
    if expected == actual {
        return true;
    }
    match tolerance {
        Tolerance::Exact => false,
        Tolerance::Ulps { ulps, floor } => {
            let ulp = f32::EPSILON * expected.abs().max(f32::MIN_POSITIVE);
            (expected - actual).abs() <= (ulps * ulp).max(floor)
        }
    }
}

pub fn run_case(gpu: &mut WgpuBackend, case: &Case) -> Result<(), String> {
    let what = format!(
        "{:?} on {:?} into {:?}",
        case.op,
        shapes(case),
        case.out.dims()
    );
    if matches!(case.expect, Expect::RuntimeOnly) {
        let on_reference = ReferenceBackend::new().execute(&case.op, &[], &case.out, case.dtype);
        let on_wgpu = gpu.execute(&case.op, &[], &case.out, case.dtype);
        return match (on_reference, on_wgpu) {
            (Err(BackendError::Unsupported { .. }), Err(BackendError::Unsupported { .. })) => {
                Ok(())
            }
            (r, w) => Err(format!(
                "{what}: expected both backends to refuse, got {:?} and {:?}",
                r.map(|d| d.kernel),
                w.map(|d| d.kernel)
            )),
        };
    }
    let reference = pollster::block_on(run_op(
        &mut ReferenceBackend::new(),
        &case.op,
        &case.inputs,
        &case.out,
        case.dtype,
    ))
    .map_err(|e| format!("{what}: the reference failed: {e}"))?;
    match case.expect {
        Expect::RuntimeOnly => unreachable!("handled before the reference runs"),
        Expect::Refused => {
            // Buffers wgpu never made: the refusal must come before any use.
            let operands: Vec<Operand> = case
                .inputs
                .iter()
                .map(|(data, shape)| Operand {
                    buffer: BufferId(u64::MAX),
                    shape,
                    dtype: data.dtype(),
                })
                .collect();
            let checked = gpu.check(&case.op, &operands, &case.out, case.dtype);
            let executed = gpu.execute(&case.op, &operands, &case.out, case.dtype);
            match (checked, executed) {
                (Err(BackendError::Unsupported { .. }), Err(BackendError::Unsupported { .. })) => {
                    Ok(())
                }
                (c, e) => Err(format!(
                    "{what}: expected a refusal, got {c:?} and {:?}",
                    e.map(|d| d.kernel)
                )),
            }
        }
        Expect::Close(tolerance) => {
            let actual =
                pollster::block_on(run_op(gpu, &case.op, &case.inputs, &case.out, case.dtype))
                    .map_err(|e| format!("{what}: wgpu failed: {e}"))?;
            if actual.dtype() != reference.dtype() {
                return Err(format!(
                    "{what}: wgpu gave {:?}, the reference {:?}",
                    actual.dtype(),
                    reference.dtype()
                ));
            }
            // Integers (and bools) exactly.
            if let (Some(expected), Some(actual)) = (reference.as_i64(), actual.as_i64()) {
                return match expected.iter().zip(&actual).position(|(e, a)| e != a) {
                    _ if expected.len() != actual.len() => Err(format!(
                        "{what}: {} values, expected {}",
                        actual.len(),
                        expected.len()
                    )),
                    Some(i) => Err(format!(
                        "{what}: element {i}: reference {}, wgpu {}",
                        expected[i], actual[i]
                    )),
                    None => Ok(()),
                };
            }
            // Float32 exactly through float64.
            let values =
                |d: &HostData| -> Vec<f32> { d.to_f64().iter().map(|&v| v as f32).collect() };
            let (expected, actual) = (values(&reference), values(&actual));
            if expected.len() != actual.len() {
                return Err(format!(
                    "{what}: {} values, expected {}",
                    actual.len(),
                    expected.len()
                ));
            }
            for (i, (&e, &a)) in expected.iter().zip(&actual).enumerate() {
                if !agrees(e, a, tolerance) {
                    let inputs: Vec<String> = case
                        .inputs
                        .iter()
                        .map(|(d, _)| match d {
                            HostData::F32(v) => format!("{:?}", v.get(i)),
                            HostData::Bool(v) => format!("{:?}", v.get(i)),
                            _ => String::new(),
                        })
                        .collect();
                    return Err(format!(
                        "{what}: element {i} (inputs there {inputs:?}): reference {e}, wgpu {a}, tolerance {tolerance:?}"
                    ));
                }
            }
            Ok(())
        }
    }
}

fn shapes(case: &Case) -> Vec<Vec<usize>> {
    case.inputs.iter().map(|(_, s)| s.dims().to_vec()).collect()
}
