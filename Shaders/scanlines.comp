#version 310 es
// A drawn output's PNG scanlines, made on the GPU from its premultiplied RGBA8
// pixels (issue 43), as PNGEncoder and ScanlineCompressor make them on the CPU:
//   mode 0: its colours, while there are at most 256 (Palette: the first pixel of
//           each, in raster order, orders them), one invocation per `run` pixels of a row;
//   mode 1: the scanlines, one invocation per `run` words: filter byte None, then
//           palette indices packed to 1-8 bits, RGB (opaque), or straight RGBA.
// An invocation takes a run, not one pixel or word, so a colour repeated along a row is
// looked up once (llvmpipe pays per invocation).

layout(local_size_x = 64) in;

// Premultiplied RGBA8, red in the low byte: the output at (x0, y0) of rows `stride` pixels apart.
layout(std430, binding = 0) readonly buffer Pixels { uint pixels[]; };
// 4,096 slots: colour (empty: `none`, a colour no premultiplied pixel has), its
// first pixel, and (mode 1) its palette index. Then [3 * 4096]: colours seen,
// [3 * 4096 + 1]: 1 when the table could not hold them.
layout(std430, binding = 1) buffer Colours { uint colours[]; };
layout(std430, binding = 2) writeonly buffer Scanlines { uint scanlines[]; };

uniform uint width;
uniform uint height;
uniform uint x0;
uniform uint y0;
uniform uint stride;
uniform uint mode;
// mode 1: 1 (palette indices), 3 or 4; the indices' bits; the straight alpha is 255 everywhere.
uniform uint channels;
uniform uint bitDepth;
uniform uint rowBytes;
uniform uint words;

const uint slots = 4096u;
const uint run = 32u;
const uint none = 0x00FFFFFFu;

uint pixel(uint x, uint y) { return pixels[(y0 + y) * stride + x0 + x]; }

uint slotOf(uint colour) { return (colour * 0x9E3779B1u) >> 20; }

uint unpremultiply(uint p, uint a) {
    if (a == 0u) return 0u;
    if (a == 255u) return p;
    return min(255u, (p * 255u + a / 2u) / a);
}

void see(uint colour, uint at) {
    if (colour == none) {
        colours[3u * slots + 1u] = 1u;
        return;
    }
    uint s = slotOf(colour);
    for (uint probe = 0u; probe < slots; probe++) {
        uint was = atomicCompSwap(colours[s], none, colour);
        if (was == none) atomicAdd(colours[3u * slots], 1u);
        if (was == none || was == colour) {
            atomicMin(colours[slots + s], at);
            return;
        }
        s = (s + 1u) & (slots - 1u);
    }
    colours[3u * slots + 1u] = 1u;
}

uint lastColour = none;
uint lastIndex = 0u;

uint indexOf(uint colour) {
    if (colour == lastColour) return lastIndex;
    lastColour = colour;
    uint s = slotOf(colour);
    for (uint probe = 0u; probe < slots; probe++) {
        if (colours[s] == colour) {
            lastIndex = colours[2u * slots + s];
            return lastIndex;
        }
        s = (s + 1u) & (slots - 1u);
    }
    lastIndex = 0u;
    return 0u;
}

uint scanlineByte(uint i) {
    uint row = i / rowBytes;
    uint column = i % rowBytes;
    if (row >= height || column == 0u) return 0u;
    uint k = column - 1u;
    if (channels == 1u) {
        uint perByte = 8u / bitDepth;
        uint value = 0u;
        for (uint j = 0u; j < perByte; j++) {
            uint x = k * perByte + j;
            uint index = x < width ? indexOf(pixel(x, row)) : 0u;
            value |= index << (8u - bitDepth * (j + 1u));
        }
        return value & 0xFFu;
    }
    uint colour = pixel(k / channels, row);
    uint channel = k % channels;
    uint value = (colour >> (8u * channel)) & 0xFFu;
    if (channels == 4u && channel < 3u) value = unpremultiply(value, colour >> 24);
    return value;
}

void main() {
    uint id = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
    if (mode == 0u) {
        // Runs of `run` pixels, none crossing a row.
        uint runsPerRow = (width + run - 1u) / run;
        uint y = id / runsPerRow;
        if (y >= height || colours[3u * slots] > 256u) return;
        uint x0 = (id % runsPerRow) * run;
        uint last = x0 > 0u ? pixel(x0 - 1u, y) : none;
        bool afterFirst = x0 > 0u;
        for (uint x = x0; x < min(x0 + run, width); x++) {
            uint colour = pixel(x, y);
            // A run of one colour is seen at its first pixel.
            if (!(afterFirst && colour == last)) see(colour, y * width + x);
            last = colour;
            afterFirst = true;
        }
        return;
    }
    for (uint w = id * run; w < min(id * run + run, words); w++) {
        uint word = 0u;
        for (uint b = 0u; b < 4u; b++) word |= scanlineByte(4u * w + b) << (8u * b);
        scanlines[w] = word;
    }
}
