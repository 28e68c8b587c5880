/**
 * @module proxy/upstream
 * One call to the live service: a deadline (headers, and for buffered JSON the whole body), no
 * redirects followed (a redirect would carry the key to wherever it points), and failures turned
 * into the proxy's two error answers: 504 on timeout, 502 when the service cannot be reached.
 */

export type UpstreamFetch = (input: string, init: RequestInit) => Promise<Response>;

export type UpstreamResult =
  | {
      ok: true;
      response: Response;
      /** Stop the deadline (for a body that streams as long as it needs). */ release(): void;
      timedOut(): boolean;
    }
  | { ok: false; status: 502 | 504; error: string };

/** Node's fetch needs `duplex` for a streamed request body; a buffered one does not, so none is sent. */
export async function callUpstream(
  url: string,
  init: { method: string; headers: Headers; body?: Uint8Array<ArrayBuffer> },
  options: { fetch: UpstreamFetch; timeoutMs: number },
): Promise<UpstreamResult> {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, options.timeoutMs);
  const release = () => clearTimeout(timer);
  try {
    const response = await options.fetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      redirect: 'manual',
      signal: controller.signal,
    });
    return { ok: true, response, release, timedOut: () => expired };
  } catch (error) {
    release();
    if (expired)
      return { ok: false, status: 504, error: `upstream timed out after ${options.timeoutMs} ms` };
    return { ok: false, status: 502, error: `upstream unreachable: ${describeFetchError(error)}` };
  }
}

/** Node's fetch hides the socket error in `cause` (ECONNREFUSED, ENOTFOUND, ...). */
export function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return cause?.message ?? (error as Error).message ?? String(error);
}

export type BufferedBody =
  | { complete: true; bytes: Uint8Array<ArrayBuffer> }
  | { complete: false; stream: ReadableStream<Uint8Array> };

/**
 * Reads a body up to `cap` bytes. Within the cap: the bytes. Over it: a stream that replays what
 * was read and continues with the rest, so the client still gets the whole body, unbuffered.
 */
export async function readBounded(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
): Promise<BufferedBody> {
  if (!body) return { complete: true, bytes: new Uint8Array() };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { complete: true, bytes: concat(chunks, size) };
    chunks.push(value);
    size += value.byteLength;
    if (size > cap) break;
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { complete: false, stream };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
