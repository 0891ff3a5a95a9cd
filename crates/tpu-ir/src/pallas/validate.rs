//! `PallasKernel::validate`: every operand, shape and dtype of a traced
//! kernel checked once, so that the backends index without checks.

use super::{BlockOp, Inst, InvalidKernel, PallasKernel};
use crate::{DType, ReduceOp};

impl PallasKernel {
    /// Checks every operand, shape and dtype, so that backends can index
    /// without checks.
    pub fn validate(&self) -> Result<(), InvalidKernel> {
        let bad = |m: String| Err(InvalidKernel(m));
        if self.inputs > self.refs.len() || self.inputs == self.refs.len() {
            return bad("a kernel needs at least one output".into());
        }
        if self.grid.contains(&0) {
            return bad("a grid axis of size 0".into());
        }
        for (i, r) in self.refs.iter().enumerate() {
            let rank = r.shape.len();
            if r.block.len() != rank || r.squeezed.len() != rank || r.index_map.len() != rank {
                return bad(format!(
                    "ref {i}: block, squeezed or index map of the wrong rank"
                ));
            }
            if r.block.contains(&0) || r.squeezed.iter().zip(&r.block).any(|(s, b)| *s && *b != 1) {
                return bad(format!(
                    "ref {i}: a block dimension of 0, or a squeezed one not 1"
                ));
            }
            if matches!(r.dtype, DType::Float16 | DType::UInt8) {
                return bad(format!(
                    "ref {i}: {} arrays are not supported in Pallas kernels yet",
                    r.dtype.short_name()
                ));
            }
            let mut axes = Vec::new();
            r.index_map.iter().for_each(|x| x.axes(&mut axes));
            if axes.iter().any(|&a| a >= self.grid.len()) {
                return bad(format!(
                    "ref {i}: index map reads a grid axis the grid lacks"
                ));
            }
        }
        let mut types: Vec<Option<(Vec<usize>, DType)>> = vec![None; self.values];
        self.validate_body(&self.body, &mut types)
    }

    fn validate_body(
        &self,
        body: &[Inst],
        types: &mut Vec<Option<(Vec<usize>, DType)>>,
    ) -> Result<(), InvalidKernel> {
        for inst in body {
            self.validate_inst(inst, types)
                .map_err(|m| InvalidKernel(format!("{m} (in {:?})", inst.op)))?;
        }
        Ok(())
    }

    fn validate_inst(
        &self,
        inst: &Inst,
        types: &mut Vec<Option<(Vec<usize>, DType)>>,
    ) -> Result<(), String> {
        if matches!(inst.dtype, DType::Float16 | DType::UInt8) {
            return Err(format!(
                "{} values are not supported in Pallas kernels yet",
                inst.dtype.short_name()
            ));
        }
        let get = |types: &Vec<Option<(Vec<usize>, DType)>>, v: usize| {
            types
                .get(v)
                .cloned()
                .flatten()
                .ok_or_else(|| format!("value {v} used before it is defined"))
        };
        let same_or_scalar = |s: &[usize]| s.is_empty() || s == inst.shape.as_slice();
        let numel = |s: &[usize]| s.iter().product::<usize>();
        match &inst.op {
            BlockOp::Load { r, window } | BlockOp::Store { r, window, .. } => {
                let re = self.refs.get(*r).ok_or("no such ref")?;
                let shape = re.ref_shape();
                if window.len() != shape.len() {
                    return Err("window of the wrong rank".into());
                }
                let mut seen = Vec::new();
                for (w, &n) in window.iter().zip(&shape) {
                    if w.start + w.size > n || (w.drop && w.size != 1) {
                        return Err("window out of the block".into());
                    }
                    if !w.drop {
                        seen.push(w.size);
                    }
                }
                if let BlockOp::Store { value, r, .. } = &inst.op {
                    if *r < self.inputs {
                        return Err("a store into an input".into());
                    }
                    let (s, d) = get(types, *value)?;
                    if s != seen || d != re.dtype {
                        return Err("stored value does not match the window".into());
                    }
                    return Ok(());
                }
                if seen != inst.shape || inst.dtype != re.dtype {
                    return Err("loaded shape or dtype".into());
                }
            }
            BlockOp::Const { .. } | BlockOp::ProgramId { .. } => {
                if !inst.shape.is_empty() {
                    return Err("a constant is a scalar".into());
                }
                if let BlockOp::ProgramId { axis } = inst.op
                    && axis >= self.grid.len()
                {
                    return Err("program_id of an axis the grid lacks".into());
                }
            }
            BlockOp::Binary { a, b, .. } | BlockOp::Compare { a, b, .. } => {
                let ((sa, da), (sb, db)) = (get(types, *a)?, get(types, *b)?);
                if !same_or_scalar(&sa) || !same_or_scalar(&sb) || da != db {
                    return Err("operands' shapes or dtypes".into());
                }
                let want = if matches!(inst.op, BlockOp::Compare { .. }) {
                    DType::Bool
                } else {
                    da
                };
                if inst.dtype != want {
                    return Err("result dtype".into());
                }
            }
            BlockOp::Unary { a, .. } => {
                let (sa, da) = get(types, *a)?;
                if sa != inst.shape || da != inst.dtype {
                    return Err("operand shape or dtype".into());
                }
            }
            BlockOp::Where { cond, a, b } => {
                let (sc, dc) = get(types, *cond)?;
                let ((sa, da), (sb, db)) = (get(types, *a)?, get(types, *b)?);
                if dc != DType::Bool || ![&sc, &sa, &sb].iter().all(|s| same_or_scalar(s)) {
                    return Err("operands' shapes".into());
                }
                if da != inst.dtype || db != inst.dtype {
                    return Err("operands' dtypes".into());
                }
            }
            BlockOp::Reduce {
                a,
                axes,
                keepdims,
                op,
            } => {
                let (sa, da) = get(types, *a)?;
                if !matches!(op, ReduceOp::Sum | ReduceOp::Max | ReduceOp::Min) || da != inst.dtype
                {
                    return Err("reduction or dtype".into());
                }
                if axes.iter().any(|&x| x >= sa.len()) || axes.windows(2).any(|w| w[0] >= w[1]) {
                    return Err("axes".into());
                }
                let want: Vec<usize> = sa
                    .iter()
                    .enumerate()
                    .filter_map(|(i, &n)| match (axes.contains(&i), keepdims) {
                        (false, _) => Some(n),
                        (true, true) => Some(1),
                        (true, false) => None,
                    })
                    .collect();
                if want != inst.shape {
                    return Err("result shape".into());
                }
            }
            BlockOp::Dot { a, b } => {
                let ((sa, da), (sb, db)) = (get(types, *a)?, get(types, *b)?);
                if sa.len() != 2 || sb.len() != 2 || sa[1] != sb[0] || da != db {
                    return Err("dot operands".into());
                }
                if inst.shape != [sa[0], sb[1]] || !inst.dtype.is_floating() {
                    return Err("dot result".into());
                }
            }
            BlockOp::Cast { a } | BlockOp::Reshape { a } => {
                let (sa, _) = get(types, *a)?;
                let ok = match inst.op {
                    BlockOp::Cast { .. } => sa == inst.shape,
                    _ => numel(&sa) == numel(&inst.shape),
                };
                if !ok {
                    return Err("shape".into());
                }
            }
            BlockOp::Broadcast { a } | BlockOp::Transpose { a } => {
                let (sa, da) = get(types, *a)?;
                let ok = match inst.op {
                    BlockOp::Transpose { .. } => sa.len() == 2 && inst.shape == [sa[1], sa[0]],
                    _ => {
                        sa.len() <= inst.shape.len()
                            && sa
                                .iter()
                                .rev()
                                .zip(inst.shape.iter().rev())
                                .all(|(&x, &y)| x == y || x == 1)
                    }
                };
                if !ok || da != inst.dtype {
                    return Err("shape".into());
                }
            }
            BlockOp::When { cond, body } => {
                let (sc, dc) = get(types, *cond)?;
                if !sc.is_empty() || dc != DType::Bool {
                    return Err("condition is not a bool scalar".into());
                }
                // What the body defines stays in it: a value made under a
                // condition cannot be read where the condition was false.
                let mut inner = types.clone();
                return self.validate_body(body, &mut inner).map_err(|e| e.0);
            }
        }
        let slot = types.get_mut(inst.out).ok_or("value id out of range")?;
        if slot.is_some() {
            return Err(format!("value {} defined twice", inst.out));
        }
        *slot = Some((inst.shape.clone(), inst.dtype));
        Ok(())
    }
}
