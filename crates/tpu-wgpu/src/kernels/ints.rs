//! Int32, int64 and bool tensors' arithmetic, comparisons, casts and
//! reductions, computed in emulated int64 (`int64.rs`) as the reference
//! computes them: operands are loaded as int64 whatever their width, results
//! stored in the output's dtype. `params`: `binary` and `compare` as
//! `mask.rs`'s broadcasting ones; `binary_scalar` `[count, s_lo, s_hi]`;
//! `compare_scalar` `[count, constant, t_lo, t_hi]`; `unary` and `cast`
//! `[count]`; the reductions as `axis.rs`'s `[lanes, len, inner]`; `sum_all`
//! `[count]`.

use super::int64::{self, load, storage, store};
use super::{COUNT, Launch, WORKGROUP_SIZE, elementwise_grid, expr, mask, per_op_index};
use tpu_ir::{BinaryOp, CompareOp, DType, ReduceOp, Shape, UnaryOp};
use tpu_runtime::BackendError;

/// Where `binary_scalar` keeps its number, `compare_scalar` whether its
/// answer is a constant (0: no, 1: false, 2: true) and then its threshold.
const SCALAR: usize = COUNT + 1;
const CONSTANT: usize = COUNT + 1;
const THRESHOLD: usize = CONSTANT + 1;

/// Whether `dtype` is one these kernels compute in int64.
pub(super) fn integral(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::Bool | DType::UInt8 | DType::Int32 | DType::Int64
    )
}

/// The WGSL int64 expression of `op` on int64 `a` and `b`, as `BinaryOp::apply_i64`.
fn binary_expr(op: BinaryOp, a: &str, b: &str) -> String {
    let f = match op {
        BinaryOp::Add => "i64_add",
        BinaryOp::Sub => "i64_sub",
        BinaryOp::Mul => "i64_mul",
        BinaryOp::Div => "int_div",
        BinaryOp::Pow => "int_pow",
        BinaryOp::Maximum => "int_max",
        BinaryOp::Minimum => "int_min",
        BinaryOp::FloorDiv => "int_floor_div",
        BinaryOp::Remainder => "int_rem",
    };
    format!("{f}({a}, {b})")
}

/// The functions `binary_expr` calls beyond `int64::LIB`: division by zero
/// is 0, as the reference's (PyTorch raises; its dispatcher checks first).
const BINARY_HELPERS: &str = "
fn int_div(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    // `checked_div`: zero for a zero divisor and for the minimum over -1.
    let minimum = i64_eq(a, vec2<u32>(0u, 0x80000000u)) && i64_eq(b, vec2<u32>(0xffffffffu, 0xffffffffu));
    if (i64_is_zero(b) || minimum) {
        return vec2<u32>(0u, 0u);
    }
    return i64_divmod(a, b).xy;
}
fn int_floor_div(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (i64_is_zero(b)) {
        return vec2<u32>(0u, 0u);
    }
    let qr = i64_divmod(a, b);
    if (!i64_is_zero(qr.zw) && i64_is_neg(qr.zw) != i64_is_neg(b)) {
        return i64_sub(qr.xy, vec2<u32>(1u, 0u));
    }
    return qr.xy;
}
fn int_rem(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (i64_is_zero(b)) {
        return vec2<u32>(0u, 0u);
    }
    let r = i64_divmod(a, b).zw;
    if (!i64_is_zero(r) && i64_is_neg(r) != i64_is_neg(b)) {
        return i64_add(r, b);
    }
    return r;
}
fn int_max(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return select(a, b, i64_lt(a, b));
}
fn int_min(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return select(a, b, i64_lt(b, a));
}
// `wrapping_pow`; a negative or 2^32-plus exponent gives 0 as the reference's.
fn int_pow(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (b.y != 0u) {
        return vec2<u32>(0u, 0u);
    }
    var result = vec2<u32>(1u, 0u);
    var base = a;
    var e = b.x;
    for (var k = 0u; k < 32u && e != 0u; k = k + 1u) {
        if ((e & 1u) == 1u) {
            result = i64_mul(result, base);
        }
        base = i64_mul(base, base);
        e = e >> 1u;
    }
    return result;
}
";

/// The WGSL `bool` of comparison `op` of int64 `a` and `b`.
fn compare_expr(op: CompareOp, a: &str, b: &str) -> String {
    match op {
        CompareOp::Eq => format!("i64_eq({a}, {b})"),
        CompareOp::Ne => format!("!i64_eq({a}, {b})"),
        CompareOp::Lt => format!("i64_lt({a}, {b})"),
        CompareOp::Le => format!("!i64_lt({b}, {a})"),
        CompareOp::Gt => format!("i64_lt({b}, {a})"),
        CompareOp::Ge => format!("!i64_lt({a}, {b})"),
    }
}

/// The opening every kernel here shares: the helpers and `params`.
fn header(extra: &str) -> String {
    format!(
        "{}{extra}@group(0) @binding(0) var<storage, read> params: array<u32>;\n",
        int64::LIB
    )
}

/// `out[i] = a op b`, broadcasting, all three of integer dtype `dtype`.
pub(super) fn binary(op: BinaryOp, dtype: DType) -> String {
    let t = storage(dtype);
    format!(
        "{}@group(0) @binding(1) var<storage, read> a: array<{t}>;
@group(0) @binding(2) var<storage, read> b: array<{t}>;
@group(0) @binding(3) var<storage, read_write> out: array<{t}>;
{}
{}
    out[i] = {};
}}
",
        header(BINARY_HELPERS),
        per_op_index(),
        mask::walk(&["ia", "ib"]),
        store(
            dtype,
            &binary_expr(op, &load(dtype, "a[ia]"), &load(dtype, "b[ib]"))
        )
    )
}

/// `out[i] = a[i] op s` (or `s op a[i]`), `s` the number as `as i64` makes it.
pub(super) fn binary_scalar(op: BinaryOp, scalar_on_left: bool, dtype: DType) -> String {
    let t = storage(dtype);
    let x = load(dtype, "a[i]");
    let value = if scalar_on_left {
        binary_expr(op, "s", &x)
    } else {
        binary_expr(op, &x, "s")
    };
    format!(
        "{}@group(0) @binding(1) var<storage, read> a: array<{t}>;
@group(0) @binding(2) var<storage, read_write> out: array<{t}>;
{}
    let s = vec2<u32>(params[{SCALAR}], params[{}]);
    out[i] = {};
}}
",
        header(BINARY_HELPERS),
        per_op_index(),
        SCALAR + 1,
        store(dtype, &value)
    )
}

/// `binary_scalar`: the count and the number, truncated as the reference's.
pub(super) fn binary_scalar_launch(out: &Shape, scalar: f64) -> Launch {
    let [lo, hi] = int64::words(scalar as i64);
    Launch {
        params: vec![out.numel() as u32, lo, hi],
        workgroups: elementwise_grid(out.numel()),
    }
}

/// `out[i] = f(a[i])` for the ops that keep integers (`UnaryOp::apply_i64`).
pub(super) fn unary(op: UnaryOp, dtype: DType) -> String {
    let t = storage(dtype);
    let value = match op {
        UnaryOp::Neg => "i64_neg(x)",
        UnaryOp::Abs => "i64_abs(x)",
        UnaryOp::Relu => "select(x, vec2<u32>(0u, 0u), i64_is_neg(x))",
        UnaryOp::Sign => {
            "select(select(vec2<u32>(1u, 0u), vec2<u32>(0u, 0u), i64_is_zero(x)), vec2<u32>(0xffffffffu, 0xffffffffu), i64_is_neg(x))"
        }
        _ => "x",
    };
    format!(
        "{}@group(0) @binding(1) var<storage, read> a: array<{t}>;
@group(0) @binding(2) var<storage, read_write> out: array<{t}>;
{}
    let x = {};
    out[i] = {};
}}
",
        header(""),
        per_op_index(),
        load(dtype, "a[i]"),
        store(dtype, value)
    )
}

/// `out[i] = a op b`, broadcasting, into a bool: integers (and bools)
/// compare exactly.
pub(super) fn compare(op: CompareOp, a: DType, b: DType) -> String {
    format!(
        "{}@group(0) @binding(1) var<storage, read> a: array<{}>;
@group(0) @binding(2) var<storage, read> b: array<{}>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
{}
{}
    out[i] = select(0u, 1u, {});
}}
",
        header(""),
        storage(a),
        storage(b),
        per_op_index(),
        mask::walk(&["ia", "ib"]),
        compare_expr(op, &load(a, "a[ia]"), &load(b, "b[ib]"))
    )
}

/// `out[i] = a[i] op s` for an integer tensor and a number, as a comparison
/// with an integer threshold (`compare_scalar_launch`).
pub(super) fn compare_scalar(op: CompareOp, dtype: DType) -> String {
    format!(
        "{}@group(0) @binding(1) var<storage, read> a: array<{}>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
{}
    let constant = params[{CONSTANT}];
    let t = vec2<u32>(params[{THRESHOLD}], params[{}]);
    out[i] = select(select(0u, 1u, {}), constant - 1u, constant != 0u);
}}
",
        header(""),
        storage(dtype),
        per_op_index(),
        THRESHOLD + 1,
        compare_expr(op, &load(dtype, "a[i]"), "t")
    )
}

/// An integer `x` compared with the number `s` is `x` compared with an
/// integer threshold under the same op (`x < 2.5` is `x < 3`, `x <= 2.5` is
/// `x <= 2`), or a constant (`x == 2.5` is false, and every comparison with
/// NaN or a number past int64's range). The reference compares in float64,
/// which agrees for integers up to 2^53.
fn threshold(op: CompareOp, s: f64) -> Result<i64, bool> {
    use CompareOp::*;
    if s.is_nan() {
        return Err(op == Ne);
    }
    let t = match op {
        Lt | Ge => s.ceil(),
        Le | Gt => s.floor(),
        Eq | Ne if s.fract() != 0.0 || s.is_infinite() => return Err(op == Ne),
        Eq | Ne => s,
    };
    // 2^63 is the first float past int64's range; -2^63 is its minimum.
    if t >= 9_223_372_036_854_775_808.0 {
        return Err(matches!(op, Lt | Le | Ne));
    }
    if t < -9_223_372_036_854_775_808.0 {
        return Err(matches!(op, Gt | Ge | Ne));
    }
    Ok(t as i64)
}

pub(super) fn compare_scalar_launch(op: CompareOp, scalar: f64, out: &Shape) -> Launch {
    let (constant, [lo, hi]) = match threshold(op, scalar) {
        Ok(t) => (0, int64::words(t)),
        Err(answer) => (1 + u32::from(answer), [0, 0]),
    };
    Launch {
        params: vec![out.numel() as u32, constant, lo, hi],
        workgroups: elementwise_grid(out.numel()),
    }
}

/// A cast between float32, bool, uint8, int32 and int64 with an integer on
/// at least one side (`mask::cast` does float32 and bool): `as` conversions
/// (a float to uint8 through int64, as the reference), a bool is whether the
/// value is nonzero.
pub(super) fn cast(from: DType, to: DType) -> String {
    let value = match (from, to) {
        (DType::Float32, DType::Int64) => "f32_to_i64(a[i])".to_string(),
        (DType::Float32, DType::Int32) => "f32_to_i32(a[i])".to_string(),
        (DType::Float32, DType::UInt8) => store(DType::UInt8, "f32_to_i64(a[i])"),
        (DType::Float32, _) => "a[i]".to_string(),
        _ => store(to, &load(from, "a[i]")),
    };
    format!(
        "{}@group(0) @binding(1) var<storage, read> a: array<{}>;
@group(0) @binding(2) var<storage, read_write> out: array<{}>;
{}
    out[i] = {value};
}}
",
        header(""),
        storage(from),
        storage(to),
        per_op_index(),
    )
}

/// A reduction of an integer (or bool) tensor along one axis, in int64 as
/// the reference's (`max`/`min` of bools are `any`/`all`), stored as `out`.
pub(super) fn reduce(op: ReduceOp, input: DType, out: DType) -> String {
    let (init, step) = match op {
        ReduceOp::Sum => ("vec2<u32>(0u, 0u)", "i64_add(acc, x)"),
        ReduceOp::Prod => ("vec2<u32>(1u, 0u)", "i64_mul(acc, x)"),
        ReduceOp::Max => ("x0", "select(acc, x, i64_lt(acc, x))"),
        _ => ("x0", "select(acc, x, i64_lt(x, acc))"),
    };
    format!(
        "{}@group(0) @binding(1) var<storage, read> a: array<{}>;
@group(0) @binding(2) var<storage, read_write> out: array<{}>;
{}
{}
    let x0 = {};
    var acc = {init};
    for (var j = 0u; j < n; j = j + 1u) {{
        let x = {};
        acc = {step};
    }}
    out[i] = {};
}}
",
        header(""),
        storage(input),
        storage(out),
        per_op_index(),
        super::axis::lane_start(),
        load(input, "a[base]"),
        load(input, "a[base + j * inner]"),
        store(out, "acc")
    )
}

/// `argmax`/`argmin` along one axis: the first position of the largest (or
/// smallest) value, a NaN counting as beyond every number (its first one).
pub(super) fn arg_reduce(op: ReduceOp, input: DType, out: DType) -> String {
    let better = match (op, input) {
        (ReduceOp::ArgMax, DType::Float32) => "is_nan(x) || x > best",
        (_, DType::Float32) => "is_nan(x) || x < best",
        (ReduceOp::ArgMax, _) => "i64_lt(best, x)",
        _ => "i64_lt(x, best)",
    };
    let (value, first) = if input == DType::Float32 {
        ("a[base + j * inner]".to_string(), "a[base]".to_string())
    } else {
        (load(input, "a[base + j * inner]"), load(input, "a[base]"))
    };
    let stuck = if input == DType::Float32 {
        "is_nan(best)"
    } else {
        "false"
    };
    format!(
        "{}{}@group(0) @binding(1) var<storage, read> a: array<{}>;
@group(0) @binding(2) var<storage, read_write> out: array<{}>;
{}
{}
    var best = {first};
    var at = 0u;
    for (var j = 1u; j < n; j = j + 1u) {{
        let x = {value};
        if (!({stuck}) && ({better})) {{
            best = x;
            at = j;
        }}
    }}
    out[i] = {};
}}
",
        header(""),
        expr::compare_helpers(),
        storage(input),
        storage(out),
        per_op_index(),
        super::axis::lane_start(),
        store(out, "vec2<u32>(at, 0u)")
    )
}

/// Running sums of an integer tensor along one axis, in int64.
pub(super) fn cumsum(reverse: bool, input: DType, out: DType) -> String {
    let index = if reverse { "n - 1u - j" } else { "j" };
    format!(
        "{}@group(0) @binding(1) var<storage, read> a: array<{}>;
@group(0) @binding(2) var<storage, read_write> out: array<{}>;
{}
{}
    var acc = vec2<u32>(0u, 0u);
    for (var j = 0u; j < n; j = j + 1u) {{
        let p = base + ({index}) * inner;
        acc = i64_add(acc, {});
        out[p] = {};
    }}
}}
",
        header(""),
        storage(input),
        storage(out),
        per_op_index(),
        super::axis::lane_start(),
        load(input, "a[p]"),
        store(out, "acc")
    )
}

/// The sum of every element of an integer or bool tensor, in one workgroup
/// (int64 sums are exact in any order).
pub(super) fn sum_all(input: DType, out: DType) -> String {
    let half = WORKGROUP_SIZE / 2;
    format!(
        "{}@group(0) @binding(1) var<storage, read> a: array<{}>;
@group(0) @binding(2) var<storage, read_write> out: array<{}>;

var<workgroup> partial: array<vec2<u32>, {WORKGROUP_SIZE}>;

@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(local_invocation_index) lid: u32) {{
    let n = params[{COUNT}];
    var acc = vec2<u32>(0u, 0u);
    for (var i = lid; i < n; i = i + {WORKGROUP_SIZE}u) {{
        acc = i64_add(acc, {});
    }}
    partial[lid] = acc;
    workgroupBarrier();
    for (var stride = {half}u; stride > 0u; stride = stride / 2u) {{
        if (lid < stride) {{
            partial[lid] = i64_add(partial[lid], partial[lid + stride]);
        }}
        workgroupBarrier();
    }}
    if (lid == 0u) {{
        out[0] = {};
    }}
}}
",
        header(""),
        storage(input),
        storage(out),
        load(input, "a[i]"),
        store(out, "partial[0]")
    )
}

/// Refuses what these kernels do not compute: the reference's float
/// reductions of bools (`sum` of a bool tensor reaches here cast to int64).
pub(super) fn check_reduce(op: ReduceOp, input: DType) -> Result<(), BackendError> {
    if input == DType::Bool && matches!(op, ReduceOp::Sum | ReduceOp::Prod) {
        return Err(BackendError::Unsupported {
            backend: "wgpu",
            what: format!("{} of torch.bool tensors", op.name()),
        });
    }
    Ok(())
}
