// What must stay one thing when a module is bundled twice. The panel hosts are a bundle of their own
// (dist/panels.js, loaded when a panel first opens) and carry their own copies of the modules they share with
// extension.js: an error class checked with `instanceof` on the other side, and state both sides read, would
// each exist twice. Classes are told apart by a brand instead of their identity, and shared state lives in one
// slot of the process, keyed by name.

/** `instanceof` for a class that may exist twice: true for any object carrying `brand` (set in the constructor). */
export function isBranded(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

/** The one value of `name` in this process, made by `create` the first time. */
export function processWide<T>(name: string, create: () => T): T {
  const slots = globalThis as unknown as Record<symbol, T | undefined>;
  const key = Symbol.for(`langsmith-workbench.${name}`);
  return (slots[key] ??= create());
}
