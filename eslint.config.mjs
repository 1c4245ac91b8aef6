// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = import.meta.dirname;
const CORE = join(ROOT, 'src/main/core');
/** Every folder of src/main/core is a capability whose index.ts is its public surface. */
const CAPABILITIES = readdirSync(CORE, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/**
 * The layering, as import-x/no-restricted-paths zones (absolute paths, so globs match resolved files):
 * shared imports nothing of ours; the renderer only shared; a capability reaches another only through
 * its index.ts (or its testing/ helpers, from tests).
 */
const LAYER_ZONES = [
  {
    target: join(ROOT, 'src/shared'),
    from: [join(ROOT, 'src/main'), join(ROOT, 'src/renderer'), join(ROOT, 'src/preload')],
    message: 'src/shared is the contract: it imports nothing of ours.',
  },
  {
    target: join(ROOT, 'src/renderer'),
    from: [join(ROOT, 'src/main'), join(ROOT, 'src/preload')],
    message: 'The renderer talks to the core only through src/shared types and the transport.',
  },
  ...CAPABILITIES.map((name) => ({
    target: `${CORE}/!(${name})/**/*`,
    from: [`${CORE}/${name}/**/*`],
    except: [`${CORE}/${name}/index.*`, `${CORE}/${name}/testing/**/*`],
    message: `Import core/${name} through its index.ts.`,
  })),
];

const NODE_GLOBALS = { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' };

export default tseslint.config(
  {
    // Fixture servers are third-party-shaped apps the readiness tests start; one is broken on purpose.
    ignores: ['node_modules/', 'out/', 'dist/', 'test-results/', 'playwright-report/', 'test/fixtures/servers/', '**/*.cjs'],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Async methods that implement a promise-returning interface without awaiting are fine.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: join(ROOT, 'tsconfig.json') })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/main/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'The core runs headless under `serve`: it never imports electron.' }] },
      ],
    },
  },
  {
    // Tests read JSON replies and recorded fixtures, where `any` is the honest type.
    files: ['**/*.test.ts', 'test/**', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: NODE_GLOBALS },
  },
);
