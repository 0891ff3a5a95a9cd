//! A captured graph lowered to a StableHLO module: MLIR text in the generic
//! op form, only the `stablehlo` and `func` dialects, one `func.func public
//! @main` taking the graph's parameters and returning its results. Each op of
//! the runtime's set becomes the StableHLO ops that compute what the reference
//! backend computes: broadcasting is `broadcast_in_dim`, products are
//! `dot_general`, reductions `reduce` (argmax a two-operand `reduce`), views
//! `reshape`/`transpose` or a `gather` of the strided positions, `erf` a
//! rational approximation (StableHLO has none; `chlo.erf` is not portable).
//!
//! The tests run every module through real XLA (`tools/xla_check.py`), which
//! parses, verifies and compiles it and whose results must agree with ours.

use super::{Graph, Node};
use crate::data::f32_to_bf16;
use std::collections::HashMap;
use std::fmt::Write;
use tpu_ir::{BinaryOp, CompareOp, DType, IntOrFloat, Op, ReduceOp, Shape, UnaryOp};

/// A value of the function being written: its SSA name and type.
#[derive(Clone, Debug)]
struct V {
    name: String,
    dims: Vec<usize>,
    dtype: DType,
}

fn element(dtype: DType) -> &'static str {
    match dtype {
        DType::Float32 => "f32",
        DType::Float64 => "f64",
        DType::BFloat16 => "bf16",
        DType::Int32 => "i32",
        DType::Int64 => "i64",
        DType::Bool => "i1",
    }
}

fn ty(dims: &[usize], dtype: DType) -> String {
    let mut s = String::from("tensor<");
    for d in dims {
        let _ = write!(s, "{d}x");
    }
    s.push_str(element(dtype));
    s.push('>');
    s
}

fn i64s(values: &[usize]) -> String {
    if values.is_empty() {
        return "array<i64>".into();
    }
    let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("array<i64: {}>", items.join(", "))
}

/// A scalar of `dtype` as an MLIR literal (floats by their bits, exactly).
fn literal(value: f64, dtype: DType) -> String {
    match dtype {
        DType::Float32 => format!("0x{:08X}", (value as f32).to_bits()),
        DType::Float64 => format!("0x{:016X}", value.to_bits()),
        DType::BFloat16 => format!("0x{:04X}", f32_to_bf16(value as f32)),
        DType::Int32 => format!("{}", value as i32),
        DType::Int64 => format!("{}", value as i64),
        DType::Bool => (if value != 0.0 { "true" } else { "false" }).into(),
    }
}

struct Writer {
    body: String,
    next: usize,
}

type Lowered<T = V> = Result<T, String>;

impl Writer {
    /// Writes `op` (generic form, `"stablehlo.x"(operands) {attrs}`) with
    /// result type `dims`/`dtype`.
    fn op(&mut self, name: &str, args: &[&V], attrs: &str, dims: &[usize], dtype: DType) -> V {
        let result = format!("%{}", self.next);
        self.next += 1;
        let names: Vec<&str> = args.iter().map(|a| a.name.as_str()).collect();
        let types: Vec<String> = args.iter().map(|a| ty(&a.dims, a.dtype)).collect();
        let attrs = if attrs.is_empty() {
            String::new()
        } else {
            format!(" {{{attrs}}}")
        };
        let _ = writeln!(
            self.body,
            "    {result} = \"stablehlo.{name}\"({}){attrs} : ({}) -> {}",
            names.join(", "),
            types.join(", "),
            ty(dims, dtype)
        );
        V {
            name: result,
            dims: dims.to_vec(),
            dtype,
        }
    }

    fn constant(&mut self, value: f64, dims: &[usize], dtype: DType) -> V {
        let t = ty(dims, dtype);
        let attr = format!("value = dense<{}> : {t}", literal(value, dtype));
        self.op("constant", &[], &attr, dims, dtype)
    }

    /// A constant shaped like `like`, in its dtype.
    fn splat(&mut self, value: f64, like: &V) -> V {
        let dims = like.dims.clone();
        self.constant(value, &dims, like.dtype)
    }

    fn convert(&mut self, v: &V, to: DType) -> V {
        if v.dtype == to {
            return v.clone();
        }
        let dims = v.dims.clone();
        self.op("convert", &[v], "", &dims, to)
    }

    fn reshape(&mut self, v: &V, dims: &[usize]) -> Lowered {
        if v.dims == dims {
            return Ok(v.clone());
        }
        let (a, b): (usize, usize) = (v.dims.iter().product(), dims.iter().product());
        if a != b {
            return Err(format!(
                "a value of shape {:?} is read as {:?}: not the same number of elements",
                v.dims, dims
            ));
        }
        Ok(self.op("reshape", &[v], "", dims, v.dtype))
    }

    /// `v` broadcast to `dims` with NumPy's rule (trailing dimensions align).
    fn broadcast(&mut self, v: &V, dims: &[usize]) -> Lowered {
        if v.dims == dims {
            return Ok(v.clone());
        }
        let rank = v.dims.len();
        if rank > dims.len() {
            return Err(format!("cannot broadcast {:?} to {:?}", v.dims, dims));
        }
        let offset = dims.len() - rank;
        for (i, &d) in v.dims.iter().enumerate() {
            if d != 1 && d != dims[offset + i] {
                return Err(format!("cannot broadcast {:?} to {:?}", v.dims, dims));
            }
        }
        let map: Vec<usize> = (offset..dims.len()).collect();
        let attr = format!("broadcast_dimensions = {}", i64s(&map));
        Ok(self.op("broadcast_in_dim", &[v], &attr, dims, v.dtype))
    }

    fn binary(&mut self, name: &str, a: &V, b: &V) -> V {
        let dims = a.dims.clone();
        self.op(name, &[a, b], "", &dims, a.dtype)
    }

    fn unary(&mut self, name: &str, a: &V) -> V {
        let dims = a.dims.clone();
        self.op(name, &[a], "", &dims, a.dtype)
    }

    fn compare(&mut self, direction: CompareOp, a: &V, b: &V) -> V {
        let kind = if a.dtype.is_floating() {
            "FLOAT"
        } else if a.dtype == DType::Bool {
            "UNSIGNED"
        } else {
            "SIGNED"
        };
        let dir = match direction {
            CompareOp::Eq => "EQ",
            CompareOp::Ne => "NE",
            CompareOp::Lt => "LT",
            CompareOp::Le => "LE",
            CompareOp::Gt => "GT",
            CompareOp::Ge => "GE",
        };
        let attr = format!(
            "comparison_direction = #stablehlo<comparison_direction {dir}>, compare_type = #stablehlo<comparison_type {kind}>"
        );
        let dims = a.dims.clone();
        self.op("compare", &[a, b], &attr, &dims, DType::Bool)
    }

    fn select(&mut self, p: &V, a: &V, b: &V) -> V {
        let dims = a.dims.clone();
        self.op("select", &[p, a, b], "", &dims, a.dtype)
    }

    fn iota(&mut self, dim: usize, dims: &[usize], dtype: DType) -> V {
        let attr = format!("iota_dimension = {dim} : i64");
        self.op("iota", &[], &attr, dims, dtype)
    }

    /// A `reduce` of `v` over `axes` with the binary op `combine`, from `init`.
    fn reduce(&mut self, v: &V, axes: &[usize], combine: &str, init: f64) -> V {
        let init = self.constant(init, &[], v.dtype);
        let dims: Vec<usize> = v
            .dims
            .iter()
            .enumerate()
            .filter(|(i, _)| !axes.contains(i))
            .map(|(_, &d)| d)
            .collect();
        let scalar = ty(&[], v.dtype);
        let result = format!("%{}", self.next);
        self.next += 1;
        let _ = writeln!(
            self.body,
            "    {result} = \"stablehlo.reduce\"({}, {}) ({{\n    ^bb0(%a: {scalar}, %b: {scalar}):\n      %r = \"stablehlo.{combine}\"(%a, %b) : ({scalar}, {scalar}) -> {scalar}\n      \"stablehlo.return\"(%r) : ({scalar}) -> ()\n    }}) {{dimensions = {}}} : ({}, {scalar}) -> {}",
            v.name,
            init.name,
            i64s(axes),
            ty(&v.dims, v.dtype),
            ty(&dims, v.dtype)
        );
        V {
            name: result,
            dims,
            dtype: v.dtype,
        }
    }

    /// `flat[index]` for a 1-D `flat` and an int64 `index` of any shape.
    fn gather(&mut self, flat: &V, index: &V) -> V {
        let rank = index.dims.len();
        let attr = format!(
            "dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = {rank}>, slice_sizes = array<i64: 1>, indices_are_sorted = false"
        );
        let dims = index.dims.clone();
        self.op("gather", &[flat, index], &attr, &dims, flat.dtype)
    }
}

/// Lowers `graph` to a StableHLO module, or says which op it cannot lower.
pub fn lower(graph: &Graph) -> Result<String, String> {
    let mut w = Writer {
        body: String::new(),
        next: 0,
    };
    let mut values: HashMap<u64, V> = HashMap::new();
    let mut params = Vec::new();
    for (i, (id, shape, dtype)) in graph.inputs.iter().enumerate() {
        let v = V {
            name: format!("%arg{i}"),
            dims: shape.dims().to_vec(),
            dtype: *dtype,
        };
        params.push(format!("{}: {}", v.name, ty(&v.dims, v.dtype)));
        values.insert(*id, v);
    }
    for node in &graph.nodes {
        let mut args = Vec::with_capacity(node.inputs.len());
        for (id, shape, _) in &node.inputs {
            let v = values.get(id).cloned().ok_or_else(|| {
                format!("{}: an operand made outside the graph", node.op.aten_name())
            })?;
            args.push(w.reshape(&v, shape.dims())?);
        }
        let out = lower_node(&mut w, node, &args)
            .map_err(|e| format!("{} ({}): {e}", node.op.aten_name(), node.op.kernel_name()))?;
        values.insert(node.out, out);
    }
    let mut results = Vec::new();
    for (id, shape, _) in &graph.outputs {
        let v = values
            .get(id)
            .cloned()
            .ok_or_else(|| "a result the graph does not make".to_string())?;
        results.push(w.reshape(&v, shape.dims())?);
    }
    let names: Vec<&str> = results.iter().map(|v| v.name.as_str()).collect();
    let types: Vec<String> = results.iter().map(|v| ty(&v.dims, v.dtype)).collect();
    let mut text = String::from("module @compiled {\n");
    let _ = writeln!(
        text,
        "  func.func public @main({}) -> ({}) {{",
        params.join(", "),
        types.join(", ")
    );
    text.push_str(&w.body);
    let _ = writeln!(
        text,
        "    \"func.return\"({}) : ({}) -> ()",
        names.join(", "),
        types.join(", ")
    );
    text.push_str("  }\n}\n");
    Ok(text)
}

fn lower_node(w: &mut Writer, node: &Node, args: &[V]) -> Lowered {
    let out = node.out_shape.dims();
    let dtype = node.out_dtype;
    match &node.op {
        Op::Fill { value } => Ok(w.constant(*value, out, dtype)),
        Op::Binary { op } => {
            let a = w.convert(&args[0], dtype);
            let a = w.broadcast(&a, out)?;
            let b = w.convert(&args[1], dtype);
            let b = w.broadcast(&b, out)?;
            binary(w, *op, &a, &b)
        }
        Op::BinaryScalar {
            op,
            scalar,
            scalar_on_left,
        } => {
            let x = w.convert(&args[0], dtype);
            let x = w.broadcast(&x, out)?;
            let s = w.splat(*scalar, &x);
            if *scalar_on_left {
                binary(w, *op, &s, &x)
            } else {
                binary(w, *op, &x, &s)
            }
        }
        Op::Unary { op } => {
            let x = if dtype.is_floating() {
                w.convert(&args[0], dtype)
            } else {
                args[0].clone()
            };
            unary(w, *op, &x)
        }
        Op::Compare { op } => {
            let common = common_type(args[0].dtype, args[1].dtype);
            let a = w.convert(&args[0], common);
            let a = w.broadcast(&a, out)?;
            let b = w.convert(&args[1], common);
            let b = w.broadcast(&b, out)?;
            Ok(w.compare(*op, &a, &b))
        }
        Op::CompareScalar { op, scalar } => {
            let x = &args[0];
            let x = if !x.dtype.is_floating() && scalar.fract() != 0.0 {
                w.convert(x, DType::Float64)
            } else {
                x.clone()
            };
            let s = w.splat(*scalar, &x);
            Ok(w.compare(*op, &x, &s))
        }
        Op::Cast { to } => Ok(w.convert(&args[0], *to)),
        Op::MatMul {
            transpose_a,
            transpose_b,
        } => {
            let (a, b) = (&args[0], &args[1]);
            let batched = a.dims.len() == 3;
            let base = usize::from(batched);
            let lhs = if *transpose_a { base } else { base + 1 };
            let rhs = if *transpose_b { base + 1 } else { base };
            let batch = if batched {
                "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
            } else {
                ""
            };
            let attr = format!(
                "dot_dimension_numbers = #stablehlo.dot<{batch}lhs_contracting_dimensions = [{lhs}], rhs_contracting_dimensions = [{rhs}]>"
            );
            let a = w.convert(a, dtype);
            let b = w.convert(b, dtype);
            Ok(w.op("dot_general", &[&a, &b], &attr, out, dtype))
        }
        Op::SumAll => {
            let x = w.convert(&args[0], dtype);
            let axes: Vec<usize> = (0..x.dims.len()).collect();
            let r = reduce_with(w, ReduceOp::Sum, &x, &axes)?;
            w.reshape(&r, out)
        }
        Op::Reduce { op, axis } => {
            let r = match op {
                ReduceOp::ArgMax | ReduceOp::ArgMin => arg_extremum(w, *op, &args[0], *axis),
                _ => {
                    let x = w.convert(&args[0], dtype);
                    reduce_with(w, *op, &x, &[*axis])?
                }
            };
            w.reshape(&r, out)
        }
        Op::Where => {
            let cond = if args[0].dtype == DType::Bool {
                args[0].clone()
            } else {
                let zero = w.splat(0.0, &args[0]);
                w.compare(CompareOp::Ne, &args[0], &zero)
            };
            let cond = w.broadcast(&cond, out)?;
            let a = w.convert(&args[1], dtype);
            let a = w.broadcast(&a, out)?;
            let b = w.convert(&args[2], dtype);
            let b = w.broadcast(&b, out)?;
            Ok(w.select(&cond, &a, &b))
        }
        Op::Cumsum { axis, reverse } => {
            let x = w.convert(&args[0], dtype);
            cumsum(w, &x, *axis, *reverse)
        }
        Op::Arange { start, step } => {
            let n = out.iter().product::<usize>();
            match (start, step) {
                (IntOrFloat::Int(s), IntOrFloat::Int(d)) if !dtype.is_floating() => {
                    let i = w.iota(0, &[n], DType::Int64);
                    let d = w.splat(*d as f64, &i);
                    let s = w.splat(*s as f64, &i);
                    let v = w.binary("multiply", &i, &d);
                    let v = w.binary("add", &v, &s);
                    Ok(w.convert(&v, dtype))
                }
                _ => {
                    let i = w.iota(0, &[n], DType::Float64);
                    let d = w.splat(step.as_f64(), &i);
                    let s = w.splat(start.as_f64(), &i);
                    let v = w.binary("multiply", &i, &d);
                    let v = w.binary("add", &v, &s);
                    Ok(w.convert(&v, dtype))
                }
            }
        }
        Op::Linspace { start, end } => linspace(w, *start, *end, out, dtype),
        Op::Eye => {
            let r = w.iota(0, out, DType::Int64);
            let c = w.iota(1, out, DType::Int64);
            let eq = w.compare(CompareOp::Eq, &r, &c);
            Ok(w.convert(&eq, dtype))
        }
        Op::Strided { offset, strides } => strided(w, &args[0], *offset, strides, out),
        Op::Gather => {
            let n = args[0].dims.iter().product::<usize>();
            let flat = w.reshape(&args[0], &[n])?;
            let index = w.convert(&args[1], DType::Int64);
            let g = w.gather(&flat, &index);
            w.reshape(&g, out)
        }
        Op::Scatter { accumulate } => scatter(w, args, *accumulate, out),
        Op::Nonzero | Op::Random { .. } => {
            Err("made on the host; the capture keeps it as a parameter".into())
        }
    }
}

/// The type two compared operands meet in.
fn common_type(a: DType, b: DType) -> DType {
    if a == b {
        return a;
    }
    let rank = |d: DType| match d {
        DType::Bool => 0,
        DType::Int32 => 1,
        DType::Int64 => 2,
        DType::BFloat16 => 3,
        DType::Float32 => 4,
        DType::Float64 => 5,
    };
    if rank(a) >= rank(b) { a } else { b }
}

fn binary(w: &mut Writer, op: BinaryOp, a: &V, b: &V) -> Lowered {
    if a.dtype == DType::Bool {
        return match op {
            BinaryOp::Add | BinaryOp::Maximum => Ok(w.binary("or", a, b)),
            BinaryOp::Mul | BinaryOp::Minimum => Ok(w.binary("and", a, b)),
            other => Err(format!("{} of booleans", other.name())),
        };
    }
    Ok(match op {
        BinaryOp::Add => w.binary("add", a, b),
        BinaryOp::Sub => w.binary("subtract", a, b),
        BinaryOp::Mul => w.binary("multiply", a, b),
        BinaryOp::Div => w.binary("divide", a, b),
        BinaryOp::Pow => w.binary("power", a, b),
        BinaryOp::Maximum => w.binary("maximum", a, b),
        BinaryOp::Minimum => w.binary("minimum", a, b),
        BinaryOp::Remainder => {
            // The remainder with the divisor's sign (`stablehlo.remainder`
            // takes the dividend's).
            let r = w.binary("remainder", a, b);
            let fix = sign_differs(w, &r, b);
            let shifted = w.binary("add", &r, b);
            w.select(&fix, &shifted, &r)
        }
        BinaryOp::FloorDiv if a.dtype.is_floating() => floor_divide(w, a, b),
        BinaryOp::FloorDiv => {
            let q = w.binary("divide", a, b);
            let r = w.binary("remainder", a, b);
            let fix = sign_differs(w, &r, b);
            let one = w.splat(1.0, &q);
            let lower = w.binary("subtract", &q, &one);
            w.select(&fix, &lower, &q)
        }
    })
}

/// `r != 0 && (r < 0) != (b < 0)`.
fn sign_differs(w: &mut Writer, r: &V, b: &V) -> V {
    let zero = w.splat(0.0, r);
    let nonzero = w.compare(CompareOp::Ne, r, &zero);
    let r_neg = w.compare(CompareOp::Lt, r, &zero);
    let b_neg = w.compare(CompareOp::Lt, b, &zero);
    let differ = w.compare(CompareOp::Ne, &r_neg, &b_neg);
    w.binary("and", &nonzero, &differ)
}

/// PyTorch's float `floor_divide` (`tpu_ir::floor_divide`), op for op.
fn floor_divide(w: &mut Writer, a: &V, b: &V) -> V {
    let quotient = w.binary("divide", a, b);
    let rem = w.binary("remainder", a, b);
    let diff = w.binary("subtract", a, &rem);
    let div = w.binary("divide", &diff, b);
    let fix = sign_differs(w, &rem, b);
    let one = w.splat(1.0, &div);
    let lowered = w.binary("subtract", &div, &one);
    let div = w.select(&fix, &lowered, &div);
    let floor = w.unary("floor", &div);
    let frac = w.binary("subtract", &div, &floor);
    let half = w.splat(0.5, &div);
    let round_up = w.compare(CompareOp::Gt, &frac, &half);
    let up = w.binary("add", &floor, &one);
    let rounded = w.select(&round_up, &up, &floor);
    let zero = w.splat(0.0, &div);
    let is_zero = w.compare(CompareOp::Eq, &div, &zero);
    let signed_zero = w.binary("multiply", &zero, &quotient);
    let result = w.select(&is_zero, &signed_zero, &rounded);
    let b_zero = w.compare(CompareOp::Eq, b, &zero);
    w.select(&b_zero, &quotient, &result)
}

fn unary(w: &mut Writer, op: UnaryOp, x: &V) -> Lowered {
    let integral = !x.dtype.is_floating();
    Ok(match op {
        UnaryOp::Neg => w.unary("negate", x),
        UnaryOp::Abs => w.unary("abs", x),
        UnaryOp::Relu => {
            let zero = w.splat(0.0, x);
            w.binary("maximum", x, &zero)
        }
        UnaryOp::Sign if x.dtype == DType::Bool => x.clone(),
        UnaryOp::Sign => w.unary("sign", x),
        UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Round if integral => x.clone(),
        UnaryOp::Floor => w.unary("floor", x),
        UnaryOp::Ceil => w.unary("ceil", x),
        UnaryOp::Round => w.unary("round_nearest_even", x),
        _ if integral => return Err(format!("{} of integers", op.name())),
        UnaryOp::Exp => w.unary("exponential", x),
        UnaryOp::Log => w.unary("log", x),
        UnaryOp::Sqrt => w.unary("sqrt", x),
        UnaryOp::Tanh => w.unary("tanh", x),
        UnaryOp::Sigmoid => w.unary("logistic", x),
        UnaryOp::Sin => w.unary("sine", x),
        UnaryOp::Cos => w.unary("cosine", x),
        UnaryOp::Erf => erf(w, x),
    })
}

/// `erf(x) = 1 - erfc(x)`, with erfc from its Chebyshev fit (fractional
/// error below 1.2e-7, Numerical Recipes' `erfcc`), since StableHLO has no
/// erf of its own.
fn erf(w: &mut Writer, x: &V) -> V {
    const C: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let z = w.unary("abs", x);
    let one = w.splat(1.0, x);
    let half = w.splat(0.5, x);
    let hz = w.binary("multiply", &half, &z);
    let denom = w.binary("add", &one, &hz);
    let t = w.binary("divide", &one, &denom);
    // Horner from the last coefficient.
    let mut poly = w.splat(C[9], x);
    for &c in C[..9].iter().rev() {
        let m = w.binary("multiply", &t, &poly);
        let k = w.splat(c, x);
        poly = w.binary("add", &m, &k);
    }
    let z2 = w.binary("multiply", &z, &z);
    let neg = w.unary("negate", &z2);
    let arg = w.binary("add", &neg, &poly);
    let e = w.unary("exponential", &arg);
    let erfc = w.binary("multiply", &t, &e);
    let erf_abs = w.binary("subtract", &one, &erfc);
    let zero = w.splat(0.0, x);
    let negative = w.compare(CompareOp::Lt, x, &zero);
    let flipped = w.unary("negate", &erf_abs);
    w.select(&negative, &flipped, &erf_abs)
}

fn reduce_with(w: &mut Writer, op: ReduceOp, x: &V, axes: &[usize]) -> Lowered {
    let boolean = x.dtype == DType::Bool;
    let (combine, init) = match op {
        ReduceOp::Sum if boolean => ("or", 0.0),
        ReduceOp::Sum => ("add", 0.0),
        ReduceOp::Prod if boolean => ("and", 1.0),
        ReduceOp::Prod => ("multiply", 1.0),
        ReduceOp::Max if boolean => ("or", 0.0),
        ReduceOp::Max => ("maximum", lowest(x.dtype)),
        ReduceOp::Min if boolean => ("and", 1.0),
        ReduceOp::Min => ("minimum", -lowest(x.dtype)),
        ReduceOp::ArgMax | ReduceOp::ArgMin => unreachable!("lowered by arg_extremum"),
    };
    Ok(w.reduce(x, axes, combine, init))
}

/// The identity of `maximum` in `dtype`.
fn lowest(dtype: DType) -> f64 {
    match dtype {
        DType::Int64 => i64::MIN as f64,
        DType::Int32 => f64::from(i32::MIN),
        _ => f64::NEG_INFINITY,
    }
}

/// `argmax`/`argmin` along `axis`: a `reduce` of (value, index) pairs that
/// keeps the first index of the extremum, NaN counting as the extremum (as
/// PyTorch's CPU kernels do).
fn arg_extremum(w: &mut Writer, op: ReduceOp, x: &V, axis: usize) -> V {
    let float = x.dtype.is_floating();
    let index = w.iota(axis, &x.dims.clone(), DType::Int64);
    let init_v = w.constant(
        if op == ReduceOp::ArgMax {
            lowest(x.dtype)
        } else {
            -lowest(x.dtype)
        },
        &[],
        x.dtype,
    );
    let init_i = w.constant(i64::MAX as f64, &[], DType::Int64);
    let dims: Vec<usize> = x
        .dims
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != axis)
        .map(|(_, &d)| d)
        .collect();
    let sv = ty(&[], x.dtype);
    let si = ty(&[], DType::Int64);
    let sb = ty(&[], DType::Bool);
    let kind = if float {
        "FLOAT"
    } else if x.dtype == DType::Bool {
        "UNSIGNED"
    } else {
        "SIGNED"
    };
    let cmp = |name: &str, dir: &str, a: &str, b: &str, t: &str, k: &str| {
        format!(
            "      {name} = \"stablehlo.compare\"({a}, {b}) {{comparison_direction = #stablehlo<comparison_direction {dir}>, compare_type = #stablehlo<comparison_type {k}>}} : ({t}, {t}) -> {sb}\n"
        )
    };
    let better = if op == ReduceOp::ArgMax { "GT" } else { "LT" };
    let mut body = String::new();
    body.push_str(&cmp("%better", better, "%av", "%bv", &sv, kind));
    body.push_str(&cmp("%same", "EQ", "%av", "%bv", &sv, kind));
    body.push_str(&cmp("%first", "LT", "%ai", "%bi", &si, "SIGNED"));
    let bin = |name: &str, op: &str, a: &str, b: &str| {
        format!("      {name} = \"stablehlo.{op}\"({a}, {b}) : ({sb}, {sb}) -> {sb}\n")
    };
    body.push_str(&bin("%tie", "and", "%same", "%first"));
    body.push_str(&bin("%ordered", "or", "%better", "%tie"));
    let pick = if float {
        // a wins if it is NaN (unless b is a NaN before it), and loses to a
        // NaN b.
        body.push_str(&cmp("%anan", "NE", "%av", "%av", &sv, kind));
        body.push_str(&cmp("%bnan", "NE", "%bv", "%bv", &sv, kind));
        body.push_str(
            "      %bnum = \"stablehlo.not\"(%bnan) : (tensor<i1>) -> tensor<i1>\n      %anum = \"stablehlo.not\"(%anan) : (tensor<i1>) -> tensor<i1>\n",
        );
        body.push_str(&bin("%nanfirst", "or", "%bnum", "%first"));
        body.push_str(&bin("%nanwins", "and", "%anan", "%nanfirst"));
        body.push_str(&bin("%numbers", "and", "%anum", "%bnum"));
        body.push_str(&bin("%numwins", "and", "%numbers", "%ordered"));
        body.push_str(&bin("%pick", "or", "%nanwins", "%numwins"));
        "%pick"
    } else {
        "%ordered"
    };
    let _ = write!(
        body,
        "      %v = \"stablehlo.select\"({pick}, %av, %bv) : ({sb}, {sv}, {sv}) -> {sv}\n      %i = \"stablehlo.select\"({pick}, %ai, %bi) : ({sb}, {si}, {si}) -> {si}\n      \"stablehlo.return\"(%v, %i) : ({sv}, {si}) -> ()\n"
    );
    let result = format!("%{}", w.next);
    w.next += 1;
    let _ = writeln!(
        w.body,
        "    {result}:2 = \"stablehlo.reduce\"({}, {}, {}, {}) ({{\n    ^bb0(%av: {sv}, %ai: {si}, %bv: {sv}, %bi: {si}):\n{body}    }}) {{dimensions = array<i64: {axis}>}} : ({}, {}, {sv}, {si}) -> ({}, {})",
        x.name,
        index.name,
        init_v.name,
        init_i.name,
        ty(&x.dims, x.dtype),
        ty(&x.dims, DType::Int64),
        ty(&dims, x.dtype),
        ty(&dims, DType::Int64)
    );
    V {
        name: format!("{result}#1"),
        dims,
        dtype: DType::Int64,
    }
}

/// Running sums along `axis`: a `reduce_window` whose window is the whole
/// axis, padded before (or after, from the end) so each position sums what
/// precedes it.
fn cumsum(w: &mut Writer, x: &V, axis: usize, reverse: bool) -> Lowered {
    let n = x.dims[axis];
    let window: Vec<usize> = (0..x.dims.len())
        .map(|d| if d == axis { n } else { 1 })
        .collect();
    let strides = vec![1; x.dims.len()];
    let padding: Vec<String> = (0..x.dims.len())
        .map(|d| match (d == axis, reverse) {
            (false, _) => "[0, 0]".to_string(),
            (true, false) => format!("[{}, 0]", n.saturating_sub(1)),
            (true, true) => format!("[0, {}]", n.saturating_sub(1)),
        })
        .collect();
    let init = w.constant(0.0, &[], x.dtype);
    let combine = if x.dtype == DType::Bool { "or" } else { "add" };
    let scalar = ty(&[], x.dtype);
    let result = format!("%{}", w.next);
    w.next += 1;
    let _ = writeln!(
        w.body,
        "    {result} = \"stablehlo.reduce_window\"({}, {}) ({{\n    ^bb0(%a: {scalar}, %b: {scalar}):\n      %r = \"stablehlo.{combine}\"(%a, %b) : ({scalar}, {scalar}) -> {scalar}\n      \"stablehlo.return\"(%r) : ({scalar}) -> ()\n    }}) {{window_dimensions = {}, window_strides = {}, padding = dense<[{}]> : tensor<{}x2xi64>}} : ({}, {scalar}) -> {}",
        x.name,
        init.name,
        i64s(&window),
        i64s(&strides),
        padding.join(", "),
        x.dims.len(),
        ty(&x.dims, x.dtype),
        ty(&x.dims, x.dtype)
    );
    Ok(V {
        name: result,
        dims: x.dims.clone(),
        dtype: x.dtype,
    })
}

/// `torch.linspace` as the reference computes it: the first half steps up
/// from `start`, the second down from `end`, in the output's float type.
fn linspace(w: &mut Writer, start: f64, end: f64, out: &[usize], dtype: DType) -> Lowered {
    let n = out.iter().product::<usize>();
    let compute = if dtype == DType::Float64 {
        DType::Float64
    } else {
        DType::Float32
    };
    let denominator = n.saturating_sub(1).max(1) as f64;
    let step = if n > 1 {
        if compute == DType::Float64 {
            (end - start) / denominator
        } else {
            f64::from((end as f32 - start as f32) / denominator as f32)
        }
    } else {
        0.0
    };
    let i = w.iota(0, &[n], compute);
    let s = w.splat(start, &i);
    let e = w.splat(end, &i);
    let d = w.splat(step, &i);
    let last = w.splat((n.max(1) - 1) as f64, &i);
    let up = w.binary("multiply", &d, &i);
    let up = w.binary("add", &s, &up);
    let back = w.binary("subtract", &last, &i);
    let back = w.binary("multiply", &d, &back);
    let down = w.binary("subtract", &e, &back);
    let half = w.splat((n / 2) as f64, &i);
    let first = w.compare(CompareOp::Lt, &i, &half);
    let v = w.select(&first, &up, &down);
    let v = w.convert(&v, dtype);
    w.reshape(&v, out)
}

/// A strided window of a flat buffer: a `reshape` (and `transpose`) when it is
/// a permutation of the whole buffer, else a `gather` of the positions.
fn strided(w: &mut Writer, input: &V, offset: usize, strides: &[usize], out: &[usize]) -> Lowered {
    let n = input.dims.iter().product::<usize>();
    let flat = w.reshape(input, &[n])?;
    if let Some((base, perm)) = permutation(offset, strides, out, n) {
        let shaped = w.reshape(&flat, &base)?;
        if perm.iter().enumerate().all(|(i, &p)| i == p) {
            return w.reshape(&shaped, out);
        }
        let attr = format!("permutation = {}", i64s(&perm));
        return Ok(w.op("transpose", &[&shaped], &attr, out, input.dtype));
    }
    let mut index = w.constant(offset as f64, out, DType::Int64);
    for (d, &s) in strides.iter().enumerate() {
        if s == 0 || out[d] == 1 {
            continue;
        }
        let i = w.iota(d, out, DType::Int64);
        let k = w.splat(s as f64, &i);
        let term = w.binary("multiply", &i, &k);
        index = w.binary("add", &index, &term);
    }
    Ok(w.gather(&flat, &index))
}

/// `Some((base, perm))` when a strided view is the whole buffer of shape
/// `base` with its dimensions permuted: output dimension `i` is `base`'s
/// dimension `perm[i]`.
fn permutation(
    offset: usize,
    strides: &[usize],
    out: &[usize],
    n: usize,
) -> Option<(Vec<usize>, Vec<usize>)> {
    if offset != 0 || out.iter().product::<usize>() != n || out.contains(&1) {
        return None;
    }
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by(|&a, &b| strides[b].cmp(&strides[a]));
    let base: Vec<usize> = order.iter().map(|&d| out[d]).collect();
    let expected = Shape::new(base.clone()).strides();
    if order.iter().zip(&expected).any(|(&d, &e)| strides[d] != e) {
        return None;
    }
    let mut perm = vec![0; out.len()];
    for (position, &d) in order.iter().enumerate() {
        perm[d] = position;
    }
    Some((base, perm))
}

/// `base` with `values` written (or added) at the flat positions `index`.
fn scatter(w: &mut Writer, args: &[V], accumulate: bool, out: &[usize]) -> Lowered {
    let n = args[0].dims.iter().product::<usize>();
    let base = w.reshape(&args[0], &[n])?;
    let index = w.convert(&args[1], DType::Int64);
    let values = w.convert(&args[2], base.dtype);
    let values = w.reshape(&values, &index.dims.clone())?;
    let rank = index.dims.len();
    let scalar = ty(&[], base.dtype);
    let body = if accumulate {
        let combine = if base.dtype == DType::Bool {
            "or"
        } else {
            "add"
        };
        format!(
            "      %r = \"stablehlo.{combine}\"(%a, %b) : ({scalar}, {scalar}) -> {scalar}\n      \"stablehlo.return\"(%r) : ({scalar}) -> ()\n"
        )
    } else {
        format!("      \"stablehlo.return\"(%b) : ({scalar}) -> ()\n")
    };
    let result = format!("%{}", w.next);
    w.next += 1;
    let _ = writeln!(
        w.body,
        "    {result} = \"stablehlo.scatter\"({}, {}, {}) ({{\n    ^bb0(%a: {scalar}, %b: {scalar}):\n{body}    }}) {{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = {rank}>, indices_are_sorted = false, unique_indices = false}} : ({}, {}, {}) -> {}",
        base.name,
        index.name,
        values.name,
        ty(&base.dims, base.dtype),
        ty(&index.dims, DType::Int64),
        ty(&values.dims, values.dtype),
        ty(&base.dims, base.dtype)
    );
    let v = V {
        name: result,
        dims: base.dims.clone(),
        dtype: base.dtype,
    };
    w.reshape(&v, out)
}
