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

mod compose;
use compose::{
    arg_extremum, cumsum, erf, floor_divide, linspace, pad, scatter, strided, unfold_backward,
};
use tpu_ir::{BinaryOp, CompareOp, DType, IntOrFloat, Op, ReduceOp, UnaryOp};

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
        DType::Float16 => "f16",
        DType::UInt8 => "ui8",
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
        DType::Float16 => format!("0x{:04X}", crate::data::f32_to_f16(value as f32)),
        DType::UInt8 => format!("{}", value as i64 as u8),
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
        Op::Pad {
            before,
            after,
            value,
        } => {
            let x = w.convert(&args[0], dtype);
            Ok(pad(w, &x, before, after, *value))
        }
        Op::Concat { axis, .. } => {
            let parts: Vec<V> = args.iter().map(|a| w.convert(a, dtype)).collect();
            let parts: Vec<&V> = parts.iter().collect();
            Ok(w.op(
                "concatenate",
                &parts,
                &format!("dimension = {axis} : i64"),
                out,
                dtype,
            ))
        }
        Op::UnfoldBackward { axis, size, step } => {
            let g = w.convert(&args[0], dtype);
            unfold_backward(w, &g, *axis, *size, *step, out)
        }
        Op::Nonzero | Op::Random { .. } => {
            Err("made on the host; the capture keeps it as a parameter".into())
        }
        Op::Pallas { kernel } => Err(format!(
            "the Pallas kernel {} is not lowered to StableHLO (a custom call would carry it)",
            kernel.name
        )),
    }
}

/// The type two compared operands meet in.
fn common_type(a: DType, b: DType) -> DType {
    DType::promote(a, b)
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
        UnaryOp::Tan => w.unary("tan", x),
        UnaryOp::Atan => {
            let one = w.splat(1.0, x);
            w.binary("atan2", x, &one)
        }
        UnaryOp::Erf => erf(w, x),
    })
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
        ReduceOp::Min if x.dtype == DType::UInt8 => ("minimum", 255.0),
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
        DType::UInt8 => 0.0,
        _ => f64::NEG_INFINITY,
    }
}
