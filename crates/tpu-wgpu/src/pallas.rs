//! One WGSL compute shader per Pallas kernel (`Op::Pallas`). A workgroup runs
//! grid points: the parallel axes (`PallasKernel::parallel_axes`, each point
//! writing its own output blocks) are spread over the workgroups, the other
//! axes loop in order inside one, so later points see earlier stores as the
//! reference's sequential grid does. At each point the body's block
//! operations run one after another, each a loop of the workgroup's threads
//! over its elements followed by a barrier; block values live in workgroup
//! memory where they fit WebGPU's guaranteed 16 KiB, else in a scratch
//! storage buffer, one region per workgroup (a 128x128 float32 block alone is
//! 64 KiB). Constants and
//! program ids are `let`s. Values are float32 in memory and rounded to their
//! dtype after each operation (bfloat16 by its bits, int32 truncated, bool to
//! 0 or 1), as the reference rounds them. This module writes the shader's
//! frame; the WGSL for one element of each block operation is in
//! `pallas/element.rs`.

use crate::kernels::expr;
use tpu_ir::{BlockOp, DType, Index, Inst, PallasKernel};
use tpu_runtime::BackendError;

mod element;

/// Threads per workgroup.
const THREADS: u32 = 256;
/// The most floats of block values kept in workgroup memory: WebGPU
/// guarantees 16 KiB of it, less the `pl.when` condition.
const WORKGROUP_FLOATS: usize = 4000;
/// Products per iteration of a dot's loop.
const DOT_UNROLL: usize = 4;
/// The most loop iterations lavapipe runs in one invocation, all loops
/// together (Mesa's gallivm `LP_MAX_TGSI_LOOP_ITERATIONS`): past it every
/// loop exits at once and the results are silently wrong, so a kernel that
/// would need more runs on the host there.
pub(crate) const LAVAPIPE_LOOP_CAP: u64 = 65_535;
/// The most scratch a launch may use, in floats (32 MiB).
const SCRATCH_FLOATS: usize = 8 << 20;
/// The most workgroups a launch dispatches; each loops over its share of the
/// parallel grid points.
const MAX_GROUPS: usize = 4096;

/// A kernel's shader and how to launch it.
pub(crate) struct PallasShader {
    pub source: String,
    pub groups: u32,
    /// Floats of scratch storage the launch needs; 0 when the block values
    /// live in workgroup memory (the shader then binds no scratch buffer).
    pub scratch: usize,
    /// Loop iterations one invocation runs, all loops together.
    pub loop_iterations: u64,
}

fn unsupported(what: String) -> BackendError {
    BackendError::Unsupported {
        backend: "wgpu",
        what,
    }
}

/// The shader of `kernel`, or why wgpu runs it on the host: refs other than
/// float32 and bfloat16 (the shader reads and writes float32 words, which
/// hold a bfloat16 tensor's values, `kernels/half.rs`; a bfloat16 value is
/// rounded before it is stored), or more inputs than the eight storage
/// buffers WebGPU guarantees leave room for.
pub(crate) fn shader(
    kernel: &PallasKernel,
    loop_cap: Option<u64>,
) -> Result<PallasShader, BackendError> {
    let held = |d: DType| matches!(d, DType::Float32 | DType::BFloat16);
    if let Some(r) = kernel.refs.iter().find(|r| !held(r.dtype)) {
        return Err(crate::kernels::unsupported_dtype(r.dtype));
    }
    if kernel.inputs > 6 {
        return Err(unsupported(format!(
            "Pallas kernels with {} inputs (at most 6 beside the output and scratch buffers)",
            kernel.inputs
        )));
    }
    kernel.validate().map_err(|e| unsupported(e.to_string()))?;
    let shader = Gen::new(kernel).shader()?;
    if let Some(cap) = loop_cap
        && shader.loop_iterations > cap
    {
        return Err(unsupported(format!(
            "this Pallas kernel on lavapipe (about {} loop iterations per invocation, past its cap of {cap})",
            shader.loop_iterations
        )));
    }
    Ok(shader)
}

struct Gen<'a> {
    kernel: &'a PallasKernel,
    /// Per value: its scratch offset (memory values), its shape and dtype.
    offset: Vec<Option<usize>>,
    shape: Vec<Vec<usize>>,
    dtype: Vec<DType>,
    scratch: usize,
    out_offsets: Vec<usize>,
    /// Whether the block values fit workgroup memory (and live there).
    workgroup: bool,
}

impl<'a> Gen<'a> {
    fn new(kernel: &'a PallasKernel) -> Self {
        let n = kernel.values;
        let mut g = Gen {
            kernel,
            offset: vec![None; n],
            shape: vec![Vec::new(); n],
            dtype: vec![DType::Float32; n],
            scratch: 0,
            out_offsets: kernel.output_offsets().0,
            workgroup: false,
        };
        for inst in kernel.instructions() {
            if matches!(inst.op, BlockOp::Store { .. } | BlockOp::When { .. }) {
                continue;
            }
            g.shape[inst.out] = inst.shape.clone();
            g.dtype[inst.out] = inst.dtype;
            if !matches!(inst.op, BlockOp::Const { .. } | BlockOp::ProgramId { .. }) {
                g.offset[inst.out] = Some(g.scratch);
                g.scratch += inst.shape.iter().product::<usize>().max(1);
            }
        }
        g.workgroup = g.scratch <= WORKGROUP_FLOATS;
        g
    }

    /// Where block values live: the workgroup's memory, or its region of the
    /// scratch storage buffer.
    fn memory(&self) -> &'static str {
        if self.workgroup { "block" } else { "scratch" }
    }

    fn base(&self) -> &'static str {
        if self.workgroup { "" } else { "base + " }
    }

    /// The barrier after a block operation: its values visible to every
    /// thread of the workgroup.
    fn barrier(&self) -> &'static str {
        if self.workgroup {
            "workgroupBarrier()"
        } else {
            "storageBarrier()"
        }
    }

    fn shader(&self) -> Result<PallasShader, BackendError> {
        let per_group = self.scratch.max(1);
        let parallel = self.kernel.parallel_axes();
        let par_points: usize = self
            .kernel
            .grid
            .iter()
            .zip(&parallel)
            .filter(|(_, p)| **p)
            .map(|(n, _)| *n)
            .product();
        let seq_points = self.kernel.grid_points() / par_points.max(1);
        let groups = if self.workgroup {
            par_points.min(MAX_GROUPS)
        } else {
            par_points.min(MAX_GROUPS).min(SCRATCH_FLOATS / per_group)
        };
        if groups == 0 {
            return Err(unsupported(format!(
                "a Pallas kernel whose blocks need {} bytes of scratch per workgroup",
                per_group * 4
            )));
        }
        let mut src = String::new();
        src.push_str(&self.helpers());
        for i in 0..self.kernel.inputs {
            src.push_str(&format!(
                "@group(0) @binding({i}) var<storage, read> in{i}: array<f32>;\n"
            ));
        }
        let n = self.kernel.inputs;
        src.push_str(&format!(
            "@group(0) @binding({n}) var<storage, read_write> out: array<f32>;\n"
        ));
        if self.workgroup {
            src.push_str(&format!(
                "var<workgroup> block: array<f32, {}>;\n",
                self.scratch.max(1)
            ));
        } else {
            src.push_str(&format!(
                "@group(0) @binding({}) var<storage, read_write> scratch: array<f32>;\n",
                n + 1
            ));
        }
        src.push_str("var<workgroup> cond: f32;\n\n");
        src.push_str(&format!(
            "@compute @workgroup_size({THREADS})\nfn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {{\n"
        ));
        src.push_str(&format!("    let base = wid.x * {per_group}u;\n"));
        src.push_str(&format!(
            "    for (var par = wid.x; par < {par_points}u; par = par + {groups}u) {{\n"
        ));
        src.push_str(&format!(
            "        for (var seq = 0u; seq < {seq_points}u; seq = seq + 1u) {{\n"
        ));
        // Program ids: each kind of axis decoded from its counter, the last
        // axis fastest.
        for (kind, counter) in [(true, "par"), (false, "seq")] {
            src.push_str(&format!("            var rest_{counter} = {counter};\n"));
            for (axis, &n) in self.kernel.grid.iter().enumerate().rev() {
                if parallel[axis] == kind {
                    src.push_str(&format!(
                        "            let pid{axis} = i32(rest_{counter} % {n}u);\n            rest_{counter} = rest_{counter} / {n}u;\n"
                    ));
                }
            }
        }
        // Each ref's block start per array dimension, clamped into the padded
        // array as interpret mode's dynamic slice places it.
        for (r, re) in self.kernel.refs.iter().enumerate() {
            for (d, (index, &b)) in re.index_map.iter().zip(&re.block).enumerate() {
                let padded = re.shape[d].div_ceil(b) * b;
                src.push_str(&format!(
                    "            let bs{r}_{d} = u32(clamp(({}) * {b}, 0, {}));\n",
                    index_expr(index),
                    padded - b
                ));
            }
        }
        let mut body = String::new();
        self.body(&self.kernel.body, 3, &mut body)?;
        src.push_str(&body);
        src.push_str("        }\n    }\n}\n");
        let points = (par_points.div_ceil(groups) * seq_points) as u64;
        Ok(PallasShader {
            source: src,
            groups: groups as u32,
            scratch: if self.workgroup {
                0
            } else {
                per_group * groups
            },
            loop_iterations: points * (1 + self.iterations(&self.kernel.body)),
        })
    }

    /// Loop iterations one invocation runs for `body` at one grid point.
    fn iterations(&self, body: &[Inst]) -> u64 {
        let threads = THREADS as usize;
        body.iter()
            .map(|inst| {
                let per_thread = |numel: usize| numel.div_ceil(threads) as u64;
                match &inst.op {
                    BlockOp::Const { .. } | BlockOp::ProgramId { .. } => 0,
                    BlockOp::When { body, .. } => self.iterations(body),
                    BlockOp::Store { window, .. } => {
                        per_thread(window.iter().filter(|w| !w.drop).map(|w| w.size).product())
                    }
                    BlockOp::Reduce { a, axes, .. } => {
                        let count: usize = axes.iter().map(|&d| self.shape[*a][d]).product();
                        per_thread(inst.shape.iter().product()) * (1 + count as u64)
                    }
                    BlockOp::Dot { a, .. } => {
                        let inner = self.shape[*a][1] / DOT_UNROLL;
                        per_thread(inst.shape.iter().product()) * (1 + inner as u64)
                    }
                    _ => per_thread(inst.shape.iter().product()),
                }
            })
            .sum()
    }

    fn helpers(&self) -> String {
        let mut helpers = String::new();
        let mut add = |texts: &[&str]| {
            for text in texts {
                if !helpers.contains(text) {
                    helpers.push_str(text);
                }
            }
        };
        add(expr::binary_helpers(tpu_ir::BinaryOp::Maximum));
        for inst in self.kernel.instructions() {
            match &inst.op {
                BlockOp::Binary { op, .. } => add(expr::binary_helpers(*op)),
                BlockOp::Unary { op, .. } => add(expr::unary_helpers(*op)),
                BlockOp::Reduce { op, .. } => add(expr::reduce_helpers(*op)),
                _ => {}
            }
        }
        helpers.push_str(BLOCK_HELPERS);
        let mut unary = std::collections::BTreeSet::new();
        for inst in self.kernel.instructions() {
            if let BlockOp::Unary { op, .. } = inst.op {
                unary.insert(op.name());
            }
        }
        for name in unary {
            let op = tpu_ir::UnaryOp::from_name(name).expect("a unary op's own name");
            helpers.push_str(&format!(
                "fn unary_{name}(x: f32) -> f32 {{\n    return {};\n}}\n",
                expr::unary(op)
            ));
        }
        helpers
    }

    /// The WGSL reading value `v` at flat element `at` (a scalar is read
    /// whatever the index).
    fn read(&self, v: usize, at: &str) -> String {
        match self.offset[v] {
            None => format!("v{v}"),
            Some(off) if self.shape[v].iter().product::<usize>() == 1 => {
                format!("{}[{}{off}u]", self.memory(), self.base())
            }
            Some(off) => format!("{}[{}{off}u + {at}]", self.memory(), self.base()),
        }
    }

    fn body(&self, body: &[Inst], depth: usize, out: &mut String) -> Result<(), BackendError> {
        let pad = "    ".repeat(depth);
        for inst in body {
            match &inst.op {
                BlockOp::Const { value } => {
                    out.push_str(&format!("{pad}let v{} = {};\n", inst.out, literal(value.0)));
                    continue;
                }
                BlockOp::ProgramId { axis } => {
                    out.push_str(&format!("{pad}let v{} = f32(pid{axis});\n", inst.out));
                    continue;
                }
                BlockOp::When { cond, body } => {
                    out.push_str(&format!(
                        "{pad}if (lid == 0u) {{ cond = {}; }}\n{pad}if (workgroupUniformLoad(&cond) != 0.0) {{\n",
                        self.read(*cond, "0u")
                    ));
                    self.body(body, depth + 1, out)?;
                    out.push_str(&format!("{pad}}}\n"));
                    continue;
                }
                BlockOp::Store { r, window, value } => {
                    let numel: usize = window.iter().filter(|w| !w.drop).map(|w| w.size).product();
                    let target = self.position(*r, window, "e");
                    out.push_str(&format!(
                        "{pad}for (var e = lid; e < {numel}u; e = e + {THREADS}u) {{\n{pad}    out[{}u + {}] = {};\n{pad}}}\n{pad}storageBarrier();\n",
                        self.out_offsets[*r - self.kernel.inputs],
                        target.0,
                        self.read(*value, "e")
                    ));
                    continue;
                }
                _ => {}
            }
            let numel: usize = inst.shape.iter().product::<usize>().max(1);
            let Some(off) = self.offset[inst.out] else {
                continue;
            };
            let value = self.element(inst)?;
            let rounded = round_to(inst.dtype, &value);
            out.push_str(&format!(
                "{pad}for (var e = lid; e < {numel}u; e = e + {THREADS}u) {{\n{}{pad}    {}[{}{off}u + e] = {rounded};\n{pad}}}\n{pad}{};\n",
                self.prologue(inst, &format!("{pad}    "))?,
                self.memory(),
                self.base(),
                self.barrier()
            ));
        }
        Ok(())
    }
}

fn index_expr(index: &Index) -> String {
    match index {
        Index::Const { value } => format!("{value}"),
        Index::ProgramId { axis } => format!("pid{axis}"),
        Index::Binary { op, a, b } => {
            let (a, b) = (index_expr(a), index_expr(b));
            match op {
                tpu_ir::BinaryOp::Add => format!("({a} + {b})"),
                tpu_ir::BinaryOp::Sub => format!("({a} - {b})"),
                tpu_ir::BinaryOp::Mul => format!("({a} * {b})"),
                tpu_ir::BinaryOp::FloorDiv => format!("floor_div_i({a}, {b})"),
                tpu_ir::BinaryOp::Remainder => format!("rem_i({a}, {b})"),
                _ => "0".into(),
            }
        }
    }
}

/// A float32 constant as WGSL; NaN and the infinities through the helpers
/// (a constant NaN is a compile error in Tint).
fn literal(x: f64) -> String {
    let x = x as f32;
    if x.is_nan() {
        "nan()".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "inf()".into()
        } else {
            "-inf()".into()
        }
    } else {
        format!("bitcast<f32>({}u)", x.to_bits())
    }
}

/// `value` rounded to `dtype`.
fn round_to(dtype: DType, value: &str) -> String {
    match dtype {
        DType::BFloat16 => format!("bf16({value})"),
        DType::Int32 | DType::Int64 => format!("int_of({value})"),
        DType::Bool => format!("select(0.0, 1.0, ({value}) != 0.0)"),
        // `PallasKernel::validate` refuses float16 and uint8.
        DType::Float32 | DType::Float64 | DType::Float16 | DType::UInt8 => value.to_string(),
    }
}

/// bfloat16 rounding (nearest even, NaN kept), float-to-int truncation
/// (NaN to 0), and the integer division of index maps.
const BLOCK_HELPERS: &str = "fn bf16(x: f32) -> f32 {
    if (is_nan(x)) { return x; }
    let b = bitcast<u32>(x);
    return bitcast<f32>((b + 0x7fffu + ((b >> 16u) & 1u)) & 0xffff0000u);
}
fn int_of(x: f32) -> f32 {
    if (is_nan(x)) { return 0.0; }
    return trunc(x);
}
fn floor_div_i(a: i32, b: i32) -> i32 {
    if (b == 0) { return 0; }
    let q = a / b;
    return select(q, q - 1, (a % b != 0) && ((a < 0) != (b < 0)));
}
fn rem_i(a: i32, b: i32) -> i32 {
    if (b == 0) { return 0; }
    let r = a % b;
    return select(r, r + b, r != 0 && ((r < 0) != (b < 0)));
}
";
