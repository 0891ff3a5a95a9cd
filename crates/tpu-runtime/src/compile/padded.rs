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
//!
//! `fit.rs` fits and checks sizes, `plan.rs` plans the padded run (sizes as
//! factors, masks, each op at padded sizes); this file issues the plan in
//! place of the call's ops and keeps the Report's record.

mod fit;
mod plan;

use super::Capture;
use crate::RuntimeError;
use crate::data::HostData;
use crate::tensor::{Device, Layout, Tensor};
use fit::{Shaped, Template, Value, bound_for};
use plan::{Plan, Step, constants, digits, identity, pad_index, plan, row_major};
use std::collections::HashMap;
use tpu_ir::{BinaryOp, DType, Op, ReduceOp, Shape};

#[derive(Default)]
pub(crate) struct PadState {
    /// Each function's latest capture, to fit the next call's against.
    last: HashMap<usize, Shaped>,
    /// Each dynamic compile's fit.
    fitted: HashMap<(usize, usize), Fit>,
    /// Masks, fill values and padding indices, uploaded once each.
    constants: HashMap<String, Tensor>,
}

/// A dynamic compile's fit: its sizes as functions of the dynamic sizes
/// `names`, and the bound each of those is padded to.
struct Fit {
    template: Template,
    names: Vec<String>,
    bounds: Vec<usize>,
}

impl Fit {
    /// The bounds of the dynamic sizes some size of the graph depends on.
    fn bounds_in_use(&self) -> Vec<(String, usize)> {
        let used = self.template.used();
        self.names
            .iter()
            .zip(&self.bounds)
            .enumerate()
            .filter(|(k, _)| used.get(*k).copied().unwrap_or(false))
            .map(|(_, (n, &b))| (n.clone(), b))
            .collect()
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
        // Backward graphs run at their own sizes.
        if capture.backward.is_some() {
            return Ok(());
        }
        if capture.dynamic.is_empty() {
            // A static compile's capture is what a later dynamic compile of
            // the same function (automatic dynamic) fits its first call to;
            // with `dynamic=False` there is none.
            let can_turn_dynamic = self
                .compiled
                .functions
                .get(capture.function)
                .is_some_and(|f| f.dynamic != Some(false));
            if can_turn_dynamic && let Ok(shaped) = Shaped::of(capture, self.tpu.pending_len()) {
                self.compiled.padding.last.insert(capture.function, shaped);
            }
            return Ok(());
        }
        let key = (capture.function, capture.compile);
        let outcome = self.try_padded(capture).await?;
        let bounds = self
            .compiled
            .padding
            .fitted
            .get(&key)
            .map(Fit::bounds_in_use);
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
        let (template, mut bounds) = match state.fitted.remove(&key) {
            Some(fit) if fit.template.holds_for(&cur, &s) => (fit.template, fit.bounds),
            old => {
                let Some(prev) = prev else {
                    return Ok(Outcome::Exact(FIRST_SIZE.into()));
                };
                let s1 = match prev.symbols(&names) {
                    Ok(s1) if s1 != s => s1,
                    _ => return Ok(Outcome::Exact(FIRST_SIZE.into())),
                };
                let mut template = match Template::fit(&prev, &s1, &cur, &s) {
                    Ok(t) => t,
                    Err(why) => return Ok(Outcome::Exact(why)),
                };
                // A size the old fit found dynamic, which did not change
                // this time, stays dynamic, and keeps its bound.
                let mut bounds: Vec<usize> = s.iter().map(|&v| bound_for(v)).collect();
                if let Some(old) = old {
                    template.keep_dynamic(&old.template, &cur, &s);
                    for (b, &o) in bounds.iter_mut().zip(&old.bounds) {
                        *b = (*b).min(o);
                    }
                }
                new_plan = true;
                (template, bounds)
            }
        };
        for (b, &v) in bounds.iter_mut().zip(&s) {
            if v > *b {
                *b = bound_for(v);
                new_plan = true;
            }
        }
        let planned = if template.is_dynamic() {
            plan(&cur, &template, &s, &bounds)
        } else {
            Err(NO_SIZES.into())
        };
        state.fitted.insert(
            key,
            Fit {
                template,
                names,
                bounds,
            },
        );
        let plan = match planned {
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
        let mut defs = Vec::new();
        for (v, value) in cur.values.iter().enumerate() {
            let Value::Node(j) = value else { continue };
            let (node, buffer) = (&cur.nodes[*j], cur.outs[*j]);
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
                                (constants(*dtype, &[*fill]), vec![])
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
