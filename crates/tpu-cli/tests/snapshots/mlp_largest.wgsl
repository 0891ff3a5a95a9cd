
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
fn sqrt_f32(x: f32) -> f32 {
    if (is_nan(x) || (sign_bit(x) != 0u && x != 0.0)) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return sqrt(2.0 * denormal_steps(x)) * 2.646978e-23;
    }
    if (x == 0.0 || is_inf(x)) { return x; }
    return sqrt(x);
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
fn unary_11(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 12>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;
@group(0) @binding(6) var<storage, read_write> out2: array<f32>;
@group(0) @binding(7) var<storage, read_write> out3: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(34u);
    let k = param(35u);
    let n = param(36u);
    let col = i % n;
    let row = (i / n) % m;
    let batch = i / (m * n);
    let ao = param(10u) + (batch / param(12u)) * param(11u) + (batch % param(12u)) * param(13u);
    let ar = param(14u);
    let ac = param(15u);
    let bo = param(18u) + (batch / param(20u)) * param(19u) + (batch % param(20u)) * param(21u);
    let br = param(22u);
    let bc = param(23u);
    var acc = 0.0;
    for (var p = 0u; p < k; p = p + 1u) {
        acc = acc + in0[ao + p * ar + row * ac] * in1[bo + p * br + col * bc];
    }
    let rank = param(1u);
    var rest = i;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o2 = o2 + c * param(26u + axis);
    }
    let v0 = acc;
    let v1 = in2[o2];
    let v2 = (v1 * bitcast<f32>(param(37u)));
    let v3 = bitcast<f32>(param(38u));
    let v4 = (v0 - v3);
    let v5 = (bitcast<f32>(param(39u)) * v4);
    let v6 = (v3 + v5);
    let v7 = (v3 * bitcast<f32>(param(40u)));
    let v8 = (bitcast<f32>(param(41u)) * v0);
    let v9 = (v8 * v0);
    let v10 = (v7 + v9);
    let v11 = unary_11(v10);
    let v12 = div_f32(v11, bitcast<f32>(param(42u)));
    let v13 = (v12 + bitcast<f32>(param(43u)));
    let v14 = div_f32(v6, v13);
    let v15 = (bitcast<f32>(param(44u)) * v14);
    let v16 = (v2 + v15);
    out0[i] = v0;
    out1[i] = v6;
    out2[i] = v10;
    out3[i] = v16;
}
