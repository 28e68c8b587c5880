// ESLint flat config: typescript-eslint's type-checked rules over every TypeScript file the
// compiler sees (tsconfig.json), so a promise a streaming server forgets to await, or hands to a
// callback that ignores it, fails `npm test`. Layout is Prettier's job (npm run format:check).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'reports/', 'bench/results/', 'dist/', 'src/contract/types.gen.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The two rules this linter is here for (both in the recommended set; named so they stay).
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `_`-prefixed names and rest siblings are how a field is left out of a copy on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // An async function without await still keeps its promise-returning interface; fakes of
      // async interfaces (sleep, fetch) read clearer written as async.
      '@typescript-eslint/require-await': 'off',
      // Our methods are closures on plain records (listen's close, walker callbacks), not class
      // methods using `this`; the rule cannot tell them apart and flags every destructuring.
      '@typescript-eslint/unbound-method': 'off',
      // Values printed are JSON from the document or the wire (unknown to the compiler), where
      // String() is the wanted fallback after JSON.stringify.
      '@typescript-eslint/no-base-to-string': 'off',
      // The mock and the proxy refuse control characters in paths on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // Readable code: no function over 80 lines. Every line counts, blank lines and comments
    // too: a function is as long as a reader has to scroll.
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // vitest is an optional peer dependency: of the public modules, web-data-api-double/vitest
    // alone imports it, so the root and node-test load without it (.dependency-cruiser.cjs keeps
    // every other module from importing that subpath).
    files: ['src/index.ts', 'src/api/*.ts'],
    ignores: ['**/*.test.ts', 'src/api/vitest.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['vitest', 'vitest/*', '@vitest/*'],
              message: 'vitest is optional: only src/api/vitest.ts may import it.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and test machinery: a test's set-up and its assertions read best in one place.
    files: ['**/*.test.ts', 'src/testing/**', 'contract-tests/meta/**'],
    rules: { 'max-lines-per-function': 'off' },
  },

  {
    // Tests read answers as JSON (`any`) and assert on them; the assertion is the check there.
    files: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The bins and these config files: plain Node modules outside the TypeScript project.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: {
        process: 'readonly',
        module: 'writable',
        fetch: 'readonly',
        AbortSignal: 'readonly',
      },
    },
  },
);
