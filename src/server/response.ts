/**
 * @module response
 * Every response the mock builds itself: a status, a body and a plain header object. Plain
 * objects go to the socket as they are (@hono/node-server writes them in one `writeHead`); Hono's
 * `c.header()` and a `Headers` instance cost a web `Headers` per request, then a copy back into a
 * plain object. The body's length is remembered per response, so the delivery step never has
 * to read it back out of the headers (which would build that `Headers` after all).
 */

/** Where a response built here keeps its body length (a property: a WeakMap entry per response cost more). */
const BODY_LENGTH = Symbol('bodyLength');
/** And the body it was built with, so a step that needs the bytes again does not read them back through a web stream. */
const BODY = Symbol('body');
type Sized = Response & { [BODY_LENGTH]?: number; [BODY]?: string | Uint8Array<ArrayBuffer> };

export const JSON_TYPE = 'application/json; charset=utf-8';

const byteLength = (body: string | Uint8Array): number =>
  typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;

function sized(res: Sized, length: number, body: string | Uint8Array<ArrayBuffer>): Response {
  res[BODY_LENGTH] = length;
  res[BODY] = body;
  return res;
}

/** The headers a whole body goes out with: its content type (unless `headers` name one), `headers`, its length. */
export function wholeBodyHeaders(
  body: string | Uint8Array,
  contentType: string,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  return headerSet(byteLength(body), contentType, headers);
}

function headerSet(
  length: number,
  contentType: string,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  return { 'content-type': contentType, ...headers, 'content-length': String(length) };
}

/** A response whose body is given whole, with its content type; `content-length` is set from the body (one header object, built once). */
export function bytesResponse(
  status: number,
  body: string | Uint8Array<ArrayBuffer>,
  contentType: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const length = byteLength(body);
  return sized(
    new Response(body, { status, headers: headerSet(length, contentType, headers) }),
    length,
    body,
  );
}

/** JSON text or its UTF-8 bytes, with the API's JSON content type and the given extra headers. */
export function jsonBytesResponse(
  status: number,
  body: string | Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
): Response {
  return bytesResponse(status, body, JSON_TYPE, headers);
}

/** A value as a JSON response. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return jsonBytesResponse(status, JSON.stringify(body), headers);
}

/** The body length a response declares: remembered when built here, else its `content-length` (undefined when none). */
export function declaredLength(res: Response): number | undefined {
  const known = (res as Sized)[BODY_LENGTH];
  if (known !== undefined) return known;
  const header = res.headers.get('content-length');
  return header === null ? undefined : Number(header);
}

const UTF8 = new TextEncoder();

/** The body bytes of a response built here (undefined for any other): what reading it would give, without the read. */
export function knownBody(res: Response): Uint8Array<ArrayBuffer> | undefined {
  const body = (res as Sized)[BODY];
  return typeof body === 'string' ? UTF8.encode(body) : body;
}
