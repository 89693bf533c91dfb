import { createLogger } from '../../shared/log/logger';

describe('structured logs', () => {
  it('writes one JSON line per event with the bound fields, filtered by level', () => {
    const lines: string[] = [];
    const log = createLogger({ sink: (_level, line) => lines.push(line), minLevel: 'info' }).with({ requestId: 'r-1' });
    log.debug('ignored');
    log.info('http_request', { status: 200 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', event: 'http_request', requestId: 'r-1', status: 200 });
  });

  it('keeps an error to its name, message and code: no stack', () => {
    const lines: string[] = [];
    const error = Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' });
    createLogger({ sink: (_level, line) => lines.push(line) }).error('failed', { error });
    const parsed = JSON.parse(lines[0] ?? '') as { error: unknown };
    expect(parsed.error).toEqual({ name: 'Error', message: 'connect refused', code: 'ECONNREFUSED' });
    expect(lines[0]).not.toMatch(/at .*\.ts:\d+/);
  });
});
