/**
 * Numbered migrations rewritten after they were applied, with the checksums their earlier texts
 * were recorded with. The runner accepts a listed former checksum for its version as it accepts
 * the file's own: the rewrite moved function, trigger and view definitions into live files
 * (live/*.sql) and changed nothing a database that ran the earlier text lacks, because the live
 * files are applied after the numbered migrations on every database alike.
 *
 * Only such a move may add an entry; any other change to an applied migration is a new migration.
 * tests/db/formerMigrations.test.ts rebuilds each earlier text (tests/db/fixtures/former/) and
 * checks it against this list, and that a database migrated with the earlier texts migrates
 * cleanly to the same schema as a new one.
 */
export const FORMER_CHECKSUMS: Readonly<Record<string, readonly string[]>> = {
  // Before the live files (shared/db/migrations/README.md).
  '003': ['8bcf40159e1c7cd91eb3174f8033fccf11631893994709656466a8b071646708'],
  '005': ['5ab0c4ccb546d0d7d3d41d24dc5d2c92721a42cc4074116b714a860421806286'],
  '007': ['3279ffe8972fc381336ddcee15b0dd24e99d83471e4d7f3d84b60ebc21e6b3e0'],
  '013': ['390586ce11971d6d6d856e9781ef53d833bd9131107c1a25314ab7e5e86587c2'],
  '014': ['c50c89203316bffa82eb164db947778e45c73a5f4c1fbe4a11c20081babb7574'],
  '018': ['eeee5882b5920f4183f57ac54681068eba689242091540ebcc6e72562181b76b'],
  '021': ['6791deda21a81026f5255b4e1d94060dd9e0c451002dafd09f9f3f8315f2f1e2'],
  '024': ['080a8a20c0403ef409e8cc5f1e0edd321b958b9a6904466c8c2b69afe057acb8'],
  '025': ['5788172ccaae89f221ad88058210c74b472c60be03873cb5dcf33968ed6ccd97'],
  '026': ['7bf3bc187a9c7ec10d7b8c19cad515cf4f5538c35f13c814143c9c1f08e129a6'],
};
