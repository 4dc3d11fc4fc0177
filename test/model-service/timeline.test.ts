import { describe, expect, it } from 'vitest';
import {
  FORECAST_LEADS_H, forecastSteps, HOUR_MS, isoHour, LIVE_TURNOVER_MIN, liveHourMs, liveSteps, sliceStep,
} from '../../src/model-service/timeline.js';

const at = (iso: string) => Date.parse(iso);

describe('model timeline', () => {
  it('turns the live hour over at 7 minutes past the hour', () => {
    expect(LIVE_TURNOVER_MIN).toBe(7);
    expect(isoHour(liveHourMs(at('2025-06-01T10:06:59.999Z')))).toBe('2025-06-01T09:00:00Z');
    expect(isoHour(liveHourMs(at('2025-06-01T10:07:00.000Z')))).toBe('2025-06-01T10:00:00Z');
    expect(isoHour(liveHourMs(at('2025-06-01T00:03:00Z')))).toBe('2025-05-31T23:00:00Z');
  });

  it('lists live hours oldest first, ending at the live hour, all observed', () => {
    const steps = liveSteps(at('2025-06-01T10:30:00Z'), 24);
    expect(steps).toHaveLength(24);
    expect(isoHour(steps[0].targetMs)).toBe('2025-05-31T11:00:00Z');
    expect(isoHour(steps[23].targetMs)).toBe('2025-06-01T10:00:00Z');
    expect(steps.every((s) => s.leadH === 0)).toBe(true);
    steps.slice(1).forEach((s, i) => expect(s.targetMs - steps[i].targetMs).toBe(HOUR_MS));
  });

  it('issues forecasts hourly to +24 h, then 3-hourly to +48 h', () => {
    const now = at('2025-06-01T10:30:00Z');
    const steps = forecastSteps(now);
    expect(steps).toHaveLength(32);
    expect(steps.map((s) => s.leadH)).toEqual(FORECAST_LEADS_H);
    const gaps = steps.slice(1).map((s, i) => (s.targetMs - steps[i].targetMs) / HOUR_MS);
    expect(gaps).toEqual([...Array(23).fill(1), ...Array(8).fill(3)]);
    expect(steps[31].targetMs - liveHourMs(now)).toBe(48 * HOUR_MS);
  });

  it('places slices: past hours observed, future hours at their lead, others refused', () => {
    const now = at('2025-06-01T10:30:00Z');
    const live = liveHourMs(now);
    expect(sliceStep(now, live, 168)).toEqual({ targetMs: live, leadH: 0 });
    expect(sliceStep(now, live - 5 * HOUR_MS, 168)).toEqual({ targetMs: live - 5 * HOUR_MS, leadH: 0 });
    expect(sliceStep(now, live + 25 * HOUR_MS, 168)).toEqual({ targetMs: live + 25 * HOUR_MS, leadH: 25 });
    expect(sliceStep(now, live + 49 * HOUR_MS, 168)).toBeUndefined();
    expect(sliceStep(now, live - 169 * HOUR_MS, 168)).toBeUndefined();
    expect(sliceStep(now, live + 1, 168)).toBeUndefined();
  });
});
