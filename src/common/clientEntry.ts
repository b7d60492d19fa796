// The API client as the extension loads it on first use (its own bundle, dist/client.js; see esbuild.mjs): with
// zod configured for the extension host before any schema parses.
import './zodSetup';

export * from '../client';
