// What every route module gets: the store, the tenants, the version clock, the switches.
import crypto from 'node:crypto';
import type { DB } from './db';
import { Statements } from './db';
import type { FaultSpec } from './faults';
import type { OAuthTokens } from './oauth';
import { MonotonicClock } from './time';

export interface Tenant {
  id: string;
  handle: string;
  /** The key of the workspace's first user. */
  apiKey: string;
  displayName: string;
}

/**
 * One person of a workspace: an API key of its own, a stable id (what LangSmith calls an identity, and what
 * review statuses, reservations and assigned reviewers name) and a display name. A workspace has one or more.
 */
export interface User {
  id: string;
  tenant: Tenant;
  name: string;
  apiKey: string;
}

export interface Ctx {
  db: DB;
  st: Statements;
  tenants: Tenant[];
  /** Every workspace's users, each workspace's first user first. */
  users: User[];
  userById: Map<string, User>;
  /** The user (and so the tenant) of a presented API key, found without a timing leak (see {@link KeyRing}). */
  keys: KeyRing;
  /** OAuth access and refresh tokens this server issued (`Authorization: Bearer`). */
  oauth: OAuthTokens<User>;
  tenantByHandle: Map<string, Tenant>;
  tenantById: Map<string, Tenant>;
  clock: MonotonicClock;
  faults: FaultSpec;
  multipartExamples: boolean;
  startedAt: string;
  stats: { requests: number; internalErrors: number; faultsInjected: number };
}

/**
 * API keys → users (and their tenants), looked up in constant time. A Map lookup (or `===`) on the presented key takes longer
 * the more of a real key it matches, which a caller on the network could measure. Here every key is kept as
 * an HMAC under a secret made at start-up, the presented key is hashed the same way (so every comparison is
 * of 32 bytes, whatever the length of the key), and it is compared with every user's hash by
 * `crypto.timingSafeEqual`, all of them, without stopping at a match: the time taken says nothing about the
 * key nor about which user or tenant it belongs to.
 */
export class KeyRing {
  private readonly secret = crypto.randomBytes(32);
  private readonly entries: Array<{ hash: Buffer; user: User }>;

  constructor(users: readonly User[]) {
    this.entries = users.map((user) => ({ hash: this.hash(user.apiKey), user }));
  }

  private hash(key: string): Buffer {
    return crypto.createHmac('sha256', this.secret).update(key, 'utf8').digest();
  }

  /** The user whose key this is, or undefined (also for an empty or non-string key). */
  userOf(key: unknown): User | undefined {
    if (typeof key !== 'string' || !key) return undefined;
    const presented = this.hash(key);
    let found: User | undefined;
    for (const e of this.entries) {
      const same = crypto.timingSafeEqual(presented, e.hash);
      if (same && !found) found = e.user;
    }
    return found;
  }

  /** The tenant whose key this is (the tenant of its user), or undefined. */
  tenantOf(key: unknown): Tenant | undefined {
    return this.userOf(key)?.tenant;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    tenant: Tenant;
    /** The user whose API key the request carries (unset on public routes, as `tenant`). */
    user: User;
  }
  interface FastifyContextConfig {
    /** Reachable without an API key (public share reads, feedback tokens, web pages, /info). */
    public?: boolean;
    /** Exempt from fault injection (the fault switch itself). */
    noFaults?: boolean;
  }
}
