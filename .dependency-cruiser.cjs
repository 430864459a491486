/**
 * The import rules `npm run lint` holds the code to (dependency-cruiser; docs/architecture.md
 * says which folder holds what). Type-only imports count like any other: a circle of types still
 * ties its files together for a reader and for the compiler.
 */
/**
 * The folders of src, lowest first: each imports only folders before it, so no two folders import
 * each other and no group of them is a loop (docs/architecture.md, "Layers"). The root's own
 * files are the composition above them all, but for the shared leaves (LOWER's root files).
 */
const LAYERS = [
  'migrations',
  'permissions',
  'schema',
  'entities',
  'db',
  'history',
  'auth',
  'family',
  'events',
  'files',
  'services',
  'jobs',
  'observability',
  'http',
  'graphql',
  'rest',
  'domain',
  'docs',
  'cli',
];
/** The generic folders: what every module is built on, knowing none of them. */
const KERNEL = LAYERS.slice(0, LAYERS.indexOf('domain'));
const LOWER =
  '^src/(auth|db|entities|events|family|files|history|http|jobs|observability|permissions|services)/|^src/(context|errors|error-mapping|limits|logger|config|env-values|runtime-flags)[.]ts$';
/** A domain module's face to the app: its registry (index.ts) and what GraphQL and REST serve (api/). */
const MODULE_SURFACE = '^src/domain/[^/]+/(api/|index[.]ts$)';
/** What serves requests and composes the app: nothing below may reach up into it. */
const SURFACE = `^src/(rest|docs|graphql|cli)/|^src/schema/direct-resolvers[.]ts$|^src/(app|app-modules|app-schema|orm-composition|create-migration|modules|main|serve|cluster|banner)[.]ts$|${MODULE_SURFACE}`;
/** What composes the modules: the only code outside a module that may load its api/. */
const COMPOSITION = '^src/(app|app-modules|app-schema)[.]ts$|^src/rest/table[.]ts$';
/** A module's rules (the files beside its index.ts) and its entities. */
const BELOW_API = '^src/domain/([^/]+)/(?!api/|index[.]ts$)';

module.exports = {
  forbidden: [
    {
      name: 'kernel-knows-no-domain',
      severity: 'error',
      comment:
        'The generic folders import nothing of src/domain: what a module adds to them (entities, flush subscribers, write hooks, scheduled jobs, routes) is handed in by the composition root.',
      from: { path: `^src/(${KERNEL.join('|')})/` },
      to: { path: '^src/domain/' },
    },
    ...LAYERS.slice(0, -1).map((layer, i) => ({
      name: `${layer}-imports-no-layer-above`,
      severity: 'error',
      comment: `src/${layer}/ imports only the folders below it in LAYERS, never ${LAYERS.slice(i + 1).join(', ')}.`,
      from: { path: `^src/${layer}/` },
      to: { path: `^src/(${LAYERS.slice(i + 1).join('|')})/` },
    })),
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
        "Storage, events, the HTTP plumbing and the other kernel folders know nothing of the modules' registries and api/, the REST facade, the docs or the app that composes them: what they need is handed in. They may import a module's entities and rules.",
      from: { path: LOWER },
      to: { path: SURFACE },
    },
    {
      name: 'rules-and-entities-know-no-surface',
      severity: 'error',
      comment:
        "A module's rules and entities would hold without GraphQL's operations or HTTP; rules may name their own module's input class's type (a field declared once), never load an api/ module.",
      from: { path: BELOW_API },
      to: { path: SURFACE, pathNot: '^src/domain/$1/api/.+-inputs[.]ts$' },
    },
    {
      name: 'rules-take-inputs-as-types',
      severity: 'error',
      from: { path: BELOW_API },
      to: { path: '^src/domain/[^/]+/api/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'entities-know-no-rules',
      severity: 'error',
      comment: "Entities are what is stored: they import other entities, never a module's rules or api/.",
      from: { path: '^src/domain/[^/]+/entities/' },
      to: { path: '^src/domain/[^/]+/(?!entities/)' },
    },
    {
      name: 'api-stays-in-its-module',
      severity: 'error',
      comment:
        "A module's api/ is its own: another module uses what its registry (index.ts) exports, and only the composition loads it.",
      from: { path: '^src/domain/([^/]+)/' },
      to: { path: '^src/domain/[^/]+/api/', pathNot: '^src/domain/$1/' },
    },
    {
      name: 'only-the-composition-loads-modules',
      severity: 'error',
      comment:
        "Outside the modules, only the composition (app.ts, app-modules.ts, app-schema.ts, the REST table) imports a module's registry or api/.",
      from: { pathNot: `^src/domain/|${COMPOSITION}` },
      to: { path: MODULE_SURFACE },
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
