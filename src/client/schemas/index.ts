// The zod schemas of what LangSmith answers (spec §3), one module per entity. Importers name `./schemas`;
// the field helpers of fields.ts stay inside this folder, except `numberOrNull`.

export { numberOrNull } from './fields';
export * from './projects';
export * from './datasets';
export * from './examples';
export * from './examplePage';
export * from './feedback';
export * from './queues';
export * from './runs';
export * from './threads';
export * from './prompts';
export * from './experiments';
export * from './workspace';
export * from './monitoring';
