import { parseArgs } from 'node:util';
import { getSettings } from '../../shared/config/settings';
import { effectiveConnectionString } from '../local/eventHubs/developmentHub';
import { loadLocalSettings } from '../local/localSettings';
import { quickSample, trainingEvening } from './debeziumEvents';
import { sendChangeEvents } from './sendChangeEvents';

const USAGE = `Usage: npm run ingest:simulate -- --club <vereinsId> [--evening] [--shooters 12] [--seed 1] [--start <ISO time>] [--kafka-headers] [--tombstones]

Sends Debezium-shaped change events of one club to INGEST_EVENTHUB_NAME over INGEST_EVENTHUB_CONNECTION
(by default the local hub npm start runs): a short sample, or with --evening a training evening
(shooters, then hits over two hours, one correction and one deletion).`;

/** `npm run ingest:simulate`: club traffic through the real EventHubProducerClient. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      club: { type: 'string' },
      evening: { type: 'boolean', default: false },
      shooters: { type: 'string', default: '12' },
      seed: { type: 'string', default: '1' },
      start: { type: 'string' },
      'kafka-headers': { type: 'boolean', default: false },
      tombstones: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.club || !/^[A-Za-z0-9_-]{1,64}$/.test(values.club)) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  loadLocalSettings();
  const settings = getSettings();
  // The hub npm start runs in this checkout, wherever its port ended up.
  const connection = effectiveConnectionString(settings.INGEST_EVENTHUB_CONNECTION);
  if (!connection) throw new Error('INGEST_EVENTHUB_CONNECTION is not set');
  const startsAt = values.start ? new Date(values.start) : eveningStart(new Date());
  if (Number.isNaN(startsAt.getTime())) throw new Error(`--start ${values.start} is not a time`);
  const options = { clubId: values.club, startsAt, seed: Number(values.seed), tombstones: values.tombstones };
  const events = values.evening ? trainingEvening({ ...options, shooters: Number(values.shooters) }) : quickSample(options);

  // The SDK loads once the arguments and settings are known good: a refused call starts quickly.
  const { EventHubProducerClient } = await import('@azure/event-hubs');
  const producer = new EventHubProducerClient(connection, settings.INGEST_EVENTHUB_NAME);
  try {
    const sent = await sendChangeEvents(producer, events, { headersAsBytes: values['kafka-headers'] });
    for (const [topic, count] of sent) console.log(`${topic}: ${count} event(s)`);
    console.log(`Sent ${events.length} event(s) to ${settings.INGEST_EVENTHUB_NAME} (evening from ${startsAt.toISOString()})`);
  } finally {
    await producer.close();
  }
}

/** 18:30 UTC today: a club evening. */
function eveningStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 18, 30));
}

main().catch((error: unknown) => {
  console.error(`Simulation failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
