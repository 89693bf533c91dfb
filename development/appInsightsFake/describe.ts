import type { TelemetryEnvelope } from './server';

/**
 * One line per envelope as an operator would read it in Application Insights: requests
 * (operations), dependencies (queries, SDK calls), traces (log records), exceptions; metrics are
 * left out (one per minute and instrument). Undefined for what is not printed.
 */
export function describeEnvelope(envelope: TelemetryEnvelope): string | undefined {
  const data = envelope.data?.baseData ?? {};
  const text = (key: string) => (typeof data[key] === 'string' ? data[key] : '');
  const operation = envelope.tags?.['ai.operation.id']?.slice(0, 8) ?? '--------';
  switch (envelope.data?.baseType) {
    case 'RequestData':
      return `${operation} request    ${text('name')} ${text('responseCode')} ${text('duration')}`;
    case 'RemoteDependencyData':
      return `${operation} dependency ${text('type')} ${text('name')} ${text('duration')}${data['success'] === false ? ' failed' : ''}`;
    case 'MessageData':
      return `${operation} log        ${text('severityLevel')} ${text('message')}`;
    case 'ExceptionData':
      return `${operation} exception`;
    default:
      return undefined;
  }
}
