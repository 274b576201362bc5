#version 310 es
// Makes each deflate block's code from the symbol counts deflate_pack.comp's mode 0 gathered,
// one work group a block: the twin of BlockCode (issue 52), so the GL thread neither reads the
// counts back nor makes the codes. The same counts give the same code: Huffman's merge of the
// symbols sorted by count then symbol, leaves moved up past the limit as JPEG's Annex K.3 does,
// the header's runs and its code-length code, and the fixed code where that is no longer.
// Writes each block's BLOCK_TABLE_WORDS record (ShaderRecords): code | length << CODE_LENGTH_SHIFT for the
// 288 literal/length symbols and the 30 distances (what deflate_pack.comp reads), its head's
// bit count, and the head itself (BTYPE and tables; BFINAL left 0 for the CPU to set).

layout(local_size_x = 64) in;

// Per block, BLOCK_COUNT_WORDS: literal/length counts (286), then distance counts (30).
layout(std430, binding = 0) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 1) buffer Codes { uint codes[]; };

uniform uint blocks;
// Set to 2 (see deflate_pack.comp): false once llvmpipe's limit on loop iterations was reached.
uniform uint probeIterations;

bool loopsRan() {
    uint probe = 0u;
    for (uint k = 0u; k < probeIterations; k++) probe++;
    return probe == probeIterations;
}

// The alphabet being coded: its counts, then its used symbols' keys (count << keySymbolBits | symbol) in order.
// (This shader's own packing: a symbol is under 2^9.)
const uint keySymbolBits = 9u;
const uint keySymbolMask = (1u << keySymbolBits) - 1u;
shared uint symbolCounts[LITERAL_SYMBOLS];
shared uint keys[LITERAL_SYMBOLS];
shared uint used;
// The merge's nodes: weights (then depths) and parents; symbols per length when limiting.
shared uint weight[2u * LITERAL_SYMBOLS];
shared uint parent[2u * LITERAL_SYMBOLS];
shared uint perLength[2u * LITERAL_SYMBOLS];
// Lengths: literal/length symbols at 0, distances at DISTANCE_CODES_AT, the code-length code at CL_AT.
const uint CL_AT = DISTANCE_CODES_AT + 32u;
shared uint lengths[CL_AT + 19u];
// Bits the literal/length and distance symbols take, with Huffman's lengths and with the fixed code.
shared uint dynamicBits;
shared uint fixedBits;

const uint order[19] = CODE_LENGTH_ORDER;

// A header run's packing in `perLength` (this shader's own scratch, not shared with Swift).
const uint runExtraShift = 8u;
const uint runBitsShift = 16u;

// RFC 1951 §3.2.6's fixed literal/length code.
uint fixedLength(uint s) { return s < FIXED_NINE_FROM ? 8u : s < END_OF_BLOCK ? 9u : s < FIXED_EIGHT_FROM ? 7u : 8u; }

// Lengths of the `n` used symbols whose keys lie sorted in `keys`, at most `limit`, into
// lengths[at + symbol] (HuffmanCode.fill, step for step). One invocation.
void merge(uint n, uint at, uint limit) {
    if (n == 1u) lengths[at + (keys[0] & keySymbolMask)] = 1u;
    if (n <= 1u) return;
    uint nodes = 2u * n - 1u;
    for (uint i = 0u; i < n; i++) weight[i] = keys[i] >> keySymbolBits;
    uint leaf = 0u, merged = n, node = n;
    while (node < nodes) {
        uint a, b;
        if (leaf < n && (merged == node || weight[leaf] <= weight[merged])) a = leaf++; else a = merged++;
        if (leaf < n && (merged == node || weight[leaf] <= weight[merged])) b = leaf++; else b = merged++;
        parent[a] = node;
        parent[b] = node;
        weight[node] = weight[a] + weight[b];
        node++;
    }
    // Depths, over the weights: a parent's index is above its children's.
    weight[nodes - 1u] = 0u;
    for (int i = int(nodes) - 2; i >= 0; i--) weight[i] = weight[parent[i]] + 1u;
    uint longest = 0u;
    for (uint i = 0u; i < n; i++) {
        lengths[at + (keys[i] & keySymbolMask)] = weight[i];
        longest = max(longest, weight[i]);
    }
    if (longest <= limit) return;
    for (uint l = 0u; l <= longest; l++) perLength[l] = 0u;
    for (uint i = 0u; i < n; i++) perLength[weight[i]]++;
    for (uint deepest = longest; deepest > limit; deepest--) {
        while (perLength[deepest] > 0u) {
            uint j = deepest - 2u;
            while (perLength[j] == 0u) j--;
            perLength[deepest] -= 2u;
            perLength[deepest - 1u] += 1u;
            perLength[j + 1u] += 2u;
            perLength[j] -= 1u;
        }
    }
    uint next = n - 1u; // most frequent first
    for (uint l = 1u; l <= limit; l++) {
        for (uint k = 0u; k < perLength[l]; k++) {
            lengths[at + (keys[next] & keySymbolMask)] = l;
            next--;
        }
    }
}

// Each used symbol's place among the `n` symbols' keys (they are distinct), by every invocation.
void rank(uint n) {
    for (uint s = gl_LocalInvocationID.x; s < n; s += 64u) {
        uint c = symbolCounts[s];
        if (c == 0u) continue;
        uint key = c << keySymbolBits | s;
        uint below = 0u;
        for (uint t = 0u; t < n; t++) {
            uint other = symbolCounts[t];
            if (other != 0u && (other << keySymbolBits | t) < key) below++;
        }
        keys[below] = key;
        atomicAdd(used, 1u);
    }
}

// The head's bits, written from the record's HEAD_AT word on.
uint headAt;
uint headBit;
uint headWord;

void put(uint value, uint bits) {
    uint word = headBit >> 5u;
    headWord |= value << (headBit & 31u);
    if ((headBit & 31u) + bits >= 32u) {
        codes[headAt + word] = headWord;
        headWord = (headBit & 31u) == 0u ? 0u : value >> (32u - (headBit & 31u));
    }
    headBit += bits;
}

// Canonical codes for lengths[at .. at + n), bit-reversed, into the record from word `to`.
void canonical(uint at, uint n, uint to) {
    uint count[16];
    uint next[16];
    for (uint l = 0u; l < 16u; l++) count[l] = 0u;
    for (uint s = 0u; s < n; s++) count[lengths[at + s]]++;
    count[0] = 0u;
    uint code = 0u;
    for (uint l = 1u; l < 16u; l++) {
        code = (code + count[l - 1u]) << 1;
        next[l] = code;
    }
    for (uint s = 0u; s < n; s++) {
        uint l = lengths[at + s];
        uint word = 0u;
        if (l > 0u) {
            word = bitfieldReverse(next[l]) >> (32u - l) | l << CODE_LENGTH_SHIFT;
            next[l]++;
        }
        codes[to + s] = word;
    }
}

// A length of the header's sequence: the sent literal/length lengths, then the distances'.
uint sentLength(uint k, uint literals) { return k < literals ? lengths[k] : lengths[DISTANCE_CODES_AT + k - literals]; }

void main() {
    uint block = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (block >= blocks) return; // the whole group
    uint id = gl_LocalInvocationID.x;
    uint countsAt = block * BLOCK_COUNT_WORDS;
    uint record = block * BLOCK_TABLE_WORDS;

    // Literals and lengths, with the end-of-block code counted once.
    for (uint s = id; s < CL_AT + 19u; s += 64u) lengths[s] = 0u;
    for (uint s = id; s < LITERAL_SYMBOLS; s += 64u) symbolCounts[s] = s == END_OF_BLOCK ? 1u : counts[countsAt + s];
    if (id == 0u) used = 0u;
    memoryBarrierShared();
    barrier();
    rank(LITERAL_SYMBOLS);
    memoryBarrierShared();
    barrier();
    if (id == 0u) {
        merge(used, 0u, 15u);
        uint dynamicSum = 0u, fixedSum = 0u;
        for (uint s = 0u; s < LITERAL_SYMBOLS; s++) {
            dynamicSum += symbolCounts[s] * lengths[s];
            fixedSum += symbolCounts[s] * fixedLength(s);
        }
        dynamicBits = dynamicSum;
        fixedBits = fixedSum;
        used = 0u;
    }
    memoryBarrierShared();
    barrier();

    // Distances: a block with no match still describes one distance code.
    if (id == 0u) {
        bool any = false;
        for (uint d = 0u; d < DISTANCE_SYMBOLS; d++) {
            symbolCounts[d] = counts[countsAt + LITERAL_SYMBOLS + d];
            any = any || symbolCounts[d] > 0u;
        }
        if (!any) symbolCounts[0] = 1u;
    }
    memoryBarrierShared();
    barrier();
    rank(DISTANCE_SYMBOLS);
    memoryBarrierShared();
    barrier();
    if (id != 0u) return; // the rest is one invocation's: no barrier follows

    merge(used, DISTANCE_CODES_AT, 15u);
    uint dynamicSum = dynamicBits, fixedSum = fixedBits;
    for (uint d = 0u; d < DISTANCE_SYMBOLS; d++) {
        dynamicSum += symbolCounts[d] * lengths[DISTANCE_CODES_AT + d];
        fixedSum += symbolCounts[d] * 5u;
    }

    // The header's runs (BlockCode.Header): 16 repeats the last length 3-6 times, 17 and 18 zeros.
    uint literals = LEAST_LITERAL_CODES, distances = 1u;
    for (uint s = 0u; s < LITERAL_SYMBOLS; s++) if (lengths[s] > 0u) literals = max(literals, s + 1u);
    for (uint d = 0u; d < DISTANCE_SYMBOLS; d++) if (lengths[DISTANCE_CODES_AT + d] > 0u) distances = max(distances, d + 1u);
    uint total = literals + distances;
    // Each run's symbol | extra << runExtraShift | extra bits << runBitsShift, kept in `perLength`
    // past what `merge` uses of it for the code-length code (19 lengths at most).
    const uint runsAt = 32u;
    uint runs = 0u;
    for (uint s = 0u; s < 19u; s++) symbolCounts[s] = 0u;
    uint i = 0u;
    while (i < total) {
        uint value = sentLength(i, literals);
        uint run = 1u;
        while (i + run < total && sentLength(i + run, literals) == value) run++;
        if (value == 0u && run >= 3u) {
            uint n = min(run, LONGEST_ZERO_RUN);
            perLength[runsAt + runs++] = n >= 11u ? (18u | (n - 11u) << runExtraShift | 7u << runBitsShift) : (17u | (n - 3u) << runExtraShift | 3u << runBitsShift);
            i += n;
        } else if (value != 0u && run >= 4u) {
            uint n = min(run - 1u, 6u);
            perLength[runsAt + runs++] = value;
            perLength[runsAt + runs++] = 16u | (n - 3u) << runExtraShift | 2u << runBitsShift;
            i += 1u + n;
        } else {
            perLength[runsAt + runs++] = value;
            i++;
        }
    }
    for (uint k = 0u; k < runs; k++) symbolCounts[perLength[runsAt + k] & 31u]++;
    // zlib refuses an incomplete code-length code: a lone symbol gets a partner.
    uint kinds = 0u;
    for (uint s = 0u; s < 19u; s++) if (symbolCounts[s] > 0u) kinds++;
    if (kinds == 1u) symbolCounts[symbolCounts[0] > 0u ? 18u : 0u] = 1u;
    // Ranked here, by this invocation: 19 symbols.
    uint n = 0u;
    for (uint s = 0u; s < 19u; s++) {
        if (symbolCounts[s] == 0u) continue;
        uint key = symbolCounts[s] << keySymbolBits | s, below = 0u;
        for (uint t = 0u; t < 19u; t++) if (symbolCounts[t] > 0u && (symbolCounts[t] << keySymbolBits | t) < key) below++;
        keys[below] = key;
        n++;
    }
    merge(n, CL_AT, 7u);
    uint sent = 4u;
    for (uint k = 0u; k < 19u; k++) if (lengths[CL_AT + order[k]] > 0u) sent = max(sent, k + 1u);
    uint headerBits = 14u + 3u * sent;
    for (uint k = 0u; k < runs; k++) {
        uint run = perLength[runsAt + k];
        headerBits += lengths[CL_AT + (run & 31u)] + (run >> runBitsShift);
    }
    // The code-length code's codes, in `keys`: made in the record's first words, which the
    // literal/length codes overwrite below.
    canonical(CL_AT, 19u, record);
    for (uint k = 0u; k < 19u; k++) keys[k] = codes[record + k];

    headAt = record + HEAD_AT;
    headBit = 0u;
    headWord = 0u;
    put(0u, 1u); // BFINAL, set by the CPU
    if (fixedSum <= headerBits + dynamicSum) {
        for (uint s = 0u; s < LITERAL_CODES; s++) lengths[s] = fixedLength(s);
        for (uint d = 0u; d < DISTANCE_SYMBOLS; d++) lengths[DISTANCE_CODES_AT + d] = 5u;
        put(1u, 2u);
    } else {
        put(2u, 2u);
        put(literals - LEAST_LITERAL_CODES, 5u);
        put(distances - 1u, 5u);
        put(sent - 4u, 4u);
        for (uint k = 0u; k < sent; k++) put(lengths[CL_AT + order[k]], 3u);
        for (uint k = 0u; k < runs; k++) {
            uint run = perLength[runsAt + k], code = keys[run & 31u];
            put(code & CODE_MASK, code >> CODE_LENGTH_SHIFT);
            put((run >> runExtraShift) & 0xFFu, run >> runBitsShift);
        }
    }
    uint lastWord = headBit >> 5u;
    if ((headBit & 31u) != 0u) codes[headAt + lastWord] = headWord;
    canonical(0u, LITERAL_CODES, record);
    canonical(DISTANCE_CODES_AT, DISTANCE_SYMBOLS, record + DISTANCE_CODES_AT);
    codes[record + HEAD_BITS_WORD] = loopsRan() ? headBit : TOO_LONG;
}
