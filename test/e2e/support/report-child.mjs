// The service as its own process, for the kill -9 test (test/e2e/reports-restart.test.ts): the compiled service
// (dist/) with the reports product over a database and a reports directory given on the command line. Until the report
// content lands, content is gathered by a double that asks the real HistoricalService for the location's statistics and
// then takes `delayMs` more (so jobs are still in hand when the test kills the process); rendering threads run the
// rendering double. Prints one JSON line {"listening": url} once it serves; the service's log lines follow on stdout.
import { join } from 'node:path';
import { loadConfig } from '../../../dist/src/config.js';
import { createServer } from '../../../dist/src/server.js';
import { PROJECT_ROOT } from '../../../dist/src/util/paths.js';

const [dataDir, dir, delayMs = '0'] = process.argv.slice(2);
const config = loadConfig({}, {
  logLevel: 'info', dataDir, dbFile: join(dir, 'svc.sqlite'), reportsDir: join(dir, 'reports'),
  computeThreads: 1, reportConcurrency: 2, port: 0,
});
const content = (parts) => ({
  async gather(request, key) {
    const result = await parts.historical.stats({ lat: request.lat, lon: request.lon, radius: request.radiusM }, key);
    await new Promise((resolve) => setTimeout(resolve, Number(delayMs)));
    return { version: 1, request, generatedUtc: new Date().toISOString(), statistics: JSON.parse(result.body) };
  },
});
const server = await createServer(config, {
  reports: { content, renderWorker: join(PROJECT_ROOT, 'test', 'jobs', 'support', 'fake-render-worker.mjs') },
});
const url = await server.app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ listening: url })}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
