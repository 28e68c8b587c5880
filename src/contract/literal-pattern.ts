/**
 * @module contract/literal-pattern
 * A text made literal inside a regular expression (a path, a prefix, an encoding): every
 * character the syntax gives a meaning is escaped.
 */
export const literalPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
