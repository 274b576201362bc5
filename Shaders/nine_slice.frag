#version 300 es
// docs/RENDERING.md §3 per axis: u = (x + 0.5 - origin) * num / den, wrapped into [0, n)
// for tile/repeat/round, clamped otherwise. The texture holds one
// premultiplied source cell with GL_REPEAT or GL_CLAMP_TO_EDGE per axis, so
// the texture unit does the addressing and sampling never reads a
// neighbouring segment.
//
// The texture unit fetches texel centres (GL_NEAREST); the linear blend is done
// here in float. Hardware GL_LINEAR weights have 8 bits (llvmpipe truncates
// them) and were measured 2 levels off the exact formula, outside docs/RENDERING.md §5's
// tolerance of 1; float weights keep every driver within it.
precision highp float;

uniform highp sampler2D cell;

flat in vec2 cellSize;    // n per axis, in texels
flat in vec2 origin;      // in output pixels of the quad's job
flat in vec2 num;
flat in vec2 den;
flat in vec2 wrapAxis;    // 1.0 where the axis wraps
flat in vec2 offset;      // job pixel at the framebuffer's (0, 0)
flat in float linearFilter;
// CSS space per axis (count 0: not space): tile j starts at
// origin + floor(gap + j * period + 0.5); a pixel draws when it is within the
// first `pixels` pixels of the last tile starting at or before it.
flat in vec2 spaceGap;
flat in vec2 spacePeriod;
flat in vec2 spaceCount;
flat in vec2 spacePixels;

out vec4 color;

vec4 texel(vec2 index) {
    return texture(cell, (index + 0.5) / cellSize);
}

// The CPU adds 1e-9 in double so that an exact whole number stays whole; in
// float the same sums land a few ulps off, so the nudge is larger here.
const float SPACE_EPSILON = 1.0 / 4096.0;

float tileStart(float j, float gap, float period) {
    return floor(gap + j * period + 0.5 + SPACE_EPSILON);
}

// The start of the tile drawing pixel `rel` (relative to the span), or -1.0 in a gap.
float spaceStart(float rel, float gap, float period, float count, float pixels) {
    float j = clamp(floor((rel - gap) / period), 0.0, count - 1.0);
    float s = tileStart(j, gap, period);
    if (j + 1.0 < count && tileStart(j + 1.0, gap, period) <= rel) {
        s = tileStart(j + 1.0, gap, period);
    } else if (j > 0.0 && s > rel) {
        s = tileStart(j - 1.0, gap, period);
    }
    return (s <= rel && rel - s < pixels) ? s : -1.0;
}

void main() {
    vec2 centre = gl_FragCoord.xy + offset;
    vec2 from = origin;
    for (int a = 0; a < 2; a++) {
        if (spaceCount[a] > 0.0) {
            float rel = floor(centre[a]) - origin[a];
            float s = spaceStart(rel, spaceGap[a], spacePeriod[a], spaceCount[a], spacePixels[a]);
            if (s < 0.0) discard;
            from[a] = origin[a] + s;
        }
    }
    vec2 u = (centre - from) * num / den;
    vec2 wrapped = u - cellSize * floor(u / cellSize);
    u = mix(u, wrapped, wrapAxis);
    if (linearFilter > 0.5) {
        vec2 t = u - 0.5;
        vec2 i = floor(t);
        vec2 f = t - i;
        vec4 top = mix(texel(i), texel(i + vec2(1.0, 0.0)), f.x);
        vec4 bottom = mix(texel(i + vec2(0.0, 1.0)), texel(i + vec2(1.0, 1.0)), f.x);
        color = mix(top, bottom, f.y);
    } else {
        // A nudge far below one texel: a coordinate that is a whole texel in exact
        // arithmetic but lands a float ulp below it still picks the CPU's floor(u).
        color = texel(floor(u + 1.0 / 65536.0));
    }
}
