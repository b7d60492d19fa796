// Where an example's splits are on the wire: LangSmith keeps them in metadata.dataset_split (one name or a list);
// some answers carry them as `split` instead. Readers show the splits on their own, not as metadata. No imports,
// so the extension's first bundle can use it without loading the client.

/** The part of an example these functions read. */
export interface ExampleSplitFields {
  readonly metadata?: unknown;
  readonly split?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The example's splits, in the order given (names only: anything else in the list is dropped). */
export function exampleSplits(example: ExampleSplitFields): string[] {
  const raw = (isRecord(example.metadata) ? example.metadata['dataset_split'] : undefined) ?? example.split;
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return list.filter((s): s is string => typeof s === 'string');
}

/** The metadata without the split (the same object when there is none to take out); undefined when not an object. */
export function metadataWithoutSplit(metadata: unknown): Record<string, unknown> | undefined {
  if (!isRecord(metadata)) return undefined;
  if (!('dataset_split' in metadata)) return metadata;
  const { dataset_split: _split, ...rest } = metadata;
  return rest;
}
