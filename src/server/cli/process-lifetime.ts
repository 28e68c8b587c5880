/**
 * @module process-lifetime
 * When a long-running command (the mock, the proxy, the primary of `--workers`) ends: on SIGINT
 * or SIGTERM, and when the process that started it goes away (DECISIONS.md 90).
 *
 * The second matters under `npx`: npm runs the command through `sh -c`, and on SIGTERM the shell
 * dies without passing the signal on, so `npx web-data-mock & ... kill $!` left the mock serving,
 * re-parented to init. A dead parent shows as a changed `process.ppid` (the orphan is adopted by
 * init or a subreaper); Node gives no event for it, so it is polled. A process that starts as a
 * child of init (a container's entry point, `setsid -f`) has no parent to outlive and is not
 * watched.
 */

/** Why the command is ending: the signal received, or its parent gone. */
export type EndReason = 'SIGINT' | 'SIGTERM' | 'parent exited' | 'stop asked';

/** How often the parent is looked at: the port is freed at most this long after it died. */
export const PARENT_POLL_MS = 500;

export interface EndOptions {
  /** This process's parent pid now (tests give their own). */
  ppid?: () => number;
  pollMs?: number;
  /** False for a detached mock (`--detach`): it is meant to outlive the command that started it. */
  watchParent?: boolean;
}

/**
 * Calls `end` once, with the first reason that comes: SIGINT, SIGTERM, or the parent's exit.
 * Later signals are ignored (the first one's shutdown is under way and bounded by its grace).
 * Returns the same once-only trigger for other reasons (`web-data-mock stop`).
 */
export function onEnd(
  end: (reason: EndReason) => void,
  options: EndOptions = {},
): (reason: EndReason) => void {
  const ppid = options.ppid ?? (() => process.ppid);
  let ended = false;
  const once = (reason: EndReason) => {
    if (ended) return;
    ended = true;
    clearInterval(watch);
    // With the parent gone, stdout may be a pipe nobody reads: a closing line must not crash.
    process.stdout.on('error', () => {});
    end(reason);
  };
  process.on('SIGINT', () => once('SIGINT'));
  process.on('SIGTERM', () => once('SIGTERM'));
  const parent = ppid();
  const watch =
    parent > 1 && options.watchParent !== false
      ? setInterval(() => {
          if (ppid() !== parent) once('parent exited');
        }, options.pollMs ?? PARENT_POLL_MS)
      : undefined;
  // The watch alone never keeps the process alive.
  watch?.unref();
  return once;
}
