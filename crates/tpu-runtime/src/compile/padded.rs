//! Bounded dynamic shapes: a dynamic compile's graph run padded to a bound.
//!
//! A compile whose sizes are dynamic (`dynamic=True`, or Dynamo's automatic
//! dynamic after a size changed) serves calls of many sizes. Run at each
//! call's own sizes, every new size is a new set of kernels: the compilation
//! cache keys on shapes, as XLA's does. Here each dynamic size is instead
//! padded up to a bound (the next power of two at or above twice the size
//! first seen), so that every size under the bound runs the same kernels.
//!
//! The runtime sees concrete sizes only, so a graph's sizes are fitted to the
//! call's dynamic sizes from two captures of different sizes: each size of
//! the graph that changed is `a * s + b` for one dynamic size `s` (a
//! sequence length, `2 * s`, `s - 1`, `heads * s`). Every later call checks
//! the fit against its own capture (the function runs each call: its
//! structure and every size must be what the fit predicts), and a call that
//! breaks it runs at its own sizes and fits again.
//!
//! Padding changes what some ops compute, and those ops are masked: a
//! reduction over a padded axis reads its identity there (`0` for a sum,
//! `-inf` for a max, so softmax is right), a matrix product whose
//! contraction is padded reads zeros there on both sides, a reversed running
//! sum reads zeros, an index read at padded positions is `0`. Elementwise
//! ops compute garbage at padded positions, which nothing valid reads.
//! Graph inputs are padded by repeating their last row (finite garbage).
//!
//! The padded graph replaces the call's captured ops before they run: each
//! value a tensor still holds (the results, what autograd saved) becomes a
//! slice of its padded value, and the exact-size ops die unlaunched. What
//! cannot be padded safely (a reshape that merges a dynamic size with the
//! sizes before it, a strided view that crosses one, an index into a value
//! whose inner sizes are dynamic, random draws, `linspace` of a dynamic
//! length) leaves the call at its own sizes, with the reason in the Report.

use super::{Capture, Event, Key, Node};
use crate::RuntimeError;
use crate::data::HostData;
use crate::tensor::{Device, Home, Layout, Tensor};
use std::collections::HashMap;
use tpu_ir::{BinaryOp, DType, Op, ReduceOp, Shape};

/// A size of a captured graph as a function of the call's dynamic sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dim {
    Static(usize),
    /// `a * s[k] + b`, with `a > 0`.
    Sym {
        k: usize,
        a: usize,
        b: i64,
    },
}

impl Dim {
    fn at(self, s: &[usize]) -> usize {
        match self {
            Dim::Static(n) => n,
            Dim::Sym { k, a, b } => (a as i64 * s[k] as i64 + b).max(0) as usize,
        }
    }

    fn is_dynamic(self) -> bool {
        matches!(self, Dim::Sym { .. })
    }
}

/// A value of a capture: a graph input (by its id) or the result of node `j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Input(u64),
    Node(usize),
}

/// One capture as padding compares captures: its values numbered in order of
/// appearance, each with its natural shape, and its nodes' reads of them.
#[derive(Clone)]
pub(crate) struct Shaped {
    sizes: Vec<(String, i64)>,
    values: Vec<Value>,
    natural: Vec<Vec<usize>>,
    nodes: Vec<Node>,
    /// Per node, the value index of each operand.
    refs: Vec<Vec<usize>>,
    /// Per node, what must match across calls: the op without its numbers.
    signature: Vec<String>,
    /// Per node, the index of its value.
    node_value: Vec<usize>,
}

/// A fitted capture: each size as a function of the dynamic sizes.
struct Template {
    refs: Vec<Vec<usize>>,
    signature: Vec<String>,
    values: Vec<bool>,
    natural: Vec<Vec<Dim>>,
    reads: Vec<Vec<Vec<Dim>>>,
}

#[derive(Default)]
pub(crate) struct PadState {
    /// Each function's latest capture, to fit the next call's against.
    last: HashMap<usize, Shaped>,
    /// Each dynamic compile's fit and the bounds its dynamic sizes are
    /// padded to.
    fitted: HashMap<(usize, usize), (Template, Vec<usize>)>,
    /// Masks, fill values and padding indices, uploaded once each.
    constants: HashMap<String, Tensor>,
}

/// The op with the numbers a call may change (scalars, offsets) left out.
fn signature(op: &Op) -> String {
    match op {
        Op::Fill { .. } => "fill".into(),
        Op::BinaryScalar {
            op, scalar_on_left, ..
        } => format!("scalar {} {scalar_on_left}", op.name()),
        Op::CompareScalar { op, .. } => format!("compare_scalar {}", op.name()),
        Op::Strided { strides, .. } => format!("strided {}", strides.len()),
        Op::Arange { .. } => "arange".into(),
        Op::Linspace { .. } => "linspace".into(),
        other => format!("{other:?}"),
    }
}

impl Shaped {
    /// `capture` as padding sees it, if it can be padded at all: one graph,
    /// on the accelerator, all of it still pending (`pending` ops).
    pub(crate) fn of(capture: &Capture, pending: usize) -> Result<Shaped, String> {
        let mut nodes = Vec::new();
        for e in &capture.events {
            match e {
                Event::Op(n) => nodes.push(n.clone()),
                Event::Break { .. } => return Err("the call breaks the graph".into()),
            }
        }
        if nodes.len() != pending {
            return Err(
                "part of the graph ran before it ended (the runtime read one of its values, or it has more ops than a plan holds)"
                    .into(),
            );
        }
        let homes: HashMap<u64, Key> = capture.ids.iter().map(|(k, v)| (*v, *k)).collect();
        if nodes
            .iter()
            .any(|n| homes.get(&n.out).is_none_or(|k| k.0 != Home::Accelerator))
        {
            return Err("part of the graph runs on the host".into());
        }
        let mut index: HashMap<u64, usize> = HashMap::new();
        let mut values = Vec::new();
        let mut natural: Vec<Vec<usize>> = Vec::new();
        let mut refs = Vec::with_capacity(nodes.len());
        let mut node_value = Vec::with_capacity(nodes.len());
        for (j, n) in nodes.iter().enumerate() {
            let mut r = Vec::with_capacity(n.inputs.len());
            for (id, shape, _) in &n.inputs {
                let v = *index.entry(*id).or_insert_with(|| {
                    values.push(Value::Input(*id));
                    natural.push(shape.dims().to_vec());
                    values.len() - 1
                });
                // A graph input's natural shape: the first of the shapes
                // it is read as with the most dimensions (a view reads it
                // flat, a linear layer merges its leading sizes).
                if matches!(values[v], Value::Input(_)) && natural[v].len() < shape.dims().len() {
                    natural[v] = shape.dims().to_vec();
                }
                r.push(v);
            }
            refs.push(r);
            values.push(Value::Node(j));
            node_value.push(values.len() - 1);
            natural.push(n.out_shape.dims().to_vec());
            index.insert(n.out, values.len() - 1);
        }
        Ok(Shaped {
            sizes: capture.sizes.clone(),
            values,
            natural,
            signature: nodes.iter().map(|n| signature(&n.op)).collect(),
            nodes,
            refs,
            node_value,
        })
    }

    fn same_structure(&self, refs: &[Vec<usize>], signature: &[String], values: &[bool]) -> bool {
        self.refs == refs
            && self.signature == signature
            && self.values.len() == values.len()
            && self
                .values
                .iter()
                .zip(values)
                .all(|(v, &input)| matches!(v, Value::Input(_)) == input)
    }

    /// The values of the dynamic sizes `names` in this call.
    fn symbols(&self, names: &[String]) -> Result<Vec<usize>, String> {
        names
            .iter()
            .map(|n| {
                self.sizes
                    .iter()
                    .find(|(m, _)| m == n)
                    .map(|&(_, v)| v.max(0) as usize)
                    .ok_or_else(|| format!("the dynamic size {n} is not an argument's size"))
            })
            .collect()
    }
}

/// `d1` at dynamic sizes `s1` and `d2` at `s2` as one size: static, or
/// `a * s + b` for the dynamic size that explains it best (`b = 0` first).
fn fit_dim(d1: usize, d2: usize, s1: &[usize], s2: &[usize]) -> Result<Dim, String> {
    if d1 == d2 {
        return Ok(Dim::Static(d1));
    }
    let mut best: Option<Dim> = None;
    for k in 0..s1.len() {
        let ds = s2[k] as i64 - s1[k] as i64;
        let dd = d2 as i64 - d1 as i64;
        if ds == 0 || dd % ds != 0 || dd / ds <= 0 {
            continue;
        }
        let a = dd / ds;
        let b = d1 as i64 - a * s1[k] as i64;
        let better = match best {
            None => true,
            Some(Dim::Sym { a: a0, b: b0, .. }) => (b.abs(), a) < (b0.abs(), a0 as i64),
            Some(Dim::Static(_)) => false,
        };
        if better {
            best = Some(Dim::Sym {
                k,
                a: a as usize,
                b,
            });
        }
    }
    best.ok_or_else(|| format!("a size changed from {d1} to {d2}, which no dynamic size explains"))
}

fn fit_dims(d1: &[usize], d2: &[usize], s1: &[usize], s2: &[usize]) -> Result<Vec<Dim>, String> {
    if d1.len() != d2.len() {
        return Err("a value changed rank".into());
    }
    d1.iter()
        .zip(d2)
        .map(|(&a, &b)| fit_dim(a, b, s1, s2))
        .collect()
}

fn holds(dims: &[Dim], exact: &[usize], s: &[usize]) -> bool {
    dims.len() == exact.len() && dims.iter().zip(exact).all(|(d, &e)| d.at(s) == e)
}

impl Template {
    /// The sizes of `cur` (at dynamic sizes `s2`) fitted against `prev`'s.
    fn fit(prev: &Shaped, s1: &[usize], cur: &Shaped, s2: &[usize]) -> Result<Template, String> {
        let inputs: Vec<bool> = prev
            .values
            .iter()
            .map(|v| matches!(v, Value::Input(_)))
            .collect();
        if !cur.same_structure(&prev.refs, &prev.signature, &inputs) {
            return Err("the graph differs from the previous call's".into());
        }
        let natural = prev
            .natural
            .iter()
            .zip(&cur.natural)
            .map(|(a, b)| fit_dims(a, b, s1, s2))
            .collect::<Result<Vec<_>, _>>()?;
        let mut reads = Vec::with_capacity(cur.nodes.len());
        for (p, c) in prev.nodes.iter().zip(&cur.nodes) {
            reads.push(
                p.inputs
                    .iter()
                    .zip(&c.inputs)
                    .map(|(a, b)| fit_dims(a.1.dims(), b.1.dims(), s1, s2))
                    .collect::<Result<Vec<_>, _>>()?,
            );
        }
        Ok(Template {
            refs: prev.refs.clone(),
            signature: prev.signature.clone(),
            values: inputs,
            natural,
            reads,
        })
    }

    /// Keeps each size `old` fitted as dynamic that this fit found static
    /// (its dynamic size did not change), where it still holds for `cur`.
    fn keep_dynamic(&mut self, old: &Template, cur: &Shaped, s: &[usize]) {
        if !cur.same_structure(&old.refs, &old.signature, &old.values) {
            return;
        }
        let merge = |new: &mut [Dim], old: &[Dim], exact: &[usize]| {
            for ((n, o), &e) in new.iter_mut().zip(old).zip(exact) {
                if !n.is_dynamic() && o.is_dynamic() && o.at(s) == e {
                    *n = *o;
                }
            }
        };
        for ((n, o), e) in self.natural.iter_mut().zip(&old.natural).zip(&cur.natural) {
            merge(n, o, e);
        }
        for ((n, o), node) in self.reads.iter_mut().zip(&old.reads).zip(&cur.nodes) {
            for ((nd, od), input) in n.iter_mut().zip(o).zip(&node.inputs) {
                merge(nd, od, input.1.dims());
            }
        }
    }

    /// Whether any size of the graph depends on a dynamic size.
    fn is_dynamic(&self) -> bool {
        self.natural
            .iter()
            .chain(self.reads.iter().flatten())
            .flatten()
            .any(|d| d.is_dynamic())
    }

    /// The dynamic sizes some size of the graph depends on.
    fn used(&self) -> Vec<bool> {
        let mut used = Vec::new();
        for d in self
            .natural
            .iter()
            .chain(self.reads.iter().flatten())
            .flatten()
        {
            if let Dim::Sym { k, .. } = d {
                if used.len() <= *k {
                    used.resize(k + 1, false);
                }
                used[*k] = true;
            }
        }
        used
    }

    /// Whether `cur`, at dynamic sizes `s`, is what the fit predicts.
    fn holds_for(&self, cur: &Shaped, s: &[usize]) -> bool {
        cur.same_structure(&self.refs, &self.signature, &self.values)
            && self
                .natural
                .iter()
                .zip(&cur.natural)
                .all(|(d, e)| holds(d, e, s))
            && self.reads.iter().zip(&cur.nodes).all(|(r, n)| {
                r.iter()
                    .zip(&n.inputs)
                    .all(|(d, (_, shape, _))| holds(d, shape.dims(), s))
            })
    }
}

/// The bound a dynamic size `s` is padded to: room to double.
fn bound_for(s: usize) -> usize {
    (2 * s).next_power_of_two()
}

fn row_major(dims: &[usize]) -> Vec<usize> {
    Shape::new(dims.to_vec()).strides()
}

/// `x` as a multi-index over `dims` (row-major), if it lies inside.
fn digits(x: usize, dims: &[usize]) -> Option<Vec<usize>> {
    let numel: usize = dims.iter().product();
    if x >= numel.max(1) {
        return None;
    }
    let mut out = vec![0; dims.len()];
    let mut rest = x;
    for (d, &n) in dims.iter().enumerate().rev() {
        out[d] = rest % n.max(1);
        rest /= n.max(1);
    }
    Some(out)
}

/// A dimension as the sizes it was made of. A reshape that merges sizes
/// keeps them apart, so that a dynamic size inside a merge is still known: a
/// linear layer reads a `[b, s, d]` activation as `[b * s, d]`, whose rows
/// at padded positions are every `s`-th block, not a tail.
type Factors = Vec<Dim>;

fn product(f: &[Dim], at: &[usize]) -> usize {
    f.iter().map(|d| d.at(at)).product()
}

/// The factors `flat` regrouped into the dimensions `target` (a read's
/// fitted sizes), splitting a factor where the read splits it; none when
/// the read would move valid elements (a dynamic size split other than at
/// its lead).
fn regroup(flat: &[Dim], target: &[Dim], s: &[usize], bounds: &[usize]) -> Option<Vec<Factors>> {
    let mut queue: std::collections::VecDeque<Dim> = flat
        .iter()
        .filter(|d| **d != Dim::Static(1))
        .copied()
        .collect();
    let mut out = Vec::with_capacity(target.len());
    for &t in target {
        let want = t.at(bounds);
        let mut got: Factors = Vec::new();
        let mut have = 1usize;
        while have < want {
            let f = queue.pop_front()?;
            let pf = f.at(bounds);
            if want % (have * pf) == 0 {
                got.push(f);
                have *= pf;
                continue;
            }
            if want % have != 0 {
                return None;
            }
            // The factor is split: the part this dimension takes leads.
            let need = want / have;
            if pf % need != 0 {
                return None;
            }
            let rest = pf / need;
            let (lead, tail) = match f {
                Dim::Static(n) => (Dim::Static(n / rest), Dim::Static(rest)),
                Dim::Sym { k, a, b: 0 } if a % rest == 0 => (
                    Dim::Sym {
                        k,
                        a: a / rest,
                        b: 0,
                    },
                    Dim::Static(rest),
                ),
                _ => return None,
            };
            got.push(lead);
            have *= lead.at(bounds);
            queue.push_front(tail);
        }
        if have != want
            || product(&got, s) != t.at(s)
            || got.iter().any(|d| d.is_dynamic()) != t.is_dynamic()
        {
            return None;
        }
        if got.is_empty() {
            got.push(Dim::Static(1));
        }
        out.push(got);
    }
    queue.is_empty().then_some(out)
}

/// An operand of a padded op: slot `slot` read as `shape` (padded).
#[derive(Clone, Debug)]
struct Read {
    slot: usize,
    shape: Vec<usize>,
}

/// One op of the padded run, writing slot `out`.
#[derive(Debug)]
enum Step {
    /// A graph input padded by repeating its last row: a gather at `index`.
    Pad {
        input: usize,
        exact: Vec<usize>,
        padded: Vec<usize>,
    },
    /// `where(position < valid along axis, operand, fill)`, for node `node`.
    Mask {
        node: usize,
        operand: Read,
        axis: usize,
        /// The factors of the axis, padded and valid: a position is valid
        /// when each of its factors' is.
        padded: Vec<usize>,
        valid: Vec<usize>,
        fill: f64,
        dtype: DType,
        out: usize,
    },
    /// Node `node`'s op at padded sizes.
    Op {
        node: usize,
        op: Op,
        operands: Vec<Read>,
        shape: Vec<usize>,
    },
}

/// The identity of `op` in `dtype`: what a padded position reads.
fn identity(op: ReduceOp, dtype: DType) -> f64 {
    let low = match op {
        ReduceOp::Sum => return 0.0,
        ReduceOp::Prod => return 1.0,
        ReduceOp::Max | ReduceOp::ArgMax => true,
        ReduceOp::Min | ReduceOp::ArgMin => false,
    };
    match (dtype, low) {
        (DType::Bool, low) => f64::from(u8::from(!low)),
        (DType::Int32, true) => i32::MIN as f64,
        (DType::Int32, false) => i32::MAX as f64,
        (DType::Int64, true) => i64::MIN as f64,
        (DType::Int64, false) => i64::MAX as f64,
        (_, true) => f64::NEG_INFINITY,
        (_, false) => f64::INFINITY,
    }
}

/// A one-element constant of `dtype`, exactly (`filled` would round an
/// int64 extreme through a float).
fn constant(dtype: DType, value: f64) -> HostData {
    match dtype {
        DType::Int64 if value <= i64::MIN as f64 => HostData::I64(vec![i64::MIN]),
        DType::Int64 if value >= i64::MAX as f64 => HostData::I64(vec![i64::MAX]),
        DType::Int64 => HostData::I64(vec![value as i64]),
        _ => HostData::filled(dtype, 1, value),
    }
}

/// `values` in `dtype`, exactly (int64 extremes included).
fn constants(dtype: DType, values: &[f64]) -> HostData {
    match dtype {
        DType::Int64 => HostData::I64(
            values
                .iter()
                .map(|&v| match constant(DType::Int64, v) {
                    HostData::I64(x) => x[0],
                    _ => 0,
                })
                .collect(),
        ),
        _ => HostData::F64(values.to_vec()).cast(dtype),
    }
}

/// The plan of a padded run: its steps, and for each value its slot.
struct Plan {
    steps: Vec<Step>,
    /// Slot count: one per value, then the masks'.
    slots: usize,
    /// Each value's padded natural sizes.
    padded: Vec<Vec<usize>>,
    /// Elements the padded values hold, and the exact sizes'.
    padded_elements: u64,
    exact_elements: u64,
}

struct Planner<'a> {
    cur: &'a Shaped,
    t: &'a Template,
    s: &'a [usize],
    bounds: &'a [usize],
    steps: Vec<Step>,
    slots: usize,
    /// Each value's dimensions as factors, once planned.
    factors: Vec<Vec<Factors>>,
}

const MOVES: &str =
    "a reshape moves a dynamic size (the padded layout would not keep the valid elements in place)";

impl Planner<'_> {
    fn pad(&self, dims: &[Dim]) -> Vec<usize> {
        dims.iter().map(|d| d.at(self.bounds)).collect()
    }

    fn flat(&self, v: usize) -> Vec<Dim> {
        self.factors[v].iter().flatten().copied().collect()
    }

    /// Node `j`'s operand `r`, read as the node reads it, with the factors
    /// of each dimension of the read.
    fn read(&self, j: usize, r: usize) -> Result<(Read, Vec<Factors>), String> {
        let v = self.t.refs[j][r];
        let dims = &self.t.reads[j][r];
        let factors = regroup(&self.flat(v), dims, self.s, self.bounds).ok_or_else(|| {
            format!(
                "{} reads a {:?} value as {:?}: {MOVES}",
                self.cur.nodes[j].op.aten_name(),
                self.cur.natural[v],
                self.cur.nodes[j].inputs[r].1.dims()
            )
        })?;
        Ok((
            Read {
                slot: v,
                shape: self.pad(dims),
            },
            factors,
        ))
    }

    /// Node `node`'s `operand` masked along each dynamic axis in `axes` to
    /// `fill`.
    fn mask(
        &mut self,
        node: usize,
        (mut operand, factors): (Read, Vec<Factors>),
        axes: &[usize],
        fill: f64,
        dtype: DType,
    ) -> Read {
        for &axis in axes {
            if !factors[axis].iter().any(|d| d.is_dynamic()) {
                continue;
            }
            let out = self.slots;
            self.slots += 1;
            self.steps.push(Step::Mask {
                node,
                operand: operand.clone(),
                axis,
                padded: factors[axis].iter().map(|d| d.at(self.bounds)).collect(),
                valid: factors[axis].iter().map(|d| d.at(self.s)).collect(),
                fill,
                dtype,
                out,
            });
            operand = Read {
                slot: out,
                shape: operand.shape,
            };
        }
        operand
    }

    /// Whether the only dynamic factor of value `v` is its first (its valid
    /// elements then keep their flat positions when padded).
    fn flat_positions_kept(&self, v: usize) -> bool {
        let flat: Vec<Dim> = self
            .flat(v)
            .into_iter()
            .filter(|d| *d != Dim::Static(1))
            .collect();
        flat.iter().skip(1).all(|d| !d.is_dynamic())
    }

    /// The factors of an elementwise op's result: each dimension's from the
    /// operands that do not broadcast it, which must agree.
    fn broadcast(out: &[Dim], reads: &[Vec<Factors>]) -> Result<Vec<Factors>, String> {
        let mut factors = Vec::with_capacity(out.len());
        for (d, &o) in out.iter().enumerate() {
            let mut chosen: Option<&Factors> = None;
            for r in reads {
                let Some(at) = (d + r.len()).checked_sub(out.len()) else {
                    continue;
                };
                if r[at] == [Dim::Static(1)] && o != Dim::Static(1) {
                    continue;
                }
                match chosen {
                    Some(c) if c != &r[at] => {
                        return Err(
                            "an elementwise op mixes a dynamic size with another size".into()
                        );
                    }
                    _ => chosen = Some(&r[at]),
                }
            }
            factors.push(chosen.cloned().unwrap_or_else(|| vec![o]));
        }
        Ok(factors)
    }

    /// The steps of node `j`; returns the factors of its result.
    fn node(&mut self, j: usize) -> Result<Vec<Factors>, String> {
        let node = &self.cur.nodes[j];
        let out = self.t.natural[self.cur.node_value[j]].clone();
        let dtypes: Vec<DType> = node.inputs.iter().map(|i| i.2).collect();
        let mut op = node.op.clone();
        let mut operands = Vec::with_capacity(node.inputs.len());
        let single = || out.iter().map(|&d| vec![d]).collect::<Vec<Factors>>();
        let factors = match &node.op {
            Op::Binary { .. }
            | Op::BinaryScalar { .. }
            | Op::Unary { .. }
            | Op::Compare { .. }
            | Op::CompareScalar { .. }
            | Op::Cast { .. }
            | Op::Where => {
                let mut reads = Vec::new();
                for r in 0..node.inputs.len() {
                    let (read, f) = self.read(j, r)?;
                    operands.push(read);
                    reads.push(f);
                }
                Self::broadcast(&out, &reads)?
            }
            Op::Fill { .. } | Op::Arange { .. } | Op::Eye => single(),
            Op::Linspace { .. } => {
                if out.iter().any(|d| d.is_dynamic()) {
                    return Err("linspace of a dynamic length".into());
                }
                single()
            }
            Op::MatMul {
                transpose_a,
                transpose_b,
            } => {
                let a = self.read(j, 0)?;
                let b = self.read(j, 1)?;
                let (fa, fb) = (a.1.clone(), b.1.clone());
                let ka = if *transpose_a {
                    fa.len() - 2
                } else {
                    fa.len() - 1
                };
                let kb = if *transpose_b {
                    fb.len() - 1
                } else {
                    fb.len() - 2
                };
                let ma = if *transpose_a {
                    fa.len() - 1
                } else {
                    fa.len() - 2
                };
                let nb = if *transpose_b {
                    fb.len() - 2
                } else {
                    fb.len() - 1
                };
                let mut factors = Vec::new();
                if fa.len() == 3 {
                    factors.push(fa[0].clone());
                }
                factors.extend([fa[ma].clone(), fb[nb].clone()]);
                if fa[ka] != fb[kb] || (fa.len() == 3 && fb.len() == 3 && fa[0] != fb[0]) {
                    return Err("a matrix product's sizes do not fit their dynamic sizes".into());
                }
                operands.push(self.mask(j, a, &[ka], 0.0, dtypes[0]));
                operands.push(self.mask(j, b, &[kb], 0.0, dtypes[1]));
                factors
            }
            Op::Reduce { op: r, axis } => {
                let input = self.read(j, 0)?;
                let mut factors = input.1.clone();
                factors[*axis] = vec![Dim::Static(1)];
                operands.push(self.mask(j, input, &[*axis], identity(*r, dtypes[0]), dtypes[0]));
                factors
            }
            Op::SumAll => {
                let input = self.read(j, 0)?;
                let axes: Vec<usize> = (0..input.1.len()).collect();
                operands.push(self.mask(j, input, &axes, 0.0, dtypes[0]));
                Vec::new()
            }
            Op::Cumsum { axis, reverse } => {
                let input = self.read(j, 0)?;
                let factors = input.1.clone();
                let axes: &[usize] = if *reverse { &[*axis] } else { &[] };
                operands.push(self.mask(j, input, axes, 0.0, dtypes[0]));
                factors
            }
            Op::Gather => {
                let data = self.t.refs[j][0];
                if !self.flat_positions_kept(data) {
                    return Err("an index into a value whose inner sizes are dynamic".into());
                }
                operands.push(Read {
                    slot: data,
                    shape: vec![product(&self.flat(data), self.bounds)],
                });
                let index = self.read(j, 1)?;
                let factors = index.1.clone();
                let axes: Vec<usize> = (0..factors.len()).collect();
                operands.push(self.mask(j, index, &axes, 0.0, dtypes[1]));
                factors
            }
            Op::Scatter { accumulate } => {
                let base = self.t.refs[j][0];
                if !self.flat_positions_kept(base) {
                    return Err(
                        "an indexed write into a value whose inner sizes are dynamic".into(),
                    );
                }
                let (read, factors) = self.read(j, 0)?;
                operands.push(read);
                for (r, &dtype) in dtypes.iter().enumerate().skip(1) {
                    let input = self.read(j, r)?;
                    if input.1.iter().flatten().any(|d| d.is_dynamic()) && !accumulate {
                        return Err("an indexed assignment at dynamic positions".into());
                    }
                    let axes: Vec<usize> = (0..input.1.len()).collect();
                    operands.push(self.mask(j, input, &axes, 0.0, dtype));
                }
                factors
            }
            Op::Strided { offset, strides } => {
                let data = self.t.refs[j][0];
                let flat = self.flat(data);
                let exact: Vec<usize> = flat.iter().map(|d| d.at(self.s)).collect();
                let padded: Vec<usize> = flat.iter().map(|d| d.at(self.bounds)).collect();
                let exact_out = node.out_shape.dims();
                let padded_out = self.pad(&out);
                let off = digits(*offset, &exact).ok_or("a strided view outside its value")?;
                let mut steps = Vec::with_capacity(strides.len());
                for (d, &st) in strides.iter().enumerate() {
                    if exact_out[d] <= 1 {
                        steps.push(vec![0; exact.len()]);
                    } else {
                        steps.push(digits(st, &exact).ok_or("a strided view outside its value")?);
                    }
                }
                let reach = |ext: &[usize]| -> Vec<usize> {
                    (0..exact.len())
                        .map(|c| {
                            off[c]
                                + steps
                                    .iter()
                                    .zip(ext)
                                    .map(|(st, &e)| st[c] * e.saturating_sub(1))
                                    .sum::<usize>()
                        })
                        .collect()
                };
                if reach(exact_out).iter().zip(&exact).any(|(r, &n)| *r >= n) {
                    return Err("a strided view crosses a dynamic size".into());
                }
                if reach(&padded_out)
                    .iter()
                    .zip(&padded)
                    .any(|(r, &n)| *r >= n)
                {
                    return Err("a strided view would read past the padded value".into());
                }
                let ps = row_major(&padded);
                let position =
                    |dig: &[usize]| dig.iter().zip(&ps).map(|(a, b)| a * b).sum::<usize>();
                op = Op::Strided {
                    offset: position(&off),
                    strides: steps.iter().map(|d| position(d)).collect(),
                };
                operands.push(Read {
                    slot: data,
                    shape: vec![padded.iter().product()],
                });
                single()
            }
            Op::Nonzero | Op::Random { .. } => {
                return Err(format!("{} inside the graph", node.op.aten_name()));
            }
        };
        if factors.len() != out.len()
            || factors
                .iter()
                .zip(&out)
                .any(|(f, d)| product(f, self.bounds) != d.at(self.bounds))
        {
            return Err(format!(
                "the sizes of {} do not fit their dynamic sizes",
                node.op.aten_name()
            ));
        }
        self.steps.push(Step::Op {
            node: j,
            op,
            operands,
            shape: self.pad(&out),
        });
        Ok(factors)
    }
}

/// The steps that run `cur` padded to `bounds` (its dynamic sizes are `s`).
fn plan(cur: &Shaped, t: &Template, s: &[usize], bounds: &[usize]) -> Result<Plan, String> {
    let mut p = Planner {
        cur,
        t,
        s,
        bounds,
        steps: Vec::new(),
        slots: cur.values.len(),
        factors: Vec::with_capacity(cur.values.len()),
    };
    let mut padded_elements = 0u64;
    let mut exact_elements = 0u64;
    for (v, value) in cur.values.iter().enumerate() {
        let exact = &cur.natural[v];
        let padded = p.pad(&t.natural[v]);
        match value {
            Value::Input(_) => {
                if padded != *exact {
                    if exact.contains(&0) {
                        return Err("a dynamic size of 0".into());
                    }
                    p.steps.push(Step::Pad {
                        input: v,
                        exact: exact.clone(),
                        padded: padded.clone(),
                    });
                }
                p.factors
                    .push(t.natural[v].iter().map(|&d| vec![d]).collect());
            }
            Value::Node(j) => {
                let factors = p.node(*j)?;
                p.factors.push(factors);
                padded_elements += padded.iter().product::<usize>() as u64;
                exact_elements += exact.iter().product::<usize>() as u64;
            }
        }
    }
    let padded = t.natural.iter().map(|d| p.pad(d)).collect();
    Ok(Plan {
        slots: p.slots,
        steps: p.steps,
        padded,
        padded_elements,
        exact_elements,
    })
}

/// The flat positions that pad a value of sizes `exact` to `padded` by
/// repeating the last position along each axis.
fn pad_index(exact: &[usize], padded: &[usize]) -> Vec<i64> {
    let es = row_major(exact);
    let mut index = Vec::with_capacity(padded.iter().product());
    let mut at = vec![0usize; padded.len()];
    'all: loop {
        index.push(
            at.iter()
                .zip(exact)
                .zip(&es)
                .map(|((&i, &n), &st)| i.min(n - 1) * st)
                .sum::<usize>() as i64,
        );
        for d in (0..at.len()).rev() {
            at[d] += 1;
            if at[d] < padded[d] {
                continue 'all;
            }
            at[d] = 0;
        }
        return index;
    }
}

/// `t` (dense) read as `shape`, which has as many elements.
fn as_dims(t: &Tensor, shape: &[usize]) -> Tensor {
    super::replay::as_shape(t, &Shape::new(shape.to_vec()))
}

impl crate::Runtime {
    /// At the end of a dynamic compile's call: runs its graph padded to the
    /// bounds in place of its exact-size ops when it can, and records how
    /// the call ran.
    pub(crate) async fn pad_capture(&mut self, capture: &Capture) -> Result<(), RuntimeError> {
        if capture.backward.is_some() || capture.dynamic.is_empty() {
            if let Ok(shaped) = Shaped::of(capture, self.tpu.pending_len()) {
                self.compiled.padding.last.insert(capture.function, shaped);
            }
            return Ok(());
        }
        let key = (capture.function, capture.compile);
        let outcome = self.try_padded(capture).await?;
        let bounds: Option<Vec<(String, usize)>> =
            self.compiled.padding.fitted.get(&key).map(|(t, b)| {
                let used = t.used();
                capture
                    .dynamic
                    .iter()
                    .filter(|n| capture.sizes.iter().any(|(m, _)| m == *n))
                    .zip(b)
                    .enumerate()
                    .filter(|(k, _)| used.get(*k).copied().unwrap_or(false))
                    .map(|(_, (n, &b))| (n.clone(), b))
                    .collect()
            });
        let Some(c) = self
            .compiled
            .functions
            .get_mut(key.0)
            .and_then(|f| f.compiles.get_mut(key.1))
        else {
            return Ok(());
        };
        let record = c.padding.get_or_insert_with(Default::default);
        if let Some(bounds) = bounds {
            record.bounds = bounds;
        }
        match outcome {
            Outcome::Padded {
                new_plan,
                padded,
                exact,
            } => {
                record.padded_calls += 1;
                record.plans += usize::from(new_plan);
                record.padded_elements += padded;
                record.exact_elements += exact;
            }
            Outcome::Exact(note) => {
                record.exact_calls += 1;
                if !record.notes.contains(&note) {
                    record.notes.push(note);
                }
            }
        }
        Ok(())
    }

    async fn try_padded(&mut self, capture: &Capture) -> Result<Outcome, RuntimeError> {
        let key = (capture.function, capture.compile);
        let cur = match Shaped::of(capture, self.tpu.pending_len()) {
            Ok(c) => c,
            Err(why) => {
                self.compiled.padding.last.remove(&key.0);
                return Ok(Outcome::Exact(why));
            }
        };
        let prev = self.compiled.padding.last.insert(key.0, cur.clone());
        // Dynamic floats change no size.
        let names: Vec<String> = capture
            .dynamic
            .iter()
            .filter(|n| cur.sizes.iter().any(|(m, _)| m == *n))
            .cloned()
            .collect();
        let s = match cur.symbols(&names) {
            Ok(s) if !s.is_empty() => s,
            Ok(_) => return Ok(Outcome::Exact(NO_SIZES.into())),
            Err(why) => return Ok(Outcome::Exact(why)),
        };
        let state = &mut self.compiled.padding;
        let mut new_plan = false;
        let old = state.fitted.remove(&key);
        let (t, mut bounds) = match old {
            Some((t, bounds)) if t.holds_for(&cur, &s) => (t, bounds),
            old => {
                let Some(prev) = prev else {
                    return Ok(Outcome::Exact(FIRST_SIZE.into()));
                };
                let s1 = match prev.symbols(&names) {
                    Ok(s1) if s1 != s => s1,
                    _ => return Ok(Outcome::Exact(FIRST_SIZE.into())),
                };
                let mut t = match Template::fit(&prev, &s1, &cur, &s) {
                    Ok(t) => t,
                    Err(why) => return Ok(Outcome::Exact(why)),
                };
                // A size the old fit found dynamic, which did not change
                // this time, stays dynamic.
                let mut bounds: Vec<usize> = s.iter().map(|&v| bound_for(v)).collect();
                if let Some((old, old_bounds)) = old {
                    t.keep_dynamic(&old, &cur, &s);
                    for (b, &o) in bounds.iter_mut().zip(&old_bounds) {
                        *b = (*b).min(o);
                    }
                }
                new_plan = true;
                (t, bounds)
            }
        };
        if !t.is_dynamic() {
            state.fitted.insert(key, (t, bounds));
            return Ok(Outcome::Exact(NO_SIZES.into()));
        }
        for (b, &v) in bounds.iter_mut().zip(&s) {
            if v > *b {
                *b = bound_for(v);
                new_plan = true;
            }
        }
        state.fitted.insert(key, (t, bounds));
        let Some((t, bounds)) = state.fitted.get(&key) else {
            return Ok(Outcome::Exact(FIRST_SIZE.into()));
        };
        let plan = match plan(&cur, t, &s, bounds) {
            Ok(p) => p,
            Err(why) => return Ok(Outcome::Exact(why)),
        };
        match self.run_plan(capture, &cur, &plan).await {
            Ok(()) => Ok(Outcome::Padded {
                new_plan,
                padded: plan.padded_elements,
                exact: plan.exact_elements,
            }),
            Err(e) => Ok(Outcome::Exact(format!("the padded run failed: {e}"))),
        }
    }

    /// A constant tensor, uploaded once.
    async fn pad_constant(
        &mut self,
        key: String,
        make: impl FnOnce() -> (HostData, Vec<usize>),
    ) -> Result<Tensor, RuntimeError> {
        if let Some(t) = self.compiled.padding.constants.get(&key) {
            return Ok(t.clone());
        }
        let (data, dims) = make();
        let t = self
            .from_data(data, Shape::new(dims), Device::Tpu(0))
            .await?;
        self.compiled.padding.constants.insert(key, t.clone());
        Ok(t)
    }

    /// Issues `plan`'s ops (deferred), then has each value of the capture a
    /// tensor still holds made as a slice of its padded value, in place of
    /// the capture's own ops.
    async fn run_plan(
        &mut self,
        capture: &Capture,
        cur: &Shaped,
        plan: &Plan,
    ) -> Result<(), RuntimeError> {
        let first = self.tpu.pending_len();
        let mut slots: Vec<Option<Tensor>> = vec![None; plan.slots];
        for (v, value) in cur.values.iter().enumerate() {
            if let Value::Input(id) = value {
                let t = capture.tensors.get(id).ok_or_else(|| {
                    RuntimeError::Message("internal: a graph input was not kept".into())
                })?;
                slots[v] = Some(t.clone());
            }
        }
        let result = self.issue(cur, plan, &mut slots).await;
        self.compiled.quiet_op = None;
        result?;
        if self.tpu.pending_len() < first {
            return Err(RuntimeError::Message(
                "a padded op ran on the host, which reads the graph's values".into(),
            ));
        }
        let homes: HashMap<u64, Key> = capture.ids.iter().map(|(k, v)| (*v, *k)).collect();
        let mut defs = Vec::new();
        for (v, value) in cur.values.iter().enumerate() {
            let Value::Node(j) = value else { continue };
            let node = &cur.nodes[*j];
            let Some(&(_, buffer)) = homes.get(&node.out) else {
                continue;
            };
            if !self.tpu.holds(buffer) {
                continue;
            }
            let Some(padded) = &slots[v] else {
                return Err(RuntimeError::Message(
                    "internal: a padded value is missing".into(),
                ));
            };
            defs.push(crate::fusion::Definition {
                out: buffer,
                op: Op::Strided {
                    offset: 0,
                    strides: row_major(&plan.padded[v]),
                },
                input: (
                    padded.buffer(),
                    Shape::new([plan.padded[v].iter().product::<usize>()]),
                    node.out_dtype,
                ),
                shape: node.out_shape.clone(),
                dtype: node.out_dtype,
                op_index: node.op_index,
            });
        }
        self.tpu
            .redefine(first - cur.nodes.len(), cur.nodes.len(), defs);
        Ok(())
    }

    async fn issue(
        &mut self,
        cur: &Shaped,
        plan: &Plan,
        slots: &mut [Option<Tensor>],
    ) -> Result<(), RuntimeError> {
        let slot = |slots: &[Option<Tensor>], i: usize| {
            slots[i].clone().ok_or_else(|| {
                RuntimeError::Message("internal: a padded step reads an empty slot".into())
            })
        };
        let first_op = cur.nodes.first().map_or(0, |n| n.op_index);
        for step in &plan.steps {
            match step {
                Step::Pad {
                    input,
                    exact,
                    padded,
                } => {
                    self.compiled.quiet_op = Some(first_op);
                    let t = slot(slots, *input)?;
                    let layout = t.layout();
                    let flat = Tensor::from_layout(Layout {
                        shape: Shape::new([layout.storage.len()]),
                        strides: vec![1],
                        offset: 0,
                        ..layout
                    });
                    let idx = self
                        .pad_constant(format!("pad {exact:?} {padded:?}"), || {
                            (HostData::I64(pad_index(exact, padded)), padded.clone())
                        })
                        .await?;
                    let out = self
                        .dispatch_dense(
                            Op::Gather,
                            &[&flat, &idx],
                            Shape::new(padded.clone()),
                            t.dtype(),
                            t.device(),
                        )
                        .await?;
                    slots[*input] = Some(out);
                }
                Step::Mask {
                    node,
                    operand,
                    axis,
                    padded,
                    valid,
                    fill,
                    dtype,
                    out,
                } => {
                    self.compiled.quiet_op = Some(cur.nodes[*node].op_index);
                    let x = as_dims(&slot(slots, operand.slot)?, &operand.shape);
                    let n = operand.shape[*axis];
                    let keep: Vec<bool> = (0..n)
                        .map(|i| {
                            digits(i, padded)
                                .is_some_and(|d| d.iter().zip(valid).all(|(a, b)| a < b))
                        })
                        .collect();
                    let mut dims = vec![1; operand.shape.len()];
                    dims[*axis] = n;
                    let shape = Shape::new(operand.shape.clone());
                    let key = format!("{padded:?} {valid:?}");
                    let m = if *dtype == DType::Bool {
                        let mask = self
                            .pad_constant(format!("mask {key}"), || (HostData::Bool(keep), vec![n]))
                            .await?;
                        let fill = self
                            .pad_constant(format!("fill {dtype:?} {fill}"), || {
                                (constant(*dtype, *fill), vec![])
                            })
                            .await?;
                        let mask = as_dims(&mask, &dims);
                        self.dispatch_dense(
                            Op::Where,
                            &[&mask, &x, &fill],
                            shape,
                            *dtype,
                            x.device(),
                        )
                        .await?
                    } else {
                        // Clamped between bounds that are the fill at padded
                        // positions and the type's extremes elsewhere: two
                        // elementwise ops every backend has and the planner
                        // fuses (a `where` over a bool mask is neither yet).
                        let (low, high) = (
                            identity(ReduceOp::Max, *dtype),
                            identity(ReduceOp::Min, *dtype),
                        );
                        let mut bounds = Vec::with_capacity(2);
                        for (name, extreme) in [("low", low), ("high", high)] {
                            let values: Vec<f64> = keep
                                .iter()
                                .map(|&k| if k { extreme } else { *fill })
                                .collect();
                            let t = self
                                .pad_constant(format!("{name} {dtype:?} {fill} {key}"), || {
                                    (constants(*dtype, &values), vec![n])
                                })
                                .await?;
                            bounds.push(as_dims(&t, &dims));
                        }
                        let raised = self
                            .dispatch_dense(
                                Op::Binary {
                                    op: BinaryOp::Maximum,
                                },
                                &[&x, &bounds[0]],
                                shape.clone(),
                                *dtype,
                                x.device(),
                            )
                            .await?;
                        self.dispatch_dense(
                            Op::Binary {
                                op: BinaryOp::Minimum,
                            },
                            &[&raised, &bounds[1]],
                            shape,
                            *dtype,
                            x.device(),
                        )
                        .await?
                    };
                    slots[*out] = Some(m);
                }
                Step::Op {
                    node,
                    op,
                    operands,
                    shape,
                } => {
                    let n = &cur.nodes[*node];
                    self.compiled.quiet_op = Some(n.op_index);
                    let mut args = Vec::with_capacity(operands.len());
                    for r in operands {
                        args.push(as_dims(&slot(slots, r.slot)?, &r.shape));
                    }
                    let refs: Vec<&Tensor> = args.iter().collect();
                    let out = self
                        .dispatch_dense(
                            op.clone(),
                            &refs,
                            Shape::new(shape.clone()),
                            n.out_dtype,
                            Device::Tpu(0),
                        )
                        .await?;
                    slots[cur.node_value[*node]] = Some(out);
                }
            }
        }
        Ok(())
    }
}

/// What a dynamic compile's call did.
enum Outcome {
    Padded {
        new_plan: bool,
        padded: u64,
        exact: u64,
    },
    Exact(String),
}

const NO_SIZES: &str = "no size of the graph depends on the dynamic sizes";

const FIRST_SIZE: &str = "the first call at new sizes runs at them: its sizes are fitted to the dynamic ones against the next call's";
