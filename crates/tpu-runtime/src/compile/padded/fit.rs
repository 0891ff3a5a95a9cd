//! Fitting a capture's sizes to the call's dynamic sizes: each size that
//! changed between two captures is `a * s + b` for one dynamic size, and a
//! fit is checked against every later capture.

use super::super::{Capture, Event, Key, Node};
use crate::backend::BufferId;
use crate::tensor::Home;
use std::collections::HashMap;
use tpu_ir::Op;

/// A size of a captured graph as a function of the call's dynamic sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dim {
    Static(usize),
    /// `a * s[k] + b`, with `a > 0`.
    Sym {
        k: usize,
        a: usize,
        b: i64,
    },
}

impl Dim {
    pub(super) fn at(self, s: &[usize]) -> usize {
        match self {
            Dim::Static(n) => n,
            Dim::Sym { k, a, b } => (a as i64 * s[k] as i64 + b).max(0) as usize,
        }
    }

    pub(super) fn is_dynamic(self) -> bool {
        matches!(self, Dim::Sym { .. })
    }
}

/// A value of a capture: a graph input (by its id) or the result of node `j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Value {
    Input(u64),
    Node(usize),
}

/// One capture as padding compares captures: its values numbered in order of
/// appearance, each with its natural shape, and its nodes' reads of them.
#[derive(Clone)]
pub(super) struct Shaped {
    pub(super) sizes: Vec<(String, i64)>,
    pub(super) values: Vec<Value>,
    pub(super) natural: Vec<Vec<usize>>,
    pub(super) nodes: Vec<Node>,
    /// Per node, the value index of each operand.
    pub(super) refs: Vec<Vec<usize>>,
    /// Per node, what must match across calls: the op without its numbers.
    pub(super) signature: Vec<String>,
    /// Per node, the index of its value.
    pub(super) node_value: Vec<usize>,
    /// Per node, the accelerator buffer its value is made in.
    pub(super) outs: Vec<BufferId>,
}

/// A fitted capture: each size as a function of the dynamic sizes.
pub(super) struct Template {
    pub(super) refs: Vec<Vec<usize>>,
    pub(super) signature: Vec<String>,
    pub(super) values: Vec<bool>,
    pub(super) natural: Vec<Vec<Dim>>,
    pub(super) reads: Vec<Vec<Vec<Dim>>>,
}

/// The op with the numbers a call may change (scalars, offsets) left out.
pub(super) fn signature(op: &Op) -> String {
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
    pub(super) fn of(capture: &Capture, pending: usize) -> Result<Shaped, String> {
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
        let mut outs = Vec::with_capacity(nodes.len());
        for n in &nodes {
            match homes.get(&n.out) {
                Some(&(Home::Accelerator, buffer)) => outs.push(buffer),
                _ => return Err("part of the graph runs on the host".into()),
            }
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
            outs,
        })
    }

    pub(super) fn same_structure(
        &self,
        refs: &[Vec<usize>],
        signature: &[String],
        values: &[bool],
    ) -> bool {
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
    pub(super) fn symbols(&self, names: &[String]) -> Result<Vec<usize>, String> {
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
pub(super) fn fit_dim(d1: usize, d2: usize, s1: &[usize], s2: &[usize]) -> Result<Dim, String> {
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

pub(super) fn fit_dims(
    d1: &[usize],
    d2: &[usize],
    s1: &[usize],
    s2: &[usize],
) -> Result<Vec<Dim>, String> {
    if d1.len() != d2.len() {
        return Err("a value changed rank".into());
    }
    d1.iter()
        .zip(d2)
        .map(|(&a, &b)| fit_dim(a, b, s1, s2))
        .collect()
}

pub(super) fn holds(dims: &[Dim], exact: &[usize], s: &[usize]) -> bool {
    dims.len() == exact.len() && dims.iter().zip(exact).all(|(d, &e)| d.at(s) == e)
}

impl Template {
    /// The sizes of `cur` (at dynamic sizes `s2`) fitted against `prev`'s.
    pub(super) fn fit(
        prev: &Shaped,
        s1: &[usize],
        cur: &Shaped,
        s2: &[usize],
    ) -> Result<Template, String> {
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
    pub(super) fn keep_dynamic(&mut self, old: &Template, cur: &Shaped, s: &[usize]) {
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
    pub(super) fn is_dynamic(&self) -> bool {
        self.natural
            .iter()
            .chain(self.reads.iter().flatten())
            .flatten()
            .any(|d| d.is_dynamic())
    }

    /// The dynamic sizes some size of the graph depends on.
    pub(super) fn used(&self) -> Vec<bool> {
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
    pub(super) fn holds_for(&self, cur: &Shaped, s: &[usize]) -> bool {
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
pub(super) fn bound_for(s: usize) -> usize {
    (2 * s).next_power_of_two()
}
