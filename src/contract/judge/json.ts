/**
 * @module contract/judge/json
 * What every judge of hostile JSON shares: the nesting bound a control (record, patch) is held to,
 * an iterative depth measure (a hostile depth never costs the stack), and members defined rather
 * than assigned (a member named `__proto__` stays a member, never the prototype).
 */

/** Records and patches nest a few levels (a part's `regulatory.hazardousMaterials`); deeper is refused before any walk. */
export const MAX_CONTROL_DEPTH = 32;

/** How deep a JSON value nests (a scalar is 0, `{}` is 1), counting no further than `max + 1`. */
export function depthOf(value: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > max) return deepest;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Whether a JSON value holds objects or arrays more than `max` levels deep (its root is level 1). */
export const nestsDeeper = (value: unknown, max: number): boolean => depthOf(value, max) > max;

/** Sets `name` on `target` as an own, enumerable member, whatever the name (`__proto__` included). */
export function defineMember(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Whether `name` is an own member of `o` (never an inherited one). */
export const hasOwn = (o: object, name: string): boolean =>
  Object.prototype.hasOwnProperty.call(o, name);

export const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
