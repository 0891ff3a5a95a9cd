fn unary_12(x: f32) -> f32 {
    return sqrt(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 9>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;
@group(0) @binding(5) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rank = param(1u);
    var rest = i;
    var o0 = 0u;
    var o1 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
    }
    let v0 = bitcast<f32>(param(26u));
    let v1 = bitcast<f32>(param(27u));
    let v2 = in0[o0];
    let v3 = (v2 * bitcast<f32>(param(28u)));
    let v4 = in1[o1];
    let v5 = (v4 - v0);
    let v6 = (bitcast<f32>(param(29u)) * v5);
    let v7 = (v0 + v6);
    let v8 = (v1 * bitcast<f32>(param(30u)));
    let v9 = (v4 * bitcast<f32>(param(31u)));
    let v10 = (v9 * v4);
    let v11 = (v8 + v10);
    let v12 = unary_12(v11);
    let v13 = (v12 / bitcast<f32>(param(32u)));
    let v14 = (v13 + bitcast<f32>(param(33u)));
    let v15 = (v7 * bitcast<f32>(param(34u)));
    let v16 = (v15 / v14);
    let v17 = (v3 + v16);
    out0[i] = v7;
    out1[i] = v11;
    out2[i] = v17;
}
