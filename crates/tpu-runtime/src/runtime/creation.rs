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
    /// host from the default generator, then placed on `device`.
    pub async fn random(
        &mut self,
        shape: Shape,
        normal: bool,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        check_size(&shape, DType::Float32)?;
        let mut values = vec![0f32; shape.numel()];
        if normal {
            self.generator.fill_normal_f32(&mut values, 0.0, 1.0);
        } else {
            self.generator.fill_uniform_f32(&mut values, 0.0, 1.0);
        }
        self.from_data(HostData::F32(values), shape, device).await
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
        let mut values = vec![0f32; t.numel()];
        if normal {
            self.generator.fill_normal_f32(&mut values, a, b);
        } else {
            self.generator.fill_uniform_f32(&mut values, a, b);
        }
        let data = HostData::F32(values).cast(t.dtype());
        let src = self.from_data(data, t.shape(), t.device()).await?;
        self.write(t, &src).await
    }
}
