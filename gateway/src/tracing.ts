import { startTracing } from '../../common/platform/tracing';

// Imported first by main.ts: the instrumentations patch http, undici, MongoDB and Redis as they load.
startTracing('gateway');
