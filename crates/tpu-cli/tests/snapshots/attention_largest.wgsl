fn unary_8(x: f32) -> f32 {
    return -x;
}
fn unary_9(x: f32) -> f32 {
    return exp(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 12>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;

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
    var o2 = 0u;
    var o3 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
        o3 = o3 + c * param(34u + axis);
    }
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = (v0 * v1);
    let v3 = in2[o2];
    let v4 = (v0 * v3);
    let v5 = (v2 * bitcast<f32>(param(42u)));
    let v6 = in3[o3];
    let v7 = (v6 * v6);
    let v8 = unary_8(v7);
    let v9 = unary_9(v8);
    let v10 = (v9 * bitcast<f32>(param(43u)));
    let v11 = (v4 * v10);
    let v12 = (v11 * bitcast<f32>(param(44u)));
    let v13 = (v5 + v12);
    out0[i] = v13;
}
