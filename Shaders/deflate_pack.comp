#version 310 es
// Codes the tokens deflate_tokens.comp chose, one invocation per row, in three
// passes over the same walk (issue 43), the twin of DeflateBlockWriter.writeBlock:
//   mode 0: each block's symbol counts (from which deflate_code.comp makes its code);
//   mode 1: each row's bits, and where in its row a block starting there begins;
//   mode 2: the bits themselves, at each row's offset, with room left where a
//           block ends and the next begins (the CPU writes those heads and ends);
//   mode 3: `rows` words of `words` set to 0, before a pass that adds into them (the
//           zeros made here, not on the CPU and sent: issue 52).
// A piece's tokens are cut into blocks of 32,768, as RepeatDeflater cuts them.
// One dispatch takes the rows of many jobs: blocks are numbered across them, and
// each job's bits start at its own word of the stream.

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Tokens { uint tokens[]; };
// Per row, a `CODE_ROW` record (ShaderRecords.CodeRow): its first token's index in its piece,
// the piece's first block, (mode 2) the bit where its first token goes, its first token in
// `tokens`, and how many tokens it has (0 for a job left out).
layout(std430, binding = 1) readonly buffer Rows { uint rowInfo[]; };
// Per block, BLOCK_TABLE_WORDS (deflate_code.comp's): code | length << CODE_LENGTH_SHIFT for literal/length
// symbols 0-287, then distance codes 0-29, then, at HEAD_BITS_WORD, its head's bit count.
layout(std430, binding = 2) readonly buffer Codes { uint codes[]; };
// mode 0: per block, BLOCK_COUNT_WORDS counts (literal/length, then distance); mode 1: per row its bits, then per block
// the bits before it in its row; mode 2: the stream, as words.
layout(std430, binding = 3) buffer Out { uint words[]; };

uniform uint rows;
uniform uint mode;
// mode 1: where the per-block entries start in `words`.
uniform uint blockStarts;

const uint blockTokens = BLOCK_TOKENS;

// False once llvmpipe's limit on loop iterations was reached (see deflate_tokens.comp).
// Set to 2: a trip count the compiler cannot see, so the loop is not unrolled away.
uniform uint probeIterations;

bool loopsRan() {
    uint probe = 0u;
    for (uint k = 0u; k < probeIterations; k++) probe++;
    return probe == probeIterations;
}
uint position;

void put(uint value, uint bits) {
    if (bits == 0u) return;
    uint word = position >> 5;
    uint shift = position & 31u;
    atomicOr(words[word], value << shift);
    if (shift + bits > 32u) atomicOr(words[word + 1u], value >> (32u - shift));
    position += bits;
}

void main() {
    uint r = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
    if (r >= rows) return;
    if (mode == 3u) {
        words[r] = 0u;
        return;
    }
    uint row = CODE_ROW_WORDS * r;
    uint first = rowInfo[row + CODE_ROW_FIRST_IN_PIECE];
    uint pieceBlock = rowInfo[row + CODE_ROW_PIECE_BLOCK];
    position = rowInfo[row + CODE_ROW_BIT];
    uint tokenBase = rowInfo[row + CODE_ROW_FIRST_TOKEN];
    uint n = rowInfo[row + CODE_ROW_COUNT];
    uint bits = 0u;
    for (uint k = 0u; k < n; k++) {
        uint t = first + k;
        uint block = pieceBlock + t / blockTokens;
        uint table = block * BLOCK_TABLE_WORDS;
        if (k > 0u && t % blockTokens == 0u) {
            if (mode == 1u) words[blockStarts + block] = bits;
            // Room for the block before's end code and this block's head.
            if (mode == 2u) position += (codes[table - BLOCK_TABLE_WORDS + END_OF_BLOCK] >> CODE_LENGTH_SHIFT) + codes[table + HEAD_BITS_WORD];
        }
        uint token = tokens[tokenBase + k];
        uint symbol;
        uint extra = 0u;
        uint extraBits = 0u;
        uint distanceSymbol = 0u;
        uint distanceExtra = 0u;
        uint distanceExtraBits = 0u;
        bool match = (token & TOKEN_MATCH) != 0u;
        if (match) {
            // Length codes 257-285 and distance codes 0-29 (RFC 1951 §3.2.5), worked out.
            uint v = ((token >> TOKEN_LENGTH_SHIFT) & TOKEN_LENGTH_MASK) - 3u;
            if (v < 8u) {
                symbol = END_OF_BLOCK + 1u + v;
            } else if (v == 255u) {
                symbol = 285u;
            } else {
                uint msb = uint(findMSB(v));
                symbol = END_OF_BLOCK + 1u + 4u * (msb - 1u) + ((v >> (msb - 2u)) & 3u);
                extraBits = msb - 2u;
                extra = v & ((1u << extraBits) - 1u);
            }
            uint d = (token & TOKEN_DISTANCE_MASK) - 1u;
            if (d < 4u) {
                distanceSymbol = d;
            } else {
                uint msb = uint(findMSB(d));
                distanceSymbol = 2u * msb + ((d >> (msb - 1u)) & 1u);
                distanceExtraBits = msb - 1u;
                distanceExtra = d & ((1u << distanceExtraBits) - 1u);
            }
        } else {
            symbol = token & 0xFFu;
        }
        if (mode == 0u) {
            atomicAdd(words[block * BLOCK_COUNT_WORDS + symbol], 1u);
            if (match) atomicAdd(words[block * BLOCK_COUNT_WORDS + LITERAL_SYMBOLS + distanceSymbol], 1u);
            continue;
        }
        uint code = codes[table + symbol];
        uint total = (code >> CODE_LENGTH_SHIFT) + extraBits;
        if (match) total += (codes[table + DISTANCE_CODES_AT + distanceSymbol] >> CODE_LENGTH_SHIFT) + distanceExtraBits;
        bits += total;
        if (mode == 2u) {
            put(code & CODE_MASK, code >> CODE_LENGTH_SHIFT);
            put(extra, extraBits);
            if (match) {
                uint distanceCode = codes[table + DISTANCE_CODES_AT + distanceSymbol];
                put(distanceCode & CODE_MASK, distanceCode >> CODE_LENGTH_SHIFT);
                put(distanceExtra, distanceExtraBits);
            }
        }
    }
    // Every mode walks the same tokens: one that ran out of loop iterations here ran out in all.
    if (mode == 1u) words[r] = loopsRan() ? bits : TOO_LONG;
}
