// ---- library kernel ----

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
fn unary_3(x: f32) -> f32 {
    return select(x, 0.0, x < 0.0 && !is_nan(x));
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + col * br + p * bc];
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
    let v2 = (v0 + v1);
    let v3 = unary_3(v2);
    out0[i] = v3;
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 5>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rank = param(1u);
    var rest = i;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let v0 = bitcast<f32>(param(18u));
    let v1 = in0[o0];
    let v2 = div_f32(v0, v1);
    out0[i] = v2;
}
// ---- library kernel ----
fn unary_3(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

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
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = (v0 * v1);
    let v3 = unary_3(v2);
    out0[i] = v3;
}
// ---- library kernel ----

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
fn max_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x > acc);
}
fn min_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x < acc);
}
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
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
fn unary_5(x: f32) -> f32 {
    return exp_f32(x);
}
fn unary_9(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    var v3 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        let x = v2;
        if (e == 0u) {
            v3 = x;
        } else {
            v3 = max_step(v3, x);
        }
    }
    var v6 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        let v4 = (v2 - v3);
        let v5 = unary_5(v4);
        let x = v5;
        v6 = v6 + x;
    }
    var v8 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v7 = in2[o2 + e * s2];
        let x = v7;
        v8 = v8 + x;
    }
    let v9 = unary_9(v8);
    let v10 = div_f32(v9, v6);
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        let v4 = (v2 - v3);
        let v5 = unary_5(v4);
        let v7 = in2[o2 + e * s2];
        let v11 = (v10 * v5);
        let v12 = (v7 + v11);
        out0[base + e * inner] = v12;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    var v3 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 * v1);
        let x = v2;
        v3 = v3 + x;
    }
    out1[i] = v3;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 * v1);
        out0[base + e * inner] = v2;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 6>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;
@group(0) @binding(3) var<storage, read_write> out1: array<f32>;
@group(0) @binding(4) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rank = param(1u);
    var rest = i;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let v0 = bitcast<f32>(param(18u));
    let v1 = bitcast<f32>(param(19u));
    let v2 = in0[o0];
    let v3 = (v2 * bitcast<f32>(param(20u)));
    out0[i] = v0;
    out1[i] = v1;
    out2[i] = v3;
}
// ---- library kernel ----

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
fn unary_12(x: f32) -> f32 {
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
    let v1 = bitcast<f32>(param(37u));
    let v2 = bitcast<f32>(param(38u));
    let v3 = in2[o2];
    let v4 = (v3 * bitcast<f32>(param(39u)));
    let v5 = (v0 - v1);
    let v6 = (bitcast<f32>(param(40u)) * v5);
    let v7 = (v1 + v6);
    let v8 = (v2 * bitcast<f32>(param(41u)));
    let v9 = (bitcast<f32>(param(42u)) * v0);
    let v10 = (v9 * v0);
    let v11 = (v8 + v10);
    let v12 = unary_12(v11);
    let v13 = div_f32(v12, bitcast<f32>(param(43u)));
    let v14 = (v13 + bitcast<f32>(param(44u)));
    let v15 = div_f32(v7, v14);
    let v16 = (bitcast<f32>(param(45u)) * v15);
    let v17 = (v4 + v16);
    out0[i] = v7;
    out1[i] = v11;
    out2[i] = v17;
}
// ---- library kernel ----

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
fn unary_12(x: f32) -> f32 {
    return sqrt_f32(x);
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
    let v9 = (bitcast<f32>(param(31u)) * v4);
    let v10 = (v9 * v4);
    let v11 = (v8 + v10);
    let v12 = unary_12(v11);
    let v13 = div_f32(v12, bitcast<f32>(param(32u)));
    let v14 = (v13 + bitcast<f32>(param(33u)));
    let v15 = div_f32(v7, v14);
    let v16 = (bitcast<f32>(param(34u)) * v15);
    let v17 = (v3 + v16);
    out0[i] = v7;
    out1[i] = v11;
    out2[i] = v17;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = in1[o1];
    let v3 = (v1 - v2);
    let v4 = (bitcast<f32>(param(37u)) * v3);
    let v5 = (v2 + v4);
    let v6 = (bitcast<f32>(param(38u)) * v1);
    let v7 = (v6 * v1);
    let v8 = in2[o2];
    let v9 = (v8 + v7);
    out0[i] = v5;
    out1[i] = v9;
}
// ---- library kernel ----

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
fn unary_1(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

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
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let v0 = in0[o0];
    let v1 = unary_1(v0);
    let v2 = div_f32(v1, bitcast<f32>(param(34u)));
    let v3 = (v2 + bitcast<f32>(param(35u)));
    let v4 = in1[o1];
    let v5 = div_f32(v4, v3);
    let v6 = (bitcast<f32>(param(36u)) * v5);
    let v7 = in2[o2];
    let v8 = (v7 + v6);
    out0[i] = v8;
}
// ---- library kernel ----

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
fn max_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x > acc);
}
fn min_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x < acc);
}
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
}
fn log_f32(x: f32) -> f32 {
    if (is_nan(x) || x < 0.0) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return log(denormal_steps(x)) - 103.27893;
    }
    if (x == 0.0) { return -inf(); }
    if (is_inf(x)) { return x; }
    return log(x);
}
fn unary_3(x: f32) -> f32 {
    return exp_f32(x);
}
fn unary_5(x: f32) -> f32 {
    return log_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 6>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;
@group(0) @binding(3) var<storage, read_write> out1: array<f32>;
@group(0) @binding(4) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(18u);
    let inner = param(19u);
    let along = param(20u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let s0 = param(10u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        if (e == 0u) {
            v1 = x;
        } else {
            v1 = max_step(v1, x);
        }
    }
    var v4 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = unary_3(v2);
        let x = v3;
        v4 = v4 + x;
    }
    let v5 = unary_5(v4);
    out1[i] = v4;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = unary_3(v2);
        let v6 = (v2 - v5);
        out0[base + e * inner] = v3;
        out2[base + e * inner] = v6;
    }
}
// ---- library kernel ----
fn unary_2(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = unary_2(v1);
    let v3 = in1[o1];
    let v4 = (v2 * v3);
    out0[i] = v4;
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

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
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = div_f32(v0, v1);
    let v3 = bitcast<f32>(param(26u));
    let v4 = div_f32(v3, v1);
    out0[i] = v2;
    out1[i] = v4;
}
// ---- library kernel ----

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
fn unary_2(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = unary_2(v1);
    let v3 = in1[o1];
    let v4 = div_f32(v2, v3);
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v5 = in2[o2 + e * s2];
        let v6 = (v4 * v5);
        let v7 = (v0 + v6);
        out0[base + e * inner] = v7;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

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
    let v0 = in0[o0];
    let v1 = (v0 * bitcast<f32>(param(26u)));
    let v2 = in1[o1];
    let v3 = (v2 * bitcast<f32>(param(27u)));
    out0[i] = v1;
    out1[i] = v3;
}
// ---- library kernel ----

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
fn unary_10(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 13>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;
@group(0) @binding(8) var<storage, read_write> out3: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(42u);
    let inner = param(43u);
    let along = param(44u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let s3 = param(34u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = in1[o1];
    let v3 = (v1 - v2);
    let v4 = (bitcast<f32>(param(45u)) * v3);
    let v5 = (v2 + v4);
    let v6 = (bitcast<f32>(param(46u)) * v1);
    let v7 = (v6 * v1);
    let v8 = in2[o2];
    let v9 = (v8 + v7);
    let v10 = unary_10(v9);
    let v11 = div_f32(v10, bitcast<f32>(param(47u)));
    let v12 = (v11 + bitcast<f32>(param(48u)));
    let v13 = div_f32(v5, v12);
    let v14 = (bitcast<f32>(param(49u)) * v13);
    let v15 = in3[o3];
    let v16 = (v15 + v14);
    out0[i] = v1;
    out1[i] = v5;
    out2[i] = v9;
    out3[i] = v16;
}
// ---- library kernel ----

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
fn unary_12(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 13>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;

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
    let v1 = (v0 * bitcast<f32>(param(42u)));
    let v2 = in1[o1];
    let v3 = in2[o2];
    let v4 = (v2 - v3);
    let v5 = (bitcast<f32>(param(43u)) * v4);
    let v6 = (v3 + v5);
    let v7 = in3[o3];
    let v8 = (v7 * bitcast<f32>(param(44u)));
    let v9 = (bitcast<f32>(param(45u)) * v2);
    let v10 = (v9 * v2);
    let v11 = (v8 + v10);
    let v12 = unary_12(v11);
    let v13 = div_f32(v12, bitcast<f32>(param(46u)));
    let v14 = (v13 + bitcast<f32>(param(47u)));
    let v15 = div_f32(v6, v14);
    let v16 = (bitcast<f32>(param(48u)) * v15);
    let v17 = (v1 + v16);
    out0[i] = v6;
    out1[i] = v11;
    out2[i] = v17;
}
// ---- library kernel ----

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
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
}
fn tanh_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    let z = abs(x);
    if (z < 0.0001) { return x; }
    if (z >= 10.0) { return with_sign(1.0, sign_bit(x)); }
    if (z < 0.625) {
        let s = x * x;
        let p = (((-5.70498872745e-3 * s + 2.06390887954e-2) * s - 5.37397155531e-2) * s + 1.33314422036e-1) * s - 3.33332819422e-1;
        return p * s * x + x;
    }
    return with_sign(1.0 - 2.0 / (exp_f32(2.0 * z) + 1.0), sign_bit(x));
}
fn unary_3(x: f32) -> f32 {
    return tanh_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + col * br + p * bc];
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
    let v2 = (v0 + v1);
    let v3 = unary_3(v2);
    out0[i] = v3;
}
// ---- library kernel ----

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
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
}
fn sigmoid_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x < -88.72283) { return 0.0; }
    if (x > 20.0) { return 1.0; }
    return 1.0 / (1.0 + exp_f32(-x));
}
fn unary_3(x: f32) -> f32 {
    return sigmoid_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + col * br + p * bc];
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
    let v2 = (v0 + v1);
    let v3 = unary_3(v2);
    out0[i] = v3;
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 3>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let v0 = bitcast<f32>(param(10u));
    let v1 = div_f32(v0, bitcast<f32>(param(11u)));
    out0[i] = v1;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 12>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(42u);
    let inner = param(43u);
    let along = param(44u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let s3 = param(34u + along);
    let v1 = in1[o1];
    let v5 = in3[o3];
    var v9 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 + v1);
        let v3 = in2[o2 + e * s2];
        let v4 = (v2 - v3);
        let v6 = (v5 * v4);
        let v7 = (v5 * v4);
        let v8 = (v6 + v7);
        let x = v8;
        v9 = v9 + x;
    }
    out1[i] = v9;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 + v1);
        let v3 = in2[o2 + e * s2];
        let v4 = (v2 - v3);
        let v6 = (v5 * v4);
        let v7 = (v5 * v4);
        let v8 = (v6 + v7);
        out0[base + e * inner] = v8;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = (bitcast<f32>(param(29u)) - v0);
        let v2 = (v0 * v1);
        let v3 = in1[o1 + e * s1];
        let v4 = (v3 * v2);
        let x = v4;
        v5 = v5 + x;
    }
    out1[i] = v5;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = (bitcast<f32>(param(29u)) - v0);
        let v2 = (v0 * v1);
        let v3 = in1[o1 + e * s1];
        let v4 = (v3 * v2);
        out0[base + e * inner] = v4;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = (v0 * v0);
        let v2 = (bitcast<f32>(param(29u)) - v1);
        let v3 = in1[o1 + e * s1];
        let v4 = (v3 * v2);
        let x = v4;
        v5 = v5 + x;
    }
    out1[i] = v5;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = (v0 * v0);
        let v2 = (bitcast<f32>(param(29u)) - v1);
        let v3 = in1[o1 + e * s1];
        let v4 = (v3 * v2);
        out0[base + e * inner] = v4;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

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
    let v0 = in0[o0];
    let v1 = (v0 * bitcast<f32>(param(26u)));
    let v2 = in1[o1];
    let v3 = (v2 + v1);
    out0[i] = v3;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 11>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;

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
    let v1 = (v0 * bitcast<f32>(param(42u)));
    let v2 = in1[o1];
    let v3 = (v2 + v1);
    let v4 = in2[o2];
    let v5 = (v4 * bitcast<f32>(param(43u)));
    let v6 = in3[o3];
    let v7 = (v6 + v5);
    out0[i] = v3;
    out1[i] = v7;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 12>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(42u);
    let k = param(43u);
    let n = param(44u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
    }
    let rank = param(1u);
    var rest = i;
    var o2 = 0u;
    var o3 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o2 = o2 + c * param(26u + axis);
        o3 = o3 + c * param(34u + axis);
    }
    let v0 = acc;
    let v1 = in2[o2];
    let v2 = (v0 + v1);
    let v3 = in3[o3];
    let v4 = (v2 - v3);
    let v5 = (v4 * v4);
    out0[i] = v4;
    out1[i] = v5;
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 6>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;
@group(0) @binding(3) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rank = param(1u);
    var rest = i;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let v0 = in0[o0];
    let v1 = div_f32(v0, bitcast<f32>(param(18u)));
    let v2 = bitcast<f32>(param(19u));
    let v3 = div_f32(v2, bitcast<f32>(param(20u)));
    out0[i] = v1;
    out1[i] = v3;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let v0 = in0[o0];
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 * v1);
        let v3 = (v0 * v1);
        let v4 = (v2 + v3);
        let x = v4;
        v5 = v5 + x;
    }
    out1[i] = v5;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 * v1);
        let v3 = (v0 * v1);
        let v4 = (v2 + v3);
        out0[base + e * inner] = v4;
    }
}
// ---- library kernel ----

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
fn unary_10(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;
@group(0) @binding(3) var<storage, read_write> out1: array<f32>;
@group(0) @binding(4) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rank = param(1u);
    var rest = i;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let v0 = bitcast<f32>(param(18u));
    let v1 = bitcast<f32>(param(19u));
    let v2 = in0[o0];
    let v3 = (v2 - v0);
    let v4 = (bitcast<f32>(param(20u)) * v3);
    let v5 = (v0 + v4);
    let v6 = (v1 * bitcast<f32>(param(21u)));
    let v7 = (bitcast<f32>(param(22u)) * v2);
    let v8 = (v7 * v2);
    let v9 = (v6 + v8);
    let v10 = unary_10(v9);
    let v11 = div_f32(v10, bitcast<f32>(param(23u)));
    let v12 = (v11 + bitcast<f32>(param(24u)));
    let v13 = div_f32(v5, v12);
    let v14 = (bitcast<f32>(param(25u)) * v13);
    out0[i] = v5;
    out1[i] = v9;
    out2[i] = v14;
}
// ---- library kernel ----

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
fn unary_13(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 11>;
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
    let rank = param(1u);
    var rest = i;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = (v0 + v1);
    let v3 = bitcast<f32>(param(34u));
    let v4 = bitcast<f32>(param(35u));
    let v5 = in2[o2];
    let v6 = (v5 - v3);
    let v7 = (bitcast<f32>(param(36u)) * v6);
    let v8 = (v3 + v7);
    let v9 = (v4 * bitcast<f32>(param(37u)));
    let v10 = (bitcast<f32>(param(38u)) * v5);
    let v11 = (v10 * v5);
    let v12 = (v9 + v11);
    let v13 = unary_13(v12);
    let v14 = div_f32(v13, bitcast<f32>(param(39u)));
    let v15 = (v14 + bitcast<f32>(param(40u)));
    let v16 = div_f32(v8, v15);
    let v17 = (bitcast<f32>(param(41u)) * v16);
    out0[i] = v2;
    out1[i] = v8;
    out2[i] = v12;
    out3[i] = v17;
}
// ---- library kernel ----

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
fn unary_10(x: f32) -> f32 {
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
    let v1 = bitcast<f32>(param(37u));
    let v2 = bitcast<f32>(param(38u));
    let v3 = (v0 - v1);
    let v4 = (bitcast<f32>(param(39u)) * v3);
    let v5 = (v1 + v4);
    let v6 = (v2 * bitcast<f32>(param(40u)));
    let v7 = (bitcast<f32>(param(41u)) * v0);
    let v8 = (v7 * v0);
    let v9 = (v6 + v8);
    let v10 = unary_10(v9);
    let v11 = div_f32(v10, bitcast<f32>(param(42u)));
    let v12 = (v11 + bitcast<f32>(param(43u)));
    let v13 = div_f32(v5, v12);
    let v14 = (bitcast<f32>(param(44u)) * v13);
    let v15 = in2[o2];
    let v16 = (v15 + v14);
    out0[i] = v0;
    out1[i] = v5;
    out2[i] = v9;
    out3[i] = v16;
}
// ---- library kernel ----

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
fn unary_10(x: f32) -> f32 {
    return sqrt_f32(x);
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
    let v3 = (v2 - v0);
    let v4 = (bitcast<f32>(param(28u)) * v3);
    let v5 = (v0 + v4);
    let v6 = (v1 * bitcast<f32>(param(29u)));
    let v7 = (bitcast<f32>(param(30u)) * v2);
    let v8 = (v7 * v2);
    let v9 = (v6 + v8);
    let v10 = unary_10(v9);
    let v11 = div_f32(v10, bitcast<f32>(param(31u)));
    let v12 = (v11 + bitcast<f32>(param(32u)));
    let v13 = div_f32(v5, v12);
    let v14 = (bitcast<f32>(param(33u)) * v13);
    let v15 = in1[o1];
    let v16 = (v15 + v14);
    out0[i] = v5;
    out1[i] = v9;
    out2[i] = v16;
}
// ---- library kernel ----

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
fn max_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x > acc);
}
fn min_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x < acc);
}
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
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
fn unary_3(x: f32) -> f32 {
    return exp_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 6>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;
@group(0) @binding(3) var<storage, read_write> out1: array<f32>;
@group(0) @binding(4) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(18u);
    let inner = param(19u);
    let along = param(20u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let s0 = param(10u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        if (e == 0u) {
            v1 = x;
        } else {
            v1 = max_step(v1, x);
        }
    }
    var v4 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = unary_3(v2);
        let x = v3;
        v4 = v4 + x;
    }
    out1[i] = v4;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = unary_3(v2);
        let v5 = div_f32(v3, v4);
        out0[base + e * inner] = v3;
        out2[base + e * inner] = v5;
    }
}
// ---- library kernel ----

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
fn max_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x > acc);
}
fn min_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x < acc);
}
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
}
fn log_f32(x: f32) -> f32 {
    if (is_nan(x) || x < 0.0) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return log(denormal_steps(x)) - 103.27893;
    }
    if (x == 0.0) { return -inf(); }
    if (is_inf(x)) { return x; }
    return log(x);
}
fn unary_3(x: f32) -> f32 {
    return exp_f32(x);
}
fn unary_5(x: f32) -> f32 {
    return log_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 6>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;
@group(0) @binding(3) var<storage, read_write> out1: array<f32>;
@group(0) @binding(4) var<storage, read_write> out2: array<f32>;
@group(0) @binding(5) var<storage, read_write> out3: array<f32>;
@group(0) @binding(6) var<storage, read_write> out4: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(18u);
    let inner = param(19u);
    let along = param(20u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let s0 = param(10u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        if (e == 0u) {
            v1 = x;
        } else {
            v1 = max_step(v1, x);
        }
    }
    var v4 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = unary_3(v2);
        let x = v3;
        v4 = v4 + x;
    }
    let v5 = unary_5(v4);
    out2[i] = v4;
    out3[i] = v5;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = unary_3(v2);
        let v6 = (v2 - v5);
        out0[base + e * inner] = v2;
        out1[base + e * inner] = v3;
        out4[base + e * inner] = v6;
    }
}
// ---- library kernel ----

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
fn sqrt_f32(x: f32) -> f32 {
    if (is_nan(x) || (sign_bit(x) != 0u && x != 0.0)) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return sqrt(2.0 * denormal_steps(x)) * 2.646978e-23;
    }
    if (x == 0.0 || is_inf(x)) { return x; }
    return sqrt(x);
}
fn pow_f32(a: f32, b: f32) -> f32 {
    if (b == 0.0 || a == 1.0) { return 1.0; }
    if (is_nan(a) || is_nan(b)) { return nan(); }
    if (b == 2.0) { return a * a; }
    if (b == 1.0) { return a; }
    if (b == 0.5) { return sqrt_f32(a); }
    if (b == -0.5) { return div_f32(1.0, sqrt_f32(a)); }
    if (b == 3.0) { return a * a * a; }
    if (b == -1.0) { return div_f32(1.0, a); }
    if (b == -2.0) { return div_f32(1.0, a * a); }
    if (is_inf(b)) {
        if (a == -1.0) { return 1.0; }
        return select(0.0, inf(), (abs(a) > 1.0) == (b > 0.0));
    }
    let integer = b == floor(b);
    let odd = integer && abs(b) < 16777216.0 && fract(b * 0.5) != 0.0;
    let sign = select(0u, sign_bit(a), odd);
    if (a == 0.0) {
        return with_sign(select(0.0, inf(), b < 0.0), sign);
    }
    if (is_inf(a)) {
        return with_sign(select(0.0, inf(), b > 0.0), sign);
    }
    if (a < 0.0 && !integer) { return nan(); }
    var l = log2(abs(a));
    if (is_denormal(a)) { l = log2(denormal_steps(a)) - 149.0; }
    let t = b * l;
    if (t >= 128.0) { return with_sign(inf(), sign); }
    if (t < -150.0) { return with_sign(0.0, sign); }
    return with_sign(exp2(t), sign);
}
fn unary_8(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;
@group(0) @binding(3) var<storage, read_write> out1: array<f32>;
@group(0) @binding(4) var<storage, read_write> out2: array<f32>;
@group(0) @binding(5) var<storage, read_write> out3: array<f32>;
@group(0) @binding(6) var<storage, read_write> out4: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(18u);
    let inner = param(19u);
    let along = param(20u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let s0 = param(10u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = div_f32(v1, bitcast<f32>(param(21u)));
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v3 = (v0 - v2);
        let v4 = (v3 * v3);
        let x = v4;
        v5 = v5 + x;
    }
    let v6 = div_f32(v5, bitcast<f32>(param(22u)));
    let v7 = (v6 + bitcast<f32>(param(23u)));
    let v8 = unary_8(v7);
    let v9 = div_f32(bitcast<f32>(param(24u)), v8);
    out1[i] = v8;
    out2[i] = v9;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v3 = (v0 - v2);
        let v10 = (v3 * v9);
        let v11 = pow_f32(v10, bitcast<f32>(param(25u)));
        out0[base + e * inner] = v3;
        out3[base + e * inner] = v10;
        out4[base + e * inner] = v11;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 9>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;
@group(0) @binding(6) var<storage, read_write> out2: array<f32>;

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
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = (v0 + v1);
    let v3 = in2[o2];
    let v4 = (v2 + v3);
    let v5 = bitcast<f32>(param(34u));
    out0[i] = v2;
    out1[i] = v4;
    out2[i] = v5;
}
// ---- library kernel ----

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
fn unary_3(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

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
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = div_f32(v0, v1);
    let v3 = unary_3(v2);
    out0[i] = v3;
}
// ---- library kernel ----

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
fn sqrt_f32(x: f32) -> f32 {
    if (is_nan(x) || (sign_bit(x) != 0u && x != 0.0)) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return sqrt(2.0 * denormal_steps(x)) * 2.646978e-23;
    }
    if (x == 0.0 || is_inf(x)) { return x; }
    return sqrt(x);
}
fn pow_f32(a: f32, b: f32) -> f32 {
    if (b == 0.0 || a == 1.0) { return 1.0; }
    if (is_nan(a) || is_nan(b)) { return nan(); }
    if (b == 2.0) { return a * a; }
    if (b == 1.0) { return a; }
    if (b == 0.5) { return sqrt_f32(a); }
    if (b == -0.5) { return div_f32(1.0, sqrt_f32(a)); }
    if (b == 3.0) { return a * a * a; }
    if (b == -1.0) { return div_f32(1.0, a); }
    if (b == -2.0) { return div_f32(1.0, a * a); }
    if (is_inf(b)) {
        if (a == -1.0) { return 1.0; }
        return select(0.0, inf(), (abs(a) > 1.0) == (b > 0.0));
    }
    let integer = b == floor(b);
    let odd = integer && abs(b) < 16777216.0 && fract(b * 0.5) != 0.0;
    let sign = select(0u, sign_bit(a), odd);
    if (a == 0.0) {
        return with_sign(select(0.0, inf(), b < 0.0), sign);
    }
    if (is_inf(a)) {
        return with_sign(select(0.0, inf(), b > 0.0), sign);
    }
    if (a < 0.0 && !integer) { return nan(); }
    var l = log2(abs(a));
    if (is_denormal(a)) { l = log2(denormal_steps(a)) - 149.0; }
    let t = b * l;
    if (t >= 128.0) { return with_sign(inf(), sign); }
    if (t < -150.0) { return with_sign(0.0, sign); }
    return with_sign(exp2(t), sign);
}
fn unary_20(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 17>;
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
    let v3 = in1[o1];
    let v5 = in2[o2];
    var v9 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = pow_f32(v0, bitcast<f32>(param(61u)));
        let v2 = (v1 * bitcast<f32>(param(62u)));
        let v4 = (v3 * v2);
        let v7 = in3[o3 + e * s3];
        let v8 = (v4 * v7);
        let x = v8;
        v9 = v9 + x;
    }
    let v10 = in4[o4];
    let v11 = (v9 * v10);
    let v12 = in5[o5];
    let v13 = div_f32(v11, v12);
    let v14 = div_f32(v13, bitcast<f32>(param(63u)));
    var v19 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = pow_f32(v0, bitcast<f32>(param(61u)));
        let v2 = (v1 * bitcast<f32>(param(62u)));
        let v4 = (v3 * v2);
        let v6 = (v4 * v5);
        let v7 = in3[o3 + e * s3];
        let v15 = (v14 * v7);
        let v16 = (v14 * v7);
        let v17 = (v6 + v15);
        let v18 = (v17 + v16);
        let x = v18;
        v19 = v19 + x;
    }
    let v20 = unary_20(v19);
    let v21 = div_f32(v20, bitcast<f32>(param(64u)));
    out1[i] = v21;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = pow_f32(v0, bitcast<f32>(param(61u)));
        let v2 = (v1 * bitcast<f32>(param(62u)));
        let v4 = (v3 * v2);
        let v6 = (v4 * v5);
        let v7 = in3[o3 + e * s3];
        let v15 = (v14 * v7);
        let v16 = (v14 * v7);
        let v17 = (v6 + v15);
        let v18 = (v17 + v16);
        out0[base + e * inner] = v18;
    }
}
// ---- library kernel ----

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
fn unary_5(x: f32) -> f32 {
    return -x;
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
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(42u);
    let inner = param(43u);
    let along = param(44u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let s3 = param(34u + along);
    var v4 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v3 = in2[o2 + e * s2];
        let x = v3;
        v4 = v4 + x;
    }
    let v5 = unary_5(v4);
    let v6 = in3[o3];
    let v7 = div_f32(v5, v6);
    out1[i] = v7;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        out0[base + e * inner] = v2;
    }
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 13>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read> in4: array<f32>;
@group(0) @binding(6) var<storage, read_write> out0: array<f32>;
@group(0) @binding(7) var<storage, read_write> out1: array<f32>;

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
    var o4 = 0u;
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
    }
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = (v0 * v1);
    let v3 = in2[o2];
    let v4 = (v3 + v2);
    let v5 = in3[o3];
    let v6 = (v5 + v4);
    let v7 = in4[o4];
    let v8 = div_f32(v3, v7);
    out0[i] = v6;
    out1[i] = v8;
}
// ---- library kernel ----

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
fn unary_6(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 14>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read> in4: array<f32>;
@group(0) @binding(6) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(50u);
    let inner = param(51u);
    let along = param(52u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    var o3 = 0u;
    var o4 = 0u;
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
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let s3 = param(34u + along);
    let s4 = param(42u + along);
    let v1 = in1[o1];
    let v4 = in2[o2];
    var v7 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = div_f32(v0, v1);
        let v3 = div_f32(v2, v1);
        let v5 = (v4 * v3);
        let v6 = unary_6(v5);
        let x = v6;
        v7 = v7 + x;
    }
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v8 = in3[o3 + e * s3];
        let v9 = (v8 + v7);
        let v10 = (v9 * v0);
        let v11 = in4[o4 + e * s4];
        let v12 = (v11 + v10);
        out0[base + e * inner] = v12;
    }
}
// ---- library kernel ----

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
fn sqrt_f32(x: f32) -> f32 {
    if (is_nan(x) || (sign_bit(x) != 0u && x != 0.0)) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return sqrt(2.0 * denormal_steps(x)) * 2.646978e-23;
    }
    if (x == 0.0 || is_inf(x)) { return x; }
    return sqrt(x);
}
fn unary_8(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 11>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = div_f32(v1, bitcast<f32>(param(37u)));
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v3 = (v0 - v2);
        let v4 = (v3 * v3);
        let x = v4;
        v5 = v5 + x;
    }
    let v6 = div_f32(v5, bitcast<f32>(param(38u)));
    let v7 = (v6 + bitcast<f32>(param(39u)));
    let v8 = unary_8(v7);
    let v9 = div_f32(bitcast<f32>(param(40u)), v8);
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v3 = (v0 - v2);
        let v10 = (v3 * v9);
        let v11 = in1[o1 + e * s1];
        let v12 = (v10 * v11);
        let v13 = in2[o2 + e * s2];
        let v14 = (v12 + v13);
        out0[base + e * inner] = v10;
        out1[base + e * inner] = v14;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + col * br + p * bc];
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
    let v2 = (v0 + v1);
    out0[i] = v2;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(26u);
    let k = param(27u);
    let n = param(28u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
    }
    let v0 = acc;
    let v1 = (v0 * bitcast<f32>(param(29u)));
    out0[i] = v1;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(26u);
    let k = param(27u);
    let n = param(28u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
    }
    let v0 = acc;
    out0[i] = v0;
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
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
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        let v3 = in2[o2 + e * s2];
        let v4 = (v3 + v2);
        let x = v4;
        v5 = v5 + x;
    }
    let v6 = div_f32(v5, bitcast<f32>(param(37u)));
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        let v3 = in2[o2 + e * s2];
        let v4 = (v3 + v2);
        let v7 = (v4 - v6);
        let v8 = (v7 * v7);
        out0[base + e * inner] = v2;
        out1[base + e * inner] = v4;
        out2[base + e * inner] = v7;
        out3[base + e * inner] = v8;
    }
}
// ---- library kernel ----

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
fn sqrt_f32(x: f32) -> f32 {
    if (is_nan(x) || (sign_bit(x) != 0u && x != 0.0)) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return sqrt(2.0 * denormal_steps(x)) * 2.646978e-23;
    }
    if (x == 0.0 || is_inf(x)) { return x; }
    return sqrt(x);
}
fn unary_4(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
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
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = div_f32(v1, bitcast<f32>(param(37u)));
    let v3 = (v2 + bitcast<f32>(param(38u)));
    let v4 = unary_4(v3);
    let v5 = div_f32(bitcast<f32>(param(39u)), v4);
    out0[i] = v4;
    out1[i] = v5;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v6 = in1[o1 + e * s1];
        let v7 = (v6 * v5);
        let v8 = in2[o2 + e * s2];
        let v9 = (v7 * v8);
        out2[base + e * inner] = v7;
        out3[base + e * inner] = v9;
    }
}
// ---- library kernel ----

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
fn exp_neg_square(a: f32) -> f32 {
    // exp(-a*a) with -a*a rounded to float32 first: Cody-Waite reduction by
    // ln 2 and a degree-7 Taylor polynomial on |r| <= ln2/2.
    let v = -(a * a);
    let n = round(v * 1.442695041);
    var r = fma(n, -0.693145752, v);
    r = fma(n, -1.428606765e-6, r);
    var p = fma(r, 1.0 / 5040.0, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    return ldexp(p, i32(n));
}

fn erf_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    let a = abs(x);
    if (a < 1.0) {
        let z = x * x;
        var p = 1.4807192805221803e-08;
        p = fma(p, z, -1.6365844146548625e-07);
        p = fma(p, z, 1.6462114444948384e-06);
        p = fma(p, z, -1.4925650248187594e-05);
        p = fma(p, z, 0.00012055332626914605);
        p = fma(p, z, -0.0008548327023163438);
        p = fma(p, z, 0.005223977845162153);
        p = fma(p, z, -0.02686617150902748);
        p = fma(p, z, 0.11283791810274124);
        p = fma(p, z, -0.37612637877464294);
        p = fma(p, z, 1.128379225730896);
        return x * p;
    }
    if (a >= 4.0) { return with_sign(1.0, sign_bit(x)); }
    let u = 1.0 / a;
    let t = u - 0.625;
    var q = 0.02045562118291855;
    q = fma(q, t, -0.04768544062972069);
    q = fma(q, t, 0.047659292817115784);
    q = fma(q, t, -0.024652715772390366);
    q = fma(q, t, -0.010328439995646477);
    q = fma(q, t, 0.04961782321333885);
    q = fma(q, t, -0.07802947610616684);
    q = fma(q, t, 0.07210168987512589);
    q = fma(q, t, -0.001294660265557468);
    q = fma(q, t, -0.17158564925193787);
    q = fma(q, t, 0.489524781703949);
    let y = 1.0 - exp_neg_square(a) * q * u;
    return select(y, -y, x < 0.0);
}
fn unary_5(x: f32) -> f32 {
    return erf_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + col * br + p * bc];
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
    let v2 = (v0 + v1);
    let v3 = (v2 * bitcast<f32>(param(37u)));
    let v4 = (v2 * bitcast<f32>(param(38u)));
    let v5 = unary_5(v4);
    let v6 = (bitcast<f32>(param(39u)) + v5);
    let v7 = (v3 * v6);
    out0[i] = v3;
    out1[i] = v4;
    out2[i] = v6;
    out3[i] = v7;
}
// ---- library kernel ----

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
fn sqrt_f32(x: f32) -> f32 {
    if (is_nan(x) || (sign_bit(x) != 0u && x != 0.0)) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return sqrt(2.0 * denormal_steps(x)) * 2.646978e-23;
    }
    if (x == 0.0 || is_inf(x)) { return x; }
    return sqrt(x);
}
fn pow_f32(a: f32, b: f32) -> f32 {
    if (b == 0.0 || a == 1.0) { return 1.0; }
    if (is_nan(a) || is_nan(b)) { return nan(); }
    if (b == 2.0) { return a * a; }
    if (b == 1.0) { return a; }
    if (b == 0.5) { return sqrt_f32(a); }
    if (b == -0.5) { return div_f32(1.0, sqrt_f32(a)); }
    if (b == 3.0) { return a * a * a; }
    if (b == -1.0) { return div_f32(1.0, a); }
    if (b == -2.0) { return div_f32(1.0, a * a); }
    if (is_inf(b)) {
        if (a == -1.0) { return 1.0; }
        return select(0.0, inf(), (abs(a) > 1.0) == (b > 0.0));
    }
    let integer = b == floor(b);
    let odd = integer && abs(b) < 16777216.0 && fract(b * 0.5) != 0.0;
    let sign = select(0u, sign_bit(a), odd);
    if (a == 0.0) {
        return with_sign(select(0.0, inf(), b < 0.0), sign);
    }
    if (is_inf(a)) {
        return with_sign(select(0.0, inf(), b > 0.0), sign);
    }
    if (a < 0.0 && !integer) { return nan(); }
    var l = log2(abs(a));
    if (is_denormal(a)) { l = log2(denormal_steps(a)) - 149.0; }
    let t = b * l;
    if (t >= 128.0) { return with_sign(inf(), sign); }
    if (t < -150.0) { return with_sign(0.0, sign); }
    return with_sign(exp2(t), sign);
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
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;
@group(0) @binding(8) var<storage, read_write> out3: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(42u);
    let k = param(43u);
    let n = param(44u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + col * br + p * bc];
    }
    let rank = param(1u);
    var rest = i;
    var o2 = 0u;
    var o3 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o2 = o2 + c * param(26u + axis);
        o3 = o3 + c * param(34u + axis);
    }
    let v0 = acc;
    let v1 = in2[o2];
    let v2 = (v0 + v1);
    let v3 = in3[o3];
    let v4 = (v3 + v2);
    let v5 = pow_f32(v4, bitcast<f32>(param(45u)));
    out0[i] = v0;
    out1[i] = v2;
    out2[i] = v4;
    out3[i] = v5;
}
// ---- library kernel ----

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
fn sqrt_f32(x: f32) -> f32 {
    if (is_nan(x) || (sign_bit(x) != 0u && x != 0.0)) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return sqrt(2.0 * denormal_steps(x)) * 2.646978e-23;
    }
    if (x == 0.0 || is_inf(x)) { return x; }
    return sqrt(x);
}
fn pow_f32(a: f32, b: f32) -> f32 {
    if (b == 0.0 || a == 1.0) { return 1.0; }
    if (is_nan(a) || is_nan(b)) { return nan(); }
    if (b == 2.0) { return a * a; }
    if (b == 1.0) { return a; }
    if (b == 0.5) { return sqrt_f32(a); }
    if (b == -0.5) { return div_f32(1.0, sqrt_f32(a)); }
    if (b == 3.0) { return a * a * a; }
    if (b == -1.0) { return div_f32(1.0, a); }
    if (b == -2.0) { return div_f32(1.0, a * a); }
    if (is_inf(b)) {
        if (a == -1.0) { return 1.0; }
        return select(0.0, inf(), (abs(a) > 1.0) == (b > 0.0));
    }
    let integer = b == floor(b);
    let odd = integer && abs(b) < 16777216.0 && fract(b * 0.5) != 0.0;
    let sign = select(0u, sign_bit(a), odd);
    if (a == 0.0) {
        return with_sign(select(0.0, inf(), b < 0.0), sign);
    }
    if (is_inf(a)) {
        return with_sign(select(0.0, inf(), b > 0.0), sign);
    }
    if (a < 0.0 && !integer) { return nan(); }
    var l = log2(abs(a));
    if (is_denormal(a)) { l = log2(denormal_steps(a)) - 149.0; }
    let t = b * l;
    if (t >= 128.0) { return with_sign(inf(), sign); }
    if (t < -150.0) { return with_sign(0.0, sign); }
    return with_sign(exp2(t), sign);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let v3 = in1[o1];
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = pow_f32(v0, bitcast<f32>(param(29u)));
        let v2 = (v1 * bitcast<f32>(param(30u)));
        let v4 = (v3 * v2);
        let x = v4;
        v5 = v5 + x;
    }
    out1[i] = v5;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = pow_f32(v0, bitcast<f32>(param(29u)));
        let v2 = (v1 * bitcast<f32>(param(30u)));
        let v4 = (v3 * v2);
        out0[base + e * inner] = v4;
    }
}
// ---- library kernel ----

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
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
}
fn unary_7(x: f32) -> f32 {
    return -x;
}
fn unary_8(x: f32) -> f32 {
    return exp_f32(x);
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
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(42u);
    let inner = param(43u);
    let along = param(44u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let s3 = param(34u + along);
    var v14 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 * v1);
        let v3 = in2[o2 + e * s2];
        let v4 = (v0 * v3);
        let v5 = in3[o3 + e * s3];
        let v6 = (v5 * v5);
        let v7 = unary_7(v6);
        let v8 = unary_8(v7);
        let v9 = (v8 * bitcast<f32>(param(45u)));
        let v10 = (v4 * v9);
        let v11 = (v10 * bitcast<f32>(param(46u)));
        let v12 = (v2 * bitcast<f32>(param(47u)));
        let v13 = (v11 + v12);
        let x = v13;
        v14 = v14 + x;
    }
    out1[i] = v14;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 * v1);
        let v3 = in2[o2 + e * s2];
        let v4 = (v0 * v3);
        let v5 = in3[o3 + e * s3];
        let v6 = (v5 * v5);
        let v7 = unary_7(v6);
        let v8 = unary_8(v7);
        let v9 = (v8 * bitcast<f32>(param(45u)));
        let v10 = (v4 * v9);
        let v11 = (v10 * bitcast<f32>(param(46u)));
        let v12 = (v2 * bitcast<f32>(param(47u)));
        let v13 = (v11 + v12);
        out0[base + e * inner] = v13;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let v1 = in1[o1];
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v3 = in2[o2 + e * s2];
        let v4 = (v0 * v3);
        let x = v4;
        v5 = v5 + x;
    }
    out1[i] = v5;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 * v1);
        out0[base + e * inner] = v2;
    }
}
// ---- library kernel ----

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
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    var v3 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        let x = v2;
        v3 = v3 + x;
    }
    out1[i] = v3;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        out0[base + e * inner] = v2;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(26u);
    let k = param(27u);
    let n = param(28u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + col * br + p * bc];
    }
    let v0 = acc;
    out0[i] = v0;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(26u);
    let k = param(27u);
    let n = param(28u);
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
    let v0 = acc;
    out0[i] = v0;
}
// ---- library kernel ----

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
fn unary_7(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let v1 = in1[o1];
    var v8 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v3 = in2[o2 + e * s2];
        let v4 = div_f32(v3, v1);
        let v5 = div_f32(v4, v1);
        let v6 = (v0 * v5);
        let v7 = unary_7(v6);
        let x = v7;
        v8 = v8 + x;
    }
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = div_f32(v0, v1);
        let v3 = in2[o2 + e * s2];
        let v9 = (v2 + v8);
        let v10 = (v9 * v3);
        out0[base + e * inner] = v10;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

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
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = (v0 + v1);
    let v3 = bitcast<f32>(param(26u));
    out0[i] = v2;
    out1[i] = v3;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 12>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;
@group(0) @binding(8) var<storage, read_write> out3: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(42u);
    let inner = param(43u);
    let along = param(44u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let s3 = param(34u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    var v3 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v2 = in1[o1 + e * s1];
        let x = v2;
        v3 = v3 + x;
    }
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v4 = in2[o2 + e * s2];
        let x = v4;
        v5 = v5 + x;
    }
    var v7 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v6 = in3[o3 + e * s3];
        let x = v6;
        v7 = v7 + x;
    }
    out0[i] = v1;
    out1[i] = v3;
    out2[i] = v5;
    out3[i] = v7;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    var v3 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 * v1);
        let x = v2;
        v3 = v3 + x;
    }
    out0[i] = v3;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    var v3 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v2 = in1[o1 + e * s1];
        let x = v2;
        v3 = v3 + x;
    }
    out0[i] = v1;
    out1[i] = v3;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 4>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read_write> out0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let v0 = bitcast<f32>(param(10u));
    let v1 = (v0 * bitcast<f32>(param(11u)));
    let v2 = (v1 + bitcast<f32>(param(12u)));
    out0[i] = v0;
    out1[i] = v2;
}
// ---- library kernel ----

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
fn exp_neg_square(a: f32) -> f32 {
    // exp(-a*a) with -a*a rounded to float32 first: Cody-Waite reduction by
    // ln 2 and a degree-7 Taylor polynomial on |r| <= ln2/2.
    let v = -(a * a);
    let n = round(v * 1.442695041);
    var r = fma(n, -0.693145752, v);
    r = fma(n, -1.428606765e-6, r);
    var p = fma(r, 1.0 / 5040.0, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    return ldexp(p, i32(n));
}

fn erf_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    let a = abs(x);
    if (a < 1.0) {
        let z = x * x;
        var p = 1.4807192805221803e-08;
        p = fma(p, z, -1.6365844146548625e-07);
        p = fma(p, z, 1.6462114444948384e-06);
        p = fma(p, z, -1.4925650248187594e-05);
        p = fma(p, z, 0.00012055332626914605);
        p = fma(p, z, -0.0008548327023163438);
        p = fma(p, z, 0.005223977845162153);
        p = fma(p, z, -0.02686617150902748);
        p = fma(p, z, 0.11283791810274124);
        p = fma(p, z, -0.37612637877464294);
        p = fma(p, z, 1.128379225730896);
        return x * p;
    }
    if (a >= 4.0) { return with_sign(1.0, sign_bit(x)); }
    let u = 1.0 / a;
    let t = u - 0.625;
    var q = 0.02045562118291855;
    q = fma(q, t, -0.04768544062972069);
    q = fma(q, t, 0.047659292817115784);
    q = fma(q, t, -0.024652715772390366);
    q = fma(q, t, -0.010328439995646477);
    q = fma(q, t, 0.04961782321333885);
    q = fma(q, t, -0.07802947610616684);
    q = fma(q, t, 0.07210168987512589);
    q = fma(q, t, -0.001294660265557468);
    q = fma(q, t, -0.17158564925193787);
    q = fma(q, t, 0.489524781703949);
    let y = 1.0 - exp_neg_square(a) * q * u;
    return select(y, -y, x < 0.0);
}
fn unary_5(x: f32) -> f32 {
    return erf_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
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
    let v2 = (v0 + v1);
    let v3 = (v2 * bitcast<f32>(param(37u)));
    let v4 = (v2 * bitcast<f32>(param(38u)));
    let v5 = unary_5(v4);
    let v6 = (bitcast<f32>(param(39u)) + v5);
    let v7 = (v3 * v6);
    out0[i] = v3;
    out1[i] = v4;
    out2[i] = v6;
    out3[i] = v7;
}
// ---- library kernel ----

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
fn sin_poly(x: f32) -> f32 {
    if (abs(x) > 0.8) { return sin(x); }
    let z = x * x;
    return fma(fma(fma(-1.9515295891e-4, z, 8.3321608736e-3), z, -1.6666654611e-1) * z, x, x);
}
fn cos_poly(x: f32) -> f32 {
    if (abs(x) > 0.8) { return cos(x); }
    let z = x * x;
    let p = fma(fma(2.443315711809948e-5, z, -1.388731625493765e-3), z, 4.166664568298827e-2);
    return fma(p * z, z, fma(-0.5, z, 1.0));
}
fn quarter_turns(x: f32) -> vec2<f32> {
    let j = round(x * 0.63661977);
    let r = ((x - j * 1.5703125) - j * 4.837513e-4) - j * 7.54979e-8;
    return vec2<f32>(r, j - 4.0 * floor(j * 0.25));
}
fn sin_f32(x: f32) -> f32 {
    if (is_nan(x) || is_inf(x)) { return nan(); }
    if (abs(x) < 0.0001) { return x; }
    let t = quarter_turns(x);
    let q = t.y;
    if (q == 0.0) { return sin_poly(t.x); }
    if (q == 1.0) { return cos_poly(t.x); }
    if (q == 2.0) { return -sin_poly(t.x); }
    return -cos_poly(t.x);
}
fn cos_f32(x: f32) -> f32 {
    if (is_nan(x) || is_inf(x)) { return nan(); }
    if (abs(x) < 0.0001) { return 1.0; }
    let t = quarter_turns(x);
    let q = t.y;
    if (q == 0.0) { return cos_poly(t.x); }
    if (q == 1.0) { return -sin_poly(t.x); }
    if (q == 2.0) { return -cos_poly(t.x); }
    return sin_poly(t.x);
}
fn unary_2(x: f32) -> f32 {
    return sin_f32(x);
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
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(42u);
    let k = param(43u);
    let n = param(44u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
    }
    let rank = param(1u);
    var rest = i;
    var o2 = 0u;
    var o3 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o2 = o2 + c * param(26u + axis);
        o3 = o3 + c * param(34u + axis);
    }
    let v0 = acc;
    let v1 = in2[o2];
    let v2 = unary_2(v1);
    let v3 = in3[o3];
    let v4 = (v0 + v3);
    let v5 = (v4 - v2);
    let v6 = (v5 * v5);
    out0[i] = v2;
    out1[i] = v5;
    out2[i] = v6;
}
// ---- library kernel ----

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
fn unary_12(x: f32) -> f32 {
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
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
    let v1 = bitcast<f32>(param(37u));
    let v2 = bitcast<f32>(param(38u));
    let v3 = in2[o2];
    let v4 = (v3 * bitcast<f32>(param(39u)));
    let v5 = (v0 - v1);
    let v6 = (bitcast<f32>(param(40u)) * v5);
    let v7 = (v1 + v6);
    let v8 = (v2 * bitcast<f32>(param(41u)));
    let v9 = (bitcast<f32>(param(42u)) * v0);
    let v10 = (v9 * v0);
    let v11 = (v8 + v10);
    let v12 = unary_12(v11);
    let v13 = div_f32(v12, bitcast<f32>(param(43u)));
    let v14 = (v13 + bitcast<f32>(param(44u)));
    let v15 = div_f32(v7, v14);
    let v16 = (bitcast<f32>(param(45u)) * v15);
    let v17 = (v4 + v16);
    out0[i] = v0;
    out1[i] = v7;
    out2[i] = v11;
    out3[i] = v17;
}
// ---- library kernel ----

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
fn unary_12(x: f32) -> f32 {
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
    let v1 = bitcast<f32>(param(37u));
    let v2 = bitcast<f32>(param(38u));
    let v3 = in2[o2];
    let v4 = (v3 * bitcast<f32>(param(39u)));
    let v5 = (v0 - v1);
    let v6 = (bitcast<f32>(param(40u)) * v5);
    let v7 = (v1 + v6);
    let v8 = (v2 * bitcast<f32>(param(41u)));
    let v9 = (bitcast<f32>(param(42u)) * v0);
    let v10 = (v9 * v0);
    let v11 = (v8 + v10);
    let v12 = unary_12(v11);
    let v13 = div_f32(v12, bitcast<f32>(param(43u)));
    let v14 = (v13 + bitcast<f32>(param(44u)));
    let v15 = div_f32(v7, v14);
    let v16 = (bitcast<f32>(param(45u)) * v15);
    let v17 = (v4 + v16);
    out0[i] = v0;
    out1[i] = v7;
    out2[i] = v11;
    out3[i] = v17;
}
// ---- library kernel ----

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
fn unary_12(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 15>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read> in4: array<f32>;
@group(0) @binding(6) var<storage, read_write> out0: array<f32>;
@group(0) @binding(7) var<storage, read_write> out1: array<f32>;
@group(0) @binding(8) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(50u);
    let k = param(51u);
    let n = param(52u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
    }
    let rank = param(1u);
    var rest = i;
    var o2 = 0u;
    var o3 = 0u;
    var o4 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o2 = o2 + c * param(26u + axis);
        o3 = o3 + c * param(34u + axis);
        o4 = o4 + c * param(42u + axis);
    }
    let v0 = acc;
    let v1 = in2[o2];
    let v2 = (v1 * bitcast<f32>(param(53u)));
    let v3 = in3[o3];
    let v4 = (v0 - v3);
    let v5 = (bitcast<f32>(param(54u)) * v4);
    let v6 = (v3 + v5);
    let v7 = in4[o4];
    let v8 = (v7 * bitcast<f32>(param(55u)));
    let v9 = (bitcast<f32>(param(56u)) * v0);
    let v10 = (v9 * v0);
    let v11 = (v8 + v10);
    let v12 = unary_12(v11);
    let v13 = div_f32(v12, bitcast<f32>(param(57u)));
    let v14 = (v13 + bitcast<f32>(param(58u)));
    let v15 = div_f32(v6, v14);
    let v16 = (bitcast<f32>(param(59u)) * v15);
    let v17 = (v2 + v16);
    out0[i] = v6;
    out1[i] = v11;
    out2[i] = v17;
}
// ---- library kernel ----

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
fn unary_12(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 15>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read> in4: array<f32>;
@group(0) @binding(6) var<storage, read_write> out0: array<f32>;
@group(0) @binding(7) var<storage, read_write> out1: array<f32>;
@group(0) @binding(8) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(50u);
    let k = param(51u);
    let n = param(52u);
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
    var o3 = 0u;
    var o4 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o2 = o2 + c * param(26u + axis);
        o3 = o3 + c * param(34u + axis);
        o4 = o4 + c * param(42u + axis);
    }
    let v0 = acc;
    let v1 = in2[o2];
    let v2 = (v1 * bitcast<f32>(param(53u)));
    let v3 = in3[o3];
    let v4 = (v0 - v3);
    let v5 = (bitcast<f32>(param(54u)) * v4);
    let v6 = (v3 + v5);
    let v7 = in4[o4];
    let v8 = (v7 * bitcast<f32>(param(55u)));
    let v9 = (bitcast<f32>(param(56u)) * v0);
    let v10 = (v9 * v0);
    let v11 = (v8 + v10);
    let v12 = unary_12(v11);
    let v13 = div_f32(v12, bitcast<f32>(param(57u)));
    let v14 = (v13 + bitcast<f32>(param(58u)));
    let v15 = div_f32(v6, v14);
    let v16 = (bitcast<f32>(param(59u)) * v15);
    let v17 = (v2 + v16);
    out0[i] = v6;
    out1[i] = v11;
    out2[i] = v17;
}
// ---- library kernel ----

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
fn unary_12(x: f32) -> f32 {
    return sqrt_f32(x);
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
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;
@group(0) @binding(8) var<storage, read_write> out3: array<f32>;

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
    let v1 = (v0 * bitcast<f32>(param(42u)));
    let v2 = in1[o1];
    let v3 = in2[o2];
    let v4 = (v2 - v3);
    let v5 = (bitcast<f32>(param(43u)) * v4);
    let v6 = (v3 + v5);
    let v7 = in3[o3];
    let v8 = (v7 * bitcast<f32>(param(44u)));
    let v9 = (bitcast<f32>(param(45u)) * v2);
    let v10 = (v9 * v2);
    let v11 = (v8 + v10);
    let v12 = unary_12(v11);
    let v13 = div_f32(v12, bitcast<f32>(param(46u)));
    let v14 = (v13 + bitcast<f32>(param(47u)));
    out0[i] = v1;
    out1[i] = v6;
    out2[i] = v11;
    out3[i] = v14;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

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
    let v0 = in0[o0];
    let v1 = (bitcast<f32>(param(26u)) * v0);
    let v2 = in1[o1];
    let v3 = (v2 + v1);
    out0[i] = v3;
}
// ---- library kernel ----

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
fn exp_neg_square(a: f32) -> f32 {
    // exp(-a*a) with -a*a rounded to float32 first: Cody-Waite reduction by
    // ln 2 and a degree-7 Taylor polynomial on |r| <= ln2/2.
    let v = -(a * a);
    let n = round(v * 1.442695041);
    var r = fma(n, -0.693145752, v);
    r = fma(n, -1.428606765e-6, r);
    var p = fma(r, 1.0 / 5040.0, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    return ldexp(p, i32(n));
}

fn erf_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    let a = abs(x);
    if (a < 1.0) {
        let z = x * x;
        var p = 1.4807192805221803e-08;
        p = fma(p, z, -1.6365844146548625e-07);
        p = fma(p, z, 1.6462114444948384e-06);
        p = fma(p, z, -1.4925650248187594e-05);
        p = fma(p, z, 0.00012055332626914605);
        p = fma(p, z, -0.0008548327023163438);
        p = fma(p, z, 0.005223977845162153);
        p = fma(p, z, -0.02686617150902748);
        p = fma(p, z, 0.11283791810274124);
        p = fma(p, z, -0.37612637877464294);
        p = fma(p, z, 1.128379225730896);
        return x * p;
    }
    if (a >= 4.0) { return with_sign(1.0, sign_bit(x)); }
    let u = 1.0 / a;
    let t = u - 0.625;
    var q = 0.02045562118291855;
    q = fma(q, t, -0.04768544062972069);
    q = fma(q, t, 0.047659292817115784);
    q = fma(q, t, -0.024652715772390366);
    q = fma(q, t, -0.010328439995646477);
    q = fma(q, t, 0.04961782321333885);
    q = fma(q, t, -0.07802947610616684);
    q = fma(q, t, 0.07210168987512589);
    q = fma(q, t, -0.001294660265557468);
    q = fma(q, t, -0.17158564925193787);
    q = fma(q, t, 0.489524781703949);
    let y = 1.0 - exp_neg_square(a) * q * u;
    return select(y, -y, x < 0.0);
}
fn unary_5(x: f32) -> f32 {
    return erf_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;
@group(0) @binding(5) var<storage, read_write> out2: array<f32>;
@group(0) @binding(6) var<storage, read_write> out3: array<f32>;

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
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = (v0 + v1);
    let v3 = (v2 * bitcast<f32>(param(26u)));
    let v4 = (v2 * bitcast<f32>(param(27u)));
    let v5 = unary_5(v4);
    let v6 = (bitcast<f32>(param(28u)) + v5);
    let v7 = (v3 * v6);
    out0[i] = v3;
    out1[i] = v4;
    out2[i] = v6;
    out3[i] = v7;
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

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
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = div_f32(v0, v1);
    let v3 = (bitcast<f32>(param(26u)) * v2);
    out0[i] = v2;
    out1[i] = v3;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;

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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
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
    let v2 = (v0 + v1);
    out0[i] = v0;
    out1[i] = v2;
}
// ---- library kernel ----

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
fn exp_neg_square(a: f32) -> f32 {
    // exp(-a*a) with -a*a rounded to float32 first: Cody-Waite reduction by
    // ln 2 and a degree-7 Taylor polynomial on |r| <= ln2/2.
    let v = -(a * a);
    let n = round(v * 1.442695041);
    var r = fma(n, -0.693145752, v);
    r = fma(n, -1.428606765e-6, r);
    var p = fma(r, 1.0 / 5040.0, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    return ldexp(p, i32(n));
}

fn erf_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    let a = abs(x);
    if (a < 1.0) {
        let z = x * x;
        var p = 1.4807192805221803e-08;
        p = fma(p, z, -1.6365844146548625e-07);
        p = fma(p, z, 1.6462114444948384e-06);
        p = fma(p, z, -1.4925650248187594e-05);
        p = fma(p, z, 0.00012055332626914605);
        p = fma(p, z, -0.0008548327023163438);
        p = fma(p, z, 0.005223977845162153);
        p = fma(p, z, -0.02686617150902748);
        p = fma(p, z, 0.11283791810274124);
        p = fma(p, z, -0.37612637877464294);
        p = fma(p, z, 1.128379225730896);
        return x * p;
    }
    if (a >= 4.0) { return with_sign(1.0, sign_bit(x)); }
    let u = 1.0 / a;
    let t = u - 0.625;
    var q = 0.02045562118291855;
    q = fma(q, t, -0.04768544062972069);
    q = fma(q, t, 0.047659292817115784);
    q = fma(q, t, -0.024652715772390366);
    q = fma(q, t, -0.010328439995646477);
    q = fma(q, t, 0.04961782321333885);
    q = fma(q, t, -0.07802947610616684);
    q = fma(q, t, 0.07210168987512589);
    q = fma(q, t, -0.001294660265557468);
    q = fma(q, t, -0.17158564925193787);
    q = fma(q, t, 0.489524781703949);
    let y = 1.0 - exp_neg_square(a) * q * u;
    return select(y, -y, x < 0.0);
}
fn unary_3(x: f32) -> f32 {
    return erf_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 6>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;
@group(0) @binding(3) var<storage, read_write> out1: array<f32>;
@group(0) @binding(4) var<storage, read_write> out2: array<f32>;
@group(0) @binding(5) var<storage, read_write> out3: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rank = param(1u);
    var rest = i;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let v0 = in0[o0];
    let v1 = (v0 * bitcast<f32>(param(18u)));
    let v2 = (v0 * bitcast<f32>(param(19u)));
    let v3 = unary_3(v2);
    let v4 = (bitcast<f32>(param(20u)) + v3);
    let v5 = (v1 * v4);
    out0[i] = v1;
    out1[i] = v2;
    out2[i] = v4;
    out3[i] = v5;
}
// ---- library kernel ----

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
fn sqrt_f32(x: f32) -> f32 {
    if (is_nan(x) || (sign_bit(x) != 0u && x != 0.0)) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return sqrt(2.0 * denormal_steps(x)) * 2.646978e-23;
    }
    if (x == 0.0 || is_inf(x)) { return x; }
    return sqrt(x);
}
fn unary_8(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 11>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;
@group(0) @binding(6) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = div_f32(v1, bitcast<f32>(param(37u)));
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v3 = (v0 - v2);
        let v4 = (v3 * v3);
        let x = v4;
        v5 = v5 + x;
    }
    let v6 = div_f32(v5, bitcast<f32>(param(38u)));
    let v7 = (v6 + bitcast<f32>(param(39u)));
    let v8 = unary_8(v7);
    let v9 = div_f32(bitcast<f32>(param(40u)), v8);
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v3 = (v0 - v2);
        let v10 = (v3 * v9);
        let v11 = in1[o1 + e * s1];
        let v12 = (v10 * v11);
        let v13 = in2[o2 + e * s2];
        let v14 = (v12 + v13);
        out0[base + e * inner] = v10;
        out1[base + e * inner] = v12;
        out2[base + e * inner] = v14;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;

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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + col * br + p * bc];
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
    let v2 = (v0 + v1);
    out0[i] = v0;
    out1[i] = v2;
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(26u);
    let k = param(27u);
    let n = param(28u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
    }
    let v0 = acc;
    let v1 = div_f32(v0, bitcast<f32>(param(29u)));
    out0[i] = v0;
    out1[i] = v1;
}
// ---- library kernel ----

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
fn max_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x > acc);
}
fn min_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x < acc);
}
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
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
fn unary_3(x: f32) -> f32 {
    return exp_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 6>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;
@group(0) @binding(3) var<storage, read_write> out1: array<f32>;
@group(0) @binding(4) var<storage, read_write> out2: array<f32>;
@group(0) @binding(5) var<storage, read_write> out3: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(18u);
    let inner = param(19u);
    let along = param(20u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let s0 = param(10u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        if (e == 0u) {
            v1 = x;
        } else {
            v1 = max_step(v1, x);
        }
    }
    var v4 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = unary_3(v2);
        let x = v3;
        v4 = v4 + x;
    }
    out2[i] = v4;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = unary_3(v2);
        let v5 = div_f32(v3, v4);
        out0[base + e * inner] = v2;
        out1[base + e * inner] = v3;
        out3[base + e * inner] = v5;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 12>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(42u);
    let k = param(43u);
    let n = param(44u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + col * br + p * bc];
    }
    let rank = param(1u);
    var rest = i;
    var o2 = 0u;
    var o3 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o2 = o2 + c * param(26u + axis);
        o3 = o3 + c * param(34u + axis);
    }
    let v0 = acc;
    let v1 = in2[o2];
    let v2 = (v0 + v1);
    let v3 = in3[o3];
    let v4 = (v3 + v2);
    out0[i] = v0;
    out1[i] = v2;
    out2[i] = v4;
}
// ---- library kernel ----

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
fn sqrt_f32(x: f32) -> f32 {
    if (is_nan(x) || (sign_bit(x) != 0u && x != 0.0)) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return sqrt(2.0 * denormal_steps(x)) * 2.646978e-23;
    }
    if (x == 0.0 || is_inf(x)) { return x; }
    return sqrt(x);
}
fn pow_f32(a: f32, b: f32) -> f32 {
    if (b == 0.0 || a == 1.0) { return 1.0; }
    if (is_nan(a) || is_nan(b)) { return nan(); }
    if (b == 2.0) { return a * a; }
    if (b == 1.0) { return a; }
    if (b == 0.5) { return sqrt_f32(a); }
    if (b == -0.5) { return div_f32(1.0, sqrt_f32(a)); }
    if (b == 3.0) { return a * a * a; }
    if (b == -1.0) { return div_f32(1.0, a); }
    if (b == -2.0) { return div_f32(1.0, a * a); }
    if (is_inf(b)) {
        if (a == -1.0) { return 1.0; }
        return select(0.0, inf(), (abs(a) > 1.0) == (b > 0.0));
    }
    let integer = b == floor(b);
    let odd = integer && abs(b) < 16777216.0 && fract(b * 0.5) != 0.0;
    let sign = select(0u, sign_bit(a), odd);
    if (a == 0.0) {
        return with_sign(select(0.0, inf(), b < 0.0), sign);
    }
    if (is_inf(a)) {
        return with_sign(select(0.0, inf(), b > 0.0), sign);
    }
    if (a < 0.0 && !integer) { return nan(); }
    var l = log2(abs(a));
    if (is_denormal(a)) { l = log2(denormal_steps(a)) - 149.0; }
    let t = b * l;
    if (t >= 128.0) { return with_sign(inf(), sign); }
    if (t < -150.0) { return with_sign(0.0, sign); }
    return with_sign(exp2(t), sign);
}
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
}
fn tanh_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    let z = abs(x);
    if (z < 0.0001) { return x; }
    if (z >= 10.0) { return with_sign(1.0, sign_bit(x)); }
    if (z < 0.625) {
        let s = x * x;
        let p = (((-5.70498872745e-3 * s + 2.06390887954e-2) * s - 5.37397155531e-2) * s + 1.33314422036e-1) * s - 3.33332819422e-1;
        return p * s * x + x;
    }
    return with_sign(1.0 - 2.0 / (exp_f32(2.0 * z) + 1.0), sign_bit(x));
}
fn unary_8(x: f32) -> f32 {
    return tanh_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 11>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
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
    let v2 = (v0 + v1);
    let v3 = (bitcast<f32>(param(37u)) * v2);
    let v4 = pow_f32(v2, bitcast<f32>(param(38u)));
    let v5 = (bitcast<f32>(param(39u)) * v4);
    let v6 = (v2 + v5);
    let v7 = (bitcast<f32>(param(40u)) * v6);
    let v8 = unary_8(v7);
    let v9 = (bitcast<f32>(param(41u)) + v8);
    let v10 = (v3 * v9);
    out0[i] = v10;
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 6>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(18u);
    let inner = param(19u);
    let along = param(20u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let s0 = param(10u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = div_f32(v1, bitcast<f32>(param(21u)));
    out0[i] = v2;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let v1 = in1[o1];
    var v4 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = (v2 * v2);
        let x = v3;
        v4 = v4 + x;
    }
    out1[i] = v4;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        out0[base + e * inner] = v2;
    }
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

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
    let v0 = in0[o0];
    let v1 = (v0 * bitcast<f32>(param(26u)));
    let v2 = in1[o1];
    let v3 = (v2 * bitcast<f32>(param(27u)));
    let v4 = (v1 + v3);
    out0[i] = v4;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

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
    let v0 = in0[o0];
    let v1 = (v0 * bitcast<f32>(param(26u)));
    let v2 = (v1 * bitcast<f32>(param(27u)));
    let v3 = in1[o1];
    let v4 = (v3 * bitcast<f32>(param(28u)));
    let v5 = (v2 + v4);
    out0[i] = v5;
}
// ---- library kernel ----

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
fn unary_2(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 5>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;
@group(0) @binding(3) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rank = param(1u);
    var rest = i;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let v0 = in0[o0];
    let v1 = (v0 + bitcast<f32>(param(18u)));
    let v2 = unary_2(v1);
    let v3 = div_f32(bitcast<f32>(param(19u)), v2);
    out0[i] = v2;
    out1[i] = v3;
}
// ---- library kernel ----

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
fn unary_7(x: f32) -> f32 {
    return select(x, 0.0, x < 0.0 && !is_nan(x));
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 11>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;

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
    let v4 = (v2 * v3);
    let v5 = in3[o3];
    let v6 = (v4 + v5);
    let v7 = unary_7(v6);
    out0[i] = v2;
    out1[i] = v7;
}
// ---- library kernel ----

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
fn unary_3(x: f32) -> f32 {
    return select(x, 0.0, x < 0.0 && !is_nan(x));
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
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
    let v2 = (v0 + v1);
    let v3 = unary_3(v2);
    out0[i] = v3;
}
// ---- library kernel ----

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
fn max_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x > acc);
}
fn min_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x < acc);
}
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
}
fn log_f32(x: f32) -> f32 {
    if (is_nan(x) || x < 0.0) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return log(denormal_steps(x)) - 103.27893;
    }
    if (x == 0.0) { return -inf(); }
    if (is_inf(x)) { return x; }
    return log(x);
}
fn unary_5(x: f32) -> f32 {
    return exp_f32(x);
}
fn unary_7(x: f32) -> f32 {
    return log_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
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
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    var v3 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        let x = v2;
        if (e == 0u) {
            v3 = x;
        } else {
            v3 = max_step(v3, x);
        }
    }
    var v6 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        let v4 = (v2 - v3);
        let v5 = unary_5(v4);
        let x = v5;
        v6 = v6 + x;
    }
    let v7 = unary_7(v6);
    out1[i] = v6;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 + v1);
        let v4 = (v2 - v3);
        let v5 = unary_5(v4);
        let v8 = (v4 - v7);
        out0[base + e * inner] = v5;
        out2[base + e * inner] = v8;
    }
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(26u);
    let k = param(27u);
    let n = param(28u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
    }
    let v0 = acc;
    let v1 = div_f32(v0, bitcast<f32>(param(29u)));
    out0[i] = v1;
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 14>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read> in4: array<f32>;
@group(0) @binding(6) var<storage, read_write> out0: array<f32>;
@group(0) @binding(7) var<storage, read_write> out1: array<f32>;
@group(0) @binding(8) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(50u);
    let inner = param(51u);
    let along = param(52u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    var o3 = 0u;
    var o4 = 0u;
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
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let s3 = param(34u + along);
    let s4 = param(42u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    var v3 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v2 = in1[o1 + e * s1];
        let x = v2;
        v3 = v3 + x;
    }
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v4 = in2[o2 + e * s2];
        let x = v4;
        v5 = v5 + x;
    }
    let v6 = in3[o3];
    let v7 = (v5 * v6);
    let v8 = in4[o4];
    let v9 = div_f32(v7, v8);
    let v10 = div_f32(v9, bitcast<f32>(param(53u)));
    out0[i] = v1;
    out1[i] = v3;
    out2[i] = v10;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let v0 = in0[o0];
    var v7 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 * v1);
        let v3 = (v0 * v1);
        let v4 = in2[o2 + e * s2];
        let v5 = (v4 + v2);
        let v6 = (v5 + v3);
        let x = v6;
        v7 = v7 + x;
    }
    out1[i] = v7;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v1 = in1[o1 + e * s1];
        let v2 = (v0 * v1);
        let v3 = (v0 * v1);
        let v4 = in2[o2 + e * s2];
        let v5 = (v4 + v2);
        let v6 = (v5 + v3);
        out0[base + e * inner] = v6;
    }
}
// ---- library kernel ----

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
fn unary_2(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 6>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(18u);
    let inner = param(19u);
    let along = param(20u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let s0 = param(10u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = unary_2(v1);
    let v3 = div_f32(v2, bitcast<f32>(param(21u)));
    out0[i] = v3;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 14>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read> in4: array<f32>;
@group(0) @binding(6) var<storage, read_write> out0: array<f32>;
@group(0) @binding(7) var<storage, read_write> out1: array<f32>;
@group(0) @binding(8) var<storage, read_write> out2: array<f32>;

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
    var o4 = 0u;
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
    }
    let v0 = in0[o0];
    let v1 = (v0 * bitcast<f32>(param(50u)));
    let v2 = in1[o1];
    let v3 = (v2 + v1);
    let v4 = in2[o2];
    let v5 = (v4 * bitcast<f32>(param(51u)));
    let v6 = in3[o3];
    let v7 = (v6 + v5);
    let v8 = in4[o4];
    let v9 = (v8 * bitcast<f32>(param(52u)));
    out0[i] = v3;
    out1[i] = v7;
    out2[i] = v9;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

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
    let v0 = in0[o0];
    let v1 = (v0 * bitcast<f32>(param(26u)));
    let v2 = in1[o1];
    let v3 = (v1 + v2);
    let v4 = (v3 * bitcast<f32>(param(27u)));
    out0[i] = v3;
    out1[i] = v4;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 11>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;

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
    let v2 = (v0 + v1);
    let v3 = in2[o2];
    let v4 = (v3 * bitcast<f32>(param(42u)));
    let v5 = in3[o3];
    let v6 = (v4 + v5);
    let v7 = (v6 * bitcast<f32>(param(43u)));
    out0[i] = v2;
    out1[i] = v6;
    out2[i] = v7;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;
@group(0) @binding(6) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = in1[o1];
    let v3 = (v2 + v1);
    let v4 = (v3 * bitcast<f32>(param(37u)));
    let v5 = in2[o2];
    let v6 = (v5 + v4);
    out0[i] = v1;
    out1[i] = v3;
    out2[i] = v6;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 9>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;

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
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let v0 = in0[o0];
    let v1 = (v0 * bitcast<f32>(param(34u)));
    let v2 = in1[o1];
    let v3 = (v1 + v2);
    let v4 = (v3 * bitcast<f32>(param(35u)));
    let v5 = in2[o2];
    let v6 = (v5 + v4);
    out0[i] = v3;
    out1[i] = v6;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 13>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read> in4: array<f32>;
@group(0) @binding(6) var<storage, read_write> out0: array<f32>;
@group(0) @binding(7) var<storage, read_write> out1: array<f32>;
@group(0) @binding(8) var<storage, read_write> out2: array<f32>;

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
    var o4 = 0u;
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
    }
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = (v0 + v1);
    let v3 = in2[o2];
    let v4 = (v3 * bitcast<f32>(param(50u)));
    let v5 = in3[o3];
    let v6 = (v4 + v5);
    let v7 = (v6 * bitcast<f32>(param(51u)));
    let v8 = in4[o4];
    let v9 = (v8 + v7);
    out0[i] = v2;
    out1[i] = v6;
    out2[i] = v9;
}
// ---- library kernel ----
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 12>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(42u);
    let k = param(43u);
    let n = param(44u);
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
    var o3 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o2 = o2 + c * param(26u + axis);
        o3 = o3 + c * param(34u + axis);
    }
    let v0 = acc;
    let v1 = in2[o2];
    let v2 = (v1 * bitcast<f32>(param(45u)));
    let v3 = (v2 + v0);
    let v4 = (v3 * bitcast<f32>(param(46u)));
    let v5 = in3[o3];
    let v6 = (v5 + v4);
    out0[i] = v0;
    out1[i] = v3;
    out2[i] = v6;
}
// ---- library kernel ----

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
fn unary_2(x: f32) -> f32 {
    return sqrt_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 5>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rank = param(1u);
    var rest = i;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let v0 = in0[o0];
    let v1 = (v0 + bitcast<f32>(param(18u)));
    let v2 = unary_2(v1);
    let v3 = div_f32(bitcast<f32>(param(19u)), v2);
    out0[i] = v3;
}
// ---- library kernel ----

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
fn unary_9(x: f32) -> f32 {
    return select(x, 0.0, x < 0.0 && !is_nan(x));
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

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let m = param(58u);
    let k = param(59u);
    let n = param(60u);
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
        acc = acc + in0[ao + row * ar + p * ac] * in1[bo + p * br + col * bc];
    }
    let rank = param(1u);
    var rest = i;
    var o2 = 0u;
    var o3 = 0u;
    var o4 = 0u;
    var o5 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o2 = o2 + c * param(26u + axis);
        o3 = o3 + c * param(34u + axis);
        o4 = o4 + c * param(42u + axis);
        o5 = o5 + c * param(50u + axis);
    }
    let v0 = acc;
    let v1 = in2[o2];
    let v2 = (v0 - v1);
    let v3 = in3[o3];
    let v4 = (v2 * v3);
    let v5 = in4[o4];
    let v6 = (v4 * v5);
    let v7 = in5[o5];
    let v8 = (v6 + v7);
    let v9 = unary_9(v8);
    out0[i] = v9;
}
// ---- library kernel ----

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
fn exp_neg_square(a: f32) -> f32 {
    // exp(-a*a) with -a*a rounded to float32 first: Cody-Waite reduction by
    // ln 2 and a degree-7 Taylor polynomial on |r| <= ln2/2.
    let v = -(a * a);
    let n = round(v * 1.442695041);
    var r = fma(n, -0.693145752, v);
    r = fma(n, -1.428606765e-6, r);
    var p = fma(r, 1.0 / 5040.0, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    return ldexp(p, i32(n));
}

fn erf_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    let a = abs(x);
    if (a < 1.0) {
        let z = x * x;
        var p = 1.4807192805221803e-08;
        p = fma(p, z, -1.6365844146548625e-07);
        p = fma(p, z, 1.6462114444948384e-06);
        p = fma(p, z, -1.4925650248187594e-05);
        p = fma(p, z, 0.00012055332626914605);
        p = fma(p, z, -0.0008548327023163438);
        p = fma(p, z, 0.005223977845162153);
        p = fma(p, z, -0.02686617150902748);
        p = fma(p, z, 0.11283791810274124);
        p = fma(p, z, -0.37612637877464294);
        p = fma(p, z, 1.128379225730896);
        return x * p;
    }
    if (a >= 4.0) { return with_sign(1.0, sign_bit(x)); }
    let u = 1.0 / a;
    let t = u - 0.625;
    var q = 0.02045562118291855;
    q = fma(q, t, -0.04768544062972069);
    q = fma(q, t, 0.047659292817115784);
    q = fma(q, t, -0.024652715772390366);
    q = fma(q, t, -0.010328439995646477);
    q = fma(q, t, 0.04961782321333885);
    q = fma(q, t, -0.07802947610616684);
    q = fma(q, t, 0.07210168987512589);
    q = fma(q, t, -0.001294660265557468);
    q = fma(q, t, -0.17158564925193787);
    q = fma(q, t, 0.489524781703949);
    let y = 1.0 - exp_neg_square(a) * q * u;
    return select(y, -y, x < 0.0);
}
fn unary_5(x: f32) -> f32 {
    return erf_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;
@group(0) @binding(5) var<storage, read_write> out2: array<f32>;
@group(0) @binding(6) var<storage, read_write> out3: array<f32>;
@group(0) @binding(7) var<storage, read_write> out4: array<f32>;
@group(0) @binding(8) var<storage, read_write> out5: array<f32>;

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
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = (v0 + v1);
    let v3 = (v2 * bitcast<f32>(param(26u)));
    let v4 = (v2 * bitcast<f32>(param(27u)));
    let v5 = unary_5(v4);
    let v6 = (bitcast<f32>(param(28u)) + v5);
    let v7 = (v3 * v6);
    out0[i] = v2;
    out1[i] = v3;
    out2[i] = v4;
    out3[i] = v5;
    out4[i] = v6;
    out5[i] = v7;
}
// ---- library kernel ----
fn unary_2(x: f32) -> f32 {
    return -x;
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 8>;
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
    let rn = param(26u);
    let inner = param(27u);
    let along = param(28u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        v1 = v1 + x;
    }
    let v2 = unary_2(v1);
    let v3 = in1[o1];
    let v4 = (v2 * v3);
    out0[i] = v1;
    out1[i] = v2;
    out2[i] = v4;
}
// ---- library kernel ----

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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 7>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read_write> out0: array<f32>;
@group(0) @binding(4) var<storage, read_write> out1: array<f32>;

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
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = div_f32(v0, v1);
    let v3 = bitcast<f32>(param(26u));
    out0[i] = v2;
    out1[i] = v3;
}
// ---- library kernel ----

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
fn max_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x > acc);
}
fn min_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x < acc);
}
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
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
fn unary_3(x: f32) -> f32 {
    return exp_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 6>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read_write> out0: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(18u);
    let inner = param(19u);
    let along = param(20u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
    }
    let s0 = param(10u + along);
    var v1 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let x = v0;
        if (e == 0u) {
            v1 = x;
        } else {
            v1 = max_step(v1, x);
        }
    }
    var v4 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = unary_3(v2);
        let x = v3;
        v4 = v4 + x;
    }
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v2 = (v0 - v1);
        let v3 = unary_3(v2);
        let v5 = div_f32(v3, v4);
        out0[base + e * inner] = v5;
    }
}
// ---- library kernel ----

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
fn max_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return select(b, a, a > b);
}
fn min_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return select(b, a, a < b);
}
fn max_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x > acc);
}
fn min_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return select(acc, x, x < acc);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 10>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(34u);
    let inner = param(35u);
    let along = param(36u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
    var o0 = 0u;
    var o1 = 0u;
    var o2 = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    var v5 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = max_nan(v0, v1);
        let v3 = in2[o2 + e * s2];
        let v4 = min_nan(v2, v3);
        let x = v4;
        if (e == 0u) {
            v5 = x;
        } else {
            v5 = max_step(v5, x);
        }
    }
    out1[i] = v5;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = max_nan(v0, v1);
        let v3 = in2[o2 + e * s2];
        let v4 = min_nan(v2, v3);
        out0[base + e * inner] = v4;
    }
}
// ---- library kernel ----

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
fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
}
fn max_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return select(b, a, a > b);
}
fn min_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return select(b, a, a < b);
}
fn unary_3(x: f32) -> f32 {
    return exp_f32(x);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 9>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;
@group(0) @binding(5) var<storage, read_write> out1: array<f32>;
@group(0) @binding(6) var<storage, read_write> out2: array<f32>;

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
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = (v0 - v1);
    let v3 = unary_3(v2);
    let v4 = in2[o2];
    let v5 = max_nan(v3, v4);
    out0[i] = v2;
    out1[i] = v3;
    out2[i] = v5;
}
// ---- library kernel ----

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
fn max_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return select(b, a, a > b);
}
fn min_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return select(b, a, a < b);
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
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 12>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read> in3: array<f32>;
@group(0) @binding(5) var<storage, read_write> out0: array<f32>;
@group(0) @binding(6) var<storage, read_write> out1: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;
@group(0) @binding(8) var<storage, read_write> out3: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= param(0u)) {
        return;
    }
    let rn = param(42u);
    let inner = param(43u);
    let along = param(44u);
    let base = (i / inner) * rn * inner + i % inner;
    let rank = param(1u);
    var rest = base;
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
    let s0 = param(10u + along);
    let s1 = param(18u + along);
    let s2 = param(26u + along);
    let s3 = param(34u + along);
    var v3 = 0.0;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = min_nan(v0, v1);
        let x = v2;
        v3 = v3 + x;
    }
    out1[i] = v3;
    for (var e = 0u; e < rn; e = e + 1u) {
        let v0 = in0[o0 + e * s0];
        let v1 = in1[o1 + e * s1];
        let v2 = min_nan(v0, v1);
        let v4 = in2[o2 + e * s2];
        let v5 = div_f32(v4, v3);
        let v6 = in3[o3 + e * s3];
        let v7 = max_nan(v5, v6);
        let v8 = min_nan(v7, v1);
        out0[base + e * inner] = v2;
        out2[base + e * inner] = v5;
        out3[base + e * inner] = v8;
    }
}
// ---- library kernel ----

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
fn max_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return select(b, a, a > b);
}
fn min_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return select(b, a, a < b);
}
@group(0) @binding(0) var<uniform> params: array<vec4<u32>, 9>;
fn param(i: u32) -> u32 {
    return params[i / 4u][i % 4u];
}
@group(0) @binding(1) var<storage, read> in0: array<f32>;
@group(0) @binding(2) var<storage, read> in1: array<f32>;
@group(0) @binding(3) var<storage, read> in2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out0: array<f32>;

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
    for (var d = 0u; d < rank; d = d + 1u) {
        let axis = rank - 1u - d;
        let size = param(2u + axis);
        let c = rest % size;
        rest = rest / size;
        o0 = o0 + c * param(10u + axis);
        o1 = o1 + c * param(18u + axis);
        o2 = o2 + c * param(26u + axis);
    }
    let v0 = in0[o0];
    let v1 = in1[o1];
    let v2 = max_nan(v0, v1);
    let v3 = in2[o2];
    let v4 = min_nan(v2, v3);
    out0[i] = v4;
}
