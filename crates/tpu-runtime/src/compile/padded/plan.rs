//! The padded run's plan: each value's sizes as factors (a merge keeps the
//! dynamic size inside it), the masks where padding would change a value,
//! and each op's operands at padded sizes; checked before anything runs.

use super::fit::{Dim, Shaped, Template, Value};
use crate::data::HostData;
use tpu_ir::{DType, Op, ReduceOp, Shape};

pub(super) fn row_major(dims: &[usize]) -> Vec<usize> {
    Shape::new(dims.to_vec()).strides()
}

/// `x` as a multi-index over `dims` (row-major), if it lies inside.
pub(super) fn digits(x: usize, dims: &[usize]) -> Option<Vec<usize>> {
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
pub(super) type Factors = Vec<Dim>;

pub(super) fn product(f: &[Dim], at: &[usize]) -> usize {
    f.iter().map(|d| d.at(at)).product()
}

/// The factors `flat` regrouped into the dimensions `target` (a read's
/// fitted sizes), splitting a factor where the read splits it; none when
/// the read would move valid elements (a dynamic size split other than at
/// its lead).
pub(super) fn regroup(
    flat: &[Dim],
    target: &[Dim],
    s: &[usize],
    bounds: &[usize],
) -> Option<Vec<Factors>> {
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
pub(super) struct Read {
    pub(super) slot: usize,
    pub(super) shape: Vec<usize>,
}

/// One op of the padded run, writing slot `out`.
#[derive(Debug)]
pub(super) enum Step {
    /// A graph input padded by repeating its last row: a gather at `index`.
    Pad {
        input: usize,
        exact: Vec<usize>,
        padded: Vec<usize>,
    },
    /// `operand` with `fill` at the positions padded along `axis`, for node
    /// `node`.
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
pub(super) fn identity(op: ReduceOp, dtype: DType) -> f64 {
    let low = match op {
        ReduceOp::Sum => return 0.0,
        ReduceOp::Prod => return 1.0,
        ReduceOp::Max | ReduceOp::ArgMax => true,
        ReduceOp::Min | ReduceOp::ArgMin => false,
    };
    match (dtype, low) {
        (DType::Bool, low) => f64::from(u8::from(!low)),
        (DType::UInt8, true) => 0.0,
        (DType::UInt8, false) => 255.0,
        (DType::Int32, true) => i32::MIN as f64,
        (DType::Int32, false) => i32::MAX as f64,
        (DType::Int64, true) => i64::MIN as f64,
        (DType::Int64, false) => i64::MAX as f64,
        (_, true) => f64::NEG_INFINITY,
        (_, false) => f64::INFINITY,
    }
}

/// `values` in `dtype`; int64 directly, as its extremes do not survive a
/// cast through the host's float rules (`as` saturates, so `-inf` is the
/// least int64).
pub(super) fn constants(dtype: DType, values: &[f64]) -> HostData {
    match dtype {
        DType::Int64 => HostData::I64(values.iter().map(|&v| v as i64).collect()),
        _ => HostData::F64(values.to_vec()).cast(dtype),
    }
}

/// The plan of a padded run: its steps, and for each value its slot.
pub(super) struct Plan {
    pub(super) steps: Vec<Step>,
    /// Slot count: one per value, then the masks'.
    pub(super) slots: usize,
    /// Each value's padded natural sizes.
    pub(super) padded: Vec<Vec<usize>>,
    /// Elements the padded values hold, and the exact sizes'.
    pub(super) padded_elements: u64,
    pub(super) exact_elements: u64,
}

pub(super) struct Planner<'a> {
    pub(super) cur: &'a Shaped,
    pub(super) t: &'a Template,
    pub(super) s: &'a [usize],
    pub(super) bounds: &'a [usize],
    pub(super) steps: Vec<Step>,
    pub(super) slots: usize,
    /// Each value's dimensions as factors, once planned.
    pub(super) factors: Vec<Vec<Factors>>,
}

pub(super) const MOVES: &str =
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
            Op::Nonzero | Op::Random { .. } | Op::Pallas { .. } => {
                return Err(format!("{} inside the graph", node.op.aten_name()));
            }
            // Windows over a dynamic size would move with the size.
            Op::Pad { .. } | Op::UnfoldBackward { .. } | Op::Concat { .. } => {
                return Err(format!(
                    "{} in a graph with dynamic sizes",
                    node.op.aten_name()
                ));
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
pub(super) fn plan(
    cur: &Shaped,
    t: &Template,
    s: &[usize],
    bounds: &[usize],
) -> Result<Plan, String> {
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
pub(super) fn pad_index(exact: &[usize], padded: &[usize]) -> Vec<i64> {
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
