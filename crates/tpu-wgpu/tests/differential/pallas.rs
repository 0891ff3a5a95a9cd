//! Random Pallas kernels (`Op::Pallas`) for the differential test: grids of
//! one to three axes over ragged arrays (blocks past the edge), squeezed
//! batch dimensions, windows of refs, chains of elementwise operations with
//! scalars, comparisons and `where`, bfloat16 round trips, reductions with
//! and without `keepdims`, transposes, and blocked matmuls accumulating over
//! a sequential grid axis under `pl.when`. Each must agree with the
//! reference, which defines what a kernel means.

use crate::case::{Case, Tolerance};
use crate::values::ramp;
use tpu_ir::{
    BinaryOp, BlockOp, BlockRef, CompareOp, DType, Index, Inst, Number, Op, PallasKernel, ReduceOp,
    Shape, UnaryOp, Window,
};

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// A kernel body under construction.
struct Body {
    insts: Vec<Inst>,
    values: usize,
}

impl Body {
    fn push(&mut self, op: BlockOp, shape: &[usize], dtype: DType) -> usize {
        let out = self.values;
        self.values += 1;
        self.insts.push(Inst {
            out,
            shape: shape.to_vec(),
            dtype,
            op,
            line: None,
        });
        out
    }

    fn store(&mut self, r: usize, window: Vec<Window>, value: usize) {
        self.insts.push(Inst {
            out: 0,
            shape: vec![],
            dtype: DType::Float32,
            op: BlockOp::Store { r, window, value },
            line: None,
        });
    }

    fn constant(&mut self, x: f64, dtype: DType) -> usize {
        self.push(BlockOp::Const { value: Number(x) }, &[], dtype)
    }
}

fn whole(shape: &[usize]) -> Vec<Window> {
    shape
        .iter()
        .map(|&size| Window {
            start: 0,
            size,
            drop: false,
        })
        .collect()
}

fn pid(axis: usize) -> Index {
    Index::ProgramId { axis }
}

fn block_ref(shape: &[usize], block: &[usize], squeezed: &[bool], map: Vec<Index>) -> BlockRef {
    BlockRef {
        shape: shape.to_vec(),
        dtype: DType::Float32,
        block: block.to_vec(),
        squeezed: squeezed.to_vec(),
        index_map: map,
    }
}

/// A dimension of `blocks` blocks of `block`, ragged (short of whole blocks)
/// half the time.
fn extent(rng: &mut Rng, block: usize, blocks: usize) -> usize {
    let short = if rng.below(2) == 0 {
        0
    } else {
        rng.below(block)
    };
    (block * blocks - short).max(1)
}

/// A chain of elementwise operations on `x` (a `[m, n]` float32 block) and
/// `y` (another, or the same), each op's result feeding the next.
fn chain(rng: &mut Rng, body: &mut Body, mut x: usize, y: usize, shape: &[usize]) -> usize {
    for _ in 0..2 + rng.below(5) {
        x = match rng.below(7) {
            0 => {
                let op = rng.pick(&[
                    UnaryOp::Neg,
                    UnaryOp::Abs,
                    UnaryOp::Tanh,
                    UnaryOp::Exp,
                    UnaryOp::Sin,
                ]);
                body.push(BlockOp::Unary { op, a: x }, shape, DType::Float32)
            }
            1 | 2 => {
                let op = rng.pick(&[
                    BinaryOp::Add,
                    BinaryOp::Sub,
                    BinaryOp::Mul,
                    BinaryOp::Maximum,
                    BinaryOp::Minimum,
                    BinaryOp::Div,
                ]);
                let other = if rng.below(2) == 0 {
                    y
                } else {
                    body.constant(rng.pick(&[0.5, -1.25, 3.0, 0.1]), DType::Float32)
                };
                let (a, b) = if rng.below(2) == 0 {
                    (x, other)
                } else {
                    (other, x)
                };
                let b = if op == BinaryOp::Div && b != x {
                    // Divisors away from zero.
                    let of_b = body_shape(body, b, shape);
                    let abs = body.push(
                        BlockOp::Unary {
                            op: UnaryOp::Abs,
                            a: b,
                        },
                        &of_b,
                        DType::Float32,
                    );
                    let one = body.constant(1.0, DType::Float32);
                    body.push(
                        BlockOp::Binary {
                            op: BinaryOp::Add,
                            a: abs,
                            b: one,
                        },
                        &of_b,
                        DType::Float32,
                    )
                } else {
                    b
                };
                body.push(BlockOp::Binary { op, a, b }, shape, DType::Float32)
            }
            3 => {
                let zero = body.constant(0.0, DType::Float32);
                let op = rng.pick(&[CompareOp::Gt, CompareOp::Le, CompareOp::Ne]);
                let c = body.push(BlockOp::Compare { op, a: x, b: zero }, shape, DType::Bool);
                body.push(
                    BlockOp::Where {
                        cond: c,
                        a: x,
                        b: y,
                    },
                    shape,
                    DType::Float32,
                )
            }
            4 => {
                let h = body.push(BlockOp::Cast { a: x }, shape, DType::BFloat16);
                let two = body.constant(2.0, DType::BFloat16);
                let h = body.push(
                    BlockOp::Binary {
                        op: BinaryOp::Mul,
                        a: h,
                        b: two,
                    },
                    shape,
                    DType::BFloat16,
                );
                body.push(BlockOp::Cast { a: h }, shape, DType::Float32)
            }
            5 => {
                // A row statistic broadcast back over the row.
                let op = rng.pick(&[ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min]);
                let axis = rng.below(shape.len());
                let mut kept = shape.to_vec();
                kept[axis] = 1;
                let r = body.push(
                    BlockOp::Reduce {
                        op,
                        a: x,
                        axes: vec![axis],
                        keepdims: true,
                    },
                    &kept,
                    DType::Float32,
                );
                let b = body.push(BlockOp::Broadcast { a: r }, shape, DType::Float32);
                body.push(
                    BlockOp::Binary {
                        op: BinaryOp::Sub,
                        a: x,
                        b,
                    },
                    shape,
                    DType::Float32,
                )
            }
            _ if shape.len() == 2 && shape[0] == shape[1] => {
                body.push(BlockOp::Transpose { a: x }, shape, DType::Float32)
            }
            _ => body.push(
                BlockOp::Unary {
                    op: UnaryOp::Neg,
                    a: x,
                },
                shape,
                DType::Float32,
            ),
        };
    }
    x
}

/// The shape of value `v` (a scalar constant, or a block of `shape`).
fn body_shape(body: &Body, v: usize, shape: &[usize]) -> Vec<usize> {
    match body
        .insts
        .iter()
        .find(|i| i.out == v && !matches!(i.op, BlockOp::Store { .. }))
    {
        Some(i) if i.shape.is_empty() => vec![],
        _ => shape.to_vec(),
    }
}

/// An elementwise kernel over a 2-D grid of blocks (or a 3-D one with a
/// squeezed batch dimension), with a second output holding a reduction of
/// each block when `reduce` is set.
fn elementwise(rng: &mut Rng) -> PallasKernel {
    let bm = rng.pick(&[1, 5, 8, 16]);
    let bn = rng.pick(&[8, 12, 64, 128]);
    let (gm, gn) = (1 + rng.below(3), 1 + rng.below(2));
    let (m, n) = (extent(rng, bm, gm), extent(rng, bn, gn));
    // The array, its block, the squeezed dims, the index map and the grid.
    let batch = rng.below(3) == 0;
    let (shape, block, squeezed, grid) = if batch {
        let b = 1 + rng.below(3);
        (
            vec![b, m, n],
            vec![1, bm, bn],
            vec![true, false, false],
            vec![b, gm, gn],
        )
    } else {
        (vec![m, n], vec![bm, bn], vec![false, false], vec![gm, gn])
    };
    let map: Vec<Index> = (0..grid.len()).map(pid).collect();
    let mut body = Body {
        insts: Vec::new(),
        values: 0,
    };
    let local = [bm, bn];
    let x = body.push(
        BlockOp::Load {
            r: 0,
            window: whole(&local),
        },
        &local,
        DType::Float32,
    );
    let y = body.push(
        BlockOp::Load {
            r: 1,
            window: whole(&local),
        },
        &local,
        DType::Float32,
    );
    let z = chain(rng, &mut body, x, y, &local);
    let mut refs = vec![
        block_ref(&shape, &block, &squeezed, map.clone()),
        block_ref(&shape, &block, &squeezed, map.clone()),
        block_ref(&shape, &block, &squeezed, map.clone()),
    ];
    // Half the time the output is written through a window of two halves.
    if bn.is_multiple_of(2) && rng.below(2) == 0 {
        for half in 0..2 {
            let w = vec![
                Window {
                    start: 0,
                    size: bm,
                    drop: false,
                },
                Window {
                    start: half * bn / 2,
                    size: bn / 2,
                    drop: false,
                },
            ];
            let part = body.push(
                BlockOp::Load {
                    r: 0,
                    window: w.clone(),
                },
                &[bm, bn / 2],
                DType::Float32,
            );
            let k = body.constant(half as f64 + 1.0, DType::Float32);
            let v = body.push(
                BlockOp::Binary {
                    op: BinaryOp::Mul,
                    a: part,
                    b: k,
                },
                &[bm, bn / 2],
                DType::Float32,
            );
            body.store(2, w, v);
        }
    } else {
        body.store(2, whole(&local), z);
    }
    if rng.below(2) == 0 {
        // A second output: each block's row sums, one column per block.
        let s = body.push(
            BlockOp::Reduce {
                op: ReduceOp::Sum,
                a: z,
                axes: vec![1],
                keepdims: false,
            },
            &[bm],
            DType::Float32,
        );
        let s2 = body.push(BlockOp::Reshape { a: s }, &[bm, 1], DType::Float32);
        let mut out_shape = shape.clone();
        let last = out_shape.len() - 1;
        out_shape[last] = grid[grid.len() - 1];
        let mut out_block = block.clone();
        out_block[last] = 1;
        refs.push(block_ref(&out_shape, &out_block, &squeezed, map));
        body.store(3, whole(&[bm, 1]), s2);
    }
    PallasKernel {
        name: "random_elementwise".into(),
        grid,
        refs,
        inputs: 2,
        values: body.values,
        body: body.insts,
    }
}

/// A blocked matmul `[m, k] @ [k, n]` with the grid `(i, j, kk)`: the output
/// block is zeroed at `kk == 0`, accumulated at every `kk`, and given an
/// epilogue at the last `kk`.
fn matmul(rng: &mut Rng) -> PallasKernel {
    let (bm, bk, bn) = (
        rng.pick(&[8, 16, 32]),
        rng.pick(&[8, 16, 32]),
        rng.pick(&[8, 16, 64]),
    );
    let (gm, gk, gn) = (1 + rng.below(2), 1 + rng.below(3), 1 + rng.below(2));
    let (m, k, n) = (bm * gm, bk * gk, extent(rng, bn, gn));
    let mut body = Body {
        insts: Vec::new(),
        values: 0,
    };
    let kk = body.push(BlockOp::ProgramId { axis: 2 }, &[], DType::Int32);
    let zero = body.constant(0.0, DType::Int32);
    let first = body.push(
        BlockOp::Compare {
            op: CompareOp::Eq,
            a: kk,
            b: zero,
        },
        &[],
        DType::Bool,
    );
    let mut init = Body {
        insts: Vec::new(),
        values: body.values,
    };
    let z = init.constant(0.0, DType::Float32);
    let zeros = init.push(BlockOp::Broadcast { a: z }, &[bm, bn], DType::Float32);
    init.store(2, whole(&[bm, bn]), zeros);
    body.values = init.values;
    body.insts.push(Inst {
        out: 0,
        shape: vec![],
        dtype: DType::Bool,
        op: BlockOp::When {
            cond: first,
            body: init.insts,
        },
        line: None,
    });
    let acc = body.push(
        BlockOp::Load {
            r: 2,
            window: whole(&[bm, bn]),
        },
        &[bm, bn],
        DType::Float32,
    );
    let a = body.push(
        BlockOp::Load {
            r: 0,
            window: whole(&[bm, bk]),
        },
        &[bm, bk],
        DType::Float32,
    );
    let b = body.push(
        BlockOp::Load {
            r: 1,
            window: whole(&[bk, bn]),
        },
        &[bk, bn],
        DType::Float32,
    );
    let (a, b) = if rng.below(3) == 0 {
        // bfloat16 operands, accumulated in float32.
        (
            body.push(BlockOp::Cast { a }, &[bm, bk], DType::BFloat16),
            body.push(BlockOp::Cast { a: b }, &[bk, bn], DType::BFloat16),
        )
    } else {
        (a, b)
    };
    let d = body.push(BlockOp::Dot { a, b }, &[bm, bn], DType::Float32);
    let sum = body.push(
        BlockOp::Binary {
            op: BinaryOp::Add,
            a: acc,
            b: d,
        },
        &[bm, bn],
        DType::Float32,
    );
    body.store(2, whole(&[bm, bn]), sum);
    let last = body.constant((gk - 1) as f64, DType::Int32);
    let is_last = body.push(
        BlockOp::Compare {
            op: CompareOp::Eq,
            a: kk,
            b: last,
        },
        &[],
        DType::Bool,
    );
    let mut epilogue = Body {
        insts: Vec::new(),
        values: body.values,
    };
    let o = epilogue.push(
        BlockOp::Load {
            r: 2,
            window: whole(&[bm, bn]),
        },
        &[bm, bn],
        DType::Float32,
    );
    let t = epilogue.push(
        BlockOp::Unary {
            op: UnaryOp::Tanh,
            a: o,
        },
        &[bm, bn],
        DType::Float32,
    );
    epilogue.store(2, whole(&[bm, bn]), t);
    body.values = epilogue.values;
    body.insts.push(Inst {
        out: 0,
        shape: vec![],
        dtype: DType::Bool,
        op: BlockOp::When {
            cond: is_last,
            body: epilogue.insts,
        },
        line: None,
    });
    PallasKernel {
        name: "random_matmul".into(),
        grid: vec![gm, gn, gk],
        refs: vec![
            block_ref(&[m, k], &[bm, bk], &[false, false], vec![pid(0), pid(2)]),
            block_ref(&[k, n], &[bk, bn], &[false, false], vec![pid(2), pid(1)]),
            block_ref(&[m, n], &[bm, bn], &[false, false], vec![pid(0), pid(1)]),
        ],
        inputs: 2,
        values: body.values,
        body: body.insts,
    }
}

/// `count` random kernels as differential cases, with the inputs they read.
pub fn cases(count: usize) -> Vec<Case> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..count)
        .map(|i| {
            let kernel = if i % 3 == 2 {
                matmul(&mut rng)
            } else {
                elementwise(&mut rng)
            };
            kernel
                .validate()
                .unwrap_or_else(|e| panic!("kernel {i}: {e}"));
            let inputs = kernel.refs[..kernel.inputs]
                .iter()
                .enumerate()
                .map(|(j, r)| {
                    let n: usize = r.shape.iter().product();
                    let mut values = ramp(n + j * 13);
                    values.drain(..j * 13);
                    (values, Shape::new(r.shape.clone()))
                })
                .collect();
            let total = kernel.output_offsets().1;
            Case::f32(
                Op::Pallas {
                    kernel: Box::new(kernel),
                },
                inputs,
                Shape::new([total]),
                Tolerance::Ulps {
                    ulps: 256.0,
                    floor: 1e-4,
                },
            )
        })
        .collect()
}
