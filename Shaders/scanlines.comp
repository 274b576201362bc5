#version 310 es
// Drawn outputs' PNG scanlines, made on the GPU from their premultiplied RGBA8
// pixels (issue 43), many outputs a dispatch, as PNGEncoder and ScanlineCompressor make them on the CPU:
//   mode 0: its colours, while there are at most 256 (Palette: the first pixel of
//           each, in raster order, orders them), one invocation per `run` pixels of a row;
//   mode 1: per row, its bytes' sums as they are and less the row above (each byte
//           taken as signed), one invocation per `run` * 4 bytes of a row;
//   mode 2: the scanlines, one invocation per `run` words: palette indices packed to
//           1-8 bits, RGB (opaque), or straight RGBA, each row None or Up (filter 2: less
//           the byte above) as its sums say (RowFilter.swift).
// An invocation takes a run, not one pixel or word, so a colour repeated along a row is
// looked up once (llvmpipe pays per invocation).

layout(local_size_x = 64) in;

// Premultiplied RGBA8, red in the low byte: each image at its (x0, y0), rows `stride` pixels apart.
layout(std430, binding = 0) readonly buffer Pixels { uint pixels[]; };
// Per image that may be a palette, from its `table` word: COLOUR_SLOTS slots of colour (empty:
// `none`, a colour no premultiplied pixel has), then its first pixel, then (for mode 2)
// its palette index; then the colours seen, and 1 when the table could not hold them;
layout(std430, binding = 1) buffer Colours { uint colours[]; };
layout(std430, binding = 2) writeonly buffer Scanlines { uint scanlines[]; };
// Per image, an `IMAGE` record (ShaderRecords.Image): width, height, x0, y0, stride, table,
// channels (1 for palette indices, 3 or 4), bit depth, row bytes, scanline words,
// its first word in `scanlines`, its first invocation in mode 0, where its rows' sums
// start in `sums`, the pixel where its buffer starts (outputs drawn one after another
// share the pixel buffer), its first invocation in mode 1, then in mode 2, whether
// the row above its first is drawn before it (a giant's strip after the first), and
// whether its rows are filtered at all (RowFilter.filters: else none has sums).
layout(std430, binding = 3) readonly buffer Images { uint images[]; };
// Per image from its `sums` word, per row (mode 1) its two sums, zeros to begin with (the first
// NONE_ROW where the row is written None whatever its bytes).
layout(std430, binding = 4) buffer Sums { uint sums[]; };

uniform uint imageCount;
uniform uint invocations;
uniform uint mode;

const uint slots = COLOUR_SLOTS;
const uint run = RUN;
const uint none = NO_COLOUR;

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
uint sumsStart;
uint rowAbove;
uint filters;

uint base;

uint pixel(uint x, uint y) { return pixels[base + (y0 + y) * stride + x0 + x]; }

uint slotOf(uint colour) { return (colour * 0x9E3779B1u) >> 22; }

uint unpremultiply(uint p, uint a) {
    if (a == 0u) return 0u;
    if (a == 255u) return p;
    return min(255u, (p * 255u + a / 2u) / a);
}

// Channel `channel` of a premultiplied RGBA pixel, straight where the image keeps alpha.
uint channelByte(uint colour, uint channel) {
    uint value = (colour >> (8u * channel)) & 0xFFu;
    if (channels == 4u && channel < 3u) value = unpremultiply(value, colour >> 24);
    return value;
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
        if (colours[table + 3u * slots] > PALETTE_COLOURS) return;
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
    return channelByte(pixel(k / channels, row), k % channels);
}

// Byte `i - rowBytes` as it is: the byte above scanline byte `i`. Above the first row,
// the row drawn before the image where it has one (RGB or RGBA), else zeros.
uint byteAbove(uint i) {
    if (i >= rowBytes) return scanlineByte(i - rowBytes);
    if (rowAbove == 0u || i == 0u) return 0u;
    uint k = i - 1u;
    return channelByte(pixels[base + (y0 - 1u) * stride + x0 + k / channels], k % channels);
}

// The word of an image's record holding its first invocation in this mode.
uint firstWord() { return mode == 0u ? IMAGE_COLOUR_RUNS : mode == 1u ? IMAGE_ROW_RUNS : IMAGE_SCANLINE_RUNS; }

// The image invocation `id` works on: the last whose first invocation is at most `id`
// (an image with none in this mode has the next one's first).
uint imageOf(uint id) {
    uint low = 0u;
    uint high = imageCount - 1u;
    while (low < high) {
        uint middle = (low + high + 1u) / 2u;
        if (images[IMAGE_WORDS * middle + firstWord()] <= id) low = middle; else high = middle - 1u;
    }
    return low;
}

// A byte taken as signed, its size: 0 to 128.
uint signedSize(uint v) { return min(v, (0u - v) & 255u); }

// Where a row's two sums are kept.
uint sumsAt(uint row) { return sumsStart + 2u * row; }

// Scanline byte `i`, filtered as its row's sums say (RowFilter.apply): a palette row Up where
// its sum less the row above is under PALETTE_UP_AS_IS/PALETTE_UP_LESS of its sum as it is, an RGB
// or RGBA row where it is under 1/RGB_UP_DIVISOR; None where its sum as it is started at NONE_ROW
// (RepeatMap.noneRows: a row another row copies only as it is).
uint filteredByte(uint i) {
    uint row = i / rowBytes;
    if (row >= height) return 0u;
    bool up = false;
    if (filters != 0u) {
        uint asIs = sums[sumsAt(row)];
        uint less = sums[sumsAt(row) + 1u];
        up = asIs < NONE_ROW && (channels == 1u ? PALETTE_UP_LESS * less < PALETTE_UP_AS_IS * asIs : RGB_UP_DIVISOR * less < asIs);
    }
    if (i % rowBytes == 0u) return up ? 2u : 0u;
    uint v = scanlineByte(i);
    return up ? (v - byteAbove(i)) & 255u : v;
}

void main() {
    uint id = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
    if (id >= invocations) return;
    uint image = imageOf(id);
    uint at = IMAGE_WORDS * image;
    width = images[at + IMAGE_WIDTH];
    height = images[at + IMAGE_HEIGHT];
    x0 = images[at + IMAGE_X0];
    y0 = images[at + IMAGE_Y0];
    stride = images[at + IMAGE_STRIDE];
    table = images[at + IMAGE_TABLE];
    channels = images[at + IMAGE_CHANNELS];
    bitDepth = images[at + IMAGE_BIT_DEPTH];
    rowBytes = images[at + IMAGE_ROW_BYTES];
    words = images[at + IMAGE_SCANLINE_WORDS];
    scanlineAt = images[at + IMAGE_FIRST_WORD];
    sumsStart = images[at + IMAGE_SUMS];
    rowAbove = images[at + IMAGE_ROW_ABOVE];
    filters = images[at + IMAGE_FILTERS];
    base = images[at + IMAGE_BASE];
    id -= images[at + firstWord()];
    if (mode == 0u) {
        // Runs of `run` pixels, none crossing a row.
        uint runsPerRow = (width + run - 1u) / run;
        uint y = id / runsPerRow;
        if (y >= height || colours[table + 3u * slots] > PALETTE_COLOURS) return;
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
    if (mode == 1u) {
        // A row's bytes `run` * 4 at a time; its sums add up whatever the order.
        uint perRow = (rowBytes - 1u + 4u * run - 1u) / (4u * run);
        uint y = id / perRow;
        uint from = 1u + (id % perRow) * 4u * run;
        uint asIs = 0u;
        uint less = 0u;
        for (uint c = from; c < min(from + 4u * run, rowBytes); c++) {
            uint i = y * rowBytes + c;
            uint v = scanlineByte(i);
            asIs += signedSize(v);
            less += signedSize((v - byteAbove(i)) & 255u);
        }
        atomicAdd(sums[sumsAt(y)], asIs);
        atomicAdd(sums[sumsAt(y) + 1u], less);
        return;
    }
    for (uint w = id * run; w < min(id * run + run, words); w++) {
        uint word = 0u;
        for (uint b = 0u; b < 4u; b++) word |= filteredByte(4u * w + b) << (8u * b);
        scanlines[scanlineAt + w] = word;
    }
}
