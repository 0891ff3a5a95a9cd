//! `pl.pallas_call` on tensors: the traced kernel checked against the chosen
//! chip (its blocks, double-buffered, must fit VMEM; its dot products are
//! measured against the MXU), dispatched as one `Op::Pallas` whose output
//! buffer holds every output padded to whole blocks, and returned as views of
//! that buffer. Each call leaves a `PallasRecord` for the Report's Kernels
//! panel: grid, blocks, VMEM, MXU fit and the generated source.

use super::{Runtime, RuntimeError};
use crate::tensor::{Layout, Tensor};
use serde::{Deserialize, Serialize};
use tpu_ir::{BlockOp, DType, Op, PallasKernel, Shape, axis_name};

/// One operand of a `pallas_call`, as the Report shows it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PallasOperand {
    /// `in` or `out`.
    pub role: String,
    pub shape: Vec<usize>,
    pub dtype: DType,
    /// The block shape, `None` for a squeezed dimension.
    pub block: Vec<Option<usize>>,
    /// The index map as Python: `lambda i, j: (i, j)`.
    pub index_map: String,
    /// One block's bytes.
    pub block_bytes: u64,
    /// Blocks copied between HBM and VMEM over the grid (a block is copied
    /// only when its index changes from one grid point to the next).
    pub copies: u64,
}

/// How one `jnp.dot` of the kernel's blocks fills the MXU.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MxuFit {
    pub line: Option<u32>,
    /// `[m, k, n]` of the block product.
    pub dims: [usize; 3],
    pub mxu_width: usize,
    /// The fraction of the MXU's passes that is real work.
    pub utilization: f64,
    /// What to change, if anything ("a contraction dimension of 64 fills
    /// half of a 128-wide MXU ...").
    pub hints: Vec<String>,
}

/// A `pallas_call` as run: what the Kernels panel shows.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PallasRecord {
    /// The rank that made it (0 in a run of one rank).
    #[serde(default)]
    pub rank: usize,
    /// The kernel function's name.
    pub name: String,
    /// The `pallas_call`'s line.
    pub line: Option<u32>,
    pub grid: Vec<usize>,
    /// Per grid axis, whether its points are independent (each writes its
    /// own output blocks): the generated shader runs them at once, the
    /// others in order.
    pub parallel: Vec<bool>,
    pub operands: Vec<PallasOperand>,
    /// VMEM the blocks take, double-buffered, and the chip's VMEM.
    pub vmem_bytes: u64,
    pub vmem_capacity: u64,
    /// The chip it was checked against.
    pub chip: String,
    pub mxu: Vec<MxuFit>,
    /// Index into `Report::ops` of its op, and into `Report::kernels` of the
    /// kernel that ran it (set at the end of the run).
    pub op: usize,
    pub kernel: Option<usize>,
    /// The block operations traced, as text (one per line).
    pub body: String,
    /// The kernel's generated source (WGSL), when the accelerator backend
    /// generates one.
    pub source: Option<String>,
}

/// The most element operations one `pallas_call` may compute (its grid
/// points times its block operations' elements, products counted twice):
/// some tens of seconds of the reference's interpretation.
const MAX_PALLAS_OPERATIONS: f64 = 2e9;

impl Runtime {
    /// Runs a traced Pallas kernel on `inputs` (in the kernel's order) and
    /// returns its outputs.
    pub async fn pallas_call(
        &mut self,
        kernel: PallasKernel,
        inputs: &[Tensor],
    ) -> Result<Vec<Tensor>, RuntimeError> {
        kernel
            .validate()
            .map_err(|e| RuntimeError::Message(e.to_string()))?;
        if inputs.len() != kernel.inputs {
            return Err(RuntimeError::Type(format!(
                "pallas_call got {} arguments for {} inputs",
                inputs.len(),
                kernel.inputs
            )));
        }
        for (t, r) in inputs.iter().zip(&kernel.refs) {
            if t.dims() != r.shape.as_slice() || t.dtype() != r.dtype {
                return Err(RuntimeError::Value(format!(
                    "pallas_call: an argument of shape {:?} and {} where the kernel was traced for {:?} and {}",
                    t.dims(),
                    t.dtype().torch_name(),
                    r.shape,
                    r.dtype.torch_name()
                )));
            }
        }
        let out_dtype = kernel.outputs()[0].dtype;
        if kernel.outputs().iter().any(|r| r.dtype != out_dtype) {
            return Err(RuntimeError::NotImplemented(
                "pallas_call with outputs of different dtypes".into(),
            ));
        }
        self.check_pallas_size(&kernel)?;
        let device = inputs.first().map_or(crate::Device::Tpu(0), |t| t.device());
        let mut record = self.pallas_record(&kernel)?;
        let (offsets, total) = kernel.output_offsets();
        let source = crate::Backend::pallas_source(&self.tpu, &kernel);
        record.op = self.ops.len();
        record.source = source;
        let op = Op::Pallas {
            kernel: Box::new(kernel.clone()),
        };
        let refs: Vec<&Tensor> = inputs.iter().collect();
        let flat = self
            .dispatch(op, &refs, Shape::new([total]), out_dtype, device)
            .await?;
        self.pallas.push(record);
        let layout = flat.layout();
        Ok(kernel
            .outputs()
            .iter()
            .zip(offsets)
            .map(|(r, offset)| {
                Tensor::from_layout(Layout {
                    shape: Shape::new(r.shape.clone()),
                    strides: Shape::new(r.padded_shape()).strides(),
                    offset,
                    ..layout.clone()
                })
            })
            .collect())
    }

    /// Refuses, before anything runs, a kernel whose blocks the runtime could
    /// not hold or whose grid would run past what a program may compute:
    /// the reference interprets every grid point, so a grid of a billion
    /// points would hang the page rather than end in `TimeoutError`.
    fn check_pallas_size(&mut self, kernel: &PallasKernel) -> Result<(), RuntimeError> {
        for r in kernel.outputs() {
            self.check_allocation(&Shape::new(r.padded_shape()), r.dtype)?;
        }
        for inst in kernel.instructions() {
            self.check_allocation(&Shape::new(inst.shape.clone()), inst.dtype)?;
        }
        let work = crate::work::pallas_work(kernel);
        let matmul = work
            .matmul
            .map_or(0.0, |[b, m, k, n]| 2.0 * (b * m * k * n) as f64);
        let operations = work.vector_flops + matmul + work.hbm_bytes / 4.0;
        if operations > MAX_PALLAS_OPERATIONS {
            return Err(RuntimeError::Message(format!(
                "pallas_call `{}` would compute about {operations:.1e} element operations over its grid of {} points; this playground runs at most {MAX_PALLAS_OPERATIONS:.0e} in one pallas_call",
                kernel.name,
                kernel.grid_points()
            )));
        }
        Ok(())
    }

    /// The Report's record of `kernel` on the chosen chip; an error when its
    /// blocks do not fit the chip's VMEM, as Mosaic's compiler refuses it.
    fn pallas_record(&self, kernel: &PallasKernel) -> Result<PallasRecord, RuntimeError> {
        let chip = &self.device.0;
        let vmem_capacity = chip.vmem_bytes.value as u64;
        let mut operands = Vec::new();
        let mut parts = Vec::new();
        for (i, r) in kernel.refs.iter().enumerate() {
            let role = if i < kernel.inputs { "in" } else { "out" };
            let block_bytes = (r.block_numel() * r.dtype.size_in_bytes()) as u64;
            let args: Vec<String> = (0..kernel.grid.len()).map(axis_name).collect();
            let results: Vec<String> = r.index_map.iter().map(|x| x.text()).collect();
            parts.push(format!(
                "{role} {}: {} {} = {block_bytes} bytes",
                if role == "in" { i } else { i - kernel.inputs },
                dims_text(&r.block),
                short_dtype(r.dtype)
            ));
            operands.push(PallasOperand {
                role: role.into(),
                shape: r.shape.clone(),
                dtype: r.dtype,
                block: r
                    .block
                    .iter()
                    .zip(&r.squeezed)
                    .map(|(&b, &s)| (!s).then_some(b))
                    .collect(),
                index_map: format!(
                    "lambda {}: ({}{})",
                    args.join(", "),
                    results.join(", "),
                    if results.len() == 1 { "," } else { "" }
                ),
                block_bytes,
                copies: crate::work::block_copies(kernel, r),
            });
        }
        let vmem_bytes = 2 * operands.iter().map(|o| o.block_bytes).sum::<u64>();
        if vmem_bytes > vmem_capacity {
            return Err(RuntimeError::Message(format!(
                "RESOURCE_EXHAUSTED: the blocks of pallas_call `{}` need {vmem_bytes} bytes of VMEM, double-buffered (2 x ({})), more than the {}'s {vmem_capacity} bytes; use smaller blocks",
                kernel.name,
                parts.join(" + "),
                chip.id
            )));
        }
        let mxu = kernel
            .instructions()
            .into_iter()
            .filter(|i| matches!(i.op, BlockOp::Dot { .. }))
            .map(|inst| {
                let (m, n) = (inst.shape[0], inst.shape[1]);
                let k = crate::work::dot_depth(kernel, inst).unwrap_or(1);
                let work = tpu_device::cost::Work {
                    matmul: Some([1, m, k, n]),
                    ..Default::default()
                };
                let cost = tpu_device::cost::kernel_cost(chip, &work);
                MxuFit {
                    line: inst.line,
                    dims: [m, k, n],
                    mxu_width: chip.mxu_width,
                    utilization: cost.mxu_utilization.unwrap_or(0.0),
                    hints: cost.hints,
                }
            })
            .collect();
        Ok(PallasRecord {
            rank: 0,
            name: kernel.name.clone(),
            line: self.line,
            grid: kernel.grid.clone(),
            parallel: kernel.parallel_axes(),
            operands,
            vmem_bytes,
            vmem_capacity,
            chip: chip.id.to_string(),
            mxu,
            op: 0,
            kernel: None,
            body: body_text(kernel),
            source: None,
        })
    }

    /// The run's `pallas_call`s, each linked to the kernel that ran its op.
    pub(crate) fn take_pallas(
        &mut self,
        kernels: &[crate::report::KernelRecord],
    ) -> Vec<PallasRecord> {
        let mut records = std::mem::take(&mut self.pallas);
        for r in &mut records {
            r.kernel = kernels.iter().position(|k| k.ops.contains(&r.op));
        }
        records
    }
}

fn dims_text(dims: &[usize]) -> String {
    dims.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

fn short_dtype(d: DType) -> &'static str {
    d.torch_name().trim_start_matches("torch.")
}

/// The traced body, one block operation per line (`%3 = dot %1, %2 : 128x128 float32`).
fn body_text(kernel: &PallasKernel) -> String {
    fn walk(body: &[tpu_ir::Inst], depth: usize, out: &mut Vec<String>) {
        for inst in body {
            let pad = "  ".repeat(depth);
            let ty = match inst.shape.is_empty() {
                true => short_dtype(inst.dtype).to_string(),
                false => format!("{} {}", dims_text(&inst.shape), short_dtype(inst.dtype)),
            };
            let text = match &inst.op {
                BlockOp::Load { r, window } => format!("load ref{r}{}", window_text(window)),
                BlockOp::Store { r, window, value } => {
                    out.push(format!(
                        "{pad}store ref{r}{} = %{value}",
                        window_text(window)
                    ));
                    continue;
                }
                BlockOp::Const { value } => format!("const {}", value.0),
                BlockOp::ProgramId { axis } => format!("program_id {axis}"),
                BlockOp::Binary { op, a, b } => format!("{} %{a}, %{b}", op.name()),
                BlockOp::Unary { op, a } => format!("{} %{a}", op.name()),
                BlockOp::Compare { op, a, b } => format!("{} %{a}, %{b}", op.name()),
                BlockOp::Where { cond, a, b } => format!("where %{cond}, %{a}, %{b}"),
                BlockOp::Reduce { op, a, axes, .. } => format!("{} %{a} axes {axes:?}", op.name()),
                BlockOp::Dot { a, b } => format!("dot %{a}, %{b}"),
                BlockOp::Cast { a } => format!("convert %{a}"),
                BlockOp::Broadcast { a } => format!("broadcast %{a}"),
                BlockOp::Reshape { a } => format!("reshape %{a}"),
                BlockOp::Transpose { a } => format!("transpose %{a}"),
                BlockOp::When { cond, body } => {
                    out.push(format!("{pad}when %{cond}:"));
                    walk(body, depth + 1, out);
                    continue;
                }
            };
            out.push(format!("{pad}%{} = {text} : {ty}", inst.out));
        }
    }
    fn window_text(w: &[tpu_ir::Window]) -> String {
        let parts: Vec<String> = w
            .iter()
            .map(|w| match w.drop {
                true => w.start.to_string(),
                false => format!("{}:{}", w.start, w.start + w.size),
            })
            .collect();
        format!("[{}]", parts.join(", "))
    }
    let mut out = Vec::new();
    walk(&kernel.body, 0, &mut out);
    out.join("\n")
}
