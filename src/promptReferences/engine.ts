// The plain-Node part of prompt references (the finder and the lookups), loaded by the extension as a bundle of its
// own (dist/promptReferences.js) when the editor features first need it; the command line and agent tools import
// the modules as they are.
export * from './finder';
export * from './lookup';
