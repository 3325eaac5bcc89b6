// `npm run worker`: one Temporal worker alone, against DATABASE_URL and TEMPORAL_ADDRESS.
import { start } from './app/start';

void start({ api: false, worker: true, embedded: false });
