/**
 * @module proxy/take-body
 * The first step of a live answer: take its body. A JSON body (by media type, or because the
 * document declares a JSON schema for the status) is buffered within the size cap and the
 * deadline and the key is scrubbed from it; anything else, and JSON over the cap, streams on byte
 * for byte, guarded so that a key in it cuts the stream before it leaves. Either is decoded from
 * its Content-Encoding first (content-coding.ts), or refused when it cannot be.
 */
import { parseJsonBody, type ResponseBody } from '../contract/index.js';
import { decodeLiveBody } from './content-coding.js';
import type { SecretScrubber } from '../redaction.js';
import { guardStream } from './stream-guard.js';
import { describeFetchError, readBounded } from './upstream.js';

/** What goes to the client: buffered bytes, a guarded stream, or nothing. */
export type Payload = Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null;

export interface TakenBody {
  /** What the checker sees. */
  body: ResponseBody;
  payload: Payload;
  /** The key was found (and scrubbed) in a buffered body. */
  keyFound: boolean;
}

/** The live side failed while sending the body: the proxy answers this instead. */
export interface BodyFailure {
  status: 502 | 504;
  error: string;
}

export interface TakeBodyOptions {
  /** Whether the answer has a body at all (not HEAD, not 204/304, not null). */
  hasBody: boolean;
  /** Buffer it (JSON) or stream it. */
  buffer: boolean;
  maxJsonBytes: number;
  timeoutMs: number;
  /** Whether the upstream deadline fired (a broken read is then a timeout). */
  timedOut: () => boolean;
  scrubber: SecretScrubber;
  /** Called when a streamed body held the key and was cut. */
  onKeyInStream: () => void;
}

export async function takeBody(
  upstream: Response,
  options: TakeBodyOptions,
): Promise<TakenBody | BodyFailure> {
  if (!options.hasBody || upstream.body === null)
    return { body: { kind: 'none' }, payload: null, keyFound: false };
  const decoded = decodeLiveBody(upstream.headers, upstream.body);
  if (!decoded.ok) {
    await upstream.body.cancel().catch(() => {});
    return { status: 502, error: decoded.error };
  }
  if (!options.buffer) return streamed(decoded.body, { kind: 'streamed' }, options);
  let read;
  try {
    read = await readBounded(decoded.body, options.maxJsonBytes);
  } catch (error) {
    const what = decoded.coding
      ? `upstream body could not be decoded (Content-Encoding ${JSON.stringify(decoded.coding)})`
      : 'upstream connection broke while sending the body';
    return options.timedOut()
      ? {
          status: 504,
          error: `upstream timed out after ${options.timeoutMs} ms (while sending the body)`,
        }
      : {
          status: 502,
          error: `${what}: ${describeFetchError(error)}`,
        };
  }
  if (!read.complete) return streamed(read.stream, { kind: 'too-large' }, options);
  const { bytes, found } = options.scrubber.scrubBytes(read.bytes);
  return { body: parseJsonBody(bytes), payload: bytes, keyFound: found };
}

function streamed(
  stream: ReadableStream<Uint8Array>,
  body: ResponseBody,
  options: TakeBodyOptions,
): TakenBody {
  return {
    body,
    payload: guardStream(stream, options.scrubber, options.onKeyInStream),
    keyFound: false,
  };
}
