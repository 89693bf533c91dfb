import { createHttpHeaders, type HttpClient, type PipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';
import type { TelemetryEnvelope } from './server';

/**
 * The Azure Monitor exporters' HTTP client pointed at memory: every request (the ingestion
 * endpoint's `POST /v2.1/track`, the live metrics pings) is answered 200 in the process, no socket
 * opened. The exporters still build, serialise and hand over every envelope as they do against the
 * service, so the cost of the telemetry pipeline stays measured; only the network is left out.
 * Handed to the distro as `exporterHttpClient` (shared/telemetry/sdk.ts) by the overhead bench.
 */
export interface MemoryIngestion extends HttpClient {
  /** Requests received and their bodies' total length (characters). */
  readonly sent: { requests: number; characters: number };
  /** The envelopes of the last `keep` requests, parsed on demand (not on the measured path). */
  envelopes(): TelemetryEnvelope[];
}

export function createMemoryIngestion(options: { keep?: number } = {}): MemoryIngestion {
  const keep = options.keep ?? 4;
  const bodies: string[] = [];
  const sent = { requests: 0, characters: 0 };
  return {
    sent,
    envelopes: () => bodies.flatMap((body) => JSON.parse(body) as TelemetryEnvelope[]),
    sendRequest(request: PipelineRequest): Promise<PipelineResponse> {
      sent.requests += 1;
      const body = typeof request.body === 'string' ? request.body : undefined;
      if (body !== undefined && request.url.includes('/track')) {
        sent.characters += body.length;
        bodies.push(body);
        if (bodies.length > keep) bodies.shift();
      }
      // As the service answers when it accepted everything; the exporter reads no more of a 200.
      return Promise.resolve({
        request,
        status: 200,
        headers: createHttpHeaders({ 'content-type': 'application/json' }),
        bodyAsText: '{}',
      });
    },
  };
}
