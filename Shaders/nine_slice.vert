#version 300 es
// One quad per piece of a cell, in pixels of the current strip.
uniform vec2 viewportSize;
in vec2 position;

void main() {
    gl_Position = vec4(position / viewportSize * 2.0 - 1.0, 0.0, 1.0);
}
