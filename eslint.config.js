// ESLint's flat configuration: the recommended rules on every JavaScript
// file prettier formats (see .prettierignore), with the globals of where each
// file runs. Layout is prettier's job (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    // What is built, installed or generated, and the C side: its
    // Emscripten --pre-js fragments are not modules (see .prettierignore).
    ignores: [
      'node_modules/',
      'build/',
      'web/dist/',
      'packages/*/dist/',
      'tests/e2e/artifacts/',
      'c/',
      'tests/native/',
      'tests/fuzz/',
      'assets/',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.{js,jsx,mjs}'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `const { index, ...rest } = x` is how a copy leaves a key out.
      'no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // Preact's JSX, parsed by ESLint's own parser. ESLint 10 counts a
    // component's tag (<Toolbar />) as a use of its name, so no-unused-vars
    // needs no plugin or pattern for components.
    files: ['**/*.jsx'],
    languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
  },
  {
    // The inspector runs in the page.
    files: ['web/src/**/*.{js,jsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    // The library runs in the page, in a worker and under Node: it reaches
    // Node only through `process`, after checking it is there.
    files: ['packages/juliet-world/src/**/*.js'],
    languageOptions: { globals: { ...globals.browser, process: 'readonly' } },
  },
  {
    files: ['web/src/engine/worker.js'],
    languageOptions: { globals: globals.worker },
  },
  {
    // The server, the build configuration and the node:test suites (the
    // packages' own included).
    files: ['web/server/**/*.js', 'web/vite.config.js', 'tests/**/*.js', 'packages/*/test/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // The browser suites hand functions to page.evaluate(), which run in the
    // page.
    files: ['tests/e2e/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
];
