/** Lazy paging helpers: a page is fetched only when iteration reaches it. */

export interface OffsetPagingOptions {
  /** Items per request. */
  pageSize: number;
  /** Where to start. Default 0. */
  offset?: number;
  /** Stop after this many items in all. Default: all. */
  limit?: number;
  /**
   * How many further pages may be in flight while the current one is consumed. Default 0
   * (strictly one page after another). Memory stays bounded by (1 + prefetch) pages.
   */
  prefetch?: number;
}

export async function* offsetPaged<T>(
  fetchPage: (offset: number, limit: number) => Promise<T[]>,
  opts: OffsetPagingOptions,
): AsyncGenerator<T, void, undefined> {
  const pageSize = Math.max(1, Math.floor(opts.pageSize));
  const start = opts.offset ?? 0;
  const total = opts.limit ?? Infinity;
  if (total <= 0) return;
  const prefetch = Math.max(0, opts.prefetch ?? 0);
  let nextOffset = start;
  let exhausted = false;
  const inFlight: Promise<T[]>[] = [];
  const launch = () => {
    if (nextOffset - start >= total) return;
    const size = Math.min(pageSize, total - (nextOffset - start));
    const p = fetchPage(nextOffset, size);
    p.catch(() => undefined); // observed when its turn comes; silence an early break
    inFlight.push(p);
    nextOffset += size;
  };
  let yielded = 0;
  try {
    launch();
    while (inFlight.length > 0) {
      while (!exhausted && inFlight.length < 1 + prefetch && nextOffset - start < total) launch();
      const page = await inFlight.shift()!;
      for (const item of page) {
        yield item;
        if (++yielded >= total) return;
      }
      if (page.length < pageSize) {
        exhausted = true;
        return;
      }
      if (inFlight.length === 0) launch();
    }
  } finally {
    inFlight.length = 0;
  }
}

/** Cursor paging: each answer carries the cursor of the next page, so pages come one after another. */
export async function* cursorPaged<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; next?: string | null }>,
  limit = Infinity,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  let yielded = 0;
  for (;;) {
    const { items, next } = await fetchPage(cursor);
    for (const item of items) {
      yield item;
      if (++yielded >= limit) return;
    }
    if (!next || items.length === 0) return;
    cursor = next;
  }
}

/** Collects an async iterable into an array (for callers that do want everything). */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
