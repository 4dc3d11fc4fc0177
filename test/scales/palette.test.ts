import { describe, expect, it } from 'vitest';
import { formatNumber, hslToHex, rainbow, rgbToHex } from '../../src/scales/palette.js';

describe('palette', () => {
  it('converts HSL primaries and secondaries exactly', () => {
    expect(hslToHex(0, 1, 0.5)).toBe('#FF0000');
    expect(hslToHex(60, 1, 0.5)).toBe('#FFFF00');
    expect(hslToHex(120, 1, 0.5)).toBe('#00FF00');
    expect(hslToHex(180, 1, 0.5)).toBe('#00FFFF');
    expect(hslToHex(240, 1, 0.5)).toBe('#0000FF');
    expect(hslToHex(0, 0, 0.5)).toBe('#808080');
  });

  it('clamps and pads RGB channels', () => {
    expect(rgbToHex(-3, 5.4, 300)).toBe('#0005FF');
  });

  it('builds a blue-to-red rainbow through cyan, green and yellow', () => {
    const colors = rainbow(5);
    expect(colors).toEqual(['#0000FF', '#00FFFF', '#00FF00', '#FFFF00', '#FF0000']);
    expect(rainbow(30)).toEqual(rainbow(30));
    expect(() => rainbow(1)).toThrow(RangeError);
  });

  it('formats label numbers without float noise', () => {
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(-13)).toBe('-13');
    expect(formatNumber(14.5)).toBe('14.5');
  });
});
