// Timestamps: now, parsing what the API accepts, and strictly increasing version stamps.
export const nowIso = (): string => new Date().toISOString();

const ISO_MS_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Parses a timestamp the way the API accepts it (ISO 8601, with or without zone) → ISO UTC, or null. */
export function parseTime(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value).toISOString() : null;
  if (typeof value !== 'string') return null;
  // Fast path: already what we store (what JS toISOString() produces).
  if (value.length === 24 && ISO_MS_Z.test(value)) return value;
  let s = value.trim();
  // Timestamps without a zone are UTC in LangSmith.
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(s)) s += 'Z';
  const t = Date.parse(s);
  if (Number.isNaN(t)) return null;
  // Keep microseconds out: JS dates hold milliseconds.
  return new Date(t).toISOString();
}

/** Strictly increasing timestamps per key, so two changes in one millisecond are still two versions. */
export class MonotonicClock {
  private last = new Map<string, number>();
  next(key: string, floor?: string | null): string {
    let t = Date.now();
    const prev = Math.max(this.last.get(key) ?? 0, floor ? Date.parse(floor) : 0);
    if (t <= prev) t = prev + 1;
    this.last.set(key, t);
    return new Date(t).toISOString();
  }
}
