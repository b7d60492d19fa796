// What every route module gets: the store, the tenants, the version clock, the switches.
import type { DB } from './db';
import { Statements } from './db';
import type { FaultSpec } from './faults';
import { MonotonicClock } from './util';

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
  tenantByKey: Map<string, Tenant>;
  tenantByHandle: Map<string, Tenant>;
  tenantById: Map<string, Tenant>;
  clock: MonotonicClock;
  faults: FaultSpec;
  multipartExamples: boolean;
  startedAt: string;
  stats: { requests: number; internalErrors: number; faultsInjected: number };
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
