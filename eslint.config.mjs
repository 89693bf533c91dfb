import prettier from 'eslint-config-prettier';
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
  challenges: ['notifications', 'clubs', 'clubMaster'], // payouts are notifications; memberships and clubs decide who sees which board
  clubMaster: ['boxConnector'], // the box's pushes carry its consent report
  clubs: [],
  costs: [],
  freshness: ['notifications', 'boxConnector'], // freshness notices are notifications; starter-list pushes carry the consent report
  ingest: ['notifications'], // the quarantine notice goes to platform admins' inboxes
  notifications: [],
  portal: [],
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
  // An area's top folder and its subfolders (shared/notifications/delivery/): the same boundary,
  // one more `../` deep; a subfolder reaches the rest of its own area through `../`.
  ...Object.entries(AREAS).flatMap(([area, uses]) =>
    [
      [`shared/${area}/*.ts`, '^\\.\\./'],
      [`shared/${area}/*/**/*.ts`, '^\\.\\./\\.\\./'],
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
        regex: `^\\.\\./(?!shared/${either(['boxConnector', 'clubMaster', 'config', 'freshness', 'log', 'process', 'time', 'validation'])})`,
        message: 'The box agent bundle (edge/) imports only the shared modules it runs: no functions/, no database, no HTTP layer.',
      },
    ],
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

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.data/', 'coverage/', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
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
  prettier,
);
