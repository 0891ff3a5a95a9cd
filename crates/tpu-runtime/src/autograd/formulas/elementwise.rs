//! The elementwise ops' gradients: which node each binary op records
//! (`binary_grad_fn`), PyTorch's `grad_fn` names for the ops with a Python
//! number and the one-input functions, and every elementwise backward
//! formula. A new `BinaryOp` or `UnaryOp` gets its gradient here and nowhere
//! else: the runtime's `binary`, `binary_scalar` and `unary` record whatever
//! this file says.

use super::GradFn;
use crate::runtime::{Runtime, RuntimeError};
use crate::tensor::Tensor;
use tpu_ir::{BinaryOp, CompareOp, ScalarKind, Shape, UnaryOp};

/// PyTorch's `grad_fn` name for `op` with a Python number (`RsubBackward1`
/// is `2 - x`).
pub(super) fn scalar_grad_name(op: BinaryOp, scalar_on_left: bool) -> &'static str {
    match (op, scalar_on_left) {
        (BinaryOp::Add, _) => "AddBackward0",
        (BinaryOp::Sub, false) => "SubBackward0",
        (BinaryOp::Sub, true) => "RsubBackward1",
        (BinaryOp::Mul, _) => "MulBackward0",
        (BinaryOp::Div, _) => "DivBackward0",
        (BinaryOp::Pow, false) => "PowBackward0",
        (BinaryOp::Pow, true) => "PowBackward2",
        (BinaryOp::Maximum | BinaryOp::Minimum, _) => "ClampBackward1",
        (BinaryOp::Remainder, _) => "RemainderBackward0",
        (BinaryOp::FloorDiv, _) => "DivBackward1",
    }
}

/// PyTorch's `grad_fn` name for a one-input function: its name capitalised
/// (`TanhBackward0`).
pub(super) fn unary_grad_name(op: UnaryOp) -> String {
    let name = op.name();
    let mut chars = name.chars();
    let first = chars.next().map(|c| c.to_ascii_uppercase());
    format!("{}{}Backward0", first.unwrap_or('X'), chars.as_str())
}

impl Runtime {
    /// The node `a op b` (two tensors) records, with what its backward needs
    /// (`out` is the result, saved detached by the ops whose gradient reads
    /// it); `None` for the ops with no gradient here (`floor_divide`,
    /// `remainder`).
    pub(crate) fn binary_grad_fn(
        &mut self,
        op: BinaryOp,
        a: &Tensor,
        b: &Tensor,
        out: &Tensor,
    ) -> Option<GradFn> {
        let (a, b) = (a.clone(), b.clone());
        match op {
            BinaryOp::Add | BinaryOp::Sub => Some(GradFn::AddSub {
                a: a.shape(),
                b: b.shape(),
                sub: op == BinaryOp::Sub,
            }),
            BinaryOp::Mul => Some(GradFn::Mul { a, b }),
            BinaryOp::Div => Some(GradFn::Div { a, b }),
            BinaryOp::Pow => Some(GradFn::Pow {
                a,
                b,
                out: self.detach(out),
            }),
            BinaryOp::Maximum | BinaryOp::Minimum => Some(GradFn::Extremum {
                a,
                b,
                max: op == BinaryOp::Maximum,
            }),
            BinaryOp::FloorDiv | BinaryOp::Remainder => None,
        }
    }

    /// `a + b` or `a - b`: the gradient summed back to each operand's shape,
    /// negated for `b` of a difference.
    pub(super) async fn add_sub_grads(
        &mut self,
        g: &Tensor,
        (a, b): (&Shape, &Shape),
        sub: bool,
        wants: [bool; 2],
    ) -> Result<Vec<Option<Tensor>>, RuntimeError> {
        let ga = if wants[0] {
            Some(self.sum_to(g, a).await?)
        } else {
            None
        };
        let gb = if wants[1] {
            let gb = self.sum_to(g, b).await?;
            Some(if sub {
                self.unary(UnaryOp::Neg, &gb).await?
            } else {
                gb
            })
        } else {
            None
        };
        Ok(vec![ga, gb])
    }

    pub(super) async fn mul_grads(
        &mut self,
        g: &Tensor,
        (a, b): (&Tensor, &Tensor),
        wants: [bool; 2],
    ) -> Result<Vec<Option<Tensor>>, RuntimeError> {
        let ga = if wants[0] {
            let p = self.binary(BinaryOp::Mul, g, b).await?;
            Some(self.sum_to(&p, &a.shape()).await?)
        } else {
            None
        };
        let gb = if wants[1] {
            let p = self.binary(BinaryOp::Mul, g, a).await?;
            Some(self.sum_to(&p, &b.shape()).await?)
        } else {
            None
        };
        Ok(vec![ga, gb])
    }

    pub(super) async fn div_grads(
        &mut self,
        g: &Tensor,
        (a, b): (&Tensor, &Tensor),
        wants: [bool; 2],
    ) -> Result<Vec<Option<Tensor>>, RuntimeError> {
        let ga = if wants[0] {
            let p = self.binary(BinaryOp::Div, g, b).await?;
            Some(self.sum_to(&p, &a.shape()).await?)
        } else {
            None
        };
        let gb = if wants[1] {
            // -g * a / b^2
            let q = self.binary(BinaryOp::Div, a, b).await?;
            let q = self.binary(BinaryOp::Div, &q, b).await?;
            let p = self.binary(BinaryOp::Mul, g, &q).await?;
            let p = self.unary(UnaryOp::Neg, &p).await?;
            Some(self.sum_to(&p, &b.shape()).await?)
        } else {
            None
        };
        Ok(vec![ga, gb])
    }

    pub(super) async fn pow_grads(
        &mut self,
        g: &Tensor,
        (a, b): (&Tensor, &Tensor),
        out: &Tensor,
        wants: [bool; 2],
    ) -> Result<Vec<Option<Tensor>>, RuntimeError> {
        let ga = if wants[0] {
            // g * b * a^(b-1)
            let bm1 = self
                .binary_scalar(BinaryOp::Sub, b, 1.0, ScalarKind::Float, false)
                .await?;
            let p = self.binary(BinaryOp::Pow, a, &bm1).await?;
            let p = self.binary(BinaryOp::Mul, &p, b).await?;
            let p = self.binary(BinaryOp::Mul, g, &p).await?;
            Some(self.sum_to(&p, &a.shape()).await?)
        } else {
            None
        };
        let gb = if wants[1] {
            let l = self.unary(UnaryOp::Log, a).await?;
            let p = self.binary(BinaryOp::Mul, out, &l).await?;
            let p = self.binary(BinaryOp::Mul, g, &p).await?;
            Some(self.sum_to(&p, &b.shape()).await?)
        } else {
            None
        };
        Ok(vec![ga, gb])
    }

    /// `maximum`/`minimum` of two tensors: the gradient goes to the chosen
    /// operand, split in half on ties.
    pub(super) async fn extremum_grads(
        &mut self,
        g: &Tensor,
        (a, b): (&Tensor, &Tensor),
        max: bool,
    ) -> Result<Vec<Option<Tensor>>, RuntimeError> {
        let win = if max { CompareOp::Gt } else { CompareOp::Lt };
        let gt = self.compare(win, a, b).await?;
        let eq = self.compare(CompareOp::Eq, a, b).await?;
        let gt = self.cast(&gt, g.dtype()).await?;
        let eq = self.cast(&eq, g.dtype()).await?;
        let half = self
            .binary_scalar(BinaryOp::Mul, &eq, 0.5, ScalarKind::Float, false)
            .await?;
        let wa = self.binary(BinaryOp::Add, &gt, &half).await?;
        let ga = self.binary(BinaryOp::Mul, g, &wa).await?;
        let gb = self.binary(BinaryOp::Sub, g, &ga).await?;
        Ok(vec![
            Some(self.sum_to(&ga, &a.shape()).await?),
            Some(self.sum_to(&gb, &b.shape()).await?),
        ])
    }

    /// The gradient of `x op s` (or `s op x` when `scalar_on_left`) for a
    /// Python number `s`; `out` is the op's result.
    pub(super) async fn scalar_grad(
        &mut self,
        g: &Tensor,
        (op, s, scalar_on_left): (BinaryOp, f64, bool),
        x: &Tensor,
        out: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let fl = ScalarKind::Float;
        Ok(match (op, scalar_on_left) {
            (BinaryOp::Add, _) | (BinaryOp::Sub, false) | (BinaryOp::Remainder, false) => g.clone(),
            (BinaryOp::Sub, true) => self.unary(UnaryOp::Neg, g).await?,
            (BinaryOp::Mul, _) => self.binary_scalar(BinaryOp::Mul, g, s, fl, false).await?,
            (BinaryOp::Div, false) => self.binary_scalar(BinaryOp::Div, g, s, fl, false).await?,
            (BinaryOp::Div, true) => {
                // d(s/x) = -s/x^2 = -out/x
                let q = self.binary(BinaryOp::Div, out, x).await?;
                let q = self.unary(UnaryOp::Neg, &q).await?;
                self.binary(BinaryOp::Mul, g, &q).await?
            }
            (BinaryOp::Pow, false) => {
                if s == 0.0 {
                    self.binary_scalar(BinaryOp::Mul, g, 0.0, fl, false).await?
                } else {
                    let p = self
                        .binary_scalar(BinaryOp::Pow, x, s - 1.0, fl, false)
                        .await?;
                    let p = self.binary_scalar(BinaryOp::Mul, &p, s, fl, false).await?;
                    self.binary(BinaryOp::Mul, g, &p).await?
                }
            }
            (BinaryOp::Pow, true) => {
                let p = self
                    .binary_scalar(BinaryOp::Mul, out, s.ln(), fl, false)
                    .await?;
                self.binary(BinaryOp::Mul, g, &p).await?
            }
            (BinaryOp::Maximum | BinaryOp::Minimum, _) => {
                let cmp = if op == BinaryOp::Maximum {
                    CompareOp::Ge
                } else {
                    CompareOp::Le
                };
                let keep = self.compare_scalar(cmp, x, s).await?;
                let keep = self.cast(&keep, g.dtype()).await?;
                self.binary(BinaryOp::Mul, g, &keep).await?
            }
            (BinaryOp::Remainder, true) | (BinaryOp::FloorDiv, _) => {
                self.binary_scalar(BinaryOp::Mul, g, 0.0, fl, false).await?
            }
        })
    }

    /// The gradient of a one-input function, from its input `x` and its
    /// result `out`: `g` times the derivative, or a quotient where that is
    /// how PyTorch computes it (`log`, `sqrt`).
    pub(super) async fn unary_grad(
        &mut self,
        g: &Tensor,
        op: UnaryOp,
        x: &Tensor,
        out: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let fl = ScalarKind::Float;
        let d = match op {
            UnaryOp::Neg => return self.unary(UnaryOp::Neg, g).await,
            UnaryOp::Abs => self.unary(UnaryOp::Sign, x).await?,
            UnaryOp::Relu => {
                let m = self.compare_scalar(CompareOp::Gt, out, 0.0).await?;
                self.cast(&m, g.dtype()).await?
            }
            UnaryOp::Exp => out.clone(),
            UnaryOp::Log => return self.binary(BinaryOp::Div, g, x).await,
            UnaryOp::Sqrt => {
                let two = self
                    .binary_scalar(BinaryOp::Mul, out, 2.0, fl, false)
                    .await?;
                return self.binary(BinaryOp::Div, g, &two).await;
            }
            UnaryOp::Tanh => {
                let sq = self.binary(BinaryOp::Mul, out, out).await?;
                self.binary_scalar(BinaryOp::Sub, &sq, 1.0, fl, true)
                    .await?
            }
            UnaryOp::Sigmoid => {
                let one_minus = self
                    .binary_scalar(BinaryOp::Sub, out, 1.0, fl, true)
                    .await?;
                self.binary(BinaryOp::Mul, out, &one_minus).await?
            }
            UnaryOp::Sin => self.unary(UnaryOp::Cos, x).await?,
            UnaryOp::Cos => {
                let s = self.unary(UnaryOp::Sin, x).await?;
                self.unary(UnaryOp::Neg, &s).await?
            }
            UnaryOp::Tan => {
                // 1 + tan(x)^2, from the result as PyTorch's TanBackward0.
                let sq = self.binary(BinaryOp::Mul, out, out).await?;
                self.binary_scalar(BinaryOp::Add, &sq, 1.0, fl, false)
                    .await?
            }
            UnaryOp::Atan => {
                // 1 / (1 + x^2)
                let sq = self.binary(BinaryOp::Mul, x, x).await?;
                let den = self
                    .binary_scalar(BinaryOp::Add, &sq, 1.0, fl, false)
                    .await?;
                return self.binary(BinaryOp::Div, g, &den).await;
            }
            UnaryOp::Erf => {
                // 2/sqrt(pi) * exp(-x^2)
                let sq = self.binary(BinaryOp::Mul, x, x).await?;
                let n = self.unary(UnaryOp::Neg, &sq).await?;
                let e = self.unary(UnaryOp::Exp, &n).await?;
                let c = 2.0 / std::f64::consts::PI.sqrt();
                self.binary_scalar(BinaryOp::Mul, &e, c, fl, false).await?
            }
            UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Round | UnaryOp::Sign => {
                self.binary_scalar(BinaryOp::Mul, g, 0.0, fl, false).await?
            }
        };
        self.binary(BinaryOp::Mul, g, &d).await
    }
}
