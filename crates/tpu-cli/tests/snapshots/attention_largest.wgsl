
fn is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}
fn is_inf(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u;
}
fn nan() -> f32 {
    var bits = 0x7fc00000u;
    return bitcast<f32>(bits);
}
fn inf() -> f32 {
    var bits = 0x7f800000u;
    return bitcast<f32>(bits);
}
fn sign_bit(x: f32) -> u32 {
    return bitcast<u32>(x) & 0x80000000u;
}
fn with_sign(magnitude: f32, sign: u32) -> f32 {
    return bitcast<f32>((bitcast<u32>(magnitude) & 0x7fffffffu) | sign);
}
fn is_denormal(x: f32) -> bool {
    let bits = bitcast<u32>(x) & 0x7fffffffu;
    return bits != 0u && bits < 0x800000u;
}
fn denormal_steps(x: f32) -> f32 {
    return f32(bitcast<u32>(x) & 0x7fffffu);
}
fn div_f32(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    let sign = sign_bit(a) ^ sign_bit(b);
    if (b == 0.0) {
        if (a == 0.0) { return nan(); }
        return with_sign(inf(), sign);
    }
    if (is_inf(b)) {
        if (is_inf(a)) { return nan(); }
        return with_sign(0.0, sign);
    }
    if (is_inf(a)) { return with_sign(inf(), sign); }
    if (abs(b) > 8.507059e37) { return (a / (b * 0.0625)) * 0.0625; }
    return a / b;
}
fn unary_16(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 16>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read> in4: array<f32>;
@group(0) @binding(6) var<storage, read> in5: array<f32>;
@group(0) @binding(7) var<storage, read_write> out0: array<f32>;
@group(0) @binding(8) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(58u);
    let inner = param(59u);
    let along = param(60u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    var o3 = 0u;
    var o4 = 0u;
    var o5 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
        o3 = o3 + c * param(34u + axis);
        o4 = o4 + c * param(42u + axis);
        o5 = o5 + c * param(50u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let s3 = param(34u + along);
    let s4 = param(42u + along);
    let s5 = param(50u + along);
    let v1 = in1[o1];
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v3 = in2[o2 + e * s2];
        let v4 = (v0 * v3);
        let x = v4;
        v5 = v5 + x;
    }
    let v6 = in3[o3];
    let v7 = (v5 * v6);
    let v8 = in4[o4];
    let v9 = div_f32(v7, v8);
    let v10 = div_f32(v9, bitcast<f32>(param(61u)));
    var v15 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 * v1);
        let v3 = in2[o2 + e * s2];
        let v11 = (v10 * v3);
        let v12 = (v10 * v3);
        let v13 = (v2 + v11);
        let v14 = (v13 + v12);
        let x = v14;
        v15 = v15 + x;
    }
    let v16 = unary_16(v15);
    let v19 = div_f32(v16, bitcast<f32>(param(62u)));
    out1[i] = v19;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 * v1);
        let v3 = in2[o2 + e * s2];
        let v11 = (v10 * v3);
        let v12 = (v10 * v3);
        let v13 = (v2 + v11);
        let v14 = (v13 + v12);
        let v17 = in5[o5 + e * s5];
        let v18 = (v17 + v14);
        out0[base + e * inner] = v18;
    }
}
