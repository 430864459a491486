/**
 * The import rules `npm run lint` holds the code to (dependency-cruiser; docs/architecture.md
 * says which folder holds what). Type-only imports count like any other: a circle of types still
 * ties its files together for a reader and for the compiler.
 */
const LOWER =
  '^src/(auth|db|entities|events|family|files|http|jobs|observability|permissions|services)/|^src/(context|errors|error-mapping|logger|config|env-values|runtime-flags)[.]ts$';
/** What serves requests and composes the app: nothing below may reach up into it. */
const SURFACE =
  '^src/(resolvers|rest|docs|graphql|cli)/|^src/schema/(build|direct-resolvers)[.]ts$|^src/(app|main|cluster|banner)[.]ts$';
/** A leaf of src/graphql the entities use (a scalar), not the GraphQL layer itself. */
const SCALARS = '^src/graphql/date-time[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import circle makes load order decide what is still undefined when read, and ties its files together.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-upward-imports',
      severity: 'error',
      comment:
        'Storage, rules, events and the HTTP plumbing know nothing of the resolvers, the REST facade, the docs or the app that composes them: what they need is handed in.',
      from: { path: LOWER },
      to: { path: SURFACE, pathNot: SCALARS },
    },
    {
      name: 'domain-knows-no-surface',
      severity: 'error',
      comment:
        "src/domain/ holds rules that would hold without GraphQL or HTTP; it may name an input class's type (a field declared once), never load a resolver module.",
      from: { path: '^src/domain/' },
      to: { path: SURFACE, pathNot: `${SCALARS}|^src/resolvers/.+-inputs[.]ts$` },
    },
    {
      name: 'domain-takes-inputs-as-types',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/resolvers/.+-inputs[.]ts$', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/migrations/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
