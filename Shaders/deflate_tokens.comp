#version 310 es
// `--compression fast`'s token choice (issue 43), one invocation per PNG row: the
// GPU twin of RepeatDeflater.chooseRow (Sources/GlsliceKit/PNG/RepeatDeflater.swift),
// rule for rule, so both give the same tokens. Integer arithmetic only. With
// mode 1, the Adler-32 sums of the rows' bytes instead, a segment an invocation.
// One dispatch takes the rows of many jobs (outputs of an atlas, or bands of one),
// each job with its own shape, described in `Plan`.
//
// llvmpipe (Mesa 22.3.6) stops every loop of an invocation once 65,535 loop
// iterations have run in it, all loops together (LP_MAX_TGSI_LOOP_ITERATIONS):
// a row that needs more marks its count `tooLong`, and the CPU encodes that output.
//
// A token is packed as DeflateToken packs it: a literal byte, or
// 0x80000000 | length << 16 | distance.

layout(local_size_x = 64) in;

// The scanlines (filter byte first), four bytes to a word, little-endian: the rows
// to choose for and, before each job's rows, every byte a match may reach (32 KiB,
// or back to its image's first byte, the job's `oldest`).
layout(std430, binding = 0) readonly buffer Scanlines { uint scanlines[]; };
// Each job's row in parts: (end, period) pairs, period 0 for the matcher's parts. Flat
// `uint`s: as `uvec2 parts[]`, llvmpipe (Mesa 22.3.6) read a stale `.y` in some
// invocations of a diverging group (caught by GPUDeflaterTests).
layout(std430, binding = 1) readonly buffer Parts { uint parts[]; };
// Per row, 4 words: its first byte in `scanlines`; its first token's index in
// `tokens`; bytes back to an equal row within reach (or 0), with its copy run's bytes
// ahead (RepeatDeflater.RowCopy) from bit 16; its job, shifted left 10, with its
// copy run's reduced start. Then from
// `segmentsAt`, per segment 2 words: its first byte and its end. Then from `jobsAt`,
// per job 8 words: row bytes, pixel bytes, hash bits, oldest byte a match may reach,
// its first word in `parts`.
layout(std430, binding = 2) readonly buffer Plan { uint plan[]; };
// Per row: up to its row bytes of tokens.
layout(std430, binding = 3) writeonly buffer Tokens { uint tokens[]; };
// Per row: how many tokens it has.
layout(std430, binding = 4) writeonly buffer Counts { uint counts[]; };
// Per segment: its Adler-32 sums (RFC 1950 §8) from 1 and 0, which the CPU combines.
layout(std430, binding = 5) writeonly buffer Adler { uint adler[]; };

uniform uint rows;
uniform uint segments;
uniform uint segmentsAt;
uniform uint jobsAt;
uniform uint mode;

const int maxDistance = 32768;
const int shortPart = 512;
// The row above's last bytes the hash table holds (RepeatDeflater.hashReach).
const int hashReach = 4096;

int seen[4096];
uint hashBits;
uint tokenBase;
uint tokenCount;
int runStart;
int runLength;
int runDistance;

uint byteAt(int i) { return (scanlines[uint(i) >> 2] >> ((uint(i) & 3u) * 8u)) & 0xFFu; }

uint hashAt(int i) {
    uint word = byteAt(i) | byteAt(i + 1) << 8 | byteAt(i + 2) << 16 | byteAt(i + 3) << 24;
    return (word * 2654435761u) >> (32u - hashBits);
}

int extraBits(int distance) {
    // Deflate's distance codes 0-29: 0 extra bits up to 4, then one more every doubling.
    int d = distance - 1;
    return d < 4 ? 0 : findMSB(d) - 1;
}

void emit(uint token) {
    tokens[tokenBase + tokenCount] = token;
    tokenCount += 1u;
}

void flushRun() {
    int at = runStart;
    int left = runLength;
    while (left >= 3) {
        int length = min(258, left);
        if (left - length == 1 || left - length == 2) length = left - 3;
        emit(0x80000000u | uint(length) << 16 | uint(runDistance));
        at += length;
        left -= length;
    }
    for (int i = at; i < at + left; i++) emit(byteAt(i));
    runLength = 0;
}

// A copy run's row (RepeatDeflater.RowCopy): the tokens of the run's one match, cut
// as flushRun cuts it (the CPU's choose writes the whole run at once), that start in
// this row; they may reach into the rows after. Literals only where the whole run is
// 1 or 2 bytes.
void copyRun(int rowStart, int row, int back, int runAt, int runAhead) {
    int to = runAt + row;
    int at = 0;
    int left = to + runAhead;
    while (left >= 3 && at < to) {
        int length = min(258, left);
        if (left - length == 1 || left - length == 2) length = left - 3;
        if (at >= runAt) emit(0x80000000u | uint(length) << 16 | uint(back));
        at += length;
        left -= length;
    }
    while (left > 0 && at < to) {
        emit(byteAt(rowStart + at - runAt));
        at += 1;
        left -= 1;
    }
}

void run(int at, int count, int distance) {
    if (runLength > 0 && distance == runDistance && runStart + runLength == at) {
        runLength += count;
    } else {
        flushRun();
        runStart = at;
        runLength = count;
        runDistance = distance;
    }
}

bool sameBytes(int a, int b, int count) {
    for (int k = 0; k < count; k++) {
        if (byteAt(a + k) != byteAt(b + k)) return false;
    }
    return true;
}

const uint tooLong = 0xFFFFFFFFu;

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
    uint start = plan[segmentsAt + 2u * segment];
    uint end = plan[segmentsAt + 2u * segment + 1u];
    uint a = 1u;
    uint b = 0u;
    for (uint k = start; k < end; k++) {
        a = (a + byteAt(int(k))) % 65521u;
        b = (b + a) % 65521u;
    }
    adler[2u * segment] = a;
    adler[2u * segment + 1u] = loopsRan() ? b : tooLong;
}

void main() {
    uint r = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
    if (mode == 1u) {
        sums(r);
        return;
    }
    if (r >= rows) return;
    uint job = jobsAt + 8u * (plan[4u * r + 3u] >> 10);
    int row = int(plan[job]);
    int pixel = int(plan[job + 1u]);
    hashBits = plan[job + 2u];
    int oldest = int(plan[job + 3u]);
    uint partsAt = plan[job + 4u];
    int rowStart = int(plan[4u * r]);
    int rowEnd = rowStart + row;
    int copy = int(plan[4u * r + 2u] & 0xFFFFu);
    tokenBase = plan[4u * r + 1u];
    tokenCount = 0u;
    if (copy > 0 && int(parts[partsAt]) == row) {
        // A copied row with no periodic part (its one part ends the row): its copy run's tokens.
        copyRun(rowStart, row, copy, int(plan[4u * r + 3u] & 0x3FFu), int(plan[4u * r + 2u] >> 16));
        counts[r] = loopsRan() ? tokenCount : tooLong;
        return;
    }
    int firstHashed = max(oldest, rowStart - min(row, hashReach));
    bool hashedRowAbove = false;
    runStart = 0;
    runLength = 0;
    runDistance = 0;
    int tableSize = 1 << hashBits;
    for (int k = 0; k < tableSize; k++) seen[k] = -2147483647 - 1;

    uint part = partsAt / 2u;
    int i = rowStart;
    while (i < rowEnd) {
        while (i >= rowStart + int(parts[2u * part])) part++;
        int end = rowStart + int(parts[2u * part]);
        int period = int(parts[2u * part + 1u]);
        int planned = copy > 0 ? (period > 0 ? period : copy) : period;
        if (runLength > 0 && runStart + runLength == i
            && (end - i < shortPart || (planned > 0 && extraBits(runDistance) <= extraBits(planned)))
            && sameBytes(i, i - runDistance, end - i)) {
            runLength += end - i;
            i = end;
        } else if (planned > 0) {
            run(i, end - i, planned);
            i = end;
        } else {
            // The matcher: one pixel back, one row back, the last match's distance, the hash.
            int best = 0;
            int bestDistance = 0;
            int limit = min(258, rowEnd - i);
            int candidates[4];
            int tried = 0;
            candidates[tried++] = i - pixel;
            candidates[tried++] = i - row;
            if (runDistance > 0 && runDistance != pixel && runDistance != row) candidates[tried++] = i - runDistance;
            int hashed = -1;
            if (limit >= 4) {
                if (!hashedRowAbove) {
                    hashedRowAbove = true;
                    for (int j = firstHashed; j < rowStart; j++) seen[hashAt(j)] = j;
                }
                uint h = hashAt(i);
                if (seen[h] >= firstHashed) candidates[tried++] = seen[h];
                seen[h] = i;
            }
            for (int c = 0; c < tried && best < limit; c++) {
                int candidate = candidates[c];
                int distance = i - candidate;
                if (candidate < oldest || distance <= 0 || distance > maxDistance) continue;
                int length = 0;
                while (length < limit && byteAt(candidate + length) == byteAt(i + length)) length++;
                if (length > best) {
                    best = length;
                    bestDistance = distance;
                }
            }
            if (best >= 4) {
                run(i, best, bestDistance);
                i += best;
            } else {
                flushRun();
                emit(byteAt(i));
                i += 1;
            }
        }
    }
    flushRun();
    counts[r] = loopsRan() ? tokenCount : tooLong;
}
