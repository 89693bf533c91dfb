import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/*
 * Import boundaries (docs/architecture.md): functions/ -> shared/<area> -> shared/<infrastructure>.
 * Every import in production code is relative and every shared folder is flat, so a file in
 * shared/<x>/ names another shared folder as `../<folder>/...`.
 */

/** Shared folders that serve every area. Areas may import them; they import no area. */
const INFRASTRUCTURE = [
  'auth',
  'config',
  'db',
  'errors',
  'health',
  'i18n',
  'log',
  'paging',
  'process',
  'storage',
  'telemetry',
  'time',
  'validation',
];

/** Each area and the other areas it is designed to use (beyond INFRASTRUCTURE). shared/http is for nobody here. */
const AREAS = {
  boxConnector: [],
  challenges: ['notifications', 'clubs', 'clubMaster', 'people'], // payouts are notifications; memberships and clubs decide who sees which board; boards name people
  clubMaster: ['boxConnector'], // the box's pushes carry its consent report
  clubs: ['people', 'notifications'], // member lists name people; membership changes are notifications
  costs: [],
  diagnostics: ['freshness', 'ingest', 'notifications', 'portal'], // the admin summary's answer joins their blocks
  freshness: ['notifications', 'boxConnector'], // freshness notices are notifications; starter-list pushes carry the consent report
  ingest: ['notifications'], // the quarantine notice goes to platform admins' inboxes
  notifications: [],
  people: ['notifications'], // the profile's language is the contact's one stored language
  portal: ['boxConnector', 'clubMaster', 'clubs', 'freshness', 'ingest'], // the operator's read model: the club page joins every area's view of one club
};

/** Folders outside shared/ that are development tooling: no production code may import them. */
const DEVELOPMENT = ['scripts', 'development'];

const either = (names) => `(?:${names.join('|')})(?:/|$)`;
const DEVELOPMENT_IMPORT = {
  regex: `^(?:\\.\\./)+${either(DEVELOPMENT)}`,
  message: 'Production code must not import development tooling (scripts/, development/): it is not deployed.',
};

/** The import rules of one set of files: development tooling plus the given patterns. */
const importRules = (files, patterns) => ({
  files,
  ignores: ['**/*.test.ts'],
  rules: { 'no-restricted-imports': ['error', { patterns: [DEVELOPMENT_IMPORT, ...patterns] }] },
});

const boundaries = [
  importRules(
    ['functions/**/*.ts'],
    [
      {
        regex: `^(?:\\.\\./)+(?!\\.\\./)(?!shared/|functions/)`,
        message: 'functions/ registers what shared/ implements; import only from shared/.',
      },
    ],
  ),
  // An area's top folder and its subfolders (shared/notifications/outbox/, .../channels/email/):
  // the same boundary, one more `../` deep per level; a subfolder reaches the rest of its own area through `../`.
  ...Object.entries(AREAS).flatMap(([area, uses]) =>
    [
      [`shared/${area}/*.ts`, '^\\.\\./'],
      [`shared/${area}/*/*.ts`, '^\\.\\./\\.\\./'],
      [`shared/${area}/*/*/**/*.ts`, '^\\.\\./\\.\\./\\.\\./'],
    ].map(([files, up]) =>
      importRules(
        [files],
        [
          {
            regex: `${up}(?!${either([...INFRASTRUCTURE, area, ...uses])})`,
            message: `shared/${area} may import infrastructure (${INFRASTRUCTURE.join(', ')})${uses.length ? ` and ${uses.join(', ')}` : ''}; area errors are domain errors (shared/errors), never HTTP. List a designed exception in eslint.config.mjs AREAS.`,
          },
        ],
      ),
    ),
  ),
  ...INFRASTRUCTURE.map((folder) =>
    importRules(
      [`shared/${folder}/**/*.ts`],
      [
        {
          regex: `^\\.\\./(?!${either(INFRASTRUCTURE)})`,
          message: `shared/${folder} is infrastructure: it imports no area and no HTTP code.`,
        },
      ],
    ),
  ),
  importRules(
    ['shared/http/**/*.ts'],
    [
      {
        regex: `^\\.\\./(?!${either(['auth', 'config', 'db', 'errors', 'log', 'telemetry', 'validation'])})`,
        message:
          'shared/http imports no area: build guards that need an area lookup in functions/guards from clubRoleGuard / bearerCredentialGuard.',
      },
    ],
  ),
  // Composition: functions/guards joins shared/http's guard factories with an area's lookup; host runs the endpoint groups.
  importRules(
    ['shared/host/**/*.ts'],
    [{ regex: `^\\.\\./(?!${either([...INFRASTRUCTURE, 'http'])})`, message: 'shared/host imports infrastructure and shared/http only.' }],
  ),
  importRules(
    ['edge/**/*.ts'],
    [
      {
        regex: `^\\.\\./(?!shared/${either(['boxConnector', 'clubMaster', 'config', 'freshness', 'log', 'process', 'telemetry', 'time', 'validation'])})`,
        message: 'The box agent bundle (edge/) imports only the shared modules it runs: no functions/, no database, no HTTP layer.',
      },
    ],
  ),
  // Front-end code both front ends share (web/signin): it runs in the browser, so nothing of the server or its tooling.
  importRules(
    ['web/**/*.ts'],
    [{ regex: `^\\.\\./\\.\\./`, message: 'web/ is browser code shared by the front ends: it imports only web/ and npm packages.' }],
  ),
  importRules(
    ['ops/**/*.ts'],
    [
      {
        regex: `^\\.\\./(?!shared/|ops/)`,
        message: 'Production commands (ops/) import shared/ and ops/ only: no functions/, no development tooling.',
      },
    ],
  ),
  {
    // The portal runs in the browser: it takes the API's types from shared/, never its code.
    files: ['portal/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?:\\.\\./)+(?:shared|functions|development|ops|workers|edge)(?:/|$)',
              allowTypeImports: true,
              message: 'The portal bundle holds no server code: import API types with `import type` only.',
            },
          ],
        },
      ],
    },
  },
  // The member app is a browser bundle: of shared/ it takes the API's types only (erased by the
  // build), and nothing of the server, the tooling or the other front end.
  importRules(
    ['app/**/*.ts', 'app/**/*.tsx'],
    [
      {
        regex: `^(?:\\.\\./)+shared/`,
        allowTypeImports: true,
        message: 'The member app (app/) imports only types from shared/ (`import type`): server code must not reach the browser bundle.',
      },
      {
        regex: `^(?:\\.\\./)+${either(['functions', 'ops', 'edge', 'workers', 'portal'])}`,
        message: 'The member app (app/) imports app/, web/ and types from shared/ only.',
      },
    ],
  ),
  importRules(
    ['workers/**/*.ts'],
    [
      {
        regex: `^(?:\\.\\./)+(?!\\.\\./)(?!shared/${either(['config', 'db', 'ingest', 'log', 'process', 'storage', 'telemetry'])}|workers/)`,
        message: 'The ingest worker bundle (workers/) imports only the shared modules it runs: no functions/, no HTTP layer.',
      },
    ],
  ),
];

/**
 * No import circle in the house: a module must not import itself back through others. Imports of
 * types only are erased by the build and are not followed; npm packages are not walked.
 */
export const noImportCircle = {
  files: ['**/*.ts', '**/*.tsx'],
  plugins: { 'import-x': importX },
  settings: {
    'import-x/extensions': ['.ts', '.tsx'],
    'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    'import-x/ignore': ['node_modules'],
  },
  rules: { 'import-x/no-cycle': 'error' },
};

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', '.data/', 'coverage/', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    // The five programs named outright: the project service, which finds each file's tsconfig as
    // an editor would, cost a sixth more CPU on the whole tree (docs/testing.md, "The CI loop").
    // A .ts file outside all five fails with a parser error naming it.
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './portal/tsconfig.json', './app/tsconfig.json', './app/sw/tsconfig.json', './edge/ui/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Production code: a non-null assertion hides a missing check. Tests may assert what they just set up.
    files: ['functions/**/*.ts', 'shared/**/*.ts', 'edge/**/*.ts', 'workers/**/*.ts', 'ops/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'warn' },
  },
  ...boundaries,
  noImportCircle,
  prettier,
);
