//! Matrix products: `torch.matmul` with PyTorch's rules for 1-D operands and
//! batch broadcasting, and the 2-D/batched product they reduce to, with
//! transposed operands read in place and the gradients recorded.

use super::{Runtime, RuntimeError};
use crate::autograd::GradFn;
use crate::tensor::Tensor;
use tpu_ir::{BinaryOp, DType, Op, Shape, ShapeError};

/// A matmul operand that is a transposed view of a whole dense storage (the
/// last two dimensions swapped, as `w.t()` or `k.transpose(-2, -1)` make) is
/// handed to the kernel as stored, with the flag set, instead of being copied.
pub(crate) fn transposed_in_place(t: &Tensor) -> (Tensor, bool) {
    let layout = t.layout();
    let dims = layout.shape.dims();
    let r = dims.len();
    if r < 2 || layout.offset != 0 || layout.storage.len() != layout.shape.numel() || t.is_dense() {
        return (t.clone(), false);
    }
    let mut stored = dims.to_vec();
    stored.swap(r - 2, r - 1);
    let stored = Shape::new(stored);
    let mut expected = stored.strides();
    expected.swap(r - 2, r - 1);
    if layout.strides != expected {
        return (t.clone(), false);
    }
    let view = Tensor::from_layout(crate::tensor::Layout {
        strides: stored.strides(),
        shape: stored,
        ..layout
    });
    (view, true)
}

impl Runtime {
    /// `torch.matmul` / `@` with PyTorch's rules for 1-D operands and batch
    /// broadcasting, built from views and one 2-D or batched 3-D product.
    pub async fn matmul(&mut self, a: &Tensor, b: &Tensor) -> Result<Tensor, RuntimeError> {
        let (ra, rb) = (a.rank(), b.rank());
        if ra == 0 || rb == 0 {
            return Err(RuntimeError::Message(format!(
                "both arguments to matmul need to be at least 1D, but they are {ra}D and {rb}D"
            )));
        }
        if ra == 1 && rb == 1 {
            if a.numel() != b.numel() {
                return Err(RuntimeError::Message(format!(
                    "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
                    a.numel(),
                    b.numel(),
                    a.numel(),
                    b.numel()
                )));
            }
            let p = self.binary(BinaryOp::Mul, a, b).await?;
            let out = self.sum(&p).await?;
            out.rename_grad_fn("DotBackward0");
            return Ok(out);
        }
        if ra <= 2 && rb <= 2 {
            let a2 = if ra == 1 {
                self.unsqueeze(a, 0)?
            } else {
                a.clone()
            };
            let b2 = if rb == 1 {
                self.unsqueeze(b, -1)?
            } else {
                b.clone()
            };
            // A matrix times a vector is PyTorch's `mv`, with its message; a
            // vector times a matrix is `mm` of a row, whose message `mm` gives.
            if rb == 1 && a2.dims()[1] != b2.dims()[0] {
                return Err(RuntimeError::Message(format!(
                    "size mismatch, got input ({}), mat ({}x{}), vec ({})",
                    a.dims()[0],
                    a.dims()[0],
                    a.dims()[1],
                    b.dims()[0]
                )));
            }
            let out = self.mm(&a2, &b2).await?;
            return match (ra, rb) {
                (1, _) => self.squeeze(&out, Some(&[0])),
                (_, 1) => self.squeeze(&out, Some(&[-1])),
                _ => Ok(out),
            };
        }
        if rb == 2 && ra >= 3 && a.is_contiguous() {
            // [.., m, k] @ [k, n] folds the batch into the rows, as PyTorch
            // does: one 2-D product, no copy of the broadcast weight, and no
            // sum over the batch in its gradient.
            let da = a.dims();
            let (k, k2) = (da[ra - 1], b.dims()[0]);
            if k != k2 {
                return Err(ShapeError::MatMul {
                    a: Shape::new([da[..ra - 1].iter().product::<usize>(), k]),
                    b: b.shape(),
                }
                .into());
            }
            // The row count is written out: with `k == 0`, a `-1` would be
            // ambiguous and the reshape refuses it.
            let m = da[..ra - 1].iter().product::<usize>();
            let rows = self.reshape(a, &[m as i64, k as i64]).await?;
            let out = self.mm(&rows, b).await?;
            let mut dims: Vec<i64> = da[..ra - 1].iter().map(|&d| d as i64).collect();
            dims.push(b.dims()[1] as i64);
            return self.reshape(&out, &dims).await;
        }
        if rb == 1 && a.dims()[ra - 1] != b.dims()[0] {
            // PyTorch folds [.., m, k] @ [k] into one `mv`, and says so.
            let k = a.dims()[ra - 1];
            let rows: usize = a.dims()[..ra - 1].iter().product();
            return Err(RuntimeError::Message(format!(
                "size mismatch, got input ({rows}), mat ({rows}x{k}), vec ({})",
                b.dims()[0]
            )));
        }
        // Batched: [.., m, k] @ [.., k, n] with broadcast batch dimensions.
        let a3 = if ra == 1 {
            self.unsqueeze(a, 0)?
        } else {
            a.clone()
        };
        let b3 = if rb == 1 {
            self.unsqueeze(b, -1)?
        } else {
            b.clone()
        };
        let (da, db) = (a3.dims(), b3.dims());
        let (m, k) = (da[da.len() - 2], da[da.len() - 1]);
        let (k2, n) = (db[db.len() - 2], db[db.len() - 1]);
        let batch = Shape::broadcast(
            &Shape::new(&da[..da.len() - 2]),
            &Shape::new(&db[..db.len() - 2]),
        )?;
        let bsz = batch.numel();
        if k != k2 {
            return Err(RuntimeError::Message(format!(
                "Expected size for first two dimensions of batch2 tensor to be: [{bsz}, {k}] but got: [{bsz}, {k2}]."
            )));
        }
        let dims = |extra: [usize; 2]| -> Vec<i64> {
            batch
                .dims()
                .iter()
                .chain(extra.iter())
                .map(|&d| d as i64)
                .collect()
        };
        let ae = self.expand(&a3, &dims([m, k]))?;
        let be = self.expand(&b3, &dims([k, n]))?;
        let ab = self.reshape(&ae, &[bsz as i64, m as i64, k as i64]).await?;
        let bb = self.reshape(&be, &[bsz as i64, k as i64, n as i64]).await?;
        let prod = self.mm(&ab, &bb).await?;
        let mut out_dims = batch.dims().to_vec();
        if ra > 1 {
            out_dims.push(m);
        }
        if rb > 1 {
            out_dims.push(n);
        }
        let out_dims: Vec<i64> = out_dims.iter().map(|&d| d as i64).collect();
        self.reshape(&prod, &out_dims).await
    }

    /// The matrix product primitive: `[m, k] @ [k, n]` or `[b, m, k] @ [b, k, n]`.
    pub async fn mm(&mut self, a: &Tensor, b: &Tensor) -> Result<Tensor, RuntimeError> {
        let (da, db) = (a.dims(), b.dims());
        let rank = da.len();
        if rank != db.len() || !(rank == 2 || rank == 3) {
            return Err(RuntimeError::Message(format!(
                "self must be a matrix (got {}-D and {}-D operands)",
                da.len(),
                db.len()
            )));
        }
        if rank == 2 && da[1] != db[0] {
            return Err(ShapeError::MatMul {
                a: a.shape(),
                b: b.shape(),
            }
            .into());
        }
        if rank == 3 && (da[0] != db[0] || da[2] != db[1]) {
            return Err(RuntimeError::Message(format!(
                "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
                da[0], da[2], db[0], db[1]
            )));
        }
        if a.dtype() != b.dtype() {
            return Err(RuntimeError::DTypeMismatch(a.dtype(), b.dtype()));
        }
        if a.dtype() == DType::Bool {
            return Err(RuntimeError::NotImplemented(
                "\"addmm_impl_cpu_\" not implemented for 'Bool'".into(),
            ));
        }
        let out = if rank == 2 {
            Shape::new([da[0], db[1]])
        } else {
            Shape::new([da[0], da[1], db[2]])
        };
        let (a_stored, transpose_a) = transposed_in_place(a);
        let (b_stored, transpose_b) = transposed_in_place(b);
        let op = Op::MatMul {
            transpose_a,
            transpose_b,
        };
        let result = self
            .dispatch(op, &[&a_stored, &b_stored], out, a.dtype(), a.device())
            .await?;
        if self.grad_enabled() && (a.requires_grad() || b.requires_grad()) {
            let grad_fn = GradFn::MatMul {
                a: a.clone(),
                b: b.clone(),
            };
            self.record(&result, grad_fn, &[a, b]);
        }
        Ok(result)
    }
}
