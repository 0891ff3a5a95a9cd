//! Elementwise ops: casts, arithmetic between two tensors or a tensor and a
//! Python number, the one-input functions (`exp`, `relu`...), comparisons and
//! `where`, each with PyTorch's dtype rules (promotion, integer division,
//! bool arithmetic) and its gradient recorded (the node each op records is
//! chosen in `autograd/formulas/elementwise.rs`, beside its formula).

use super::{Runtime, RuntimeError, scalar_type_name};
use crate::autograd::GradFn;
use crate::tensor::{Device, Tensor};
use tpu_ir::{BinaryOp, CompareOp, DType, Op, ScalarKind, Shape, UnaryOp};

/// PyTorch's message for `-` with a bool operand.
const BOOL_SUBTRACTION: &str = "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.";

impl Runtime {
    /// `tensor.to(dtype)`: the same tensor when the dtype already matches.
    pub async fn cast(&mut self, t: &Tensor, to: DType) -> Result<Tensor, RuntimeError> {
        if t.dtype() == to {
            return Ok(t.clone());
        }
        let out = self
            .dispatch(Op::Cast { to }, &[t], t.shape(), to, t.device())
            .await?;
        self.record(&out, GradFn::Cast { from: t.dtype() }, &[t]);
        Ok(out)
    }

    /// The dtype an arithmetic op computes in, given the promoted operand dtype:
    /// true division of integers is floating, and bool arithmetic is not built.
    fn arithmetic_dtype(op: BinaryOp, promoted: DType) -> Result<DType, RuntimeError> {
        match (op, promoted) {
            (BinaryOp::Div, d) if !d.is_floating() => Ok(DType::Float32),
            (BinaryOp::Maximum | BinaryOp::Minimum, DType::Bool) => Ok(DType::Bool),
            (_, DType::Bool) => Err(RuntimeError::NotImplemented(format!(
                "arithmetic ({}) on two bool tensors is not supported yet",
                op.name()
            ))),
            (_, d) => Ok(d),
        }
    }

    /// PyTorch lets a 0-dim `cpu` tensor join an elementwise op on another
    /// device as a Python number would: it is copied to the other operand's
    /// device (a recorded copy, so gradients flow back to it).
    async fn cpu_scalar_to_peer(
        &mut self,
        a: &Tensor,
        b: &Tensor,
    ) -> Result<(Tensor, Tensor), RuntimeError> {
        let lone = |t: &Tensor, other: &Tensor| {
            t.device() == Device::Cpu && other.device() != Device::Cpu && t.shape().rank() == 0
        };
        if lone(a, b) {
            return Ok((self.to_device(a, b.device()).await?, b.clone()));
        }
        if lone(b, a) {
            return Ok((a.clone(), self.to_device(b, a.device()).await?));
        }
        Ok((a.clone(), b.clone()))
    }

    pub async fn binary(
        &mut self,
        op: BinaryOp,
        a: &Tensor,
        b: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let (a, b) = &self.cpu_scalar_to_peer(a, b).await?;
        let out = Shape::broadcast(&a.shape(), &b.shape())?;
        if op == BinaryOp::Sub && (a.dtype() == DType::Bool || b.dtype() == DType::Bool) {
            return Err(RuntimeError::NotImplemented(BOOL_SUBTRACTION.into()));
        }
        if a.dtype() == DType::Bool
            && b.dtype() == DType::Bool
            && matches!(op, BinaryOp::Add | BinaryOp::Mul)
        {
            // On bools `+` is logical or and `*` logical and, as in PyTorch.
            let ai = self.cast(a, DType::Int64).await?;
            let bi = self.cast(b, DType::Int64).await?;
            let sum = self
                .dispatch(
                    Op::Binary { op },
                    &[&ai, &bi],
                    out,
                    DType::Int64,
                    a.device(),
                )
                .await?;
            return self.cast(&sum, DType::Bool).await;
        }
        let dtype = Self::arithmetic_dtype(op, result_type(a, b))?;
        let (a, b) = (self.cast(a, dtype).await?, self.cast(b, dtype).await?);
        let result = self
            .dispatch(Op::Binary { op }, &[&a, &b], out, dtype, a.device())
            .await?;
        if self.grad_enabled() && (a.requires_grad() || b.requires_grad()) {
            // The node and what it saves are chosen beside the formulas.
            if let Some(f) = self.binary_grad_fn(op, &a, &b, &result) {
                self.record(&result, f, &[&a, &b]);
            }
        }
        Ok(result)
    }

    pub async fn binary_scalar(
        &mut self,
        op: BinaryOp,
        a: &Tensor,
        scalar: f64,
        kind: ScalarKind,
        scalar_on_left: bool,
    ) -> Result<Tensor, RuntimeError> {
        if op == BinaryOp::Sub && (kind == ScalarKind::Bool || a.dtype() == DType::Bool) {
            return Err(RuntimeError::NotImplemented(BOOL_SUBTRACTION.into()));
        }
        if a.dtype() == DType::Bool
            && kind == ScalarKind::Bool
            && matches!(op, BinaryOp::Add | BinaryOp::Mul)
        {
            // `bools + True` is logical or, `bools * False` logical and, as
            // between two bool tensors.
            let ai = self.cast(a, DType::Int64).await?;
            let r = Box::pin(self.binary_scalar(op, &ai, scalar, ScalarKind::Int, scalar_on_left))
                .await?;
            return self.cast(&r, DType::Bool).await;
        }
        let dtype = Self::arithmetic_dtype(op, a.dtype().with_scalar(kind))?;
        if op == BinaryOp::Pow && dtype.is_integer() && !scalar_on_left && scalar < 0.0 {
            return Err(RuntimeError::Message(
                "Integers to negative integer powers are not allowed.".into(),
            ));
        }
        let a = self.cast(a, dtype).await?;
        let ir = Op::BinaryScalar {
            op,
            scalar,
            scalar_on_left,
        };
        let out = self
            .dispatch(ir, &[&a], a.shape(), dtype, a.device())
            .await?;
        if self.grad_enabled() && a.requires_grad() {
            let grad_fn = GradFn::Scalar {
                op,
                scalar,
                scalar_on_left,
                x: a.clone(),
                out: self.detach(&out),
            };
            self.record(&out, grad_fn, &[&a]);
        }
        Ok(out)
    }

    /// `torch.exp(t)` and the other elementwise functions: integer inputs become
    /// float32 except for the functions that keep integers (`abs`, `neg`, `relu`).
    pub async fn unary(&mut self, op: UnaryOp, t: &Tensor) -> Result<Tensor, RuntimeError> {
        let dtype = match t.dtype() {
            DType::Bool if op == UnaryOp::Neg => {
                return Err(RuntimeError::NotImplemented(
                    "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.".into(),
                ));
            }
            d if d.is_integer() && op.keeps_integers() => d,
            DType::UInt8 | DType::Int32 | DType::Int64 | DType::Bool => DType::Float32,
            d => d,
        };
        let t = self.cast(t, dtype).await?;
        let out = self
            .dispatch(Op::Unary { op }, &[&t], t.shape(), dtype, t.device())
            .await?;
        if self.grad_enabled() && t.requires_grad() {
            let grad_fn = GradFn::Unary {
                op,
                x: t.clone(),
                out: self.detach(&out),
            };
            self.record(&out, grad_fn, &[&t]);
        }
        Ok(out)
    }

    /// `a < b` and the other comparisons, elementwise with broadcasting.
    pub async fn compare(
        &mut self,
        op: CompareOp,
        a: &Tensor,
        b: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let (a, b) = &self.cpu_scalar_to_peer(a, b).await?;
        let out = Shape::broadcast(&a.shape(), &b.shape())?;
        let dtype = result_type(a, b);
        let (a, b) = (self.cast(a, dtype).await?, self.cast(b, dtype).await?);
        self.dispatch(Op::Compare { op }, &[&a, &b], out, DType::Bool, a.device())
            .await
    }

    /// `x > 0` and the other comparisons with a Python number.
    pub async fn compare_scalar(
        &mut self,
        op: CompareOp,
        a: &Tensor,
        scalar: f64,
    ) -> Result<Tensor, RuntimeError> {
        let op = Op::CompareScalar { op, scalar };
        self.dispatch(op, &[a], a.shape(), DType::Bool, a.device())
            .await
    }

    /// `torch.where(cond, a, b)` with broadcasting of all three.
    pub async fn where_(
        &mut self,
        cond: &Tensor,
        a: &Tensor,
        b: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        if cond.dtype() != DType::Bool {
            return Err(RuntimeError::Message(format!(
                "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
                scalar_type_name(cond.dtype())
            )));
        }
        let (a, b) = &self.cpu_scalar_to_peer(a, b).await?;
        let (cond, a) = &self.cpu_scalar_to_peer(cond, a).await?;
        let ab = Shape::broadcast(&a.shape(), &b.shape())?;
        let out = Shape::broadcast(&cond.shape(), &ab)?;
        let dtype = result_type(a, b);
        let (a, b) = (self.cast(a, dtype).await?, self.cast(b, dtype).await?);
        let result = self
            .dispatch(Op::Where, &[cond, &a, &b], out, dtype, a.device())
            .await?;
        let grad_fn = GradFn::Where {
            cond: cond.clone(),
            a: a.shape(),
            b: b.shape(),
        };
        self.record(&result, grad_fn, &[&a, &b]);
        Ok(result)
    }
}

/// The dtype two tensors combine in (`torch.result_type`): a 0-d tensor takes
/// part only when its category is higher.
fn result_type(a: &Tensor, b: &Tensor) -> DType {
    DType::result_type((a.dtype(), a.rank() == 0), (b.dtype(), b.rank() == 0))
}
