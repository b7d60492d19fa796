import { randomFillSync, randomUUID } from 'node:crypto';
import { LangSmithValidationError } from './errors';
import { MSG } from './messages';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

/** Throws `Invalid UUID for {which}: {value}` unless value is a UUID. */
export function assertUuid(value: unknown, which: string): string {
  if (!isUuid(value)) throw new LangSmithValidationError(MSG.invalidUuid(which, value));
  return value;
}

export function uuid4(): string {
  return randomUUID();
}

/** The id of an object to create: the caller's (checked) or a new one, and which of the two it is. */
export function ownId(given: string | undefined, which: string): { id: string; generated: boolean } {
  if (given === undefined) return { id: uuid4(), generated: true };
  assertUuid(given, which);
  return { id: given, generated: false };
}

const bytes = new Uint8Array(16);
/** A time-ordered UUID (version 7): ids of runs sort by creation. */
export function uuid7(ms = Date.now()): string {
  randomFillSync(bytes);
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface PromptRef {
  owner: string;
  repo: string;
  /** A commit hash, a tag, or 'latest'. */
  commit: string;
}

/** `name`, `owner/name`, `name:commit`, `owner/name:commit`; owner '-' is the caller's own tenant. */
export function parsePromptIdentifier(identifier: string): PromptRef {
  const bad = () => new LangSmithValidationError(MSG.invalidPromptIdentifier(identifier));
  if (!identifier || typeof identifier !== 'string') throw bad();
  const colon = identifier.split(':');
  if (colon.length > 2) throw bad();
  const [path, commit] = colon as [string, string | undefined];
  const slash = path.split('/');
  if (slash.length > 2 || slash.some((s) => !s)) throw bad();
  if (colon.length === 2 && !commit) throw bad();
  return slash.length === 2
    ? { owner: slash[0]!, repo: slash[1]!, commit: commit ?? 'latest' }
    : { owner: '-', repo: slash[0]!, commit: commit ?? 'latest' };
}

/**
 * The share token of a public dataset, given the token itself or a link to its page
 * (`…/public/{token}/d`, or any URL whose second-to-last path segment is the token).
 */
export function parsePublicToken(tokenOrUrl: string, kind: 'dataset' | 'run' = 'dataset'): string {
  const fail = () =>
    new LangSmithValidationError(kind === 'dataset' ? MSG.invalidPublicDataset(tokenOrUrl) : MSG.invalidPublicRun(tokenOrUrl));
  if (isUuid(tokenOrUrl)) return tokenOrUrl;
  let url: URL;
  try {
    url = new URL(tokenOrUrl);
  } catch {
    throw fail();
  }
  const parts = url.pathname.split('/').filter(Boolean);
  const publicIdx = parts.indexOf('public');
  const candidate = publicIdx >= 0 ? parts[publicIdx + 1] : parts[parts.length - 2];
  if (!isUuid(candidate)) throw fail();
  return candidate;
}
