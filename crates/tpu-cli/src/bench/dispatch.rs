//! `tpu bench --dispatch`: what one kernel launch costs the host on the wgpu
//! backend, and how fast its matmul is, measured below the interpreter
//! (straight on `WgpuBackend`), on whatever adapter this machine has.
//!
//! Launch cost: a chain of `CHAIN` tiny kernels (`x = x + 1` on 16 floats),
//! each releasing its input as a program's temporaries are released, then one
//! read. "record" is the host's time until the read is asked for; "total"
//! includes the GPU running them and the read. Both are measured batched
//! (this backend's way: one submission per read) and submitting every launch
//! on its own (as it did before), in the same process. The chain's result is
//! checked: `CHAIN` exactly.
//!
//! Matmul: `n x n` float32 products at 1024 and 4096 with each kernel the
//! backend has, repeated until half a second has passed, then a sum and one
//! read (so the figure includes one small read, not the output's); a sample
//! of output elements is checked against float64 dot products on the host.

use serde::Serialize;
use std::time::Instant;
use tpu_ir::{BinaryOp, DType, Op, Shape};
use tpu_runtime::{Backend, BufferId, HostData, Operand};
use tpu_wgpu::{MatmulKernel, WgpuBackend};

const CHAIN: usize = 4000;
const WARM_UP: usize = 200;

/// One line of `tpu bench --dispatch --json`.
#[derive(Serialize)]
pub struct DispatchLine {
    pub what: String,
    pub device: String,
    /// Launch cost: host microseconds per launch to record the chain.
    pub record_us: Option<f64>,
    /// Launch cost: microseconds per launch until the read returned.
    pub total_us: Option<f64>,
    /// Matmul: size and GFLOP/s.
    pub n: Option<usize>,
    pub gflops: Option<f64>,
    pub repeats: Option<usize>,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn read(backend: &mut WgpuBackend, id: BufferId, len: usize) -> Result<Vec<f32>, String> {
    match pollster::block_on(backend.read(id, DType::Float32, len)).map_err(err)? {
        HostData::F32(v) => Ok(v),
        other => Err(format!("read {:?}", other.dtype())),
    }
}

/// Times the chain; returns (record, total) microseconds per launch.
fn chain(backend: &mut WgpuBackend, launches: usize) -> Result<(f64, f64), String> {
    let shape = Shape::new(vec![16]);
    let add = Op::BinaryScalar {
        op: BinaryOp::Add,
        scalar: 1.0,
        scalar_on_left: false,
    };
    let mut x = backend.upload(&HostData::F32(vec![0.0; 16])).map_err(err)?;
    let start = Instant::now();
    for _ in 0..launches {
        let input = Operand {
            buffer: x,
            shape: &shape,
            dtype: DType::Float32,
        };
        let y = backend
            .execute(&add, &[input], &shape, DType::Float32)
            .map_err(err)?
            .buffer;
        backend.free(x);
        x = y;
    }
    let recorded = start.elapsed().as_secs_f64();
    let values = read(backend, x, 16)?;
    let total = start.elapsed().as_secs_f64();
    backend.free(x);
    if values.iter().any(|&v| v != launches as f32) {
        return Err(format!(
            "the chain of {launches} additions gave {values:?}, not {launches}"
        ));
    }
    let per = |s: f64| s * 1e6 / launches as f64;
    Ok((per(recorded), per(total)))
}

/// A deterministic float in [-1, 1) for element `i` of operand `seed`.
fn value(seed: u64, i: usize) -> f32 {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i as u64);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    ((z >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}

/// GFLOP/s of `n x n` matmuls with `kernel`, and how many were timed.
fn matmul(
    backend: &mut WgpuBackend,
    n: usize,
    kernel: MatmulKernel,
) -> Result<(f64, usize), String> {
    backend.set_matmul_kernel(kernel);
    let shape = Shape::new(vec![n, n]);
    let host_a: Vec<f32> = (0..n * n).map(|i| value(1, i)).collect();
    let host_b: Vec<f32> = (0..n * n).map(|i| value(2, i)).collect();
    let a = backend
        .upload(&HostData::F32(host_a.clone()))
        .map_err(err)?;
    let b = backend
        .upload(&HostData::F32(host_b.clone()))
        .map_err(err)?;
    let mm = Op::MatMul {
        transpose_a: false,
        transpose_b: false,
    };
    let operands = [
        Operand {
            buffer: a,
            shape: &shape,
            dtype: DType::Float32,
        },
        Operand {
            buffer: b,
            shape: &shape,
            dtype: DType::Float32,
        },
    ];
    let run = |backend: &mut WgpuBackend, repeats: usize| -> Result<(f64, BufferId), String> {
        let start = Instant::now();
        let mut last = None;
        for _ in 0..repeats {
            let c = backend
                .execute(&mm, &operands, &shape, DType::Float32)
                .map_err(err)?
                .buffer;
            if let Some(previous) = last.replace(c) {
                backend.free(previous);
            }
        }
        let c = last.expect("at least one repeat");
        let sum = backend
            .execute(
                &Op::SumAll,
                &[Operand {
                    buffer: c,
                    shape: &shape,
                    dtype: DType::Float32,
                }],
                &Shape::new(vec![]),
                DType::Float32,
            )
            .map_err(err)?
            .buffer;
        read(backend, sum, 1)?;
        let seconds = start.elapsed().as_secs_f64();
        backend.free(sum);
        Ok((seconds, c))
    };
    // One product first: compiles the kernel, and is checked.
    let (first, c) = run(backend, 1)?;
    let values = read(backend, c, n * n)?;
    backend.free(c);
    for s in 0..16 {
        let (i, j) = ((s * 7919) % n, (s * 104_729) % n);
        let exact: f64 = (0..n)
            .map(|p| host_a[i * n + p] as f64 * host_b[p * n + j] as f64)
            .sum();
        let got = values[i * n + j] as f64;
        if (got - exact).abs() > 1e-3 * (n as f64).sqrt() {
            return Err(format!(
                "{kernel:?} matmul {n}: element ({i}, {j}) is {got}, float64 gives {exact}"
            ));
        }
    }
    // Then as many as fill half a second, or the first again where it took
    // that long (a CPU rasteriser at 4096), compiling included.
    let (seconds, repeats) = if first >= 0.5 {
        (first, 1)
    } else {
        let repeats = ((0.5 / first).ceil() as usize).clamp(2, 500);
        let (seconds, c) = run(backend, repeats)?;
        backend.free(c);
        (seconds, repeats)
    };
    backend.free(a);
    backend.free(b);
    let flops = 2.0 * (n as f64).powi(3) * repeats as f64;
    Ok((flops / seconds / 1e9, repeats))
}

pub fn run(json: bool) -> Result<(), String> {
    let mut backend = pollster::block_on(WgpuBackend::new()).map_err(err)?;
    // The host's cost of a launch, without the timestamps around it.
    backend.set_measuring(false);
    let device = backend.device_description();
    let mut lines = Vec::new();
    for each in [false, true] {
        backend.set_submit_each(each);
        chain(&mut backend, WARM_UP)?;
        let (record, total) = chain(&mut backend, CHAIN)?;
        let what = if each {
            "launch, submitted each"
        } else {
            "launch, batched"
        };
        lines.push(DispatchLine {
            what: what.into(),
            device: device.clone(),
            record_us: Some(record),
            total_us: Some(total),
            n: None,
            gflops: None,
            repeats: None,
        });
    }
    backend.set_submit_each(false);
    for n in [1024, 4096] {
        for kernel in MatmulKernel::ALL {
            let (gflops, repeats) = matmul(&mut backend, n, kernel)?;
            lines.push(DispatchLine {
                what: format!("matmul, {kernel:?} kernel").to_lowercase(),
                device: device.clone(),
                record_us: None,
                total_us: None,
                n: Some(n),
                gflops: Some(gflops),
                repeats: Some(repeats),
            });
        }
    }
    for line in &lines {
        if json {
            println!("{}", serde_json::to_string(line).expect("plain data"));
        } else if let (Some(record), Some(total)) = (line.record_us, line.total_us) {
            println!(
                "{:<26} {record:>8.2} us to record, {total:>8.2} us with running and one read, per launch of {CHAIN}  ({}; measured wall time)",
                line.what, line.device
            );
        } else if let (Some(n), Some(gflops), Some(repeats)) = (line.n, line.gflops, line.repeats) {
            println!(
                "{:<26} {n:>5} x {n:<5} {gflops:>9.1} GFLOP/s ({repeats} products)  ({}; measured wall time)",
                line.what, line.device
            );
        }
    }
    Ok(())
}
