import type { Sql } from '../db/client';
import type { TableServiceClient } from '@azure/data-tables';
import type { HealthCheck } from './health';

export function databaseCheck(sql: () => Sql): HealthCheck {
  return {
    name: 'database',
    async check() {
      await sql()`select 1`;
      return { status: 'up' };
    },
  };
}

export function storageCheck(service: () => TableServiceClient): HealthCheck {
  return {
    name: 'storage',
    async check() {
      await service().getProperties();
      return { status: 'up' };
    },
  };
}
