//! WGSL for fusion groups. One generator for the three patterns of a
//! `FusedKernel`:
//! - elementwise: one thread per element; each input is read through its
//!   broadcast strides, the SSA program runs in registers, each output is stored;
//! - matmul with epilogue: one thread per element of the product, which
//!   accumulates its dot product in increasing `k` (the unfused kernel's order)
//!   and then runs the epilogue on it;
//! - row kernel: one thread per row of the reduced axis; each reduction is a
//!   loop along the row that recomputes its elementwise prologue, the values
//!   computed from reductions alone are evaluated once per row, and the
//!   row's full-size outputs are written by a final loop.
//!
//! params (a uniform buffer): `[threads, rank, dims[8], strides[8] per input,
//! extra[3], bits(scalar) per Scalar/Const node]`, where `extra` is `[n, inner,
//! axis]` for a row kernel, `[m, k, n]` for a matmul, absent otherwise. The code
//! depends only on the kernel's structure (`FusedKernel::code_key`), never on
//! sizes or scalar values, which are parameters.

use crate::kernels::{MAX_RANK, MatmulKernel, elementwise_grid, elementwise_index};
use crate::kernels::{expr, matmul};
use std::collections::{BTreeSet, HashMap};
use tpu_ir::{DType, FusedKernel, FusedNode};

/// Where `params` holds the thread count, the iteration shape's rank and its
/// dimensions; the inputs' strides follow (`strides_at`).
const THREADS: usize = 0;
const RANK: usize = THREADS + 1;
const DIMS: usize = RANK + 1;

/// Where `params` holds the strides of input `i`.
fn strides_at(i: usize) -> usize {
    DIMS + MAX_RANK * (1 + i)
}

/// Where the pattern's extra words start, and how many there are.
fn extra(kernel: &FusedKernel) -> (usize, usize) {
    let base = strides_at(kernel.inputs.len());
    let len = if kernel.reduce_axis.is_some() || kernel.matmul().is_some() {
        3
    } else {
        0
    };
    (base, len)
}

/// The number of threads the kernel runs: one per row or per element.
pub fn threads(kernel: &FusedKernel) -> usize {
    match kernel.row_dims() {
        Some((rows, _, _)) => rows,
        None => kernel.shape.numel(),
    }
}

/// The lets that place matmul operand `x` (`a` or `b`) of batch `batch`,
/// from its layout at word `at` of `params` (see `Gen::matmul_prologue`).
fn layout(x: &str, at: usize) -> String {
    format!(
        "    let {x}o = param({at}u) + (batch / param({}u)) * param({}u) + (batch % param({}u)) * param({}u);\n    let {x}r = param({}u);\n    let {x}c = param({}u);\n",
        at + 2,
        at + 1,
        at + 2,
        at + 3,
        at + 4,
        at + 5
    )
}

/// The `params` of a fused kernel (see the module documentation).
pub fn fused_params(kernel: &FusedKernel) -> Vec<u32> {
    let out = &kernel.shape;
    let mut params = vec![0u32; strides_at(kernel.inputs.len())];
    params[THREADS] = threads(kernel) as u32;
    params[RANK] = out.rank() as u32;
    for axis in 0..out.rank() {
        params[DIMS + axis] = out.dims()[axis] as u32;
    }
    for (i, input) in kernel.inputs.iter().enumerate() {
        if kernel.is_matmul_operand(i) {
            // Its layout in place of strides (see `Gen::matmul_prologue`).
            let l = kernel.operand_layout(i);
            let words = [
                l.offset,
                l.outer_stride,
                l.inner,
                l.inner_stride,
                l.row_stride,
                l.col_stride,
            ];
            for (w, v) in words.into_iter().enumerate() {
                params[strides_at(i) + w] = v as u32;
            }
            continue;
        }
        let strides = input.shape.broadcast_strides(out);
        for axis in 0..out.rank() {
            params[strides_at(i) + axis] = strides[axis] as u32;
        }
    }
    if let Some((_, n, inner)) = kernel.row_dims() {
        let axis = kernel.reduce_axis.unwrap_or(0);
        params.extend([n as u32, inner as u32, axis as u32]);
    } else if let Some(mm) = kernel.matmul() {
        params.extend([mm.m as u32, mm.k as u32, mm.n as u32]);
    }
    params.extend(kernel.scalars().iter().map(|&s| (s as f32).to_bits()));
    // A uniform array of vec4s: pad to whole vectors.
    params.resize(params.len().div_ceil(4) * 4, 0);
    params
}

/// The WGSL of a fusion group (see the module documentation).
pub fn fused(kernel: &FusedKernel) -> String {
    let g = Gen::new(kernel);
    let mut body = String::new();
    if kernel.reduce_axis.is_some() {
        g.row_body(&mut body);
    } else {
        if kernel.matmul().is_some() {
            g.matmul_prologue(&mut body);
        }
        g.offsets("i", &mut body);
        for n in 0..kernel.nodes.len() {
            body.push_str(&format!("    let v{n} = {};\n", g.expr(n, None)));
        }
        for (j, &node) in kernel.outputs.iter().enumerate() {
            body.push_str(&format!("    out{j}[i] = {};\n", g.store(node)));
        }
    }
    let index = elementwise_index(&format!("param({THREADS}u)"));
    format!("{}{}{index}\n{body}}}\n", g.helpers(), g.decls())
}

/// `fused`, with a matmul and its epilogue on `matmul`'s kernel: the tiled
/// one computes a block of the product per workgroup (`kernels/matmul.rs`)
/// and runs the epilogue on each of a thread's outputs.
pub fn fused_with(kernel: &FusedKernel, matmul: MatmulKernel) -> String {
    if tiled(kernel, matmul) {
        Gen::new(kernel).tiled_matmul()
    } else {
        fused(kernel)
    }
}

/// Whether `fused_with` puts `kernel` on the tiled matmul.
fn tiled(kernel: &FusedKernel, matmul: MatmulKernel) -> bool {
    matmul == MatmulKernel::Tiled && kernel.matmul().is_some() && kernel.reduce_axis.is_none()
}

/// The grid `fused_with(kernel, matmul)` runs on.
pub fn grid(kernel: &FusedKernel, matmul: MatmulKernel) -> (u32, u32, u32) {
    match kernel.matmul() {
        Some(mm) if tiled(kernel, matmul) => (
            (mm.n as u32).div_ceil(matmul::BLOCK),
            (mm.m as u32).div_ceil(matmul::BLOCK),
            (threads(kernel) / (mm.m * mm.n).max(1)) as u32,
        ),
        _ => elementwise_grid(threads(kernel)),
    }
}

struct Gen<'k> {
    kernel: &'k FusedKernel,
    /// Per node, whether it is one value per row (row kernels only).
    per_row: Vec<bool>,
    /// The params index of each Scalar, CompareScalar or Const node's value.
    scalar_param: HashMap<usize, usize>,
    /// Per node, its dtype: a bool is held as 0.0 or 1.0 in an `f32`.
    dtypes: Vec<DType>,
}

impl<'k> Gen<'k> {
    fn new(kernel: &'k FusedKernel) -> Self {
        let (base, len) = extra(kernel);
        let mut scalar_param = HashMap::new();
        for (n, node) in kernel.nodes.iter().enumerate() {
            if matches!(
                node,
                FusedNode::Scalar { .. }
                    | FusedNode::CompareScalar { .. }
                    | FusedNode::Const { .. }
            ) {
                scalar_param.insert(n, base + len + scalar_param.len());
            }
        }
        Gen {
            kernel,
            per_row: kernel.row_constant(),
            scalar_param,
            dtypes: kernel.node_dtypes(),
        }
    }

    /// What output node `n` stores: a bool as a `u32` word of 0 or 1
    /// (`kernels/mask.rs`), a float as itself.
    fn store(&self, n: usize) -> String {
        if self.dtypes[n] == DType::Bool {
            format!("select(0u, 1u, v{n} != 0.0)")
        } else {
            format!("v{n}")
        }
    }

    fn decls(&self) -> String {
        let words = fused_params(self.kernel).len() / 4;
        // The parameters are a uniform buffer, so that all eight storage-buffer
        // bindings WebGPU guarantees per stage are left to inputs and outputs.
        let mut decls = format!(
            "@group(0) @binding(0) var<uniform> params: array<vec4<u32>, {words}>;\nfn param(i: u32) -> u32 {{\n    return params[i / 4u][i % 4u];\n}}\n"
        );
        let k = self.kernel.inputs.len();
        for (i, input) in self.kernel.inputs.iter().enumerate() {
            // A bool is a u32 word (`kernels/mask.rs`).
            let element = if input.dtype == DType::Bool {
                "u32"
            } else {
                "f32"
            };
            decls.push_str(&format!(
                "@group(0) @binding({}) var<storage, read> in{i}: array<{element}>;\n",
                i + 1
            ));
        }
        for (j, &node) in self.kernel.outputs.iter().enumerate() {
            let element = if self.dtypes[node] == DType::Bool {
                "u32"
            } else {
                "f32"
            };
            decls.push_str(&format!(
                "@group(0) @binding({}) var<storage, read_write> out{j}: array<{element}>;\n",
                k + 1 + j
            ));
        }
        decls
    }

    fn helpers(&self) -> String {
        let nodes = &self.kernel.nodes;
        let mut helpers = String::new();
        // Each helper function once, however many nodes call it.
        let mut add = |text: &str| {
            if !helpers.contains(text) {
                helpers.push_str(text);
            }
        };
        for node in nodes {
            let texts = match node {
                FusedNode::Unary { op, .. } => expr::unary_helpers(*op),
                FusedNode::Binary { op, .. } | FusedNode::Scalar { op, .. } => {
                    expr::binary_helpers(*op)
                }
                FusedNode::Reduce { op, .. } => expr::reduce_helpers(*op),
                FusedNode::Compare { .. }
                | FusedNode::CompareScalar { .. }
                | FusedNode::Cast {
                    to: DType::Bool, ..
                } => expr::COMPARE_HELPERS,
                _ => &[],
            };
            for text in texts {
                add(text);
            }
        }
        for (n, node) in nodes.iter().enumerate() {
            if let FusedNode::Unary { op, .. } = node {
                helpers.push_str(&format!(
                    "fn unary_{n}(x: f32) -> f32 {{\n    return {};\n}}\n",
                    expr::unary(*op)
                ));
            }
        }
        helpers
    }

    /// Each broadcast input's offset `o{i}` at flat index `at` of the
    /// iteration shape.
    fn offsets(&self, at: &str, body: &mut String) {
        let read: Vec<usize> = (0..self.kernel.inputs.len())
            .filter(|&i| !self.kernel.is_matmul_operand(i))
            .collect();
        if read.is_empty() {
            return;
        }
        body.push_str(&format!(
            "    let rank = param({RANK}u);\n    var rest = {at};\n"
        ));
        for i in &read {
            body.push_str(&format!("    var o{i} = 0u;\n"));
        }
        body.push_str(&format!("    for (var d = 0u; d < rank; d = d + 1u) {{\n        let axis = rank - 1u - d;\n        let size = param({DIMS}u + axis);\n        let c = rest % size;\n        rest = rest / size;\n"));
        for i in &read {
            body.push_str(&format!(
                "        o{i} = o{i} + c * param({}u + axis);\n",
                strides_at(*i)
            ));
        }
        body.push_str("    }\n");
    }

    /// The value of node `n`; `along` names the loop variable inside a row
    /// kernel's loop along the axis.
    fn expr(&self, n: usize, along: Option<&str>) -> String {
        let param = |n: usize| format!("bitcast<f32>(param({}u))", self.scalar_param[&n]);
        match &self.kernel.nodes[n] {
            FusedNode::Input { index } => {
                let load = match along {
                    Some(e) if !self.per_row[n] => format!("in{index}[o{index} + {e} * s{index}]"),
                    _ => format!("in{index}[o{index}]"),
                };
                // A bool reads as 0.0 or 1.0.
                if self.kernel.inputs[*index].dtype == DType::Bool {
                    format!("f32({load})")
                } else {
                    load
                }
            }
            FusedNode::Const { .. } => param(n),
            FusedNode::Binary { op, a, b } => expr::binary(*op, &format!("v{a}"), &format!("v{b}")),
            FusedNode::Scalar {
                op,
                x,
                scalar_on_left,
                ..
            } => {
                if *scalar_on_left {
                    expr::binary(*op, &param(n), &format!("v{x}"))
                } else {
                    expr::binary(*op, &format!("v{x}"), &param(n))
                }
            }
            FusedNode::Unary { x, .. } => format!("unary_{n}(v{x})"),
            FusedNode::Where { cond, a, b } => format!("select(v{b}, v{a}, v{cond} != 0.0)"),
            FusedNode::Compare { op, a, b } => {
                let test = expr::compare(*op, &format!("v{a}"), &format!("v{b}"));
                format!("select(0.0, 1.0, {test})")
            }
            FusedNode::CompareScalar { op, x, .. } => {
                let test = expr::compare(*op, &format!("v{x}"), &param(n));
                format!("select(0.0, 1.0, {test})")
            }
            // NaN is true, tested by its bits (`expr::compare`'s helpers).
            FusedNode::Cast { x, to: DType::Bool } => {
                format!("select(0.0, 1.0, is_nan(v{x}) || v{x} != 0.0)")
            }
            FusedNode::Cast { x, .. } => format!("v{x}"),
            FusedNode::MatMul { .. } => "acc".into(),
            FusedNode::Reduce { .. } => unreachable!("a reduction is a loop, not an expression"),
        }
    }

    /// The dot product of this thread's element of the product, in `acc`.
    /// Each operand is read through its layout, six words where an
    /// elementwise input has its strides: `[offset, outer_stride, inner,
    /// inner_stride, row_stride, col_stride]` (`tpu_ir::MatrixLayout`), so a
    /// strided view is read in place and the code does not depend on it.
    fn matmul_prologue(&self, body: &mut String) {
        let Some(mm) = self.kernel.matmul() else {
            return;
        };
        let (a, b) = (mm.a, mm.b);
        let (base, _) = extra(self.kernel);
        let (sa, sb) = (strides_at(a), strides_at(b));
        // Element (r, c) of the stored operand at `{x}o + r * {x}r + c * {x}c`.
        let a_index = if mm.transpose_a {
            "p * ar + row * ac"
        } else {
            "row * ar + p * ac"
        };
        let b_index = if mm.transpose_b {
            "col * br + p * bc"
        } else {
            "p * br + col * bc"
        };
        body.push_str(&format!(
            "    let m = param({base}u);\n    let k = param({}u);\n    let n = param({}u);\n    let col = i % n;\n    let row = (i / n) % m;\n    let batch = i / (m * n);\n{}{}    var acc = 0.0;\n    for (var p = 0u; p < k; p = p + 1u) {{\n        acc = acc + in{a}[ao + {a_index}] * in{b}[bo + {b_index}];\n    }}\n",
            base + 1,
            base + 2,
            layout("a", sa),
            layout("b", sb),
        ));
    }

    /// A fused matmul on the tiled kernel: the block's sums, then the
    /// epilogue once per output the thread owns (`fused_with`).
    fn tiled_matmul(&self) -> String {
        let mm = self.kernel.matmul().expect("a matmul kernel");
        let (a, b) = (mm.a, mm.b);
        let (base, _) = extra(self.kernel);
        let load_a = |row: &str, p: &str| {
            if mm.transpose_a {
                format!("in{a}[ao + ({p}) * ar + ({row}) * ac]")
            } else {
                format!("in{a}[ao + ({row}) * ar + ({p}) * ac]")
            }
        };
        let load_b = |p: &str, col: &str| {
            if mm.transpose_b {
                format!("in{b}[bo + ({col}) * br + ({p}) * bc]")
            } else {
                format!("in{b}[bo + ({p}) * br + ({col}) * bc]")
            }
        };
        let mut epilogue = String::from("    let i = batch * m * n + row * n + col;\n");
        self.offsets("i", &mut epilogue);
        for n in 0..self.kernel.nodes.len() {
            epilogue.push_str(&format!("    let v{n} = {};\n", self.expr(n, None)));
        }
        for (j, &node) in self.kernel.outputs.iter().enumerate() {
            epilogue.push_str(&format!("    out{j}[i] = {};\n", self.store(node)));
        }
        let epilogue: String = epilogue
            .lines()
            .map(|line| format!("            {line}\n"))
            .collect();
        format!(
            "{}{}{}{}    let m = param({base}u);\n    let k = param({}u);\n    let n = param({}u);\n    let batch = wg.z;\n{}{}    let row0 = wg.y * BLOCK;\n    let col0 = wg.x * BLOCK;\n{}{}}}\n",
            self.helpers(),
            self.decls(),
            matmul::tiled_decls(),
            matmul::tiled_entry(),
            base + 1,
            base + 2,
            layout("a", strides_at(a)),
            layout("b", strides_at(b)),
            matmul::tiled_sums(mm.transpose_a, mm.transpose_b, load_a, load_b),
            matmul::tiled_outputs(&epilogue),
        )
    }

    /// The full-size nodes (not per row) that node `n` needs, itself included
    /// when full-size, in program order.
    fn full_ancestors(&self, roots: &[usize]) -> BTreeSet<usize> {
        let mut found = BTreeSet::new();
        let mut stack: Vec<usize> = roots.to_vec();
        while let Some(n) = stack.pop() {
            if self.per_row[n] || !found.insert(n) {
                continue;
            }
            stack.extend(self.kernel.operands(n));
        }
        found
    }

    /// A loop along the row (variable `e`) that defines the full-size nodes
    /// `nodes` and then runs `tail`.
    fn row_loop(&self, nodes: &BTreeSet<usize>, tail: &str, body: &mut String) {
        body.push_str("    for (var e = 0u; e < rn; e = e + 1u) {\n");
        for &n in nodes {
            body.push_str(&format!(
                "        let v{n} = {};\n",
                self.expr(n, Some("e"))
            ));
        }
        body.push_str(tail);
        body.push_str("    }\n");
    }

    fn row_body(&self, body: &mut String) {
        let kernel = self.kernel;
        let (base, _) = extra(kernel);
        body.push_str(&format!(
            "    let rn = param({base}u);\n    let inner = param({}u);\n    let along = param({}u);\n    let base = (i / inner) * rn * inner + i % inner;\n",
            base + 1,
            base + 2
        ));
        self.offsets("base", body);
        for i in 0..kernel.inputs.len() {
            body.push_str(&format!(
                "    let s{i} = param({}u + along);\n",
                strides_at(i)
            ));
        }
        for (n, node) in kernel.nodes.iter().enumerate() {
            if !self.per_row[n] {
                continue;
            }
            if let FusedNode::Reduce { op, x } = node {
                let step = expr::reduce_step(*op).replace("acc", &format!("v{n}"));
                // Sums and products start from their identity (a sum of
                // `-0.0`s is `0.0`); max and min from the first element.
                let tail = match expr::reduce_start(*op) {
                    Some(start) => {
                        body.push_str(&format!("    var v{n} = {start};\n"));
                        format!("        let x = v{x};\n        v{n} = {step};\n")
                    }
                    None => {
                        body.push_str(&format!("    var v{n} = 0.0;\n"));
                        format!(
                            "        let x = v{x};\n        if (e == 0u) {{\n            v{n} = x;\n        }} else {{\n            v{n} = {step};\n        }}\n"
                        )
                    }
                };
                self.row_loop(&self.full_ancestors(&[*x]), &tail, body);
            } else {
                body.push_str(&format!("    let v{n} = {};\n", self.expr(n, None)));
            }
        }
        let mut tail = String::new();
        let mut full = Vec::new();
        for (j, &node) in kernel.outputs.iter().enumerate() {
            let value = self.store(node);
            if self.per_row[node] {
                body.push_str(&format!("    out{j}[i] = {value};\n"));
            } else {
                full.push(node);
                tail.push_str(&format!("        out{j}[base + e * inner] = {value};\n"));
            }
        }
        if !full.is_empty() {
            self.row_loop(&self.full_ancestors(&full), &tail, body);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
