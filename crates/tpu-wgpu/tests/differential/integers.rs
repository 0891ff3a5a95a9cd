//! Cases on int32, int64 and bool tensors (the kernels of `src/kernels/
//! ints.rs`, `index.rs` and `creation.rs`): every value at the edges int64
//! emulation can get wrong (carries between words, the minimum, values past
//! 2^32 and 2^53, ties when rounding to float32), all compared exactly.

use crate::case::Case;
use crate::values::{mixed, ramp};
use tpu_ir::{BinaryOp, CompareOp, DType, IntOrFloat, Op, ReduceOp, Shape, UnaryOp};
use tpu_runtime::HostData;

/// Int64 values: small ones of both signs, word edges, the extremes, and
/// pseudo-random ones across the whole range.
pub fn int64s(n: usize) -> Vec<i64> {
    const EDGE: [i64; 16] = [
        0,
        1,
        -1,
        7,
        -7,
        3,
        -2,
        i64::MIN,
        i64::MAX,
        1 << 31,
        -(1 << 31) - 1,
        (1 << 32) + 5,
        -(1 << 32),
        (1 << 53) + 1,
        (1 << 25) + 2,
        (1 << 25) + 6,
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|i| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            match i % 4 {
                0 | 1 => EDGE[(i / 2) % EDGE.len()],
                2 => (state >> 1) as i64 - (1 << 62),
                _ => (state >> 40) as i64 - (1 << 23),
            }
        })
        .collect()
}

/// Nonzero divisors, small and large, of both signs (a zero is its own case).
fn divisors(n: usize) -> Vec<i64> {
    const D: [i64; 8] = [3, -3, 1, -1, 7, 1 << 33, -(1 << 40) - 3, 2];
    (0..n).map(|i| D[i % D.len()]).collect()
}

fn data(dtype: DType, values: Vec<i64>) -> HostData {
    HostData::from_i64(dtype, values)
}

fn of(dtype: DType, values: Vec<i64>, dims: &[usize]) -> (HostData, Shape) {
    (data(dtype, values), Shape::new(dims.to_vec()))
}

/// The integer dtypes: uint8 wraps as int32 does, in its low byte.
const WIDE: [DType; 3] = [DType::Int64, DType::Int32, DType::UInt8];

pub fn binary(op: BinaryOp) -> Vec<Case> {
    let mut cases = Vec::new();
    for dtype in WIDE {
        let b = match op {
            BinaryOp::Pow => (0..70)
                .map(|i| [0, 1, 2, 3, 63, -1, 1 << 33][i % 7])
                .collect(),
            _ => divisors(70),
        };
        cases.push(Case::exact(
            Op::Binary { op },
            vec![of(dtype, int64s(70), &[70]), of(dtype, b, &[70])],
            [70],
            dtype,
        ));
        // Broadcasting, with a zero divisor.
        cases.push(Case::exact(
            Op::Binary { op },
            vec![
                of(dtype, int64s(6), &[3, 1, 2]),
                of(dtype, vec![5, 0, -4, 9], &[4, 1]),
            ],
            [3, 4, 2],
            dtype,
        ));
    }
    cases
}

pub fn binary_scalar(op: BinaryOp) -> Vec<Case> {
    let mut cases = Vec::new();
    for dtype in WIDE {
        for scalar in [3.0, -2.0, 0.0, 7.9] {
            for scalar_on_left in [false, true] {
                let op = Op::BinaryScalar {
                    op,
                    scalar,
                    scalar_on_left,
                };
                cases.push(Case::exact(
                    op,
                    vec![of(dtype, int64s(70), &[70])],
                    [70],
                    dtype,
                ));
            }
        }
    }
    cases
}

/// The unary ops that keep integers; the others are the reference's only on
/// floats (the dispatcher promotes first).
pub fn unary(op: UnaryOp) -> Vec<Case> {
    if !op.keeps_integers() {
        return Vec::new();
    }
    WIDE.map(|dtype| {
        let x = of(dtype, int64s(70), &[70]);
        Case::exact(Op::Unary { op }, vec![x], [70], dtype)
    })
    .into()
}

pub fn compare(op: CompareOp, with_scalar: bool) -> Vec<Case> {
    let mut cases = Vec::new();
    if with_scalar {
        let scalars = [0.0, 2.5, -2.5, 7.0, 1e300, -1e300, f64::NAN, 9.3e18];
        for dtype in [DType::Int64, DType::Int32, DType::UInt8, DType::Bool] {
            for scalar in scalars {
                let x = match dtype {
                    DType::Bool => (HostData::Bool(bools(70)), Shape::new([70])),
                    _ => of(dtype, int64s(70), &[70]),
                };
                cases.push(Case::exact(
                    Op::CompareScalar { op, scalar },
                    vec![x],
                    [70],
                    DType::Bool,
                ));
            }
        }
        return cases;
    }
    let mut reversed = int64s(70);
    reversed.reverse();
    cases.push(Case::exact(
        Op::Compare { op },
        vec![
            of(DType::Int64, int64s(70), &[70]),
            of(DType::Int64, reversed, &[70]),
        ],
        [70],
        DType::Bool,
    ));
    // Mixed widths, broadcasting (equal values meet).
    cases.push(Case::exact(
        Op::Compare { op },
        vec![
            of(DType::Int32, int64s(6), &[3, 1, 2]),
            of(DType::Int64, vec![0, 1, -1, 7], &[4, 1]),
        ],
        [3, 4, 2],
        DType::Bool,
    ));
    let flags = |n: usize| (HostData::Bool(bools(n)), Shape::new([n]));
    let mut other = bools(70);
    other.reverse();
    cases.push(Case::exact(
        Op::Compare { op },
        vec![flags(70), (HostData::Bool(other), Shape::new([70]))],
        [70],
        DType::Bool,
    ));
    cases
}

/// `n` bools in an irregular pattern.
pub fn bools(n: usize) -> Vec<bool> {
    (0..n).map(|i| (i * 7 + i / 3) % 5 < 2).collect()
}

/// Casts among float32, bool, int32 and int64 (float64 and bfloat16 stay on
/// the host): NaN, infinities, halves and values past every range among the
/// floats; ties and extremes among the integers.
pub fn casts() -> Vec<Case> {
    let floats = {
        let mut v = mixed(70);
        let edges = [
            f32::INFINITY,
            f32::NEG_INFINITY,
            3e9,
            -3e9,
            9.3e18,
            -9.3e18,
            2_147_483_500.0,
            -2.9,
            1e-30,
            16_777_216.0,
        ];
        for (i, e) in edges.into_iter().enumerate() {
            v[i * 7] = e;
        }
        v
    };
    let source = |dtype: DType| match dtype {
        DType::Float32 => (HostData::F32(floats.clone()), Shape::new([70])),
        DType::Bool => (HostData::Bool(bools(70)), Shape::new([70])),
        _ => of(dtype, int64s(70), &[70]),
    };
    let held = [
        DType::Float32,
        DType::Bool,
        DType::UInt8,
        DType::Int32,
        DType::Int64,
    ];
    let mut cases = Vec::new();
    for from in held {
        for to in held {
            cases.push(Case::exact(Op::Cast { to }, vec![source(from)], [70], to));
        }
        // WGSL has no 64-bit floats.
        cases.push(Case::refused(
            Op::Cast { to: DType::Float64 },
            vec![source(from)],
            Shape::new([70]),
            DType::Float64,
        ));
    }
    cases
}

/// Reductions of integers and bools along every axis; `argmax`/`argmin` of
/// floats (NaN first) and of integers.
pub fn reduce(op: ReduceOp) -> Vec<Case> {
    let mut cases = Vec::new();
    for dims in [vec![1], vec![1000], vec![7, 1, 257], vec![3, 4, 5, 2]] {
        let shape = Shape::new(dims.clone());
        let n = shape.numel();
        for axis in 0..dims.len() {
            let mut out = dims.clone();
            out[axis] = 1;
            let reduce = Op::Reduce { op, axis };
            let case = |input: HostData, dtype: DType| Case {
                op: reduce.clone(),
                inputs: vec![(input, shape.clone())],
                out: Shape::new(out.clone()),
                dtype,
                expect: crate::case::Expect::Close(crate::case::Tolerance::Exact),
            };
            match op {
                ReduceOp::ArgMax | ReduceOp::ArgMin => {
                    cases.push(case(HostData::F32(mixed(n)), DType::Int64));
                    cases.push(case(data(DType::Int64, int64s(n)), DType::Int64));
                }
                ReduceOp::Max | ReduceOp::Min => {
                    cases.push(case(data(DType::Int64, int64s(n)), DType::Int64));
                    cases.push(case(data(DType::Int32, int64s(n)), DType::Int32));
                    cases.push(case(data(DType::UInt8, int64s(n)), DType::UInt8));
                    cases.push(case(HostData::Bool(bools(n)), DType::Bool));
                }
                ReduceOp::Sum | ReduceOp::Prod => {
                    cases.push(case(data(DType::Int64, int64s(n)), DType::Int64));
                    cases.push(case(data(DType::Int32, int64s(n)), DType::Int64));
                    cases.push(case(data(DType::UInt8, int64s(n)), DType::Int64));
                }
            }
        }
    }
    cases
}

pub fn cumsums() -> Vec<Case> {
    let mut cases = Vec::new();
    for dims in [vec![1000], vec![3, 4, 5, 2]] {
        let shape = Shape::new(dims.clone());
        for axis in 0..dims.len() {
            for reverse in [false, true] {
                let x = of(DType::Int32, int64s(shape.numel()), &dims);
                let op = Op::Cumsum { axis, reverse };
                cases.push(Case {
                    op,
                    inputs: vec![x],
                    out: shape.clone(),
                    dtype: DType::Int64,
                    expect: crate::case::Expect::Close(crate::case::Tolerance::Exact),
                });
            }
        }
    }
    cases
}

pub fn sums() -> Vec<Case> {
    [1, 257, 70_001]
        .into_iter()
        .flat_map(|n| {
            [
                Case::exact(
                    Op::SumAll,
                    vec![of(DType::Int64, int64s(n), &[n])],
                    [],
                    DType::Int64,
                ),
                Case::exact(
                    Op::SumAll,
                    vec![(HostData::Bool(bools(n)), Shape::new([n]))],
                    [],
                    DType::Int64,
                ),
            ]
        })
        .collect()
}

pub fn fills() -> Vec<Case> {
    [-1.5, 1e30, f64::NAN, 3.0, -3e9]
        .into_iter()
        .flat_map(|value| WIDE.map(|dtype| Case::exact(Op::Fill { value }, vec![], [257], dtype)))
        .collect()
}

/// Padding of every integer dtype and of bools, the value converted as
/// the reference converts it (-1 into uint8 is 255).
pub fn pads() -> Vec<Case> {
    let pad = |value: f64| Op::Pad {
        before: vec![1, 0],
        after: vec![0, 2],
        value,
    };
    let mut cases: Vec<Case> = WIDE
        .into_iter()
        .flat_map(|dtype| {
            [-1.0, 3e9, 7.5].map(|value| {
                Case::exact(
                    pad(value),
                    vec![of(dtype, int64s(6), &[2, 3])],
                    [3, 5],
                    dtype,
                )
            })
        })
        .collect();
    let flags = (HostData::Bool(bools(6)), Shape::new([2, 3]));
    cases.push(Case::exact(pad(1.0), vec![flags], [3, 5], DType::Bool));
    cases
}

/// `torch.cat` of int64 (two words an element), int32, uint8 and bool
/// tensors.
pub fn concats() -> Vec<Case> {
    let op = Op::Concat { axis: 1, parts: 2 };
    let mut cases: Vec<Case> = WIDE
        .into_iter()
        .map(|dtype| {
            let parts = vec![of(dtype, int64s(6), &[2, 3]), of(dtype, int64s(4), &[2, 2])];
            Case::exact(op.clone(), parts, [2, 5], dtype)
        })
        .collect();
    let flags = |n: usize, dims: [usize; 2]| (HostData::Bool(bools(n)), Shape::new(dims));
    cases.push(Case::exact(
        op,
        vec![flags(6, [2, 3]), flags(4, [2, 2])],
        [2, 5],
        DType::Bool,
    ));
    cases
}

/// A transposed view of int64, int32 and uint8 data.
pub fn strided() -> Vec<Case> {
    WIDE.map(|dtype| {
        let op = Op::Strided {
            offset: 1,
            strides: vec![1, 5],
        };
        Case::exact(op, vec![of(dtype, int64s(31), &[31])], [5, 6], dtype)
    })
    .into()
}

pub fn gathers() -> Vec<Case> {
    let index = || of(DType::Int64, vec![6, 0, 3, 3, 5], &[5]);
    vec![
        Case::exact(
            Op::Gather,
            vec![(HostData::F32(mixed(7)), Shape::new([7])), index()],
            [5],
            DType::Float32,
        ),
        Case::exact(
            Op::Gather,
            vec![of(DType::Int64, int64s(7), &[7]), index()],
            [5],
            DType::Int64,
        ),
        Case::exact(
            Op::Gather,
            vec![(HostData::Bool(bools(7)), Shape::new([7])), index()],
            [5],
            DType::Bool,
        ),
    ]
}

/// Scatters with duplicate positions (the last wins, or all add in order):
/// float values whose sum depends on the order, and int64 ones.
pub fn scatters() -> Vec<Case> {
    let index = || of(DType::Int64, vec![6, 0, 6, 2, 0, 6], &[6]);
    let mut cases = Vec::new();
    for accumulate in [false, true] {
        let op = Op::Scatter { accumulate };
        let floats = HostData::F32(vec![1e8, 2.0, 3.0, -1.5, 0.1, 1.0]);
        cases.push(Case::exact(
            op.clone(),
            vec![
                (HostData::F32(mixed(7)), Shape::new([7])),
                index(),
                (floats, Shape::new([6])),
            ],
            [7],
            DType::Float32,
        ));
        cases.push(Case::exact(
            op.clone(),
            vec![
                of(DType::Int64, int64s(7), &[7]),
                index(),
                of(DType::Int64, int64s(6), &[6]),
            ],
            [7],
            DType::Int64,
        ));
    }
    // No values at all (an empty index still binds a whole int64).
    cases.push(Case::exact(
        Op::Scatter { accumulate: false },
        vec![
            (HostData::F32(mixed(7)), Shape::new([7])),
            of(DType::Int64, vec![], &[0]),
            (HostData::F32(vec![]), Shape::new([0])),
        ],
        [7],
        DType::Float32,
    ));
    // Accumulating whole rows into rows (an embedding's gradient), with
    // duplicate rows, so each column adds in index order: small, and with
    // more rows than one invocation may loop over (two launches).
    for (rows, width, table) in [(9, 3, 5), (70_000, 2, 50)] {
        let positions: Vec<i64> = (0..rows * width)
            .map(|j| ((j / width * 7919 % table) * width + j % width) as i64)
            .collect();
        cases.push(accumulated(table * width, positions, rows, width));
    }
    // Values that leave their column (a row's values all to one position):
    // added in one invocation, in order, in launches of at most 65,000.
    for (rows, width) in [(4, 3), (35_001, 2)] {
        let positions: Vec<i64> = (0..rows * width)
            .map(|j| (j / width * 31 % 101) as i64)
            .collect();
        cases.push(accumulated(101, positions, rows, width));
    }
    // A base of 70,001 elements, so the copy spans a second grid row.
    cases.push(Case::exact(
        Op::Scatter { accumulate: false },
        vec![
            (HostData::F32(mixed(70_001)), Shape::new([70_001])),
            of(DType::Int64, vec![70_000, 5], &[2]),
            (HostData::F32(vec![4.0, 5.0]), Shape::new([2])),
        ],
        [70_001],
        DType::Float32,
    ));
    cases
}

/// `index_put_(accumulate=True)` of `rows` x `width` values (not exact in
/// binary, so the order they are added in shows) at `positions` of a base
/// of `base` elements.
fn accumulated(base: usize, positions: Vec<i64>, rows: usize, width: usize) -> Case {
    let n = rows * width;
    Case::exact(
        Op::Scatter { accumulate: true },
        vec![
            (HostData::F32(ramp(base)), Shape::new([base])),
            of(DType::Int64, positions, &[rows, width]),
            (
                HostData::F32(ramp(n + 3)[3..].to_vec()),
                Shape::new([rows, width]),
            ),
        ],
        [base],
        DType::Float32,
    )
}

pub fn wheres() -> Vec<Case> {
    let cond = || (HostData::Bool(bools(12)), Shape::new([3, 4]));
    let mut flipped = bools(4);
    flipped.reverse();
    vec![
        Case::exact(
            Op::Where,
            vec![
                cond(),
                (HostData::Bool(flipped), Shape::new([4])),
                (HostData::Bool(vec![true]), Shape::new([1])),
            ],
            [3, 4],
            DType::Bool,
        ),
        Case::exact(
            Op::Where,
            vec![
                cond(),
                of(DType::Int64, int64s(4), &[4]),
                of(DType::Int64, vec![-100], &[1]),
            ],
            [3, 4],
            DType::Int64,
        ),
    ]
}

/// `arange` with integer values (int64 exact, then the dtype), `linspace`
/// and `eye`; fractional `arange` bounds stay on the host.
pub fn creations() -> Vec<Case> {
    let arange = |start, step| Op::Arange { start, step };
    let (int, float) = (IntOrFloat::Int, IntOrFloat::Float);
    let mut cases = vec![
        Case::exact(arange(int(0), int(1)), vec![], [1000], DType::Int64),
        Case::exact(arange(int(-5), int(3)), vec![], [257], DType::Int32),
        Case::exact(
            arange(int(1 << 40), int(-7_000_000_000)),
            vec![],
            [70],
            DType::Int64,
        ),
        Case::exact(arange(int(3), int(2)), vec![], [70], DType::Float32),
        Case::exact(arange(float(0.0), float(2.0)), vec![], [70], DType::Float32),
        Case::refused(
            arange(float(0.5), float(0.25)),
            vec![],
            Shape::new([7]),
            DType::Float32,
        ),
        Case::exact(Op::Eye, vec![], [3, 5], DType::Float32),
        Case::exact(Op::Eye, vec![], [4, 4], DType::Int64),
        Case::exact(Op::Eye, vec![], [2, 3], DType::Bool),
    ];
    for (n, start, end) in [
        (257, -1.0, 1.0),
        (2, 0.0, 1.0),
        (1, 3.0, 4.0),
        (1000, 0.1, 7.3),
    ] {
        cases.push(Case {
            op: Op::Linspace { start, end },
            inputs: vec![],
            out: Shape::new([n]),
            dtype: DType::Float32,
            // `start + step * i` may be contracted into one fused multiply-add.
            expect: crate::case::Expect::Close(crate::case::Tolerance::Ulps {
                ulps: 1.0,
                floor: 1e-7,
            }),
        });
    }
    cases
}
