/**
 * The catalog's timesteps as one list: the live hour first, then every forecast step in time order, each labelled
 * with its local time in Brussels and "live" or its lead ("+3 h") from the live hour.
 */

const TIME_ZONE = 'Europe/Brussels';
const HOUR_MS = 3_600_000;

const dayTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
});
const timeOnly = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** Local Brussels time of an instant, e.g. "Tue 24 Nov, 14:00". */
export function localTime(ms) {
  return dayTime.format(new Date(ms));
}

/** Short local time, e.g. "14:00". */
export function shortTime(ms) {
  return timeOnly.format(new Date(ms));
}

/** The steps of a catalog: `{kind, timestamp_ms, layers, lead, label}`; the live step has lead 0. */
export function catalogSteps(catalog) {
  const live = catalog.live;
  const steps = [];
  if (live) steps.push({ kind: 'live', timestamp_ms: live.timestamp_ms, layers: live.layers ?? {}, lead: 0 });
  const base = live?.timestamp_ms ?? catalog.forecast?.[0]?.timestamp_ms ?? 0;
  for (const step of catalog.forecast ?? []) {
    steps.push({ kind: 'forecast', timestamp_ms: step.timestamp_ms, layers: step.layers ?? {}, lead: Math.round((step.timestamp_ms - base) / HOUR_MS) });
  }
  return steps.map((s) => ({ ...s, label: `${localTime(s.timestamp_ms)} · ${s.kind === 'live' ? 'live' : `+${s.lead} h`}` }));
}

/**
 * The index in `steps` to show after the catalog changed: the same instant when it is still listed, else the step
 * nearest to it (the live hour turned over), else the first.
 */
export function sameStep(steps, timestampMs) {
  if (timestampMs === undefined || steps.length === 0) return 0;
  let best = 0;
  for (let i = 1; i < steps.length; i++) {
    if (Math.abs(steps[i].timestamp_ms - timestampMs) < Math.abs(steps[best].timestamp_ms - timestampMs)) best = i;
  }
  return best;
}
