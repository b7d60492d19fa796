// Time zones by IANA name (through Intl): a zone's offset at an instant, local midnights, and the buckets of a chart
// aligned to a stride in a zone — each day's buckets start at its local midnight, so a day across a daylight-saving
// change has 23 or 25 one-hour buckets and its buckets still start on local hours.

const formats = new Map<string, Intl.DateTimeFormat>();

/** True when Intl knows the zone. */
export function isTimeZone(tz: string): boolean {
  try {
    format(tz);
    return true;
  } catch {
    return false;
  }
}

function format(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formats.set(tz, f);
  }
  return f;
}

/** The local date and time at an instant: [year, month (1–12), day, hour, minute, second]. */
function localParts(tz: string, ms: number): number[] {
  const out: Record<string, number> = {};
  for (const p of format(tz).formatToParts(ms)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return [out.year!, out.month!, out.day!, out.hour!, out.minute!, out.second!];
}

/** How far the zone's clocks are ahead of UTC at an instant, in milliseconds. */
export function offsetAt(tz: string, ms: number): number {
  const [y, mo, d, h, mi, s] = localParts(tz, ms);
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) - whole;
}

/** The instant of local midnight starting the given local date (or the first instant after it, where a clock change skips it). */
export function localMidnight(tz: string, y: number, month: number, d: number): number {
  const wall = Date.UTC(y, month - 1, d);
  let guess = wall - offsetAt(tz, wall);
  guess = wall - offsetAt(tz, guess);
  return guess;
}

/** The local midnight on or before an instant. */
export function midnightBefore(tz: string, ms: number): number {
  const [y, mo, d] = localParts(tz, ms);
  let m = localMidnight(tz, y!, mo!, d!);
  if (m > ms) {
    const prev = new Date(Date.UTC(y!, mo! - 1, d! - 1));
    m = localMidnight(tz, prev.getUTCFullYear(), prev.getUTCMonth() + 1, prev.getUTCDate());
  }
  return m;
}

/** The local midnight `days` local days after the one starting at `midnight`. */
function midnightAfter(tz: string, midnight: number, days: number): number {
  // Noon of the day, so a clock change at midnight cannot move the date read back.
  const [y, mo, d] = localParts(tz, midnight + 12 * 3_600_000);
  const next = new Date(Date.UTC(y!, mo! - 1, d! + days));
  return localMidnight(tz, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
}

export interface Stride {
  days: number;
  hours: number;
  minutes: number;
}

/**
 * The starts of the buckets covering [start, end): with a stride of whole days, local midnights that many days
 * apart; with a stride under a day, steps of that length from each local midnight (the last one of a day shorter
 * when the stride does not divide it); otherwise steps of the stride's length from the local midnight before
 * `start`. The first bucket is the one holding `start`. Throws past `max` buckets.
 */
export function bucketStarts(tz: string, start: number, end: number, stride: Stride, max: number): number[] {
  const stepMs = (stride.hours * 60 + stride.minutes) * 60_000;
  const out: number[] = [];
  const tooMany = () => new RangeError(`more than ${max} buckets`);
  // The buckets of the first day before `start` are made too, then dropped: a day has at most 1,440 of them.
  const push = (t: number) => {
    if (out.length >= max + 1440) throw tooMany();
    out.push(t);
  };
  let day = midnightBefore(tz, start);
  if (stride.days > 0 && stepMs === 0) {
    for (let t = day; t < end; t = midnightAfter(tz, t, stride.days)) push(t);
  } else if (stride.days === 0) {
    while (day < end) {
      const next = midnightAfter(tz, day, 1);
      for (let t = day; t < next && t < end; t += stepMs) push(t);
      day = next;
    }
  } else {
    const total = stride.days * 86_400_000 + stepMs;
    for (let t = day; t < end; t += total) push(t);
  }
  // Drop the buckets that end before the window starts.
  let first = 0;
  while (first + 1 < out.length && out[first + 1]! <= start) first++;
  if (out.length - first > max) throw tooMany();
  return out.slice(first);
}
