//! Autograd checked against central finite differences: for each differentiable
//! primitive `f`, the gradient of `sum(f(x) * w)` (w random, so every output
//! element matters differently) that `backward` computes must match
//! `(L(x + h e_i) - L(x - h e_i)) / 2h` for every element `i` of `x`.

use pollster::block_on;
use tpu_ir::{BinaryOp, CompareOp, DType, ReduceOp, ScalarKind, Shape, UnaryOp};
use tpu_runtime::{Device, HostData, ReferenceBackend, Runtime, RuntimeError, Tensor};

#[derive(Clone, Copy, Debug)]
enum Case {
    Unary(UnaryOp),
    Binary(BinaryOp),
    Scalar(BinaryOp, f64, bool),
    MatMul,
    BatchedMatMul,
    SumAxis,
    Mean,
    MaxAlong,
    MaxAll,
    Cumsum,
    Permute,
    Slice,
    Select,
    Expand,
    Reshape,
    Take,
    Cat,
    Where,
    /// Overlapping windows (size 3, step 1) and sparse ones (size 1, step 2),
    /// chained as a convolution's im2col chains them.
    Unfold,
    Pad,
    /// Slices and selections of one computed tensor along one axis, their
    /// gradients joined as parts (`autograd/waiting.rs`): disjoint with gaps,
    /// and overlapping.
    Parts,
}

const SHAPE: [usize; 2] = [3, 4];

async fn input(rt: &mut Runtime, values: Vec<f32>) -> Tensor {
    let t = rt
        .from_data(HostData::F32(values), Shape::new(SHAPE), Device::Cpu)
        .await
        .unwrap();
    rt.set_requires_grad(&t, true).unwrap();
    t
}

async fn constant(rt: &mut Runtime, seed: usize, dims: &[usize]) -> Tensor {
    let n: usize = dims.iter().product();
    let values = (0..n)
        .map(|i| (((i * 7 + seed * 13) % 11) as f32 - 5.0) / 4.0)
        .collect();
    rt.from_data(HostData::F32(values), Shape::new(dims), Device::Cpu)
        .await
        .unwrap()
}

/// `f(x)` for the case; `x` is `[3, 4]`.
async fn apply(rt: &mut Runtime, case: Case, x: &Tensor) -> Result<Tensor, RuntimeError> {
    Ok(match case {
        Case::Unary(op) => rt.unary(op, x).await?,
        Case::Binary(op) => {
            // The second operand broadcasts ([4]) and also requires grad
            // through x, so both gradient paths are exercised.
            let row = rt.select(x, 0, 1)?;
            let other = rt
                .binary_scalar(BinaryOp::Add, &row, 3.0, ScalarKind::Float, false)
                .await?;
            rt.binary(op, x, &other).await?
        }
        Case::Scalar(op, s, left) => rt.binary_scalar(op, x, s, ScalarKind::Float, left).await?,
        Case::MatMul => {
            let w = constant(rt, 1, &[4, 2]).await;
            rt.matmul(x, &w).await?
        }
        Case::BatchedMatMul => {
            let xb = rt.reshape(x, &[2, 3, 2]).await?;
            let w = constant(rt, 2, &[2, 2, 5]).await;
            rt.matmul(&xb, &w).await?
        }
        Case::SumAxis => rt.reduce_axes(ReduceOp::Sum, x, &[1], false).await?,
        Case::Mean => rt.mean(x, Some(&[0]), true).await?,
        Case::MaxAlong => rt.extremum_along(true, x, 1, false, true).await?.0,
        Case::MaxAll => rt.extremum_all(true, x).await?,
        Case::Cumsum => rt.cumsum(x, 1).await?,
        Case::Permute => rt.permute(x, &[1, 0])?,
        Case::Slice => rt.slice(x, 1, Some(1), None, 2)?,
        Case::Select => rt.select(x, 1, 2)?,
        Case::Expand => {
            let u = rt.unsqueeze(x, 0)?;
            rt.expand(&u, &[2, 3, 4])?
        }
        Case::Reshape => {
            let t = rt.permute(x, &[1, 0])?;
            rt.reshape(&t, &[2, 6]).await?
        }
        Case::Take => {
            let index = rt
                .from_data(
                    HostData::I64(vec![0, 5, 5, 11, 3]),
                    Shape::new([5]),
                    Device::Cpu,
                )
                .await?;
            rt.take(x, &index).await?
        }
        Case::Cat => {
            let sq = rt.binary(BinaryOp::Mul, x, x).await?;
            rt.cat(&[x.clone(), sq], 0).await?
        }
        Case::Where => {
            let cond = rt.compare_scalar(CompareOp::Gt, x, 0.1).await?;
            let neg = rt.unary(UnaryOp::Neg, x).await?;
            let sq = rt.binary(BinaryOp::Mul, &neg, x).await?;
            rt.where_(&cond, &sq, x).await?
        }
        Case::Unfold => {
            let rows = rt.unfold(x, 1, 3, 1)?;
            let both = rt.unfold(&rows, 0, 2, 1)?;
            let sparse = rt.unfold(x, 0, 1, 2)?;
            let a = rt.reshape(&both, &[-1]).await?;
            let b = rt.reshape(&sparse, &[-1]).await?;
            rt.cat(&[a, b], 0).await?
        }
        Case::Pad => rt.pad(x, &[1, 0], &[2, 3], 0.5).await?,
        Case::Parts => {
            let y = rt
                .binary_scalar(BinaryOp::Mul, x, 1.5, ScalarKind::Float, false)
                .await?;
            let a = rt.slice(&y, 1, Some(0), Some(1), 1)?;
            let b = rt.slice(&y, 1, Some(2), Some(3), 1)?;
            let b = rt.binary(BinaryOp::Mul, &b, &b).await?;
            let z = rt
                .binary_scalar(BinaryOp::Mul, x, -0.5, ScalarKind::Float, false)
                .await?;
            let c = rt.slice(&z, 1, Some(1), Some(3), 1)?;
            let d = rt.slice(&z, 1, Some(2), Some(4), 1)?;
            let d = rt.unary(UnaryOp::Tanh, &d).await?;
            // The columns of `y` the slices left, selected as a loop over
            // time steps selects them: with `a` and `b`, parts covering it.
            let mut columns = Vec::new();
            for t in [3, 1] {
                let col = rt.select(&y, 1, t)?;
                columns.push(rt.binary(BinaryOp::Mul, &col, &col).await?);
            }
            let e = rt.cat(&columns, 0).await?;
            let e = rt.reshape(&e, &[3, 2]).await?;
            rt.cat(&[a, b, c, d, e], 1).await?
        }
    })
}

/// `sum(f(x) * w)` as a 0-d tensor.
async fn loss(rt: &mut Runtime, case: Case, x: &Tensor) -> Result<Tensor, RuntimeError> {
    let y = apply(rt, case, x).await?;
    let w = constant(rt, 3, &y.dims()).await;
    let p = rt.binary(BinaryOp::Mul, &y, &w).await?;
    rt.sum(&p).await
}

async fn scalar(rt: &mut Runtime, t: &Tensor) -> f64 {
    match rt.item(t).await.unwrap() {
        tpu_runtime::Scalar::Float(f) => f,
        other => panic!("{other:?}"),
    }
}

async fn check(case: Case, values: Vec<f32>) {
    let mut rt = Runtime::new(Box::new(ReferenceBackend::new()));
    let x = input(&mut rt, values.clone()).await;
    let l = loss(&mut rt, case, &x).await.unwrap();
    rt.backward(&l, None, false).await.unwrap();
    let grad = rt.read(&x.grad().expect("a gradient")).await.unwrap();
    let HostData::F32(grad) = grad else { panic!() };
    let h = 1e-2f32;
    rt.set_grad_enabled(false);
    for i in 0..values.len() {
        let mut plus = values.clone();
        plus[i] += h;
        let mut minus = values.clone();
        minus[i] -= h;
        let xp = input(&mut rt, plus).await;
        let xm = input(&mut rt, minus).await;
        let lp = loss(&mut rt, case, &xp).await.unwrap();
        let lm = loss(&mut rt, case, &xm).await.unwrap();
        let numeric = (scalar(&mut rt, &lp).await - scalar(&mut rt, &lm).await) / (2.0 * h as f64);
        let analytic = grad[i] as f64;
        assert!(
            (numeric - analytic).abs() <= 2e-2 * (1.0 + numeric.abs()),
            "{case:?}: d/dx[{i}] is {analytic}, finite differences give {numeric}"
        );
    }
}

/// Values away from the kinks of abs/relu/max and positive where log and sqrt
/// need it.
fn values(positive: bool) -> Vec<f32> {
    (0..12)
        .map(|i| {
            let v = ((i * 5 % 12) as f32 - 5.5) / 3.0;
            if positive { v.abs() + 0.5 } else { v }
        })
        .collect()
}

#[test]
fn gradients_match_finite_differences() {
    use UnaryOp::*;
    for op in [
        Neg, Abs, Relu, Exp, Log, Sqrt, Tanh, Sigmoid, Sin, Cos, Erf, Atan,
    ] {
        block_on(check(Case::Unary(op), values(matches!(op, Log | Sqrt))));
    }
    // tan within (-1, 1), away from its poles.
    let halves = values(false).into_iter().map(|v| v / 2.0).collect();
    block_on(check(Case::Unary(Tan), halves));
    for op in [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Maximum,
        BinaryOp::Minimum,
    ] {
        block_on(check(Case::Binary(op), values(false)));
    }
    block_on(check(Case::Binary(BinaryOp::Pow), values(true)));
    for (op, s, left) in [
        (BinaryOp::Sub, 2.0, true),
        (BinaryOp::Mul, -1.5, false),
        (BinaryOp::Div, 3.0, false),
        (BinaryOp::Div, 3.0, true),
        (BinaryOp::Pow, 3.0, false),
        (BinaryOp::Pow, 2.0, true),
        (BinaryOp::Maximum, 0.2, false),
        (BinaryOp::Minimum, 0.2, false),
    ] {
        block_on(check(Case::Scalar(op, s, left), values(false)));
    }
    for case in [
        Case::MatMul,
        Case::BatchedMatMul,
        Case::SumAxis,
        Case::Mean,
        Case::MaxAlong,
        Case::MaxAll,
        Case::Cumsum,
        Case::Permute,
        Case::Slice,
        Case::Select,
        Case::Expand,
        Case::Reshape,
        Case::Take,
        Case::Cat,
        Case::Where,
        Case::Unfold,
        Case::Pad,
        Case::Parts,
    ] {
        block_on(check(case, values(false)));
    }
}

#[test]
fn a_second_backward_fails_as_in_pytorch_unless_the_graph_is_retained() {
    block_on(async {
        let mut rt = Runtime::new(Box::new(ReferenceBackend::new()));
        let x = input(&mut rt, values(false)).await;
        let l = loss(&mut rt, Case::Unary(UnaryOp::Exp), &x).await.unwrap();
        rt.backward(&l, None, true).await.unwrap();
        rt.backward(&l, None, false).await.unwrap();
        let err = rt.backward(&l, None, false).await.unwrap_err();
        assert!(
            err.to_string()
                .starts_with("Trying to backward through the graph a second time"),
            "{err}"
        );
        // Two passes accumulated: the gradient is twice exp(x) * w.
        let g = rt.read(&x.grad().unwrap()).await.unwrap();
        let w = constant(&mut rt, 3, &SHAPE).await;
        let (HostData::F32(g), HostData::F32(w)) = (g, rt.read(&w).await.unwrap()) else {
            panic!()
        };
        for ((g, w), x) in g.iter().zip(&w).zip(values(false)) {
            assert!((g - 2.0 * w * x.exp()).abs() < 1e-4);
        }
    });
}

#[test]
fn writes_through_a_view_reach_the_base_and_leaves_refuse_in_place_updates() {
    block_on(async {
        let mut rt = Runtime::new(Box::new(ReferenceBackend::new()));
        let base = rt
            .full(Shape::new([3, 4]), 0.0, DType::Float32, Device::Cpu)
            .await
            .unwrap();
        let column = rt.select(&base, 1, 2).unwrap();
        let seven = rt
            .full(Shape::scalar(), 7.0, DType::Float32, Device::Cpu)
            .await
            .unwrap();
        rt.write(&column, &seven).await.unwrap();
        let HostData::F32(v) = rt.read(&base).await.unwrap() else {
            panic!()
        };
        assert_eq!(v.iter().filter(|&&x| x == 7.0).count(), 3);
        assert_eq!(v[2], 7.0);
        assert_eq!(v[6], 7.0);
        let leaf = input(&mut rt, values(false)).await;
        let err = rt.write(&leaf, &seven).await.unwrap_err();
        assert!(
            err.to_string()
                .contains("a leaf Variable that requires grad")
        );
        rt.set_grad_enabled(false);
        rt.write(&leaf, &seven).await.unwrap();
    });
}

#[test]
fn graphs_are_freed_with_their_tensors() {
    block_on(async {
        let mut rt = Runtime::new(Box::new(ReferenceBackend::new()));
        let x = rt
            .from_data(
                HostData::F32(values(true)),
                Shape::new(SHAPE),
                Device::Tpu(0),
            )
            .await
            .unwrap();
        rt.set_requires_grad(&x, true).unwrap();
        for pass in 0..4 {
            // Ops whose gradients save their own output (exp, tanh, pow, a
            // scalar op, max); half the graphs are never backpropagated, the
            // case where a saved output would keep its own node alive.
            let e = rt.unary(UnaryOp::Exp, &x).await.unwrap();
            let t = rt.unary(UnaryOp::Tanh, &e).await.unwrap();
            let p = rt.binary(BinaryOp::Pow, &t, &x).await.unwrap();
            let s = rt
                .binary_scalar(BinaryOp::Div, &p, 2.0, ScalarKind::Float, true)
                .await
                .unwrap();
            let m = rt.extremum_all(true, &s).await.unwrap();
            if pass % 2 == 0 {
                rt.backward(&m, None, false).await.unwrap();
            }
        }
        x.set_grad(None);
        drop(x);
        assert_eq!(rt.live_tpu_buffers(), 0, "a graph outlived its tensors");
    });
}
