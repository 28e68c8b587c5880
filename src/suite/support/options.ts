/**
 * @module support/options
 * Every knob of the contract suite, read from environment variables in one place. A pure function
 * of the environment, so the same variables always give the same run.
 */
import { resolve } from 'node:path';
import type { TargetKind } from '../../api/types.js';
import { DEFAULT_THRESHOLDS, type DriftThresholds } from '../../evidence/index.js';

// Public: the report's shape is defined in api/types.ts.
export type { TargetKind };

/**
 * What a run prints on the terminal (`CONTRACT_CONSOLE`): `summary`, vitest's line per file and
 * the Markdown summary; `verdict`, a passing run's one verdict line (the repository's `npm test`),
 * while a failing one still prints its failures and the whole summary.
 */
export type ConsoleMode = 'summary' | 'verdict';
export const CONSOLE_MODES: readonly ConsoleMode[] = ['summary', 'verdict'];

export interface ContractOptions {
  /** Base URL ending in `/web-data/v1`; undefined until the mock is started. */
  baseUrl?: string;
  target: TargetKind;
  /** The release the target serves (`x-since` trimming); `unreleased` on the mock. */
  release?: string;
  apiKey: string;
  /** A valid key lacking some endpoint families, for the 403 checks. */
  restrictedApiKey?: string;
  /** Families the restricted key lacks; undefined means "probe" (see DECISIONS in the report). */
  restrictedFamilies?: string[];
  /** A key with a small quota, used only to provoke a 429 on purpose. */
  rateLimitApiKey?: string;
  provokeRateLimit: boolean;
  /** Exercise statuses the target only gives on request via `Prefer: code=NNN` (Prism convention; the mock). */
  usePrefer: boolean;
  /** Undeclared fields and inferred-shape differences fail instead of warn. */
  strict: boolean;
  allowlistPath?: string;
  concurrency: number;
  timeoutMs: number;
  maxRequests: number;
  /** Longest single wait the suite accepts when a 429 asks it to back off. */
  maxRetryWaitMs: number;
  /** Largest response body the suite reads (bytes); a larger one is a failure naming URL and size. */
  maxBodyBytes: number;
  /** Deepest JSON nesting the suite parses. */
  maxJsonDepth: number;
  /**
   * The origin (and base path) the service names in its absolute hrefs, when the user knows it
   * (`CONTRACT_PUBLIC_BASE_URL`): then an absolute href elsewhere is a failure. Unset: any origin
   * is accepted, resolved against the target, and named in one warning.
   */
  publicBaseUrl?: string;
  /** Competitor part numbers the target is known to match (`CONTRACT_XREF_NUMBERS`), for the cross-reference. */
  xrefNumbers?: string[];
  /**
   * A previous JSON report to compare with (`CONTRACT_BASELINE`): findings marked new, known or
   * gone, and what the service did (that run's profile.json, beside the report) against tonight.
   * A profile file works too (then only what the service did is compared).
   */
  baselineFile?: string;
  /** What the target was seen to do, written beside the reports (`CONTRACT_PROFILE_FILE`). */
  profileFile: string;
  /** When a difference against the baseline's profile counts (src/evidence/drift.ts). */
  drift: DriftThresholds;
  /** Lists with at most this many pages are walked whole; longer ones are sampled. */
  maxWalkPages: number;
  /** Seed for the few generated inputs (unknown identifiers, competitor part numbers). */
  seed: number;
  reportDir: string;
  junitFile: string;
  jsonFile: string;
  summaryFile: string;
  /** Appended to as well when set (GitHub Actions job summary). */
  githubStepSummary?: string;
  console: ConsoleMode;
}

export const DEFAULTS = {
  concurrency: 4,
  timeoutMs: 10_000,
  maxRequests: 5_000,
  maxRetryWaitMs: 65_000,
  maxWalkPages: 12,
  maxBodyBytes: 4 * 1024 * 1024,
  maxJsonDepth: 64,
  seed: 1,
  reportDir: 'reports',
  /** The demo keys the mock ships with (config/keys.json); public, printed by the README. */
  mockApiKey: 'demo-unlimited-key',
  mockRestrictedApiKey: 'demo-no-documents-key',
  mockRateLimitApiKey: 'demo-low-tier-key',
} as const;

type Env = Record<string, string | undefined>;

/** A yes/no variable; anything else is refused rather than read as "no" (`CONTRACT_STRICT=ture`). */
function flag(env: Env, name: string, fallback: boolean): boolean {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new Error(`${name} must be 1, true, yes or on (or 0, false, no, off), got "${value}"`);
}

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

/** A share between 0 (exclusive) and 1 (inclusive). */
function ratio(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 1)
    throw new Error(`${name} must be a number above 0 and at most 1, got "${raw}"`);
  return n;
}

function consoleMode(env: Env): ConsoleMode {
  const value = env.CONTRACT_CONSOLE?.trim();
  if (value === undefined || value === '') return 'summary';
  const mode = CONSOLE_MODES.find((m) => m === value);
  if (!mode)
    throw new Error(`CONTRACT_CONSOLE must be ${CONSOLE_MODES.join(' or ')}, got "${value}"`);
  return mode;
}

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** An http(s) URL whose path ends in the API's base path, without a trailing slash. */
function baseUrlOption(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim().replace(/\/+$/, '');
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL ending in /web-data/v1, got "${raw}"`);
  }
  if (
    !/^https?:$/.test(url.protocol) ||
    !/\/web-data\/v1$/.test(url.pathname) ||
    url.search ||
    url.hash
  ) {
    throw new Error(
      `${name} must be an http(s) URL ending in /web-data/v1 (no query), got "${raw}"`,
    );
  }
  return raw;
}

/** Reads the suite's options. Without `CONTRACT_BASE_URL` the target is the suite's own mock. */
export function readOptions(env: Env = process.env): ContractOptions {
  const baseUrl = baseUrlOption(env, 'CONTRACT_BASE_URL');
  // A base URL is a live target, unless global setup found a web-data mock there (mock-target.ts).
  const target: TargetKind = baseUrl && env.CONTRACT_TARGET_KIND !== 'mock' ? 'live' : 'mock';
  if (baseUrl && !env.CONTRACT_API_KEY)
    throw new Error('CONTRACT_API_KEY is required with a base URL (CONTRACT_BASE_URL)');
  const mock = target === 'mock';
  const reportDir = resolve(env.CONTRACT_REPORT_DIR || DEFAULTS.reportDir);
  return {
    baseUrl,
    target,
    // The bundled mock serves every operation; a target at a URL is checked as the newest release
    // unless asked (a mock at an older one fails, and the summary names the release it fits).
    release: env.CONTRACT_RELEASE || (baseUrl ? undefined : 'unreleased'),
    apiKey: env.CONTRACT_API_KEY || DEFAULTS.mockApiKey,
    restrictedApiKey:
      env.CONTRACT_RESTRICTED_API_KEY || (mock ? DEFAULTS.mockRestrictedApiKey : undefined),
    restrictedFamilies: list(env.CONTRACT_RESTRICTED_FAMILIES),
    rateLimitApiKey:
      env.CONTRACT_RATE_LIMIT_API_KEY || (mock ? DEFAULTS.mockRateLimitApiKey : undefined),
    provokeRateLimit: flag(env, 'CONTRACT_PROVOKE_RATE_LIMIT', mock),
    usePrefer: flag(env, 'CONTRACT_USE_PREFER', mock),
    strict: flag(env, 'CONTRACT_STRICT', false),
    allowlistPath: env.CONTRACT_ALLOWLIST || undefined,
    concurrency: positiveInt(env, 'CONTRACT_CONCURRENCY', DEFAULTS.concurrency),
    timeoutMs: positiveInt(env, 'CONTRACT_TIMEOUT_MS', DEFAULTS.timeoutMs),
    maxRequests: positiveInt(env, 'CONTRACT_MAX_REQUESTS', DEFAULTS.maxRequests),
    maxRetryWaitMs: positiveInt(env, 'CONTRACT_MAX_RETRY_WAIT_MS', DEFAULTS.maxRetryWaitMs),
    maxWalkPages: positiveInt(env, 'CONTRACT_MAX_WALK_PAGES', DEFAULTS.maxWalkPages),
    maxBodyBytes: positiveInt(env, 'CONTRACT_MAX_BODY_BYTES', DEFAULTS.maxBodyBytes),
    maxJsonDepth: positiveInt(env, 'CONTRACT_MAX_JSON_DEPTH', DEFAULTS.maxJsonDepth),
    publicBaseUrl: baseUrlOption(env, 'CONTRACT_PUBLIC_BASE_URL'),
    xrefNumbers: list(env.CONTRACT_XREF_NUMBERS),
    baselineFile: env.CONTRACT_BASELINE ? resolve(env.CONTRACT_BASELINE) : undefined,
    seed: positiveInt(env, 'CONTRACT_SEED', DEFAULTS.seed),
    reportDir,
    junitFile: resolve(env.CONTRACT_JUNIT_FILE || `${reportDir}/contract-junit.xml`),
    jsonFile: resolve(env.CONTRACT_JSON_REPORT || `${reportDir}/contract-report.json`),
    summaryFile: resolve(env.CONTRACT_SUMMARY_FILE || `${reportDir}/contract-summary.md`),
    profileFile: resolve(env.CONTRACT_PROFILE_FILE || `${reportDir}/profile.json`),
    drift: {
      presence: ratio(env, 'CONTRACT_DRIFT_PRESENCE', DEFAULT_THRESHOLDS.presence),
      minRecords: positiveInt(env, 'CONTRACT_DRIFT_MIN_RECORDS', DEFAULT_THRESHOLDS.minRecords),
      enumRepeat: positiveInt(env, 'CONTRACT_DRIFT_ENUM_REPEAT', DEFAULT_THRESHOLDS.enumRepeat),
    },
    githubStepSummary: env.GITHUB_STEP_SUMMARY || undefined,
    console: consoleMode(env),
  };
}

/** Every secret the run knows, for redaction. */
export function secretsOf(
  options: Pick<ContractOptions, 'apiKey' | 'restrictedApiKey' | 'rateLimitApiKey'>,
): string[] {
  return [options.apiKey, options.restrictedApiKey, options.rateLimitApiKey].filter(
    (s): s is string => Boolean(s),
  );
}
