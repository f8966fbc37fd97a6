// Lint rules: typescript-eslint's recommended set, plus layer rules (shared/ imports neither the extension nor the broker).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/fixtures/**', '.cache/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/extension/**', '**/broker/**', 'node:*'] }],
    },
  },
  {
    files: ['extension/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/broker/**', 'node:*'] }] },
  },
  {
    files: ['broker/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/extension/**'] }] },
  },
);
