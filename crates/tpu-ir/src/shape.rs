//! Shapes and PyTorch's broadcasting rule. Broadcasting lives here rather than in
//! a backend because every backend and the fusion planner must agree on it exactly.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Shape(pub Vec<usize>);

/// A shape rule was broken. The messages follow PyTorch's wording so that users
/// can search for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    Broadcast { a: Shape, b: Shape, dim: usize },
    MatMul { a: Shape, b: Shape },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::Broadcast { a, b, dim } => {
                // PyTorch counts the failing dimension from the right, in the
                // coordinates of the longer shape.
                let rank = a.rank().max(b.rank());
                let size = |s: &Shape| {
                    let offset = rank - s.rank();
                    if *dim >= offset {
                        s.0[*dim - offset]
                    } else {
                        1
                    }
                };
                write!(
                    f,
                    "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
                    size(a),
                    size(b),
                    dim
                )
            }
            ShapeError::MatMul { a, b } => write!(
                f,
                "mm: mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
                a.0.first().copied().unwrap_or(1),
                a.0.get(1).copied().unwrap_or(1),
                b.0.first().copied().unwrap_or(1),
                b.0.get(1).copied().unwrap_or(1)
            ),
        }
    }
}

impl std::error::Error for ShapeError {}

impl Shape {
    pub fn new(dims: impl Into<Vec<usize>>) -> Self {
        Shape(dims.into())
    }

    pub fn scalar() -> Self {
        Shape(Vec::new())
    }

    pub fn rank(&self) -> usize {
        self.0.len()
    }

    pub fn numel(&self) -> usize {
        self.0.iter().product()
    }

    /// The element count, or `None` if it does not fit in a `usize`.
    pub fn checked_numel(&self) -> Option<usize> {
        self.0.iter().try_fold(1usize, |n, &d| n.checked_mul(d))
    }

    pub fn dims(&self) -> &[usize] {
        &self.0
    }

    /// Row-major strides in elements.
    pub fn strides(&self) -> Vec<usize> {
        let mut strides = vec![1; self.rank()];
        for i in (0..self.rank().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * self.0[i + 1];
        }
        strides
    }

    /// The shape two operands broadcast to, aligning dimensions from the right.
    pub fn broadcast(a: &Shape, b: &Shape) -> Result<Shape, ShapeError> {
        let rank = a.rank().max(b.rank());
        let mut out = vec![0; rank];
        // PyTorch reports the first mismatch counting from the right.
        for i in (0..rank).rev() {
            let da = dim_from_left(a, rank, i);
            let db = dim_from_left(b, rank, i);
            out[i] = match (da, db) {
                (x, y) if x == y => x,
                (1, y) => y,
                (x, 1) => x,
                _ => {
                    return Err(ShapeError::Broadcast {
                        a: a.clone(),
                        b: b.clone(),
                        dim: i,
                    });
                }
            };
        }
        Ok(Shape(out))
    }

    /// Strides (in elements) that read `self` as if it had shape `out`: a
    /// broadcast dimension gets stride 0. `out` must be a broadcast of `self`.
    pub fn broadcast_strides(&self, out: &Shape) -> Vec<usize> {
        let own = self.strides();
        let offset = out.rank() - self.rank();
        (0..out.rank())
            .map(|i| {
                if i < offset || self.0[i - offset] == 1 {
                    0
                } else {
                    own[i - offset]
                }
            })
            .collect()
    }
}

fn dim_from_left(s: &Shape, rank: usize, i: usize) -> usize {
    let offset = rank - s.rank();
    if i < offset { 1 } else { s.0[i - offset] }
}

impl fmt::Display for Shape {
    /// PyTorch's `torch.Size([2, 3])` form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims: Vec<String> = self.0.iter().map(|d| d.to_string()).collect();
        write!(f, "torch.Size([{}])", dims.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcasting_aligns_from_the_right() {
        let out = Shape::broadcast(&Shape::new([2, 1, 3]), &Shape::new([4, 1])).unwrap();
        assert_eq!(out, Shape::new([2, 4, 3]));
        assert_eq!(Shape::new([4, 1]).broadcast_strides(&out), vec![0, 1, 0]);
    }

    #[test]
    fn broadcast_failure_names_the_dimension_like_pytorch() {
        let err = Shape::broadcast(&Shape::new([2, 3]), &Shape::new([4])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
        );
    }
}
