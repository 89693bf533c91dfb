import { costRoutes } from '../../functions/costs';
import { buildOpenApi } from '../../shared/http/openapi';
import { inlineSchemaRefs, type OpenApiDocument } from '../support/openApiDocument';

interface Operation {
  security?: unknown[];
  parameters: { name: string; in: string }[];
  responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
}

describe('cost endpoints in the OpenAPI document', () => {
  const document = buildOpenApi([{ name: 'costs', description: 'Cost dashboard', routes: costRoutes() }], { title: 'test', version: '1' });
  const paths = (inlineSchemaRefs(document as unknown as OpenApiDocument) as unknown as { paths: Record<string, { get: Operation }> })
    .paths;
  const operation = (name: string) => paths[`/api/admin/v1/costs/${name}`]!.get;

  it('documents every answer with its freshness fields, the provider problems and the bearer guard', () => {
    for (const name of ['summary', 'breakdown', 'timeseries']) {
      const get = operation(name);
      expect(Object.keys(get.responses['200']!.content!['application/json']!.schema.properties ?? {})).toEqual(
        expect.arrayContaining(['currency', 'asOf', 'cached', 'stale']),
      );
      expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '502', '503']));
      expect(Object.keys(get.responses).includes('400')).toBe(name === 'timeseries');
      expect(get.security).toEqual([{ bearerAuth: [] }]);
    }
    expect(Object.keys(operation('summary').responses['200']!.content!['application/json']!.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['monthToDate', 'forecast', 'lastMonth', 'deltaToLastMonth', 'resourceGroups']),
    );
  });

  it('documents the CSV as text/csv with the days parameter', () => {
    const get = operation('export.csv');
    expect(Object.keys(get.responses['200']!.content!)).toEqual(['text/csv']);
    expect(get.parameters).toEqual([expect.objectContaining({ name: 'days', in: 'query' })]);
  });
});
