// What every route module gets: the store, the tenants, the version clock, the switches.
import crypto from 'node:crypto';
import type { DB } from './db';
import { Statements } from './db';
import type { FaultSpec } from './faults';
import { MonotonicClock } from './time';

export interface Tenant {
  id: string;
  handle: string;
  apiKey: string;
  displayName: string;
}

export interface Ctx {
  db: DB;
  st: Statements;
  tenants: Tenant[];
  /** The tenant of a presented API key, found without a timing leak (see {@link KeyRing}). */
  keys: KeyRing;
  tenantByHandle: Map<string, Tenant>;
  tenantById: Map<string, Tenant>;
  clock: MonotonicClock;
  faults: FaultSpec;
  multipartExamples: boolean;
  startedAt: string;
  stats: { requests: number; internalErrors: number; faultsInjected: number };
}

/**
 * API keys → tenants, looked up in constant time. A Map lookup (or `===`) on the presented key takes longer
 * the more of a real key it matches, which a caller on the network could measure. Here every key is kept as
 * an HMAC under a secret made at start-up, the presented key is hashed the same way (so every comparison is
 * of 32 bytes, whatever the length of the key), and it is compared with every tenant's hash by
 * `crypto.timingSafeEqual`, all of them, without stopping at a match: the time taken says nothing about the
 * key nor about which tenant it belongs to.
 */
export class KeyRing {
  private readonly secret = crypto.randomBytes(32);
  private readonly entries: Array<{ hash: Buffer; tenant: Tenant }>;

  constructor(tenants: readonly Tenant[]) {
    this.entries = tenants.map((tenant) => ({ hash: this.hash(tenant.apiKey), tenant }));
  }

  private hash(key: string): Buffer {
    return crypto.createHmac('sha256', this.secret).update(key, 'utf8').digest();
  }

  /** The tenant whose key this is, or undefined (also for an empty or non-string key). */
  tenantOf(key: unknown): Tenant | undefined {
    if (typeof key !== 'string' || !key) return undefined;
    const presented = this.hash(key);
    let found: Tenant | undefined;
    for (const e of this.entries) {
      const same = crypto.timingSafeEqual(presented, e.hash);
      if (same && !found) found = e.tenant;
    }
    return found;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    tenant: Tenant;
  }
  interface FastifyContextConfig {
    /** Reachable without an API key (public share reads, feedback tokens, web pages, /info). */
    public?: boolean;
    /** Exempt from fault injection (the fault switch itself). */
    noFaults?: boolean;
  }
}
