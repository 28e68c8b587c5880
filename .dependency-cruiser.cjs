// dependency-cruiser rules (npm run cycles): no import cycle of any kind, type-only imports
// included (they cost layering even when they cost no load order), and the project's layers:
//
//   src/contract   the single reading of the document; imports nothing else of the project
//   src/server     the mock        } neither imports the other (the proxy's tests may start the
//   src/proxy      the proxy       }  mock as their upstream through src/server/listen.ts)
//   src/suite      the contract suite (checks, support, its CLI); reaches the rest of src only
//                  through the public modules named below, and never the mock (contract-tests/
//                  holds its vitest config, its *.contract.test.ts files and meta/, the suite's tests)
//
// The suite's public modules: src/contract/index.ts (the document), src/package-root.ts (where the
// package's files are), src/dataset/mulberry32.ts (the seeded generator the suite's inputs share with the mock) and
// src/usage.ts (the one usage error every command exits 2 on; of the suite, only its CLI may import
// it), src/redaction.ts (the one way a
// secret is found and blanked), src/evidence/index.ts (profiles, drift, the ledger),
// src/text/markdown.ts (server text made inert for Markdown), src/net/deadline.ts (a deadline that
// holds a command's process open), src/files/* (the bounded reader
// and the safe writer every input and output file goes through) and src/api/types.ts (the public
// types, the report's shape among them).
//
//   src/api/types.ts  every public type, defined there: a leaf (it imports the contract's generated
//                     types and kinds of fact alone), so every layer may take its types from it
//                     without a cycle, and no internal file's name is part of the API
const TESTS = '\\.test\\.ts$';
const SUITE_PUBLIC =
  '^src/(suite/.+|contract/index|package-root|dataset/mulberry32|net/deadline|evidence/index|testing/[a-z-]+|files/(read-bounded|write-safe|inside)|usage|redaction|text/markdown|api/types)\\.ts$';
// The one door from the suite to the mock: its global set-up starts the bundled mock for a run
// without a base URL, through the mock's public starter.
const SUITE_STARTS_THE_MOCK = '^src/suite/support/global-setup\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment:
        'An import cycle, type-only imports included: move the shared type to where it belongs.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-is-the-bottom-layer',
      comment:
        'src/contract reads the document for everyone and imports nothing else of the project but package-root.ts (where the document lives, in the repository and installed).',
      severity: 'error',
      from: { path: '^src/contract/', pathNot: TESTS },
      to: { path: '^(src/(?!contract/|package-root\\.ts$)|contract-tests/|bench/|scripts/)' },
    },
    {
      name: 'contract-never-imports-server-proxy-or-suite',
      comment: 'Not even from its tests: the document must not depend on its readers.',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^(src/server/|src/proxy/|src/suite/|contract-tests/)' },
    },
    {
      name: 'the-root-exports-only-src-api',
      comment:
        'src/index.ts re-exports out of src/api/ alone (its types from api/types.ts): what the public ' +
        'declarations reach is chosen there, so they never pull in Node, Redis, cache or vitest types.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^(?!src/api/)' },
    },
    {
      name: 'public-types-are-a-leaf',
      comment:
        "src/api/types.ts defines every public type and imports nothing but the contract's generated " +
        'types and kinds of fact: every layer takes its public types from it, so it must reach none of ' +
        'them (a cycle), and a renamed internal file must not change the API. The one exception: the ' +
        "proxy's three types, re-exported from the proxy's own door (RunningProxy.app is the proxy's app).",
      severity: 'error',
      from: { path: '^src/api/types\\.ts$' },
      to: {
        pathNot: '^src/(contract/(model|releases|types\\.gen|named-types\\.gen)|proxy/index)\\.ts$',
      },
    },
    {
      name: 'the-public-surface-re-exports-only-src-api',
      comment:
        'Nothing public is re-exported from an internal file: the root and the src/api modules ' +
        're-export from src/api alone (a type from api/types.ts, where it is defined).',
      severity: 'error',
      from: { path: '^src/(index|api/[^/]+)\\.ts$', pathNot: `${TESTS}|^src/api/types\\.ts$` },
      to: { path: '^(?!src/api/)', dependencyTypes: ['export'] },
    },
    {
      name: 'the-root-takes-its-types-from-api-types',
      comment: 'src/index.ts exports its types from api/types.ts alone, where each is defined.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/api/(?!types\\.ts$)', dependencyTypes: ['type-only'] },
    },
    {
      name: 'lower-layers-take-only-the-types-of-src-api',
      comment:
        'src/api is the top layer: below it, a module may read the public types (api/types.ts, a ' +
        'leaf) and nothing else of it.',
      severity: 'error',
      from: { path: '^src/(?!api/|index\\.ts$)', pathNot: TESTS },
      to: { path: '^src/api/(?!types\\.ts$)' },
    },
    {
      name: 'state-does-not-import-server',
      comment:
        'The state layer owns what it stores (the match, fault and stub records, the journal, the ' +
        'clock, the rate-limit windows): nothing in it reaches the server, type-only imports included.',
      severity: 'error',
      from: { path: '^src/state/', pathNot: TESTS },
      to: { path: '^src/server/' },
    },
    {
      name: 'usage-error-is-the-commands',
      comment:
        "UsageError (src/usage.ts, exit 2) is the commands' alone: the mock's (src/server/cli/), the " +
        "proxy's (src/proxy/cli.ts, args.ts), the evidence's (src/evidence/cli.ts) and the suite's " +
        '(src/suite/cli.ts). A lower layer throws its own error (ConfigFileError, RecordingsError, ' +
        'StateUnreachableError, PortTakenError) and the command maps it (src/server/cli/input-errors.ts).',
      severity: 'error',
      from: {
        pathNot: [
          TESTS,
          '^src/usage\\.ts$',
          '^src/server/cli/',
          '^src/proxy/(cli|args)\\.ts$',
          '^src/evidence/cli\\.ts$',
          '^src/suite/cli\\.ts$',
          '^bin/',
        ],
      },
      to: { path: '^src/usage\\.ts$' },
    },
    {
      name: 'server-does-not-import-proxy',
      comment:
        'The command (src/server/cli/) is the one composition root above both: `web-data-mock --proxy` loads the proxy on demand.',
      severity: 'error',
      from: { path: '^src/server/', pathNot: '^src/server/cli/' },
      to: { path: '^src/proxy/' },
    },
    {
      name: 'proxy-does-not-import-server',
      comment: "The proxy's end-to-end tests may start the mock as their upstream.",
      severity: 'error',
      from: { path: '^src/proxy/', pathNot: TESTS },
      to: { path: '^src/server/' },
    },
    {
      name: 'evidence-does-not-import-server',
      comment:
        'The proxy and the suite use the evidence layer: through it they would reach the mock. What both need of the mock (an order of values) lives in src/contract. Its tests may start the mock as their target.',
      severity: 'error',
      from: { path: '^src/evidence/', pathNot: TESTS },
      to: { path: '^src/server/' },
    },
    {
      name: 'suite-uses-public-modules-only',
      comment: `src/suite and contract-tests reach the rest of src only through ${SUITE_PUBLIC}.`,
      severity: 'error',
      from: { path: '^(src/suite/|contract-tests/)' },
      // The suite's own tests start the mock as a target, like its global set-up.
      to: { path: '^src/', pathNot: `(${SUITE_PUBLIC})|^src/server/listen\\.ts$` },
    },
    {
      name: 'suite-never-imports-the-mock',
      comment:
        'A check is meant for any base URL: nothing of the suite reads the mock, but its global set-up, which starts the bundled mock through src/server/listen.ts alone.',
      severity: 'error',
      from: { path: '^src/suite/', pathNot: SUITE_STARTS_THE_MOCK },
      to: { path: '^src/server/' },
    },
    {
      name: 'suite-starts-the-mock-through-its-starter-only',
      severity: 'error',
      from: { path: SUITE_STARTS_THE_MOCK },
      to: { path: '^src/server/', pathNot: '^src/server/listen\\.ts$' },
    },
    {
      name: 'test-helpers-stay-out-of-the-package',
      comment:
        'src/testing holds what only tests (and bench/) use; the build leaves it out, so nothing the package ships may import it.',
      severity: 'error',
      from: {
        path: '^(src|contract-tests|bin)/',
        pathNot: `(${TESTS}|^src/testing/|^contract-tests/meta/)`,
      },
      to: { path: '^src/testing/' },
    },
    {
      name: 'nothing-imports-the-vitest-subpath',
      comment:
        'src/api/vitest.ts imports vitest, an optional peer dependency: a module of the package ' +
        'that imported it would need vitest installed. Only its own global set-up and tests may ' +
        '(eslint.config.js keeps every other public module from importing vitest itself).',
      severity: 'error',
      from: { pathNot: `${TESTS}|^src/api/vitest-global-setup\\.ts$` },
      to: { path: '^src/api/vitest\\.ts$' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing (a typo, or a file that moved).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|reports|dist|bench/results)/' },
    // Type-only imports count: `import type` cycles are cycles of the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.cjs', '.mjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
