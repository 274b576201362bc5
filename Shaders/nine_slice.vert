#version 300 es
// One quad per piece of a cell, in framebuffer pixels. The piece's mapping
// rides along as flat attributes, so every quad sharing a texture is drawn
// in one call.
uniform vec2 viewportSize;
in vec2 position;
in vec2 cellSizeIn;
in vec2 originIn;
in vec2 numIn;
in vec2 denIn;
in vec2 wrapIn;
in vec2 offsetIn;
in float linearIn;
in vec2 spaceGapIn;
in vec2 spacePeriodIn;
in vec2 spaceCountIn;
in vec2 spacePixelsIn;

flat out vec2 cellSize;
flat out vec2 origin;
flat out vec2 num;
flat out vec2 den;
flat out vec2 wrapAxis;
flat out vec2 offset;
flat out float linearFilter;
flat out vec2 spaceGap;
flat out vec2 spacePeriod;
flat out vec2 spaceCount;
flat out vec2 spacePixels;

void main() {
    cellSize = cellSizeIn;
    origin = originIn;
    num = numIn;
    den = denIn;
    wrapAxis = wrapIn;
    offset = offsetIn;
    linearFilter = linearIn;
    spaceGap = spaceGapIn;
    spacePeriod = spacePeriodIn;
    spaceCount = spaceCountIn;
    spacePixels = spacePixelsIn;
    gl_Position = vec4(position / viewportSize * 2.0 - 1.0, 0.0, 1.0);
}
