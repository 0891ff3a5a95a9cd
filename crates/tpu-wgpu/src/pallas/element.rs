//! The WGSL for one element of a block operation: the value `element` writes
//! at flat element `e`, the loop `prologue` that a reduction or a dot needs
//! first, and the `position` of a window's element in a ref's buffer. The
//! shader's frame (grid, memory, barriers) is the parent module's; this is
//! the per-element arithmetic, a seam of its own because a new block
//! operation's value is written here.

use super::{DOT_UNROLL, Gen, unsupported};
use crate::kernels::expr;
use tpu_ir::{BlockOp, CompareOp, Inst, Shape, Window};
use tpu_runtime::BackendError;

impl Gen<'_> {
    /// Statements computing what `element` reads (a reduction's or a dot's
    /// loop), indented by `pad`.
    pub(super) fn prologue(&self, inst: &Inst, pad: &str) -> Result<String, BackendError> {
        Ok(match &inst.op {
            BlockOp::Reduce { op, a, axes, .. } => {
                let shape = &self.shape[*a];
                let strides = Shape::new(shape.clone()).strides();
                let kept: Vec<usize> = (0..shape.len()).filter(|d| !axes.contains(d)).collect();
                let kept_dims: Vec<usize> = kept.iter().map(|&d| shape[d]).collect();
                let red_dims: Vec<usize> = axes.iter().map(|&d| shape[d]).collect();
                let start = decompose(
                    "e",
                    &kept_dims,
                    &kept.iter().map(|&d| strides[d]).collect::<Vec<_>>(),
                );
                let step = decompose(
                    "t",
                    &red_dims,
                    &axes.iter().map(|&d| strides[d]).collect::<Vec<_>>(),
                );
                let count: usize = red_dims.iter().product();
                let x = self.read(*a, "(at + off)");
                let fold = expr::reduce_step(*op);
                let first = match expr::reduce_start(*op) {
                    Some(init) => format!(
                        "{pad}var acc = {init};\n{pad}for (var t = 0u; t < {count}u; t = t + 1u) {{\n"
                    ),
                    None => format!(
                        "{pad}var acc = {};\n{pad}for (var t = 1u; t < {count}u; t = t + 1u) {{\n",
                        self.read(*a, "at")
                    ),
                };
                format!(
                    "{pad}let at = {start};\n{first}{pad}    let off = {step};\n{pad}    let x = {x};\n{pad}    acc = {fold};\n{pad}}}\n"
                )
            }
            BlockOp::Dot { a, b } => {
                // Four products per iteration, in order: lavapipe counts
                // every loop iteration of an invocation against one cap.
                let (k, n) = (self.shape[*a][1], inst.shape[1]);
                let term = |t: &str| {
                    format!(
                        "acc = acc + {} * {};",
                        self.read(*a, &format!("(i * {k}u + {t})")),
                        self.read(*b, &format!("({t} * {n}u + j)"))
                    )
                };
                let whole = k / DOT_UNROLL * DOT_UNROLL;
                let mut text = format!(
                    "{pad}let i = e / {n}u;\n{pad}let j = e % {n}u;\n{pad}var acc = 0.0;\n{pad}for (var t = 0u; t < {whole}u; t = t + {DOT_UNROLL}u) {{\n"
                );
                for u in 0..DOT_UNROLL {
                    text.push_str(&format!("{pad}    {}\n", term(&format!("(t + {u}u)"))));
                }
                text.push_str(&format!("{pad}}}\n"));
                for t in whole..k {
                    text.push_str(&format!("{pad}{}\n", term(&format!("{t}u"))));
                }
                text
            }
            _ => String::new(),
        })
    }

    /// The value of `inst` at element `e`.
    pub(super) fn element(&self, inst: &Inst) -> Result<String, BackendError> {
        Ok(match &inst.op {
            BlockOp::Load { r, window } => {
                let (position, inside) = self.position(*r, window, "e");
                if *r >= self.kernel.inputs {
                    format!(
                        "out[{}u + {position}]",
                        self.out_offsets[*r - self.kernel.inputs]
                    )
                } else {
                    format!("select(nan(), in{r}[{position}], {inside})")
                }
            }
            BlockOp::Binary { op, a, b } => {
                expr::binary(*op, &self.read(*a, "e"), &self.read(*b, "e"))
            }
            BlockOp::Unary { op, a } => format!("unary_{}({})", op.name(), self.read(*a, "e")),
            BlockOp::Compare { op, a, b } => {
                let (x, y) = (self.read(*a, "e"), self.read(*b, "e"));
                let test = match op {
                    CompareOp::Eq => "==",
                    CompareOp::Ne => "!=",
                    CompareOp::Lt => "<",
                    CompareOp::Le => "<=",
                    CompareOp::Gt => ">",
                    CompareOp::Ge => ">=",
                };
                match op {
                    CompareOp::Ne => {
                        format!("select(0.0, 1.0, is_nan({x}) || is_nan({y}) || {x} != {y})")
                    }
                    _ => {
                        format!("select(0.0, 1.0, !is_nan({x}) && !is_nan({y}) && {x} {test} {y})")
                    }
                }
            }
            BlockOp::Where { cond, a, b } => format!(
                "select({}, {}, {} != 0.0)",
                self.read(*b, "e"),
                self.read(*a, "e"),
                self.read(*cond, "e")
            ),
            BlockOp::Reduce { .. } | BlockOp::Dot { .. } => "acc".into(),
            BlockOp::Cast { a } | BlockOp::Reshape { a } => self.read(*a, "e"),
            BlockOp::Broadcast { a } => {
                let from = Shape::new(self.shape[*a].clone());
                let strides = from.broadcast_strides(&Shape::new(inst.shape.clone()));
                let at = decompose("e", &inst.shape, &strides);
                self.read(*a, &format!("({at})"))
            }
            BlockOp::Transpose { a } => {
                let rows = inst.shape[1];
                let cols = inst.shape[0];
                self.read(*a, &format!("((e % {rows}u) * {cols}u + e / {rows}u)"))
            }
            BlockOp::Const { .. }
            | BlockOp::ProgramId { .. }
            | BlockOp::Store { .. }
            | BlockOp::When { .. } => {
                return Err(unsupported("a block operation without a value".into()));
            }
        })
    }

    /// The flat position of a window's element `at` in ref `r`'s buffer (an
    /// input's real array, an output's padded one), and for an input the
    /// WGSL test that it lies inside the array.
    pub(super) fn position(&self, r: usize, window: &[Window], at: &str) -> (String, String) {
        let re = &self.kernel.refs[r];
        let extent = if r >= self.kernel.inputs {
            re.padded_shape()
        } else {
            re.shape.clone()
        };
        let strides = Shape::new(extent.clone()).strides();
        // The window's kept dims, row-major: each array dim's local coordinate.
        let mut windows = window.iter();
        let mut kept = Vec::new();
        let mut coords = Vec::new();
        for d in 0..re.shape.len() {
            let (start, keep) = if re.squeezed[d] {
                (0, None)
            } else {
                let w = windows.next().copied().unwrap_or(Window {
                    start: 0,
                    size: re.block[d],
                    drop: false,
                });
                (w.start, (!w.drop).then_some(w.size))
            };
            coords.push((d, start, keep));
            if let Some(size) = keep {
                kept.push(size);
            }
        }
        let kept_strides = Shape::new(kept.clone()).strides();
        let mut k = 0;
        let mut terms = Vec::new();
        let mut inside = Vec::new();
        for (d, start, keep) in coords {
            let local = match keep {
                Some(size) => {
                    let c = format!("(({at} / {}u) % {size}u)", kept_strides[k]);
                    k += 1;
                    c
                }
                None => "0u".into(),
            };
            let c = format!("(bs{r}_{d} + {start}u + {local})");
            inside.push(format!("{c} < {}u", extent[d]));
            terms.push(format!("{c} * {}u", strides[d]));
        }
        if terms.is_empty() {
            return ("0u".into(), "true".into());
        }
        (terms.join(" + "), inside.join(" && "))
    }
}

/// The flat offset, through `strides`, of row-major element `at` of `dims`.
fn decompose(at: &str, dims: &[usize], strides: &[usize]) -> String {
    let row = Shape::new(dims.to_vec()).strides();
    let terms: Vec<String> = (0..dims.len())
        .filter(|&d| strides[d] != 0 && dims[d] > 1)
        .map(|d| format!("(({at} / {}u) % {}u) * {}u", row[d], dims[d], strides[d]))
        .collect();
    if terms.is_empty() {
        "0u".into()
    } else {
        terms.join(" + ")
    }
}
