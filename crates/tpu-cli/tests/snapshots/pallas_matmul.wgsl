
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
fn bf16(x: f32) -> f32 {
    if (is_nan(x)) { return x; }
    let b = bitcast<u32>(x);
    return bitcast<f32>((b + 0x7fffu + ((b >> 16u) & 1u)) & 0xffff0000u);
}
fn int_of(x: f32) -> f32 {
    if (is_nan(x)) { return 0.0; }
    return trunc(x);
}
fn floor_div_i(a: i32, b: i32) -> i32 {
    if (b == 0) { return 0; }
    let q = a / b;
    return select(q, q - 1, (a % b != 0) && ((a < 0) != (b < 0)));
}
fn rem_i(a: i32, b: i32) -> i32 {
    if (b == 0) { return 0; }
    let r = a % b;
    return select(r, r + b, r != 0 && ((r < 0) != (b < 0)));
}
@group(0) @binding(0) var<storage, read> in0: array<f32>;
@group(0) @binding(1) var<storage, read> in1: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<storage, read_write> scratch: array<f32>;
var<workgroup> cond: f32;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let base = wid.x * 6145u;
    for (var par = wid.x; par < 2u; par = par + 2u) {
        for (var seq = 0u; seq < 3u; seq = seq + 1u) {
            var rest_par = par;
            let pid1 = i32(rest_par % 1u);
            rest_par = rest_par / 1u;
            let pid0 = i32(rest_par % 2u);
            rest_par = rest_par / 2u;
            var rest_seq = seq;
            let pid2 = i32(rest_seq % 3u);
            rest_seq = rest_seq / 3u;
            let bs0_0 = u32(clamp((pid0) * 32, 0, 32));
            let bs0_1 = u32(clamp((pid2) * 32, 0, 64));
            let bs1_0 = u32(clamp((pid2) * 32, 0, 64));
            let bs1_1 = u32(clamp((pid1) * 32, 0, 0));
            let bs2_0 = u32(clamp((pid0) * 32, 0, 32));
            let bs2_1 = u32(clamp((pid1) * 32, 0, 0));
            let v0 = f32(pid2);
            let v1 = bitcast<f32>(0u);
            for (var e = lid; e < 1u; e = e + 256u) {
                scratch[base + 0u + e] = select(0.0, 1.0, (select(0.0, 1.0, !is_nan(v0) && !is_nan(v1) && v0 == v1)) != 0.0);
            }
            storageBarrier();
            if (lid == 0u) { cond = scratch[base + 0u]; }
            if (workgroupUniformLoad(&cond) != 0.0) {
                let v3 = bitcast<f32>(0u);
                for (var e = lid; e < 1024u; e = e + 256u) {
                    scratch[base + 1u + e] = v3;
                }
                storageBarrier();
                for (var e = lid; e < 1024u; e = e + 256u) {
                    out[0u + (bs2_0 + 0u + ((e / 32u) % 32u)) * 32u + (bs2_1 + 0u + ((e / 1u) % 32u)) * 1u] = scratch[base + 1u + e];
                }
                storageBarrier();
            }
            for (var e = lid; e < 1024u; e = e + 256u) {
                scratch[base + 1025u + e] = out[0u + (bs2_0 + 0u + ((e / 32u) % 32u)) * 32u + (bs2_1 + 0u + ((e / 1u) % 32u)) * 1u];
            }
            storageBarrier();
            for (var e = lid; e < 1024u; e = e + 256u) {
                scratch[base + 2049u + e] = select(nan(), in0[(bs0_0 + 0u + ((e / 32u) % 32u)) * 96u + (bs0_1 + 0u + ((e / 1u) % 32u)) * 1u], (bs0_0 + 0u + ((e / 32u) % 32u)) < 64u && (bs0_1 + 0u + ((e / 1u) % 32u)) < 96u);
            }
            storageBarrier();
            for (var e = lid; e < 1024u; e = e + 256u) {
                scratch[base + 3073u + e] = select(nan(), in1[(bs1_0 + 0u + ((e / 32u) % 32u)) * 32u + (bs1_1 + 0u + ((e / 1u) % 32u)) * 1u], (bs1_0 + 0u + ((e / 32u) % 32u)) < 96u && (bs1_1 + 0u + ((e / 1u) % 32u)) < 32u);
            }
            storageBarrier();
            for (var e = lid; e < 1024u; e = e + 256u) {
                let i = e / 32u;
                let j = e % 32u;
                var acc = 0.0;
                for (var t = 0u; t < 32u; t = t + 4u) {
                    acc = acc + scratch[base + 2049u + (i * 32u + (t + 0u))] * scratch[base + 3073u + ((t + 0u) * 32u + j)];
                    acc = acc + scratch[base + 2049u + (i * 32u + (t + 1u))] * scratch[base + 3073u + ((t + 1u) * 32u + j)];
                    acc = acc + scratch[base + 2049u + (i * 32u + (t + 2u))] * scratch[base + 3073u + ((t + 2u) * 32u + j)];
                    acc = acc + scratch[base + 2049u + (i * 32u + (t + 3u))] * scratch[base + 3073u + ((t + 3u) * 32u + j)];
                }
                scratch[base + 4097u + e] = acc;
            }
            storageBarrier();
            for (var e = lid; e < 1024u; e = e + 256u) {
                scratch[base + 5121u + e] = (scratch[base + 1025u + e] + scratch[base + 4097u + e]);
            }
            storageBarrier();
            for (var e = lid; e < 1024u; e = e + 256u) {
                out[0u + (bs2_0 + 0u + ((e / 32u) % 32u)) * 32u + (bs2_1 + 0u + ((e / 1u) % 32u)) * 1u] = scratch[base + 5121u + e];
            }
            storageBarrier();
        }
    }
}
