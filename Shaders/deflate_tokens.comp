#version 310 es
// `--compression fast`'s token choice (issue 43), one invocation per unit of PNG rows
// (RepeatDeflater.units: up to 6 KiB of rows, or one copy run's row): the GPU twin of
// RepeatDeflater.choose and chooseRow (Sources/GlsliceKit/Deflate/RepeatDeflater.swift),
// rule for rule, so both give the same tokens. A match joins the next row's within a
// unit; each token is written to the row it starts in. Integer arithmetic only. With
// mode 1, the Adler-32 sums of the rows' bytes instead, a segment an invocation.
// One dispatch takes the rows of many jobs (outputs of an atlas, or bands of one),
// each job with its own shape, described in `Plan`.
//
// llvmpipe (Mesa 22.3.6) stops every loop of an invocation once 65,535 loop
// iterations have run in it, all loops together (LP_MAX_TGSI_LOOP_ITERATIONS), and
// a loop entered counts as one even when it ends at once: loops are entered only
// where they will run. A unit that needs more marks a count `tooLong`, and the CPU
// encodes that output.
//
// A token is packed as DeflateToken packs it: a literal byte, or
// TOKEN_MATCH | length << TOKEN_LENGTH_SHIFT | distance (DeflateToken).

layout(local_size_x = 64) in;

// The scanlines (filter byte first), four bytes to a word, little-endian: the rows
// to choose for and, before each job's rows, every byte a match may reach (32 KiB,
// or back to its image's first byte, the job's `oldest`).
layout(std430, binding = 0) readonly buffer Scanlines { uint scanlines[]; };
// Each job's row in parts: (end, period) pairs, period 0 for the matcher's parts. Flat
// `uint`s: as `uvec2 parts[]`, llvmpipe (Mesa 22.3.6) read a stale `.y` in some
// invocations of a diverging group (caught by GPUDeflaterTests).
layout(std430, binding = 1) readonly buffer Parts { uint parts[]; };
// The records of ShaderRecords, their positions given as #defines: per row a `PLAN_ROW`
// (its first byte in `scanlines`; its first token's index in `tokens`; bytes back to an
// equal row within reach, or 0, with its copy run's bytes ahead (RepeatDeflater.RowCopy)
// from bit 16; its job, shifted left 10, with its copy run's reduced start). Then from
// `unitsAt`, per unit a `PLAN_UNIT` (its first row, how many rows, its table in `hashes`); from `segmentsAt`, per
// segment a `PLAN_SEGMENT` (its first byte, its end); from `jobsAt`, per job a `PLAN_JOB`
// (row bytes, pixel bytes, hash bits, oldest byte a match may reach, first word in `parts`).
layout(std430, binding = 2) readonly buffer Plan { uint plan[]; };
// Per row: up to its row bytes of tokens, those that start in it.
layout(std430, binding = 3) writeonly buffer Tokens { uint tokens[]; };
// Per row: how many tokens it has.
layout(std430, binding = 4) writeonly buffer Counts { uint counts[]; };
// Per segment: its Adler-32 sums (RFC 1950 §8) from 1 and 0, which the CPU combines.
layout(std430, binding = 5) writeonly buffer Adler { uint adler[]; };
// The matcher's hash tables, one of 2 × HASH_SLOTS words per unit of a dispatch that asks the
// matcher (its `PLAN_UNIT_TABLE_AT`): where each 3-byte hash was last seen, then where before.
// Not private arrays: NVIDIA's compiler (driver 580) refused to link 2 × 4,096 private ints
// ("C5041: cannot locate suitable resource to bind variable"), so no GPU node encoded.
layout(std430, binding = 6) buffer Hashes { int hashes[]; };
// Per unit, SEAM_WORDS words (RepeatDeflater.seamJoins): its first run where it starts the unit
// (length, distance, tokens; length 0: none), its last run (start, length, distance, its first
// token in the unit; length 0: none), and, from mode 2, how many tokens the run it joined with
// the unit before took (0: none joined), written over that unit's last run.
layout(std430, binding = 7) buffer Seams { uint seams[]; };

// This dispatch's units: `unitsFrom` up to `units` (a call's units come in waves, so that
// their hash tables fit `GPUDeflater.tableSlots`).
uniform uint unitsFrom;
uniform uint units;
uniform uint unitsAt;
uniform uint segments;
uniform uint segmentsAt;
uniform uint jobsAt;
uniform uint mode;

const int maxDistance = MAX_DISTANCE;
const int shortPart = SHORT_PART;
// The row above's last bytes the hash table holds (RepeatDeflater.hashReach).
const int hashReach = HASH_REACH;

// The unit's hash table, a chain of two, from word `tableAt` of `hashes`: where each 3-byte
// hash was last seen, and (HASH_SLOTS words on) where before that.
uint tableAt;
uint hashBits;

int seen(uint hash) { return hashes[tableAt + hash]; }
int seenBefore(uint hash) { return hashes[tableAt + HASH_SLOTS + hash]; }

// Enters byte `i` under `hash`, the entry before it moved down the chain.
void enterHash(uint hash, int i) {
    hashes[tableAt + HASH_SLOTS + hash] = hashes[tableAt + hash];
    hashes[tableAt + hash] = i;
}
// The unit's tokens go one after another from `unitTokenBase`; each row's count is
// of the tokens that start in it (`tokenRow`: the row, in the unit, of the last one).
uint unitFirst;
uint unitIndex;
int unitStart;
uint unitTokenBase;
uint unitTokens;
uint tokenRow;
uint tokenCount;
int rowBytes;
int runStart;
int runLength;
int runDistance;

uint byteAt(int i) { return (scanlines[uint(i) >> 2] >> ((uint(i) & 3u) * 8u)) & 0xFFu; }

// Bytes i..i+3, little-endian (past the buffer's end, zeros; past the call's scanlines, whatever
// the kept buffer held, which no comparison counts: each is cut at its limit): the matcher compares
// a word a step, so llvmpipe's loop iterations (65,535 an invocation) go four times as far.
uint wordAt(int i) {
    uint at = uint(i) >> 2;
    uint shift = (uint(i) & 3u) * 8u;
    uint low = scanlines[at] >> shift;
    if (shift == 0u) return low;
    uint high = at + 1u < uint(scanlines.length()) ? scanlines[at + 1u] : 0u;
    return low | high << (32u - shift);
}

// How many of two words' bytes agree, from the first (low) byte: 0-4.
int agreeing(uint a, uint b) {
    uint x = a ^ b;
    return x == 0u ? 4 : findLSB(x) >> 3;
}

// The hash of bytes i..i+2 (RepeatDeflater.Matcher: a little-endian word's low 24 bits).
uint hashAt(int i) {
    uint word = byteAt(i) | byteAt(i + 1) << 8 | byteAt(i + 2) << 16;
    return (word * HASH_MULTIPLIER) >> (32u - hashBits);
}

int extraBits(int distance) {
    // Deflate's distance codes 0-29: 0 extra bits up to 4, then one more every doubling.
    int d = distance - 1;
    return d < 4 ? 0 : findMSB(d) - 1;
}

// Writes a token that starts at byte `at`. Tokens come in order, so a token in a
// later row ends the count of the row before (rows between keep the 0 they started with).
// No loop: llvmpipe counts a loop reached, even masked off, as an iteration.
void emit(uint token, int at) {
    uint row = uint(at - unitStart) / uint(rowBytes);
    if (row != tokenRow) {
        counts[unitFirst + tokenRow] = tokenCount;
        tokenRow = row;
        tokenCount = 0u;
    }
    tokens[unitTokenBase + unitTokens] = token;
    unitTokens += 1u;
    tokenCount += 1u;
}

// The job's pixel bytes and the oldest byte a match may reach.
int pixelBytes;
int oldestByte;

// The distance a token of a match is written with (RepeatDeflater.appendMatch): one
// pixel back where its bytes repeat there and that costs fewer extra bits, else the match's.
int tokenDistance(int at, int length, int distance) {
    if (distance <= pixelBytes || extraBits(pixelBytes) >= extraBits(distance) || at - pixelBytes < oldestByte) return distance;
    // A word a step (llvmpipe's loop iterations): every byte of the token agrees one pixel back.
    int k = 0;
    bool agree = true;
    for (; agree && k < length; k += 4) agree = agreeing(wordAt(at + k), wordAt(at - pixelBytes + k)) >= min(4, length - k);
    return agree ? pixelBytes : distance;
}

void flushRun() {
    // The unit's first run, where it starts the unit: the seam pass may join it to the unit before's last.
    bool first = unitTokens == 0u && runStart == unitStart;
    if (first) {
        seams[SEAM_WORDS * unitIndex + SEAM_FIRST_LENGTH] = uint(runLength);
        seams[SEAM_WORDS * unitIndex + SEAM_FIRST_DISTANCE] = uint(runDistance);
    }
    int at = runStart;
    int left = runLength;
    while (left >= 3) {
        int length = min(MAX_MATCH, left);
        emit(TOKEN_MATCH | uint(length) << TOKEN_LENGTH_SHIFT | uint(tokenDistance(at, length, runDistance)), at);
        at += length;
        left -= length;
    }
    if (left >= 1) emit(byteAt(at), at);
    if (left >= 2) emit(byteAt(at + 1), at + 1);
    runLength = 0;
    if (first) seams[SEAM_WORDS * unitIndex + SEAM_FIRST_TOKENS] = unitTokens;
}

// A copy run's row (RepeatDeflater.RowCopy): the tokens of the run's one match, cut
// as flushRun cuts it (the CPU's choose writes the whole run at once), that start in
// this row; they may reach into the rows after. Literals only for the run's last 1 or 2
// bytes, after its 258s.
void copyRun(int rowStart, int row, int back, int runAt, int runAhead) {
    int to = runAt + row;
    int at = 0;
    int left = to + runAhead;
    while (left >= 3 && at < to) {
        int length = min(MAX_MATCH, left);
        if (at >= runAt) emit(TOKEN_MATCH | uint(length) << TOKEN_LENGTH_SHIFT | uint(tokenDistance(rowStart + at - runAt, length, back)), rowStart);
        at += length;
        left -= length;
    }
    while (left > 0 && at < to) {
        emit(byteAt(rowStart + at - runAt), rowStart);
        at += 1;
        left -= 1;
    }
}

const uint tooLong = TOO_LONG;

// Whether loops still run: false once llvmpipe's limit on loop iterations was reached.
// Set to 2: a trip count the compiler cannot see, so the loop is not unrolled away.
uniform uint probeIterations;

bool loopsRan() {
    uint probe = 0u;
    for (uint k = 0u; k < probeIterations; k++) probe++;
    return probe == probeIterations;
}

void sums(uint segment) {
    if (segment >= segments) return;
    uint at = segmentsAt + PLAN_SEGMENT_WORDS * segment;
    uint start = plan[at + PLAN_SEGMENT_START];
    uint end = plan[at + PLAN_SEGMENT_END];
    uint a = 1u;
    uint b = 0u;
    for (uint k = start; k < end; k++) {
        a = (a + byteAt(int(k))) % ADLER_MODULUS;
        b = (b + a) % ADLER_MODULUS;
    }
    adler[2u * segment] = a;
    adler[2u * segment + 1u] = loopsRan() ? b : tooLong;
}

// From where every byte of the row before, but its last 2, was entered in the hash
// table as it was asked (RepeatDeflater.chooseRow's `entered`): the row above is then
// entered again only from its last 2. A unit's first row enters it whole.
int entered;

// The shortest match taken, and how near one that short must be (RepeatDeflater.minMatch, shortMatchReach).
const int minMatch = MIN_MATCH;
const int shortMatchReach = SHORT_MATCH_REACH;

// Whether a match at `i` from `candidate` may be tried: within reach, and its first
// three bytes agree (a shorter match is never taken).
bool startsMatch(int i, int candidate, int oldest) {
    int distance = i - candidate;
    return candidate >= oldest && distance > 0 && distance <= maxDistance
        && byteAt(candidate) == byteAt(i) && byteAt(candidate + 1) == byteAt(i + 1)
        && byteAt(candidate + 2) == byteAt(i + 2);
}

// The matcher's fourteen candidates at a byte: one pixel back, one row back, the last
// match's distance, the hash's two, one row back a pixel either side (5, 6) and two
// pixels either side (7, 8), in RGB or RGBA rows two rows back a pixel either side
// (9, 10), and in palette and grey rows 2, 3 and 4 rows back (11-13); whether each is still
// being compared, and the length it has reached. Scalars, not arrays, so each stays in a register.
int c0;
int c1;
int c2;
int c3;
int c4;
int c5;
int c6;
int c7;
int c8;
int c9;
int c10;
int c11;
int c12;
int c13;
bool go0;
bool go1;
bool go2;
bool go3;
bool go4;
bool go5;
bool go6;
bool go7;
bool go8;
bool go9;
bool go10;
bool go11;
bool go12;
bool go13;
int l0;
int l1;
int l2;
int l3;
int l4;
int l5;
int l6;
int l7;
int l8;
int l9;
int l10;
int l11;
int l12;
int l13;
uint candidateHash;

// Sets up the candidates at `i` (none unless the matcher is `asked`), each tried only where its
// first three bytes agree; reads the hash table without entering `i` (`enter`).
void findCandidates(bool asked, int i, int oldest, int pixel, int row, int firstHashed) {
    c0 = i - pixel;
    c1 = i - row;
    c2 = i - runDistance;
    c3 = -1;
    c4 = -1;
    c5 = i - row + pixel;
    c6 = i - row - pixel;
    c7 = i - row + 2 * pixel;
    c8 = i - row - 2 * pixel;
    c9 = i - 2 * row + pixel;
    c10 = i - 2 * row - pixel;
    c11 = i - 2 * row;
    c12 = i - 3 * row;
    c13 = i - 4 * row;
    go0 = false;
    go1 = false;
    go2 = false;
    go3 = false;
    go4 = false;
    go5 = false;
    go6 = false;
    go7 = false;
    go8 = false;
    go9 = false;
    go10 = false;
    go11 = false;
    go12 = false;
    go13 = false;
    l0 = 0;
    l1 = 0;
    l2 = 0;
    l3 = 0;
    l4 = 0;
    l5 = 0;
    l6 = 0;
    l7 = 0;
    l8 = 0;
    l9 = 0;
    l10 = 0;
    l11 = 0;
    l12 = 0;
    l13 = 0;
    if (!asked) return;
    go0 = startsMatch(i, c0, oldest);
    go1 = startsMatch(i, c1, oldest);
    go5 = startsMatch(i, c5, oldest);
    go6 = startsMatch(i, c6, oldest);
    go7 = startsMatch(i, c7, oldest);
    go8 = startsMatch(i, c8, oldest);
    go9 = pixel >= 3 && startsMatch(i, c9, oldest);
    go10 = pixel >= 3 && startsMatch(i, c10, oldest);
    go11 = pixel < 3 && startsMatch(i, c11, oldest);
    go12 = pixel < 3 && startsMatch(i, c12, oldest);
    go13 = pixel < 3 && startsMatch(i, c13, oldest);
    go2 = runDistance > 0 && runDistance != pixel && runDistance != row && startsMatch(i, c2, oldest);
    candidateHash = hashAt(i);
    int last = seen(candidateHash);
    if (last >= firstHashed) {
        c3 = last;
        go3 = startsMatch(i, c3, oldest);
    }
    int before = seenBefore(candidateHash);
    if (before >= firstHashed) {
        c4 = before;
        go4 = startsMatch(i, c4, oldest);
    }
}

bool comparing() { return go0 || go1 || go2 || go3 || go4 || go5 || go6 || go7 || go8 || go9 || go10 || go11 || go12 || go13; }

// Bytes `k`..`k` + 3 of each candidate still being compared against `w`, those at `i`: its
// length grows by those that agree, up to `limit`, and it stops at the first that does not.
void compareCandidates(int k, uint w, int limit) {
    int n;
    if (go0) { n = agreeing(wordAt(c0 + k), w); l0 = min(k + n, limit); go0 = n == 4; }
    if (go1) { n = agreeing(wordAt(c1 + k), w); l1 = min(k + n, limit); go1 = n == 4; }
    if (go2) { n = agreeing(wordAt(c2 + k), w); l2 = min(k + n, limit); go2 = n == 4; }
    if (go3) { n = agreeing(wordAt(c3 + k), w); l3 = min(k + n, limit); go3 = n == 4; }
    if (go4) { n = agreeing(wordAt(c4 + k), w); l4 = min(k + n, limit); go4 = n == 4; }
    if (go5) { n = agreeing(wordAt(c5 + k), w); l5 = min(k + n, limit); go5 = n == 4; }
    if (go6) { n = agreeing(wordAt(c6 + k), w); l6 = min(k + n, limit); go6 = n == 4; }
    if (go7) { n = agreeing(wordAt(c7 + k), w); l7 = min(k + n, limit); go7 = n == 4; }
    if (go8) { n = agreeing(wordAt(c8 + k), w); l8 = min(k + n, limit); go8 = n == 4; }
    if (go9) { n = agreeing(wordAt(c9 + k), w); l9 = min(k + n, limit); go9 = n == 4; }
    if (go10) { n = agreeing(wordAt(c10 + k), w); l10 = min(k + n, limit); go10 = n == 4; }
    if (go11) { n = agreeing(wordAt(c11 + k), w); l11 = min(k + n, limit); go11 = n == 4; }
    if (go12) { n = agreeing(wordAt(c12 + k), w); l12 = min(k + n, limit); go12 = n == 4; }
    if (go13) { n = agreeing(wordAt(c13 + k), w); l13 = min(k + n, limit); go13 = n == 4; }
}

// Enters `i` in the hash table as the matcher is asked there.
void enter(int i) { enterHash(candidateHash, i); }

// The longest candidate, the first tried on a tie (in RepeatDeflater.Matcher's order); one of `minMatch` bytes only from within `shortMatchReach`.
int bestLength;
int bestDistance;

void consider(int length, int distance) {
    if (length > bestLength && (length > minMatch || distance <= shortMatchReach)) {
        bestLength = length;
        bestDistance = distance;
    }
}

void pickBest(int i) {
    bestLength = 0;
    bestDistance = 0;
    consider(l0, i - c0);
    consider(l1, i - c1);
    consider(l5, i - c5);
    consider(l6, i - c6);
    consider(l7, i - c7);
    consider(l8, i - c8);
    consider(l2, i - c2);
    consider(l3, i - c3);
    consider(l4, i - c4);
    consider(l9, i - c9);
    consider(l10, i - c10);
    consider(l11, i - c11);
    consider(l12, i - c12);
    consider(l13, i - c13);
}

// The job's row in parts (from word `jobParts` of `parts`, `jobPartCount` of them).
uint jobParts;
uint jobPartCount;

// One halving of walkedBack's search: how many parts end at or before `offset`.
#define HALVE(step) if (k + (step) <= last && int(parts[jobParts + 2u * (k + (step) - 1u)]) <= offset) k += (step);

// RepeatDeflater.Matcher.walkedBack: `candidate`, where its match of `length` bytes ran exactly
// to the end of a periodic part of its row, walked back whole periods to the nearest place from
// which that part's bytes run on for `reach` bytes (as far as the part's first period, `oldest`
// and maxDistance allow); else -1. The part is found in 16 halvings written out: no loop.
int walkedBack(int candidate, int length, int i, int reach, int rowStart, int oldest) {
    int row = rowBytes;
    int rowOf = candidate >= rowStart ? rowStart : rowStart - (rowStart - candidate + row - 1) / row * row;
    int offset = candidate - rowOf;
    uint k = 0u;
    uint last = jobPartCount - 1u;
    // MAX_WALK_PARTS is 1 << 16 (ShaderRecordsTests): 16 halvings.
    HALVE(MAX_WALK_PARTS >> 1u) HALVE(MAX_WALK_PARTS >> 2u) HALVE(MAX_WALK_PARTS >> 3u) HALVE(MAX_WALK_PARTS >> 4u)
    HALVE(MAX_WALK_PARTS >> 5u) HALVE(MAX_WALK_PARTS >> 6u) HALVE(MAX_WALK_PARTS >> 7u) HALVE(MAX_WALK_PARTS >> 8u)
    HALVE(MAX_WALK_PARTS >> 9u) HALVE(MAX_WALK_PARTS >> 10u) HALVE(MAX_WALK_PARTS >> 11u) HALVE(MAX_WALK_PARTS >> 12u)
    HALVE(MAX_WALK_PARTS >> 13u) HALVE(MAX_WALK_PARTS >> 14u) HALVE(MAX_WALK_PARTS >> 15u) HALVE(MAX_WALK_PARTS >> 16u)
    int end = int(parts[jobParts + 2u * k]);
    int period = int(parts[jobParts + 2u * k + 1u]);
    int start = k > 0u ? int(parts[jobParts + 2u * (k - 1u)]) : 0;
    if (period == 0 || candidate + length != rowOf + end) return -1;
    int lowest = max(max(rowOf + start - period, oldest), i - maxDistance);
    int reaches = rowOf + end - reach;
    if (candidate <= reaches || candidate - period < lowest) return -1;
    return candidate - min((candidate - reaches + period - 1) / period, (candidate - lowest) / period) * period;
}

// After pickBest (RepeatDeflater.Matcher.longest): the best candidate walked back, taken where
// the (up to 4) bytes after its match agree there too; the next byte's "last match's distance"
// then runs it on. No loop: one word compared.
void walkBest(int i, int limit, int rowStart, int oldest) {
    if (bestLength == 0 || bestLength >= limit || jobPartCount <= 1u || jobPartCount > MAX_WALK_PARTS) return;
    int c = walkedBack(i - bestDistance, bestLength, i, limit, rowStart, oldest);
    if (c < 0) return;
    int n = min(agreeing(wordAt(c + bestLength), wordAt(i + bestLength)), min(4, limit - bestLength));
    if (n > 0) {
        bestLength += n;
        bestDistance = i - c;
    }
}

// RepeatDeflater.lazyBelow: a match shorter than this is weighed against the one a byte on.
const int lazyBelow = LAZY_BELOW;

// RepeatDeflater.skipShift and maxSkip: after its `n`th miss in a row in a part, with neither the
// byte above nor the one a pixel back the same, the matcher skips the next min(n >> SKIP_SHIFT,
// MAX_SKIP) bytes (literals, not entered).
const int skipShift = SKIP_SHIFT;
const int maxSkip = MAX_SKIP;

// The matcher at `i` alone (the lazy step one byte on), entering `i`: `bestLength` and
// `bestDistance`, a length of `minMatch` or more ending in the row, or 0.
void matchAt(int i, int rowEnd, int oldest, int pixel, int row, int firstHashed) {
    int limit = min(MAX_MATCH, rowEnd - i);
    findCandidates(limit >= minMatch, i, oldest, pixel, row, firstHashed);
    if (limit >= minMatch) enter(i);
    for (int k = 0; comparing() && k < limit; k += 4) compareCandidates(k, wordAt(i + k), limit);
    pickBest(i);
    walkBest(i, limit, rowEnd - row, oldest);
}

// One row's tokens (RepeatDeflater.chooseRow), outside a copy run, the match being
// gathered carried in from the row before in the unit and out to the next. Each step
// adds a match or a literal; the match being gathered is flushed in one place.
void chooseRow(int rowStart, int copy, int oldest, int pixel, uint partsAt) {
    int row = rowBytes;
    int rowEnd = rowStart + row;
    int firstHashed = max(oldest, rowStart - min(row, hashReach));
    int enteredAbove = entered;
    entered = rowStart;
    if (copy == 0) {
        // The row above, entered before the matcher is asked (the CPU enters it when first
        // asked: entries before `firstHashed` are never read, so either way gives the same table).
        int j = enteredAbove <= firstHashed ? max(firstHashed, rowStart - (minMatch - 1)) : firstHashed;
        for (; j < rowStart; j++) enterHash(hashAt(j), j);
    }
    uint part = partsAt / 2u;
    int end = rowStart + int(parts[2u * part]);
    int period = int(parts[2u * part + 1u]);
    int i = rowStart;
    // The matcher's misses in a row in this part, and how many bytes it now skips.
    int misses = 0;
    int skip = 0;
    while (i < rowEnd) {
        if (i >= end) {
            // The next part: a step of its own (a loop here would count at every byte).
            part++;
            end = rowStart + int(parts[2u * part]);
            period = int(parts[2u * part + 1u]);
            misses = 0;
            skip = 0;
            continue;
        }
        int planned = copy > 0 ? (period > 0 ? period : copy) : period;
        int addAt = i;
        int addCount = 0;
        int addDistance = 0;
        bool literal = false;
        // Compared together, a word a step, in one loop (llvmpipe counts every loop reached):
        // whether the match being gathered covers the rest of the part (C), and, for the
        // matcher's eleven candidates (0-10).
        int partLeft = end - i;
        bool goC = runLength > 0 && runStart + runLength == i
            && (partLeft < shortPart || (planned > 0 && extraBits(runDistance) <= extraBits(planned)));
        // Else, at another distance, it takes what it covers of a planned part up to the end
        // of its last token, `fill` bytes at most (RepeatDeflater.fillLength).
        int fill = 0;
        if (planned > 0 && runLength > 0 && runStart + runLength == i && runDistance != planned) {
            fill = (MAX_MATCH - runLength % MAX_MATCH) % MAX_MATCH;
            if (fill >= partLeft) fill = 0;
        }
        int reachC = goC ? partLeft : fill;
        bool goR = reachC > 0;
        int limit = min(MAX_MATCH, rowEnd - i);
        findCandidates(planned == 0 && skip == 0 && limit >= minMatch, i, oldest, pixel, row, firstHashed);
        int lC = 0;
        int k = 0;
        for (; k < limit && ((goR && k < reachC) || comparing()); k += 4) {
            uint w = wordAt(i + k);
            if (goR && k < reachC) {
                int n = agreeing(wordAt(i - runDistance + k), w);
                lC = min(k + n, reachC);
                goR = n == 4;
            }
            compareCandidates(k, w, limit);
        }
        // Past the candidates' reach, the match being gathered alone: four words a step, so a
        // part of a 64,001-byte row (a 16,000-px RGBA row's stretched centre) stays within
        // llvmpipe's loop iterations (a word a step ran out there). The same `lC` as a word a step.
        int d = i - runDistance;
        for (; goR && k < reachC; k += 16) {
            int n = agreeing(wordAt(d + k), wordAt(i + k));
            if (n == 4 && k + 4 < reachC) n = 4 + agreeing(wordAt(d + k + 4), wordAt(i + k + 4));
            if (n == 8 && k + 8 < reachC) n = 8 + agreeing(wordAt(d + k + 8), wordAt(i + k + 8));
            if (n == 12 && k + 12 < reachC) n = 12 + agreeing(wordAt(d + k + 12), wordAt(i + k + 12));
            lC = min(k + n, reachC);
            goR = n == 16;
        }
        if (goC && lC == partLeft) {
            // The match being gathered covers this part too.
            runLength += partLeft;
            i = end;
            entered = i;
        } else if (planned > 0) {
            int filled = min(lC, fill);
            runLength += filled;
            addAt = i + filled;
            addCount = partLeft - filled;
            addDistance = planned;
            i = end;
            entered = i;
        } else if (skip > 0) {
            // A byte the matcher skips after its misses: a literal, not entered.
            literal = true;
            i += 1;
            skip--;
            entered = i;
        } else {
            // The matcher's choice: the longest of `minMatch` bytes or more, ending in the row, the
            // first tried on a tie; the byte is entered in the hash table as it is asked.
            if (limit >= minMatch) enter(i);
            pickBest(i);
            walkBest(i, limit, rowStart, oldest);
            int best = bestLength;
            int distance = bestDistance;
            bool lazy = false;
            if (best >= minMatch && best < lazyBelow && i + 1 < end) {
                // One byte on, a longer match: this byte is a literal (zlib's lazy evaluation, one step).
                matchAt(i + 1, rowEnd, oldest, pixel, row, firstHashed);
                lazy = bestLength > best;
            }
            if (lazy) {
                literal = true;
                addAt = i + 1;
                addCount = bestLength;
                addDistance = bestDistance;
                i += 1 + bestLength;
                entered = i;
                misses = 0;
            } else if (best >= minMatch) {
                addCount = best;
                addDistance = distance;
                i += best;
                entered = i;
                misses = 0;
            } else {
                literal = true;
                // A miss, unless the byte above or a pixel back is the same (a smooth area's matches are near).
                bool near = (i - row >= oldest && byteAt(i - row) == byteAt(i)) || (i - pixel >= oldest && byteAt(i - pixel) == byteAt(i));
                misses = near ? 0 : misses + 1;
                skip = min(misses >> skipShift, maxSkip);
                i += 1;
            }
        }
        // A literal (at `literalAt`) flushes the match being gathered; a match then starts anew.
        int literalAt = addCount > 0 ? addAt - 1 : addAt;
        bool joins = !literal && addCount > 0 && runLength > 0 && addDistance == runDistance && runStart + runLength == addAt;
        if (runLength > 0 && (literal || (addCount > 0 && !joins))) flushRun();
        if (literal) emit(byteAt(literalAt), literalAt);
        if (joins) {
            runLength += addCount;
        } else if (addCount > 0) {
            runStart = addAt;
            runLength = addCount;
            runDistance = addDistance;
        }
    }
}

// Whether unit `u`'s first run may join unit u - 1's last (RepeatDeflater.choose): the plan allows it
// at that seam, both runs are there, at one distance.
bool canJoin(uint u) {
    if (u == 0u || plan[unitsAt + PLAN_UNIT_WORDS * u + PLAN_UNIT_JOINS] == 0u) return false;
    uint before = u - 1u;
    uint p = SEAM_WORDS * before, c = SEAM_WORDS * u;
    return seams[p + SEAM_LAST_LENGTH] > 0u && seams[c + SEAM_FIRST_LENGTH] > 0u && seams[p + SEAM_LAST_DISTANCE] == seams[c + SEAM_FIRST_DISTANCE];
}

// Mode 2, an invocation a seam: unit u's first run joined to unit u - 1's last, cut once as flushRun
// cuts (RepeatDeflater.appendMatch), written over the last run's tokens; not where unit u - 1 is that
// one run and could join the unit before it (seams run in parallel: no chains). The joined run never
// takes more tokens than the two did, so it ends before unit u's other tokens.
void joinSeam(uint u) {
    if (u >= units) return;
    seams[SEAM_WORDS * u + SEAM_JOINED] = 0u;
    if (!canJoin(u)) return;
    uint before = u - 1u;
    uint p = SEAM_WORDS * before;
    if (seams[p + SEAM_LAST_FROM] == 0u && canJoin(before)) return;
    uint firstRow = plan[unitsAt + PLAN_UNIT_WORDS * before + PLAN_UNIT_FIRST_ROW];
    uint job = jobsAt + PLAN_JOB_WORDS * (plan[PLAN_ROW_WORDS * firstRow + PLAN_ROW_JOB_AND_RUN_START] >> ROW_RUN_AT_BITS);
    pixelBytes = int(plan[job + PLAN_JOB_PIXEL_BYTES]);
    oldestByte = int(plan[job + PLAN_JOB_OLDEST]);
    uint base = plan[PLAN_ROW_WORDS * firstRow + PLAN_ROW_FIRST_TOKEN] + seams[p + SEAM_LAST_FROM];
    int at = int(seams[p + SEAM_LAST_START]);
    int left = int(seams[p + SEAM_LAST_LENGTH]) + int(seams[SEAM_WORDS * u + SEAM_FIRST_LENGTH]);
    int distance = int(seams[p + SEAM_LAST_DISTANCE]);
    uint n = 0u;
    while (left >= 3) {
        int length = min(MAX_MATCH, left);
        tokens[base + n] = TOKEN_MATCH | uint(length) << TOKEN_LENGTH_SHIFT | uint(tokenDistance(at, length, distance));
        n += 1u;
        at += length;
        left -= length;
    }
    if (left >= 1) { tokens[base + n] = byteAt(at); n += 1u; }
    if (left >= 2) { tokens[base + n] = byteAt(at + 1); n += 1u; }
    seams[SEAM_WORDS * u + SEAM_JOINED] = loopsRan() ? n : tooLong;
}

void main() {
    uint u = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
    if (mode == 1u) {
        sums(u);
        return;
    }
    if (mode == 2u) {
        joinSeam(u);
        return;
    }
    u += unitsFrom;
    if (u >= units) return;
    unitIndex = u;
    seams[SEAM_WORDS * u + SEAM_FIRST_LENGTH] = 0u;
    seams[SEAM_WORDS * u + SEAM_LAST_LENGTH] = 0u;
    seams[SEAM_WORDS * u + SEAM_LAST_FROM] = 0u;
    unitFirst = plan[unitsAt + PLAN_UNIT_WORDS * u + PLAN_UNIT_FIRST_ROW];
    tableAt = plan[unitsAt + PLAN_UNIT_WORDS * u + PLAN_UNIT_TABLE_AT];
    uint unitRows = plan[unitsAt + PLAN_UNIT_WORDS * u + PLAN_UNIT_ROWS];
    uint first = PLAN_ROW_WORDS * unitFirst;
    uint job = jobsAt + PLAN_JOB_WORDS * (plan[first + PLAN_ROW_JOB_AND_RUN_START] >> ROW_RUN_AT_BITS);
    rowBytes = int(plan[job + PLAN_JOB_ROW_BYTES]);
    int pixel = int(plan[job + PLAN_JOB_PIXEL_BYTES]);
    hashBits = plan[job + PLAN_JOB_HASH_BITS];
    int oldest = int(plan[job + PLAN_JOB_OLDEST]);
    pixelBytes = pixel;
    oldestByte = oldest;
    uint partsAt = plan[job + PLAN_JOB_PARTS_AT];
    jobParts = partsAt;
    jobPartCount = plan[job + PLAN_JOB_PART_COUNT];
    unitStart = int(plan[first + PLAN_ROW_FIRST_BYTE]);
    unitTokenBase = plan[first + PLAN_ROW_FIRST_TOKEN];
    unitTokens = 0u;
    tokenRow = 0u;
    tokenCount = 0u;
    int copy = int(plan[first + PLAN_ROW_COPY] & ROW_BACK_MASK);
    if (copy > 0 && int(parts[partsAt]) == rowBytes) {
        // A copied row with no periodic part (its one part ends the row): its copy run's tokens.
        copyRun(unitStart, rowBytes, copy, int(plan[first + PLAN_ROW_JOB_AND_RUN_START] & ROW_RUN_AT_MASK), int(plan[first + PLAN_ROW_COPY] >> ROW_RUN_AHEAD_SHIFT));
        counts[unitFirst] = loopsRan() ? tokenCount : tooLong;
        return;
    }
    for (uint r = 1u; r < unitRows; r++) counts[unitFirst + r] = 0u;
    runStart = 0;
    runLength = 0;
    runDistance = 0;
    entered = 2147483647;
    int tableSize = 1 << hashBits;
    for (int k = 0; k < tableSize; k++) {
        hashes[tableAt + uint(k)] = -2147483647 - 1;
        hashes[tableAt + HASH_SLOTS + uint(k)] = -2147483647 - 1;
    }
    for (uint r = 0u; r < unitRows; r++) {
        chooseRow(unitStart + int(r) * rowBytes, int(plan[PLAN_ROW_WORDS * (unitFirst + r) + PLAN_ROW_COPY] & ROW_BACK_MASK), oldest, pixel, partsAt);
    }
    if (runLength > 0) {
        seams[SEAM_WORDS * u + SEAM_LAST_START] = uint(runStart);
        seams[SEAM_WORDS * u + SEAM_LAST_LENGTH] = uint(runLength);
        seams[SEAM_WORDS * u + SEAM_LAST_DISTANCE] = uint(runDistance);
        seams[SEAM_WORDS * u + SEAM_LAST_FROM] = unitTokens;
        flushRun();
    }
    counts[unitFirst + tokenRow] = tokenCount;
    // Out of loop iterations (no loop runs now): the first row says so, and the CPU encodes the job.
    if (!loopsRan()) counts[unitFirst] = tooLong;
}
