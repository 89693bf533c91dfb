import { publicAccess } from '../shared/http/guards';
import { defineRoute, json } from '../shared/http/route';
import { httpGroup } from '../shared/host/definition';
import { checkServiceHealth, publicHealthView } from '../shared/health/service';

export const healthFunctions = [
  httpGroup('health', 'healthz', [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      summary: 'Overall health with one entry per component; 503 names the failing ones',
      guard: publicAccess,
      async handle({ log }) {
        const report = await checkServiceHealth();
        if (report.failing.length) log.warn('health_degraded', { failing: report.failing, components: report.components });
        return json(publicHealthView(report), report.status === 'ok' ? 200 : 503, { 'cache-control': 'no-store' });
      },
    }),
  ]),
];
