#version 310 es
// Drawn outputs' PNG scanlines, made on the GPU from their premultiplied RGBA8
// pixels (issue 43), many outputs a dispatch, as PNGEncoder and ScanlineCompressor make them on the CPU:
//   mode 0: its colours, while there are at most 256 (Palette: the first pixel of
//           each, in raster order, orders them), one invocation per `run` pixels of a row;
//   mode 1: the scanlines, one invocation per `run` words: filter byte None, then
//           palette indices packed to 1-8 bits, RGB (opaque), or straight RGBA.
// An invocation takes a run, not one pixel or word, so a colour repeated along a row is
// looked up once (llvmpipe pays per invocation).

layout(local_size_x = 64) in;

// Premultiplied RGBA8, red in the low byte: each image at its (x0, y0), rows `stride` pixels apart.
layout(std430, binding = 0) readonly buffer Pixels { uint pixels[]; };
// Per image that may be a palette, from its `table` word: 1,024 slots of colour (empty:
// `none`, a colour no premultiplied pixel has), then its first pixel, then (mode 1)
// its palette index; then the colours seen, and 1 when the table could not hold them.
layout(std430, binding = 1) buffer Colours { uint colours[]; };
layout(std430, binding = 2) writeonly buffer Scanlines { uint scanlines[]; };
// Per image, 16 words: width, height, x0, y0, stride, table, channels (mode 1: 1 for
// palette indices, 3 or 4), bit depth, row bytes, words, its first word in
// `scanlines`, its first invocation in mode 0, then in mode 1, and the pixel where
// its buffer starts (outputs drawn one after another share the pixel buffer).
layout(std430, binding = 3) readonly buffer Images { uint images[]; };

uniform uint imageCount;
uniform uint invocations;
uniform uint mode;

const uint slots = 1024u;
const uint run = 32u;
const uint none = 0x00FFFFFFu;

uint width;
uint height;
uint x0;
uint y0;
uint stride;
uint table;
uint channels;
uint bitDepth;
uint rowBytes;
uint words;
uint scanlineAt;

uint base;

uint pixel(uint x, uint y) { return pixels[base + (y0 + y) * stride + x0 + x]; }

uint slotOf(uint colour) { return (colour * 0x9E3779B1u) >> 22; }

uint unpremultiply(uint p, uint a) {
    if (a == 0u) return 0u;
    if (a == 255u) return p;
    return min(255u, (p * 255u + a / 2u) / a);
}

void see(uint colour, uint at) {
    if (colour == none) {
        colours[table + 3u * slots + 1u] = 1u;
        return;
    }
    uint s = slotOf(colour);
    for (uint probe = 0u; probe < slots; probe++) {
        uint was = atomicCompSwap(colours[table + s], none, colour);
        if (was == none) atomicAdd(colours[table + 3u * slots], 1u);
        if (was == none || was == colour) {
            atomicMin(colours[table + slots + s], at);
            return;
        }
        // More than 256 colours: not a palette, whatever else is seen.
        if (colours[table + 3u * slots] > 256u) return;
        s = (s + 1u) & (slots - 1u);
    }
    colours[table + 3u * slots + 1u] = 1u;
}

uint lastColour = none;
uint lastIndex = 0u;

uint indexOf(uint colour) {
    if (colour == lastColour) return lastIndex;
    lastColour = colour;
    uint s = slotOf(colour);
    for (uint probe = 0u; probe < slots; probe++) {
        if (colours[table + s] == colour) {
            lastIndex = colours[table + 2u * slots + s];
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

// The image invocation `id` works on: the last whose first invocation is at most `id`.
uint imageOf(uint id) {
    uint low = 0u;
    uint high = imageCount - 1u;
    while (low < high) {
        uint middle = (low + high + 1u) / 2u;
        if (images[16u * middle + 11u + mode] <= id) low = middle; else high = middle - 1u;
    }
    return low;
}

void main() {
    uint id = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
    if (id >= invocations) return;
    uint image = imageOf(id);
    uint at = 16u * image;
    width = images[at];
    height = images[at + 1u];
    x0 = images[at + 2u];
    y0 = images[at + 3u];
    stride = images[at + 4u];
    table = images[at + 5u];
    channels = images[at + 6u];
    bitDepth = images[at + 7u];
    rowBytes = images[at + 8u];
    words = images[at + 9u];
    scanlineAt = images[at + 10u];
    base = images[at + 13u];
    id -= images[at + 11u + mode];
    if (mode == 0u) {
        // Runs of `run` pixels, none crossing a row.
        uint runsPerRow = (width + run - 1u) / run;
        uint y = id / runsPerRow;
        if (y >= height || colours[table + 3u * slots] > 256u) return;
        uint from = (id % runsPerRow) * run;
        uint last = from > 0u ? pixel(from - 1u, y) : none;
        bool afterFirst = from > 0u;
        for (uint x = from; x < min(from + run, width); x++) {
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
        scanlines[scanlineAt + w] = word;
    }
}
