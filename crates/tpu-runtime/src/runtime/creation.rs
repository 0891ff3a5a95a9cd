//! Tensor creation: `full` (and so `zeros` and `ones`) as a device fill, and
//! the random tensors (`rand`, `randn`, `uniform_`, `normal_`), whose values the
//! default generator draws on the host so that seeded programs match PyTorch's
//! CPU stream on either device.

use super::{Runtime, RuntimeError, check_size};
use crate::data::HostData;
use crate::tensor::{Device, Tensor};
use tpu_ir::{DType, Op, Shape};

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
        check_size(&shape, dtype)?;
        let data = self.draw(shape.numel(), normal, 0.0, 1.0, dtype);
        self.from_data(data, shape, device).await
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
        let data = self.draw(t.numel(), normal, a, b, t.dtype());
        let src = self.from_data(data, t.shape(), t.device()).await?;
        self.write(t, &src).await
    }

    /// `n` draws of the generator's uniform (on `[a, b)`) or normal (mean `a`,
    /// std `b`) stream for `dtype`.
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
}
