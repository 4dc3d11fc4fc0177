/**
 * The house number rule, on a straight street: the asked number itself (letter included), else the registered number
 * nearest where the asked one would be between its neighbours on the same side, when within 25 m, else none.
 */
import { describe, expect, it } from 'vitest';
import { answerNumber, nearDistanceM, NEAR_M, type NumberedPoint } from '../../src/addresses/house-numbers.js';

/** A number on a street running north, `metresPer` metres per number unit, the two sides 12 m apart. */
function at(number: string, metresPer = 3): NumberedPoint {
  const num = parseInt(number, 10);
  const side = num % 2 === 0 ? 6 : -6;
  return { number, num, lat: 50.85 + (num * metresPer) / 111_195, lon: 4.35 + side / 70_000 };
}

describe('answerNumber', () => {
  const street = ['2', '4', '6', '8', '12', '14', '14A', '1', '3', '5'].map((n) => at(n));

  it('answers the number itself, letter included', () => {
    expect(answerNumber('4', street)).toEqual({ point: street[1], exact: true });
    expect(answerNumber('14A', street)?.point.number).toBe('14A');
    expect(answerNumber('14A', street)?.exact).toBe(true);
  });

  it('answers a missing number by the registered neighbour nearest its place on its side, under its own number', () => {
    const ten = answerNumber('10', street)!;
    expect(ten.exact).toBe(false);
    expect(['8', '12']).toContain(ten.point.number);
    expect(answerNumber('12A', street)?.point.number).toMatch(/^1[24]/);
  });

  it('answers nothing past the last number, or when the neighbours are far apart', () => {
    expect(answerNumber('16', street)).toBeUndefined();
    expect(answerNumber('7', street)).toBeUndefined();
    const sparse = ['2', '40'].map((n) => at(n, 3));
    // 20 lies 57 m from both registered numbers.
    expect(answerNumber('20', sparse)).toBeUndefined();
    expect(nearDistanceM(sparse[0]!, sparse[1]!)).toBeGreaterThan(2 * NEAR_M);
  });

  it('measures short distances in metres', () => {
    expect(nearDistanceM({ lat: 50.85, lon: 4.35 }, { lat: 50.85 + 100 / 111_195, lon: 4.35 })).toBeCloseTo(100, 0);
  });
});
