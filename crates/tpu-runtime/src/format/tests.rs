//! Tensor printing against what PyTorch prints.
use super::*;
use expect_test::expect;

fn repr(values: &[f64], shape: &[usize]) -> String {
    let t = HostTensor {
        values,
        shape,
        dtype: DType::Float32,
    };
    tensor_repr(&t, &[], Some("tpu:0"), &PrintOptions::default())
}

#[test]
fn integer_valued_floats_print_with_a_trailing_point() {
    expect![[r#"
        tensor([[9., 9.],
                [9., 9.]], device='tpu:0')"#]]
    .assert_eq(&repr(&[9.0; 4], &[2, 2]));
}

#[test]
fn fixed_point_uses_four_decimals_and_a_common_width() {
    expect!["tensor([ 0.5000, -1.2500, 10.0000], device='tpu:0')"]
        .assert_eq(&repr(&[0.5, -1.25, 10.0], &[3]));
}

#[test]
fn wide_range_switches_to_scientific() {
    expect!["tensor([1.0000e-05, 1.0000e+00], device='tpu:0')"]
        .assert_eq(&repr(&[1e-5, 1.0], &[2]));
}

#[test]
fn scalars_and_non_finite_values() {
    expect!["tensor(36., device='tpu:0')"].assert_eq(&repr(&[36.0], &[]));
    expect!["tensor([nan, 1., inf], device='tpu:0')"]
        .assert_eq(&repr(&[f64::NAN, 1.0, f64::INFINITY], &[3]));
}

#[test]
fn long_rows_wrap_at_eighty_columns_and_the_suffix_moves_down() {
    let values: Vec<f64> = (0..20).map(|i| i as f64 + 0.5).collect();
    expect![[r#"
        tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,
                 8.5000,  9.5000, 10.5000, 11.5000, 12.5000, 13.5000, 14.5000, 15.5000,
                16.5000, 17.5000, 18.5000, 19.5000], device='tpu:0')"#]]
    .assert_eq(&repr(&values, &[20]));
}

#[test]
fn more_than_a_thousand_elements_are_summarised() {
    let values: Vec<f64> = (0..1200).map(|i| 1000.0 + i as f64).collect();
    expect![[r#"
        tensor([[1000., 1001., 1002.,  ..., 1027., 1028., 1029.],
                [1030., 1031., 1032.,  ..., 1057., 1058., 1059.],
                [1060., 1061., 1062.,  ..., 1087., 1088., 1089.],
                ...,
                [2110., 2111., 2112.,  ..., 2137., 2138., 2139.],
                [2140., 2141., 2142.,  ..., 2167., 2168., 2169.],
                [2170., 2171., 2172.,  ..., 2197., 2198., 2199.]], device='tpu:0')"#]]
    .assert_eq(&repr(&values, &[40, 30]));
}

#[test]
fn integer_bool_and_bfloat16_tensors_print_as_pytorch_prints_them() {
    let show = |values: &[f64], shape: &[usize], dtype| {
        let t = HostTensor {
            values,
            shape,
            dtype,
        };
        tensor_repr(&t, &[], None, &PrintOptions::default())
    };
    expect!["tensor([ True, False,  True])"].assert_eq(&show(&[1.0, 0.0, 1.0], &[3], DType::Bool));
    expect!["tensor([True, True])"].assert_eq(&show(&[1.0, 1.0], &[2], DType::Bool));
    expect![[r#"
        tensor([[1, 1],
                [1, 1]])"#]]
    .assert_eq(&show(&[1.0; 4], &[2, 2], DType::Int64));
    expect![[r#"
        tensor([[ 1.5000, -2.0000],
                [ 3.2500,  4.0000]], dtype=torch.bfloat16)"#]]
    .assert_eq(&show(&[1.5, -2.0, 3.25, 4.0], &[2, 2], DType::BFloat16));
    expect!["tensor([], dtype=torch.int64)"].assert_eq(&show(&[], &[0], DType::Int64));
}

#[test]
fn python_rounding_is_half_to_even_on_exact_ties() {
    assert_eq!(python_fixed(0.5, 0), "0");
    assert_eq!(python_fixed(2.5, 0), "2");
    assert_eq!(python_fixed(-0.0, 0), "-0");
    assert_eq!(python_exp(123456.0, 4), "1.2346e+05");
}
