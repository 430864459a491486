import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// The plugin's TypeScript preset says which files are modules and how to parse them; its legacy
// resolver setting gives way to the TypeScript resolver, which follows tsconfig.json.
const { 'import-x/resolver': _legacyResolver, ...importTypeScriptSettings } =
  importX.flatConfigs.typescript.settings;

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.data/**',
      '.cache/**',
      'src/migrations/**',
      '*.js',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      // type-graphql and graphql-shield identify resolvers and types by their constructors.
      '@typescript-eslint/no-unsafe-function-type': 'off',
    },
  },
  {
    // A cycle makes module load order decide whether an import is still undefined when read
    // (decorated classes in particular), so none is allowed.
    plugins: { 'import-x': importX },
    settings: {
      ...importTypeScriptSettings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      // Node's modules, then packages, then ours from far to near: where a dependency comes
      // from is read off a file's first lines.
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
          'newlines-between': 'never',
        },
      ],
    },
  },
  {
    // A domain's rules (the files beside its module's index.ts) serve GraphQL and REST alike, so
    // they import neither. They may name an input class's type from the module's api/, so that a
    // field is declared once, but never load an api/ module. Its entities/ are GraphQL object
    // types and its api/ serves GraphQL; .dependency-cruiser.cjs holds those to their places.
    files: ['src/domain/*/*.ts'],
    ignores: ['src/domain/*/index.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['type-graphql', 'graphql', 'express'].map((name) => ({
            name,
            message: "A domain's rules know nothing of GraphQL or HTTP.",
          })),
          patterns: [
            {
              group: ['**/api/**'],
              allowTypeImports: true,
              message: "A domain's rules may import a type from its api/, never a value.",
            },
            {
              group: ['**/rest/**', '**/graphql/**', '**/schema/**', '**/http/**'],
              message: "A domain's rules know nothing of GraphQL or HTTP.",
            },
          ],
        },
      ],
    },
  },
);
