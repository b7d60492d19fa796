// The SQL builder of list endpoints.
import { HttpError } from './errors';

/** The WHERE clause of a list endpoint, built from its query filters. */
export class SqlWhere {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  constructor(clause: string, ...params: unknown[]) {
    this.clauses.push(clause);
    this.params.push(...params);
  }

  /** `column IN (…)` when any values are given: one bound JSON list, however many values there are. */
  in(column: string, values: unknown[]): this {
    if (values.length) {
      this.clauses.push(`${column} IN (SELECT value FROM json_each(?))`);
      this.params.push(JSON.stringify(values));
    }
    return this;
  }

  /** `column = value` when a value is given. */
  eq(column: string, value: unknown): this {
    if (value !== undefined) {
      this.clauses.push(`${column} = ?`);
      this.params.push(value);
    }
    return this;
  }

  /** `column` contains the text literally (LIKE wildcards in it are escaped). */
  contains(column: string, text: string | undefined): this {
    if (text) {
      this.clauses.push(`${column} LIKE ? ESCAPE '\\'`);
      this.params.push(`%${text.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    }
    return this;
  }

  /** Every key of a `metadata` query object equals the value under `extra.metadata` (JSON comparison). */
  metadata(column: string, metadata: unknown): this {
    if (metadata === undefined) return this;
    if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) throw new HttpError(422, 'metadata: expected a JSON object');
    for (const [k, v] of Object.entries(metadata)) {
      this.clauses.push(`json_extract(${column}, ?) = json_extract(?, '$')`);
      this.params.push(`$.metadata.${JSON.stringify(k)}`, JSON.stringify(v));
    }
    return this;
  }

  /** A fixed condition. */
  where(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  get sql(): string {
    return this.clauses.join(' AND ');
  }
}
