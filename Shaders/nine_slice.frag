#version 300 es
// docs/RENDERING.md §3 and §5, with the CPU's arithmetic: the plan decided,
// per framebuffer column and row, the two texels within the cell, the 16-bit
// weight of the second and whether a `space` gap hides the pixel (AxisTaps,
// uploaded as RGBA32UI: first, second, weight, visible). This shader only
// fetches the cell's texels (texelFetch, so the plan's addressing is the
// only addressing) and blends them in integers, in the CPU's order: the two
// rows first, unrounded (16 fractional bits), then the two columns, rounded
// once. The sums fit 32 bits: a row blend is at most 255 x 2^16, and the
// second blend is done in two 16-bit halves.
precision highp float;
precision highp int;

uniform highp sampler2D cell;
uniform highp usampler2D taps;

flat in ivec2 tapRows;
flat in int filled;

out vec4 color;

uvec4 texel(uint x, uint y) {
    // An 8-bit texel read as c/255: scaled back and rounded, it is c exactly.
    return uvec4(texelFetch(cell, ivec2(int(x), int(y)), 0) * 255.0 + 0.5);
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    uvec4 tx = texelFetch(taps, ivec2(p.x, tapRows.x), 0);
    uvec4 ty = texelFetch(taps, ivec2(p.y, tapRows.y), 0);
    if (tx.w == 0u || ty.w == 0u) discard;
    if (filled == 1) {
        color = texelFetch(cell, ivec2(0, 0), 0);
        return;
    }
    uint wx = tx.z, wy = ty.z;
    uvec4 result;
    if (wy == 0u) {
        uvec4 a = texel(tx.x, ty.x);
        if (wx == 0u) {
            result = a;
        } else {
            uvec4 b = texel(tx.y, ty.x);
            result = (a * (65536u - wx) + b * wx + 32768u) >> 16;
        }
    } else {
        uint w0 = 65536u - wy;
        uvec4 a = texel(tx.x, ty.x) * w0 + texel(tx.x, ty.y) * wy;
        if (wx == 0u) {
            result = (a + 32768u) >> 16;
        } else {
            uvec4 b = texel(tx.y, ty.x) * w0 + texel(tx.y, ty.y) * wy;
            uint v0 = 65536u - wx;
            // (a*v0 + b*wx + 2^31) >> 32 without 64 bits: high and low 16-bit halves.
            uvec4 high = (a >> 16) * v0 + (b >> 16) * wx;
            uvec4 low = (a & 0xFFFFu) * v0 + (b & 0xFFFFu) * wx;
            result = (high + (low >> 16) + 32768u) >> 16;
        }
    }
    color = vec4(result) / 255.0;
}
