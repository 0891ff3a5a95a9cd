//! Tensor creation: `full` (and so `zeros` and `ones`) as a device fill;
//! `arange`, `linspace` and `eye` as ops of their own, run where any op runs;
//! `nonzero`, whose output size depends on its input's values; and the random
//! tensors (`rand`, `randn`, `randint`, `randperm`, `uniform_`, `normal_`),
//! whose values the default generator draws on the host so that seeded
//! programs match PyTorch's CPU stream on either device. Each is logged in the
//! Report as an op and held to the memory limits before anything is made.

use super::{Runtime, RuntimeError};
use crate::data::HostData;
use crate::report::OpRecord;
use crate::tensor::{Device, Home, Tensor};
use tpu_ir::{DType, IntOrFloat, Op, RandomDraw, Shape};

impl Runtime {
    /// `torch.full(shape, value, dtype=...)`; `zeros` and `ones` are fills of 0 and 1.
    pub async fn full(
        &mut self,
        shape: Shape,
        value: f64,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        self.dispatch(Op::Fill { value }, &[], shape, dtype, device)
            .await
    }

    /// `torch.arange(start, end, step, dtype=None)`: int64 when all three are
    /// integers and no dtype is given, float32 otherwise.
    pub async fn arange(
        &mut self,
        start: IntOrFloat,
        end: IntOrFloat,
        step: IntOrFloat,
        dtype: Option<DType>,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        let (s, e, st) = (start.as_f64(), end.as_f64(), step.as_f64());
        if st == 0.0 {
            return Err(RuntimeError::Message("step must be nonzero".into()));
        }
        if (st > 0.0 && e < s) || (st < 0.0 && e > s) {
            return Err(RuntimeError::Message(
                "upper bound and larger bound inconsistent with step sign".into(),
            ));
        }
        let all_int = [start, end, step]
            .iter()
            .all(|n| matches!(n, IntOrFloat::Int(_)));
        let dtype = dtype.unwrap_or(if all_int {
            DType::Int64
        } else {
            DType::Float32
        });
        // Integer bounds count exactly, as PyTorch does for int64: in double,
        // `arange(2**60, 2**60 + 3)` would be empty.
        let count = match (start, end, step) {
            (IntOrFloat::Int(s), IntOrFloat::Int(e), IntOrFloat::Int(st)) => {
                let (s, e, st) = (s as i128, e as i128, st as i128);
                ((e - s + st - st.signum()) / st).max(0) as f64
            }
            _ => ((e - s) / st).ceil().max(0.0),
        };
        let n = length(count)?;
        self.dispatch(
            Op::Arange { start, step },
            &[],
            Shape::new([n]),
            dtype,
            device,
        )
        .await
    }

    /// `torch.linspace(start, end, steps, dtype=float32)`.
    pub async fn linspace(
        &mut self,
        start: f64,
        end: f64,
        steps: i64,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        if steps < 0 {
            return Err(RuntimeError::Message(
                "number of steps must be non-negative".into(),
            ));
        }
        let n = length(steps as f64)?;
        let op = Op::Linspace { start, end };
        self.dispatch(op, &[], Shape::new([n]), dtype, device).await
    }

    /// `torch.eye(n, m)`: negative sizes count as 0.
    pub async fn eye(
        &mut self,
        n: i64,
        m: i64,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        let shape = Shape::new([n.max(0) as usize, m.max(0) as usize]);
        self.dispatch(Op::Eye, &[], shape, dtype, device).await
    }

    /// `torch.nonzero(t)`: the coordinates of `t`'s nonzero elements, one row
    /// each. Their count fixes the output's shape, so the values are read to
    /// the host first (a sync for a `tpu` tensor), and the op then runs there,
    /// on what was read, rather than reading the device a second time.
    pub async fn nonzero(&mut self, t: &Tensor) -> Result<Tensor, RuntimeError> {
        let dense = self.dense(t).await?;
        if dense.home() == Home::Accelerator {
            self.set_sync_reason("nonzero: the output's size depends on the values");
        }
        let values = self.read_dense(&dense).await?;
        let count = crate::reference::count_nonzero(&values);
        let on_host = if dense.home() == Home::Host {
            dense
        } else {
            self.host_copy(values, t.shape(), t.device())?
        };
        let out_shape = Shape::new([count, t.rank()]);
        let reason = "nonzero: the output's size depends on the values, so it runs on the host that read them";
        self.dispatch_on_host(Op::Nonzero, &[&on_host], out_shape, DType::Int64, reason)
            .await
    }

    /// `torch.rand` (`normal` false) or `torch.randn` (true): values drawn on the
    /// host from the default generator, then placed on `device`. float64 draws
    /// 53-bit uniforms from two words each, as PyTorch's CPU generator does, so
    /// its stream differs from float32's; bfloat16 rounds the float32 stream.
    pub async fn random(
        &mut self,
        shape: Shape,
        normal: bool,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        self.check_allocation(&shape, dtype)?;
        if device == Device::Meta {
            // Meta tensors draw nothing: the stream is as if they were not made.
            return self.full(shape, 0.0, dtype, device).await;
        }
        let data = self.draw(shape.numel(), normal, 0.0, 1.0, dtype);
        self.upload_drawn(draw_kind(normal, 0.0, 1.0), data, shape, device)
            .await
    }

    /// `torch.randint(low, high, size, dtype=int64)`.
    pub async fn randint(
        &mut self,
        low: i64,
        high: i64,
        shape: Shape,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        if high <= low {
            return Err(RuntimeError::Message(format!(
                "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
            )));
        }
        self.check_allocation(&shape, DType::Int64)?;
        let values = self.generator.randint(low, high, shape.numel());
        let data = HostData::I64(values).cast(dtype);
        self.upload_drawn(RandomDraw::Randint { low, high }, data, shape, device)
            .await
    }

    /// `torch.randperm(n, dtype=int64)`: negative `n` counts as 0.
    pub async fn randperm(
        &mut self,
        n: i64,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        let shape = Shape::new([n.max(0) as usize]);
        self.check_allocation(&shape, DType::Int64)?;
        let data = HostData::I64(self.generator.randperm(shape.numel())).cast(dtype);
        self.upload_drawn(RandomDraw::Randperm, data, shape, device)
            .await
    }

    /// `tensor.uniform_(a, b)` (`normal` false) or `tensor.normal_(mean, std)`:
    /// the generator's stream written into the tensor in place.
    pub async fn fill_random(
        &mut self,
        t: &Tensor,
        normal: bool,
        a: f64,
        b: f64,
    ) -> Result<(), RuntimeError> {
        if !t.dtype().is_floating() {
            return Err(RuntimeError::NotImplemented(format!(
                "random fills of {} tensors are not supported",
                t.dtype().torch_name()
            )));
        }
        if t.device() == Device::Meta {
            return Ok(());
        }
        let data = self.draw(t.numel(), normal, a, b, t.dtype());
        let src = self
            .upload_drawn(draw_kind(normal, a, b), data, t.shape(), t.device())
            .await?;
        self.write(t, &src).await
    }

    /// `n` draws of the generator's uniform (on `[a, b)`) or normal (mean `a`,
    /// std `b`) stream for `dtype`: float64 has its own stream (53-bit
    /// uniforms from two words each, as PyTorch's CPU generator draws doubles);
    /// bfloat16 rounds the float32 stream.
    fn draw(&mut self, n: usize, normal: bool, a: f64, b: f64, dtype: DType) -> HostData {
        if dtype == DType::Float64 {
            let mut values = vec![0f64; n];
            if normal {
                self.generator.fill_normal_f64(&mut values, a, b);
            } else {
                self.generator.fill_uniform_f64(&mut values, a, b);
            }
            return HostData::F64(values);
        }
        let mut values = vec![0f32; n];
        if normal {
            self.generator.fill_normal_f32(&mut values, a, b);
        } else {
            self.generator.fill_uniform_f32(&mut values, a, b);
        }
        HostData::F32(values).cast(dtype)
    }

    /// Places values the generator drew on `device` (through `from_data`, so
    /// the memory limits apply) and logs the draw as an `Op::Random`. No
    /// backend runs it: the values are the host generator's, and the op's
    /// record says so by its kernel, `host_<distribution>`.
    async fn upload_drawn(
        &mut self,
        draw: RandomDraw,
        data: HostData,
        shape: Shape,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        let out = self.from_data(data, shape, device).await?;
        let op = Op::Random { draw };
        self.ops.push(OpRecord {
            rank: 0,
            name: op.aten_name(),
            kernel: op.kernel_name(),
            op,
            input_shapes: Vec::new(),
            output_shape: out.dims(),
            device: device.to_string(),
            backend: crate::BackendKind::Reference,
            kernel_language: "Rust".into(),
            line: self.line,
            fallback: None,
            conv: None,
        });
        Ok(out)
    }
}

/// The record of a uniform or normal draw with its parameters.
fn draw_kind(normal: bool, a: f64, b: f64) -> RandomDraw {
    if normal {
        RandomDraw::Normal { mean: a, std: b }
    } else {
        RandomDraw::Uniform { low: a, high: b }
    }
}

/// A 1-D length computed from Python numbers, refused when it cannot be a
/// size at all (the memory limits then check the tensor itself).
fn length(count: f64) -> Result<usize, RuntimeError> {
    if !count.is_finite() || count > (1u64 << 48) as f64 {
        return Err(RuntimeError::Message(format!(
            "a tensor of {count} elements is too large to allocate"
        )));
    }
    Ok(count as usize)
}
