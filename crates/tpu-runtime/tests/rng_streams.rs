//! The generator against streams real PyTorch produced (`tools/record/rng_streams.py`
//! wrote `tests/rng/pytorch_streams.json`): uniform and integer streams must match
//! exactly; normal streams to within a few float32 roundings of their scale,
//! because PyTorch's vectorised Box–Muller uses its own `log`, `sin` and `cos`.

use serde_json::Value;
use tpu_runtime::rng::Generator;

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

fn f32s(values: Vec<f32>) -> Vec<f64> {
    values.into_iter().map(f64::from).collect()
}

#[test]
fn every_stream_matches_pytorch() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/rng/pytorch_streams.json"
    );
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    assert!(cases.len() >= 30);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let mut g = Generator::new(case["seed"].as_u64().unwrap());
        for (step, expected) in case["steps"]
            .as_array()
            .unwrap()
            .iter()
            .zip(case["outputs"].as_array().unwrap())
        {
            let (kind, args) = (step[0].as_str().unwrap(), &step[1]);
            let n = |i: usize| args[i].as_f64().unwrap();
            // The magnitude normal values are computed at: |mean| + |std|.
            let mut scale = 1.0f64;
            let (actual, exact) = match kind {
                "rand" => {
                    let mut out = vec![0f32; args.as_u64().unwrap() as usize];
                    g.fill_uniform_f32(&mut out, 0.0, 1.0);
                    (f32s(out), true)
                }
                "randn" => {
                    let mut out = vec![0f32; args.as_u64().unwrap() as usize];
                    g.fill_normal_f32(&mut out, 0.0, 1.0);
                    (f32s(out), false)
                }
                "uniform_" => {
                    let mut out = vec![0f32; n(0) as usize];
                    g.fill_uniform_f32(&mut out, n(1), n(2));
                    (f32s(out), true)
                }
                "normal_" => {
                    scale = n(1).abs() + n(2).abs();
                    let mut out = vec![0f32; n(0) as usize];
                    g.fill_normal_f32(&mut out, n(1), n(2));
                    (f32s(out), false)
                }
                "randint" => {
                    let got = g.randint(
                        args[0].as_i64().unwrap(),
                        args[1].as_i64().unwrap(),
                        args[2].as_u64().unwrap() as usize,
                    );
                    assert_eq!(got, ints(expected), "{name}: {kind} {args}");
                    continue;
                }
                "randperm" => {
                    let got = g.randperm(args.as_u64().unwrap() as usize);
                    assert_eq!(got, ints(expected), "{name}: {kind} {args}");
                    continue;
                }
                other => panic!("unknown step {other}"),
            };
            let expected = floats(expected);
            assert_eq!(actual.len(), expected.len(), "{name}: {kind}");
            for (i, (a, e)) in actual.iter().zip(&expected).enumerate() {
                let tolerance = 4.0 * f32::EPSILON as f64 * e.abs().max(scale);
                let ok = if exact {
                    a == e
                } else {
                    (a - e).abs() <= tolerance
                };
                assert!(
                    ok,
                    "{name}: {kind} {args} element {i}: ours {a}, PyTorch {e}"
                );
            }
        }
    }
}
