#version 300 es
// One quad per piece of a cell, in framebuffer pixels. Where each pixel
// samples is not computed here or in the fragment shader: the plan's taps
// (AxisTaps) ride in an integer texture, one row per job axis, and the quad
// says which rows are its job's.
uniform vec2 viewportSize;
in vec2 position;
in vec2 tapRowsIn;   // rows of the taps texture: the job's column taps, its row taps
in float filledIn;   // 1: a one-colour cell, whose texture is that one texel

flat out ivec2 tapRows;
flat out int filled;

void main() {
    tapRows = ivec2(tapRowsIn);
    filled = int(filledIn);
    gl_Position = vec4(position / viewportSize * 2.0 - 1.0, 0.0, 1.0);
}
