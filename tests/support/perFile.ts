import { closeSql } from '../../shared/db/client';

// Each test file's worker opens the shared pool lazily; close it so jest can exit.
afterAll(async () => {
  await closeSql();
});
