/**
 * What the statistics add to the BelAQI classification (src/classification/belaqi.ts, shared with the scales and the
 * kernel): which classes count as good air, and how the classes of several cells make one hourly class.
 */

/** Highest class counted as good air (spec: good air is BelAQI class 1 to 4). */
export const GOOD_MAX_CLASS = 4;

/**
 * The hourly class of a set of graded cells: the mean of their classes rounded half up, computed in integers
 * (⌊(2·sum + n) / (2·n)⌋) so that a mean of exactly k.5 always rounds to k + 1; 0 when no cell is graded.
 */
export function roundedMeanClass(classSum: number, gradedCells: number): number {
  return gradedCells > 0 ? Math.floor((2 * classSum + gradedCells) / (2 * gradedCells)) : 0;
}
